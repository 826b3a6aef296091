#!/usr/bin/env bash
# Strangers' results: hostile strings in every printed field run nothing, break no output
# (charts, compare, size, report), and plot's gnuplot is confined and cleaned up after.
. "$(dirname "$0")/../lib/lib.sh"
H=$REPO/tests/data/hostile.py
G=$REPO/tests/data/golden
R=$T_TMP/res

t_need_gnuplot

pwned() { # no file of that name anywhere a payload could have made one
	[ -z "$(find "$T_TMP" /tmp "$REPO" -xdev -name PWNED 2>/dev/null | head -n 1)" ]
}

python3 "$H" make "$G" "$R" >"$T_TMP/list" && mapfile -t F <"$T_TMP/list"
ok $? "hostile corpus: ${#F[@]} results (quotes, newlines, backquotes, system(), @, \$(), \\, unicode, 10 kB, formulas, markup)"
cd "$R" || exit 1

# Under qemu-user every chart check is skipped with the reason and the rest still runs.
if t_emulated; then t_skip_charts 7; else
	# --- charts: every kind, SVG (parses as XML) and dumb text (no control characters)
	"$IOWATT" plot --format svg -o "$T_TMP/svg" "${F[@]}" >"$T_TMP/svg.out" 2>"$T_TMP/svg.err"
	ok $? "plot (SVG) of the hostile corpus exits 0"
	check "every SVG chart parses as XML" -- python3 "$H" svg "$T_TMP/svg"
	[ "$(ls "$T_TMP/svg" | grep -c '^timeline-')" -ge $((${#F[@]} - 1)) ]
	ok $? "a timeline per result (one names its CSVs with an escape character: skipped)"
	"$IOWATT" plot --format dumb -o "$T_TMP/txt" "${F[@]}" >"$T_TMP/txt.out" 2>"$T_TMP/txt.err"
	ok $? "plot (dumb) of the hostile corpus exits 0"
	check "text charts are UTF-8 without control characters" -- python3 "$H" dumb "$T_TMP/txt"
	pwned
	ok $? "no chart ran a command (no PWNED file)"
	"$IOWATT" plot --keep-data --format dumb -o "$T_TMP/kept" "${F[@]}" >/dev/null 2>"$T_TMP/kept.err"
	kept=$(sed -n 's/.*gnuplot meta files kept in //p' "$T_TMP/kept.err")
	[ -d "$kept" ] && ! grep -l "''" "$kept"/*/meta.gp
	ok $? "no meta.gp holds '' (gnuplot's tokenizer and macro expander disagree on it)"
	[ -d "$kept" ] && rm -rf "$kept"
fi

# --- compare: table, markdown, CSV
"$IOWATT" compare "${F[@]}" >"$T_TMP/c.txt" 2>"$T_TMP/c.err"
ok $? "compare (table) exits 0"
check "table has no control characters" -- python3 "$H" text "$T_TMP/c.txt"
check "compare's messages have no control characters" -- python3 "$H" text "$T_TMP/c.err"
"$IOWATT" compare --format md "${F[@]}" >"$T_TMP/c.md" 2>/dev/null
ok $? "compare --format md exits 0"
check "markdown rows have the header's cell count ('|' escaped)" -- python3 "$H" md "$T_TMP/c.md"
"$IOWATT" compare --format csv "${F[@]}" >"$T_TMP/c.csv" 2>/dev/null
ok $? "compare --format csv exits 0"
check "CSV rows have the header's field count, no formula cells" -- python3 "$H" csv "$T_TMP/c.csv"
"$IOWATT" compare --matrix --format csv "${F[@]}" >"$T_TMP/m.csv" 2>/dev/null
check "compare --matrix CSV is well-formed" -- python3 "$H" csv "$T_TMP/m.csv"

# --- size: all but the result whose job options are hostile too (it models nothing)
"$IOWATT" size --battery 3000mAh@3.7V --write 200MB/day "${F[@]:0:18}" "${F[@]:19}" \
	>"$T_TMP/s.txt" 2>"$T_TMP/s.err"
ok $? "size over the corpus exits 0"
check "size output has no control characters" -- python3 "$H" text "$T_TMP/s.txt"
"$IOWATT" size --battery 3000mAh@3.7V --write 200MB/day "${F[18]}" >/dev/null 2>"$T_TMP/s18.err"
[ $? -eq 2 ] && grep -q "no finished job with power data" "$T_TMP/s18.err"
ok $? "size: a result whose options are garbage models nothing, said clearly"

# --- the HTML report
if "$IOWATT" report --help >/dev/null 2>&1; then
	"$IOWATT" report -o "$T_TMP/rep" "${F[@]}" >/dev/null 2>"$T_TMP/rep.err"
	t_report_written $? "$T_TMP/rep.err" "$T_TMP/rep"
	ok $? "report of the hostile corpus writes its page (exit 0; 1 under qemu-user: no charts)"
	check "the page holds no payload markup or control character" -- \
		python3 "$H" html "$T_TMP/rep/report.html"
else
	skip "no report command"
	skip "no report command"
fi
pwned
ok $? "no command ran anywhere (no PWNED file)"

# --- companion CSVs: only regular files beside the result
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/zero.json" "$T_TMP/up.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["files"] = {"intervals": "/dev/zero", "samples": "/dev/urandom"}
json.dump(r, open(sys.argv[2], "w"))
r["files"] = {"intervals": "../../etc/passwd", "samples": "fifo.csv"}
json.dump(r, open(sys.argv[3], "w"))
EOF
mkfifo "$T_TMP/fifo.csv"
if t_emulated; then t_skip_charts 8; else
	timeout 20 "$IOWATT" plot --format dumb --chart timeline -o "$T_TMP/z" "$T_TMP/zero.json" 2>"$T_TMP/z.err"
	ok $? "a result naming /dev/zero as its CSV does not hang the plot"
	grep -q "is not a file name beside the result" "$T_TMP/z.err"
	ok $? "... and says the name is not beside the result"
	timeout 20 "$IOWATT" plot --format dumb --chart timeline -o "$T_TMP/u" "$T_TMP/up.json" 2>"$T_TMP/u.err"
	ok $? "../ paths and a FIFO beside the result: plot finishes"
	grep -q "fifo.csv: is not a regular file" "$T_TMP/u.err"
	ok $? "... the FIFO is named as not a regular file"

	# --- gnuplot confined: a template that calls system(), a pipe and backquotes runs nothing
	if grep -q "define HAVE_SECCOMP" "$REPO/${O:-build}/config.h" 2>/dev/null; then
		cp -r "$REPO/plots" "$T_TMP/evil"
		{
			echo "system('touch $T_TMP/SYSTEM')"
			echo "load '< touch $T_TMP/PIPE'"
			cat "$REPO/plots/latency.gp"
		} >"$T_TMP/evil/latency.gp"
		"$IOWATT" plot --plots-dir "$T_TMP/evil" --chart latency --format dumb "$G/nvme-netac.json" \
			>/dev/null 2>&1
		[ ! -e "$T_TMP/SYSTEM" ] && [ ! -e "$T_TMP/PIPE" ]
		ok $? "gnuplot cannot start a process (seccomp): system() and '< cmd' ran nothing"
	else
		skip "built without libseccomp: gnuplot is not confined"
fi

# --- a killed plot leaves neither its temporary directory nor gnuplot behind
mkdir -p "$T_TMP/bin" "$T_TMP/tmpd"
printf '#!/bin/sh\necho $$ >"%s/gp.pid"\nexec sleep 60\n' "$T_TMP" >"$T_TMP/bin/gnuplot"
chmod +x "$T_TMP/bin/gnuplot"
TMPDIR=$T_TMP/tmpd PATH=$T_TMP/bin:$PATH "$IOWATT" plot --format dumb --chart latency \
	"$G/nvme-netac.json" >/dev/null 2>&1 &
plot_pid=$!
for _ in $(seq 100); do [ -s "$T_TMP/gp.pid" ] && break; sleep 0.1; done
[ -n "$(ls "$T_TMP/tmpd")" ]
ok $? "plot's private directory exists while gnuplot runs"
kill -KILL "$plot_pid"
{ wait "$plot_pid"; } 2>/dev/null
for _ in $(seq 100); do
	[ -z "$(ls "$T_TMP/tmpd")" ] && ! kill -0 "$(cat "$T_TMP/gp.pid")" 2>/dev/null && break
	sleep 0.1
done
[ -z "$(ls "$T_TMP/tmpd")" ]
ok $? "SIGKILL to plot: its private directory is removed"
! kill -0 "$(cat "$T_TMP/gp.pid")" 2>/dev/null
ok $? "SIGKILL to plot: gnuplot dies with it"
fi

# --- the class: text reaches .gp files only through the quoting function
! grep -nE "fprintf\([^;]*'%s'" "$REPO"/src/report/plot*.c
ok $? "no '%s' in a gnuplot format string (plot_gp_string is the only way in)"
! grep -nE '^[^#]*@[A-Za-z_]' "$REPO"/plots/*.gp
ok $? "no @ macro in a gnuplot template"
done_testing
