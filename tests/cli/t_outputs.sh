#!/usr/bin/env bash
# Every file iowatt writes is a new file it created: charts, the chart list, compare -o,
# emulate --truth, run and probe CSVs never write through a symlink, into a FIFO or over a
# hard link's other name; a stranger's chart list deletes nothing; bad -o names and an
# unreadable --same-size-as are refused before anything is written (as root and as users).
. "$(dirname "$0")/../lib/lib.sh"

T=$T_TMP
chmod 0755 "$T"
# Copies every user can read: the binary's directory may be closed to others.
cp "$IOWATT" "$T/iowatt"
cp -r "$REPO/plots" "$T/plots"
mkdir "$T/g"
cp "$REPO"/tests/data/golden/nvme-netac.* "$REPO"/tests/data/golden/sd-sandisk-ultra.* "$T/g/"
chmod -R a+rX "$T/iowatt" "$T/plots" "$T/g"
B=$T/iowatt
R=$T/g/nvme-netac.json
R2=$T/g/sd-sandisk-ultra.json
export IOWATT_PLOTS=$T/plots
cd "$T" || exit 1

EMU_PID=
trap '[ -n "$EMU_PID" ] && kill "$EMU_PID" 2>/dev/null; t_cleanup' EXIT

victim() { echo VICTIM >"$1"; }
intact() { [ "$(cat "$1" 2>/dev/null)" = VICTIM ]; }
# said LOG REGEX: the command's output says REGEX, and no sanitizer report.
said() { grep -qE -e "$2" "$T/$1" && ! grep -q AddressSanitizer "$T/$1"; }
show() { sed 's/^/#   /' "$T/$1" | head -n 5; }

can_user=0
if t_is_root && command -v setpriv >/dev/null; then can_user=1; fi
as() { # as USER CMD...: the command as that user (no groups)
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups "$@"
}

have_charts=1
if ! command -v gnuplot >/dev/null || t_emulated; then have_charts=0; fi

# --- 1. charts: gnuplot draws in iowatt's private directory; the chart is put in place
if [ $have_charts = 1 ]; then
	for f in png:png svg:svg dumb:txt; do
		fmt=${f%%:*} ext=${f##*:}
		mkdir "d_$fmt"
		victim "v_$fmt"
		ln -s "$T/v_$fmt" "d_$fmt/efficiency.$ext"
		timeout 60 "$B" plot --format "$fmt" --chart efficiency "$R" -o "d_$fmt" >"o_$fmt" 2>&1
		rc=$?
		[ $rc = 1 ] && intact "v_$fmt" && [ -L "d_$fmt/efficiency.$ext" ] &&
			said "o_$fmt" "d_$fmt/efficiency.$ext: a symbolic link: iowatt does not write through one"
		ok $? "plot --format $fmt: a symlink at efficiency.$ext is refused, its target untouched (rc $rc)" ||
			show "o_$fmt"
	done
	mkdir d_dang
	ln -s "$T/created-by-plot" d_dang/efficiency.png
	timeout 60 "$B" plot --chart efficiency "$R" -o d_dang >o_dang 2>&1
	[ $? = 1 ] && [ ! -e "$T/created-by-plot" ]
	ok $? "a dangling symlink's target is not created"
	mkdir d_hard
	victim v_hard
	ln v_hard d_hard/efficiency.png
	timeout 60 "$B" plot --chart efficiency "$R" -o d_hard >o_hard 2>&1
	rc=$?
	[ $rc = 0 ] && intact v_hard && [ "$(head -c 4 d_hard/efficiency.png | od -An -c | tr -d ' ')" = "211PNG" ]
	ok $? "a hard-linked chart name gets a new PNG; the other name keeps its contents (rc $rc)"
	mkdir d_fifo
	mkfifo d_fifo/battery.png
	timeout 20 "$B" plot --chart battery "$R" -o d_fifo >o_fifo 2>&1
	rc=$?
	[ $rc = 1 ] && [ -p d_fifo/battery.png ] && said o_fifo "battery.png: not a regular file"
	ok $? "a FIFO at battery.png is refused at once, not waited on (rc $rc, 124 = hung)" || show o_fifo
	! ls -A d_hard d_fifo | grep -q '\.iowatt-[0-9a-f]\{8\}$'
	ok $? "no temporary file is left beside the charts"

	# A result whose name holds a line break: the chart's name is the one recorded, so
	# the next plot without that result removes it.
	mkdir nl d_nl
	cp "$T"/g/nvme-netac.*.csv nl/
	cp "$R" "nl/a
b.json"
	timeout 60 "$B" plot --chart timeline --format dumb "nl/a
b.json" -o d_nl >o_nl1 2>&1
	[ -s "d_nl/timeline-a b.txt" ]
	ok $? "a line break in a result's name becomes a space in its chart's name"
	timeout 60 "$B" plot --chart timeline --format dumb "$R" -o d_nl >o_nl2 2>&1
	[ ! -e "d_nl/timeline-a b.txt" ] && [ -s d_nl/timeline-nvme-netac.txt ]
	ok $? "and that chart, recorded under that name, is removed by the next plot" || ls -b d_nl | sed 's/^/#   /'

	# The same user's record does not remove a file put at a recorded name since.
	mkdir d_own
	timeout 60 "$B" plot --chart timeline --format dumb "$R2" -o d_own >/dev/null 2>&1
	rm d_own/timeline-sd-sandisk-ultra.txt
	echo MINE >d_own/timeline-sd-sandisk-ultra.txt
	timeout 60 "$B" plot --chart timeline --format dumb "$R" -o d_own >/dev/null 2>&1
	[ "$(cat d_own/timeline-sd-sandisk-ultra.txt)" = MINE ]
	ok $? "a file that replaced a recorded chart (another inode) is not removed"

	# -o names
	timeout 60 "$B" plot --format dumb --chart efficiency -o '' "$R" >o_e1 2>&1
	rc=$?
	[ $rc = 1 ] && said o_e1 "-o '': an empty directory name"
	ok $? "plot -o '': a clear error, no sanitizer report (rc $rc)" || show o_e1
	timeout 60 "$B" report -o '' "$R" >o_e2 2>&1
	rc=$?
	[ $rc = 1 ] && said o_e2 "-o '': an empty directory name"
	ok $? "report -o '': a clear error, no sanitizer report (rc $rc)" || show o_e2
	mkdir "nld x"
	timeout 60 "$B" plot --chart efficiency -o "nld
x" "$R" >o_nld 2>&1
	rc=$?
	[ $rc = 1 ] && [ -z "$(ls 'nld x')" ] && [ ! -e "nld
x" ] && said o_nld "the directory name holds a control character"
	ok $? "plot -o with a line break: refused, no chart in 'nld x' or anywhere (rc $rc)" || show o_nld
	timeout 60 "$B" report -o $'bad\xff' "$R" >o_bad 2>&1
	rc=$?
	[ $rc = 1 ] && [ ! -e $'bad\xff' ] && said o_bad 'bad\\xff: the directory name holds'
	ok $? "report -o with a byte that is not UTF-8: refused, named readably (rc $rc)" || show o_bad

	# report.html through a symlink
	mkdir d_rep
	victim v_rep
	ln -s "$T/v_rep" d_rep/report.html
	timeout 120 "$B" report -o d_rep "$R" >o_rep 2>&1
	rc=$?
	[ $rc = 1 ] && intact v_rep && said o_rep "report.html: a symbolic link"
	ok $? "report: a symlink at report.html is refused, its target untouched (rc $rc)" || show o_rep
else
	for i in $(seq 17); do skip "no chart can be drawn here (gnuplot missing or qemu-user)"; done
fi

# --- 2. the chart list: only files this user's iowatt wrote are ever removed
# manifest_case VICTIM STRANGER: in a 1777 directory STRANGER writes a chart list naming
# VICTIM's latency.csv (with its real device, inode, size and time), then VICTIM plots there.
manifest_case() {
	local victim_user=$1 stranger=$2 d=$T/sticky-$1
	mkdir "$d"
	chmod 1777 "$d"
	as "$victim_user" sh -c "echo DATA >'$d/latency.csv'"
	local id
	# device, inode, size, mtime in ns: all that the list records of a chart
	id=$(python3 -c 'import os, sys; s = os.stat(sys.argv[1]); print(s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns)' "$d/latency.csv")
	# Both formats: the entry iowatt writes now, and the bare name older versions wrote.
	as "$stranger" sh -c "printf 'iowatt-charts 2\n$id latency.csv\nlatency.csv\n' >'$d/.iowatt-charts'"
	as "$victim_user" timeout 60 "$B" plot --chart latency --format dumb "$R" -o "$d" >"$T/o_m_$1" 2>&1
	local rc=$?
	[ "$(cat "$d/latency.csv")" = DATA ]
	ok $? "a $stranger's chart list (naming the very file) does not make $victim_user's plot delete latency.csv (rc $rc)" ||
		show "o_m_$1"
}
if [ $have_charts = 1 ] && [ $can_user = 1 ]; then
	manifest_case root nobody
	manifest_case nobody daemon
	# The old format (a bare name a line) is not trusted either, even from this user.
	d=$T/oldfmt
	mkdir "$d"
	echo DATA >"$d/latency.csv"
	printf 'latency.csv\n' >"$d/.iowatt-charts"
	timeout 60 "$B" plot --chart latency --format dumb "$R" -o "$d" >/dev/null 2>&1
	[ "$(cat "$d/latency.csv")" = DATA ]
	ok $? "a bare name in a chart list (the old format) removes nothing"
	# A user cannot replace another user's chart in a sticky directory: refused, intact.
	d=$T/sticky-root-chart
	mkdir "$d"
	chmod 1777 "$d"
	echo ROOTS >"$d/efficiency.txt"
	as nobody timeout 60 "$B" plot --chart efficiency --format dumb "$R" -o "$d" >"$T/o_sr" 2>&1
	rc=$?
	[ $rc = 1 ] && [ "$(cat "$d/efficiency.txt")" = ROOTS ]
	ok $? "nobody's plot cannot replace root's chart in a sticky directory (rc $rc)" || show o_sr
else
	for i in $(seq 4); do skip "needs root, setpriv and gnuplot"; done
fi

# --- 3. compare -o, emulate --truth, run and probe CSVs
victim v_cmp
ln -s "$T/v_cmp" cmp_link
timeout 30 "$B" compare -o cmp_link "$R" "$R2" >o_cmp 2>&1
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] && intact v_cmp && said o_cmp "cmp_link: a symbolic link"
ok $? "compare -o SYMLINK is refused, its target untouched (rc $rc)" || show o_cmp
mkfifo cmp_fifo
timeout 20 "$B" compare -o cmp_fifo "$R" "$R2" >o_cmpf 2>&1
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] && said o_cmpf "cmp_fifo: not a regular file"
ok $? "compare -o FIFO is refused at once (rc $rc, 124 = hung)" || show o_cmpf
victim v_cmph
ln v_cmph cmp_hard
timeout 30 "$B" compare -o cmp_hard "$R" "$R2" >o_cmph 2>&1
rc=$?
[ $rc = 0 ] && intact v_cmph && grep -q Netac cmp_hard
ok $? "compare -o over a hard link writes a new file; the other name keeps its contents" || show o_cmph

victim v_tr
ln -s "$T/v_tr" tr_link
timeout 30 "$B" emulate um25c --link "$T/emu1" --constant-ma 1 --duration 1 --truth tr_link >o_tr 2>&1
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] && intact v_tr && said o_tr "tr_link: a symbolic link"
ok $? "emulate --truth SYMLINK is refused, its target untouched (rc $rc)" || show o_tr
mkfifo tr_fifo
timeout 20 "$B" emulate um25c --link "$T/emu2" --constant-ma 1 --duration 1 --truth tr_fifo >o_trf 2>&1
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] && said o_trf "tr_fifo: not a regular file"
ok $? "emulate --truth FIFO is refused at once (rc $rc)" || show o_trf

mkdir tgt
victim v_run
ln v_run x.intervals.csv
echo '{}' >x.json
timeout 120 "$B" run --target "$T/tgt" --json-out x.json --force --no-meter --rw write --bs 4k \
	--size 1m >o_run 2>&1
rc=$?
[ $rc = 0 ] && intact v_run && head -n 1 x.intervals.csv | grep -q '^job,loop'
ok $? "run --json-out --force: a hard-linked intervals CSV gets a new file, the other name intact (rc $rc)" ||
	show o_run

victim v_pr
ln v_pr pr.csv
"$B" emulate um25c --link "$T/um" --constant-ma 100 --duration 20 >o_emu 2>&1 &
EMU_PID=$!
for i in $(seq 100); do [ -L "$T/um" ] && break; sleep 0.1; done
timeout 30 "$B" probe --meter "um25c:$T/um" --seconds 1 --csv pr.csv --force >o_pr 2>&1
rc=$?
kill "$EMU_PID" 2>/dev/null
wait "$EMU_PID" 2>/dev/null
EMU_PID=
[ $rc = 0 ] && intact v_pr && head -n 1 pr.csv | grep -q '^t_ns'
ok $? "probe --csv --force: a hard-linked CSV gets a new file, the other name intact (rc $rc)" || show o_pr

# --- 4. --same-size-as a file that is not a readable result: refused before any I/O
mkdir tgt2
timeout 120 "$B" run --target "$T/tgt2" --json-out ss.json --no-meter --rw write --bs 4k \
	--size auto:100ms --same-size-as /etc/shadow >o_ss 2>&1
rc=$?
[ $rc != 0 ] && [ ! -e ss.json ] && [ -z "$(ls -A tgt2)" ] &&
	said o_ss "option --same-size-as /etc/shadow: not a result iowatt can read"
ok $? "--same-size-as /etc/shadow (root: not a result) is refused, nothing written (rc $rc)" || show o_ss
if [ $can_user = 1 ]; then
	mkdir tgt3
	chown nobody tgt3
	as nobody timeout 120 "$B" run --target "$T/tgt3" --json-out "$T/tgt3/ss.json" --no-meter \
		--rw write --bs 4k --size auto:100ms --same-size-as /etc/shadow >o_ss2 2>&1
	rc=$?
	[ $rc != 0 ] && [ -z "$(ls -A tgt3)" ] && said o_ss2 "--same-size-as /etc/shadow: not a result"
	ok $? "--same-size-as /etc/shadow as nobody (unreadable) is refused, nothing written (rc $rc)" ||
		show o_ss2
else
	skip "needs root and setpriv to run as nobody"
fi

done_testing
