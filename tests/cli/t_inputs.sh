#!/usr/bin/env bash
# Inputs that are not what they claim: profiles, paths and numbers get one clear error and the documented exit code.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden/sd-sandisk-ultra.json

# fails CODE PATTERN DESCRIPTION -- COMMAND...: exits CODE and stderr matches PATTERN.
fails() {
	local code=$1 pat=$2 desc=$3 rc
	shift 4
	timeout 60 "$@" >"$T_TMP/f.out" 2>"$T_TMP/f.err"
	rc=$?
	[ "$rc" -eq "$code" ] && grep -qE -- "$pat" "$T_TMP/f.err"
	ok $? "$desc (exit $rc)"
	[ "$rc" -eq "$code" ] && grep -qE -- "$pat" "$T_TMP/f.err" || sed 's/^/#   /' "$T_TMP/f.err" | head -5
}

dry=(--target "$T_TMP/t" --no-meter --dry-run)

# Profiles: only a regular text file of at most 1 MiB.
mkdir "$T_TMP/dir.ini"
fails 2 'dir.ini: is a directory' "a directory as profile says so" -- "$IOWATT" run "$T_TMP/dir.ini" "${dry[@]}"
fails 2 '/dev/zero: is not a regular file' "/dev/zero as profile: refused at once, not read forever" -- "$IOWATT" run /dev/zero "${dry[@]}"
mkfifo "$T_TMP/fifo.ini"
fails 2 'fifo.ini: is not a regular file' "a FIFO as profile: refused without waiting for a writer" -- "$IOWATT" run "$T_TMP/fifo.ini" "${dry[@]}"
{ printf '[global]\nsize=1m\n'; head -c 1100000 /dev/zero | tr '\0' ';'; } >"$T_TMP/big.ini"
fails 2 'big.ini: is larger than 1024 KiB' "a profile over 1 MiB is refused" -- "$IOWATT" run "$T_TMP/big.ini" "${dry[@]}"
printf '[global]\nsize=1m\n[a]\nrw=read\0junk\n' >"$T_TMP/nul.ini"
fails 2 'nul.ini:4: NUL byte' "a NUL byte: an error naming its line" -- "$IOWATT" run "$T_TMP/nul.ini" "${dry[@]}"
printf '[global]\rsize=1m\r[a]\rrw=read\r' >"$T_TMP/cr.ini"
fails 2 'cr.ini:1: line ends with a lone CR' "CR-only line ends: an error, not one long line" -- "$IOWATT" run "$T_TMP/cr.ini" "${dry[@]}"
printf '[global]\r\nsize=1m\r\n[a]\r\nrw=read\r\n' >"$T_TMP/crlf.ini"
check "CRLF line ends still parse" -- "$IOWATT" run "$T_TMP/crlf.ini" "${dry[@]}"

# Numbers too large for their type say "out of range", not "bad size".
inline=(run --target "$T_TMP/t" --no-meter --rw read --bs 4k --dry-run)
fails 2 "option --size: '99999999999999999999999' out of range: too large" \
	"a size past 2^64 is out of range" -- "$IOWATT" "${inline[@]}" --size 99999999999999999999999
fails 2 "option --idle: '1e30s' out of range: too large" "a duration past 2^64 ns is out of range" -- \
	"$IOWATT" "${inline[@]}" --size 1m --idle 1e30s
fails 2 "probe: --seconds '1e99': out of range" "probe --seconds 1e99 is refused before any cast" -- \
	"$IOWATT" probe --meter um25c:/dev/null --seconds 1e99

# size: absurd batteries and rates.
fails 2 "--battery '1e308Ah@3.7V': out of range" "size: a 1e308 Ah battery is out of range" -- \
	"$IOWATT" size --battery 1e308Ah@3.7V "$G"
fails 2 "--battery '3Ah@500V': out of range" "size: a 500 V battery is out of range" -- \
	"$IOWATT" size --battery 3Ah@500V "$G"
fails 2 "--write '16TB/s': out of range" "size: 16 TB/s is out of range" -- \
	"$IOWATT" size --battery 3Ah@3.7V --write 16TB/s "$G"
fails 2 "--records '4KiB@1e12/s': out of range" "size: 10^12 records a second is out of range" -- \
	"$IOWATT" size --battery 3Ah@3.7V --records 4KiB@1e12/s "$G"
check "size: a real battery and rate still work" -- \
	"$IOWATT" size --battery 3000mAh@3.7V --write 50MB/day "$G"

# A meter path that is not a serial port says what it is (not "sp_get_port_by_name: Success").
: >"$T_TMP/regular"
mkfifo "$T_TMP/fifo"
ln -s "$T_TMP/gone" "$T_TMP/dangling"
fails 2 'regular: it is a regular file, not a serial port' "meter path: a regular file" -- \
	"$IOWATT" probe --meter "um25c:$T_TMP/regular" --seconds 1
fails 2 "$T_TMP: it is a directory, not a serial port" "meter path: a directory" -- \
	"$IOWATT" probe --meter "um25c:$T_TMP" --seconds 1
fails 2 'fifo: it is a FIFO, not a serial port' "meter path: a FIFO" -- \
	"$IOWATT" probe --meter "tc66c:$T_TMP/fifo" --seconds 1
fails 2 'dangling: a symbolic link to a file that does not exist' "meter path: a dangling link" -- \
	"$IOWATT" probe --meter "um25c:$T_TMP/dangling" --seconds 1
fails 2 'nothere: no such device' "meter path: nothing there" -- \
	"$IOWATT" probe --meter "um25c:$T_TMP/nothere" --seconds 1

# A dangling symlink as target names the link, and the refusal has its own exit code.
fails 3 'dangling: it is a symbolic link to .*gone \(which does not exist\)' \
	"target: a dangling symlink is named as such, exit 3 (refused)" -- \
	"$IOWATT" run --target "$T_TMP/dangling" --no-meter --rw write --bs 4k --size 64k --idle 0
[ ! -e "$T_TMP/gone" ]
ok $? "... and nothing was created through it"

# Ctrl-C while a meter that never answers is being opened: exit 130 without waiting out
# the 3 s reply timeout. Event order, not time: the stop is sent once the meter has been
# polled (the pty saw bytes), and the timeout's message must never appear.
silent_pty() { # LINK SEENFILE: a pty that reads and never answers
	python3 - "$1" "$2" <<'PY' &
import os, pty, sys, select
m, s = pty.openpty()
os.symlink(os.ttyname(s), sys.argv[1])
while True:
    r, _, _ = select.select([m], [], [], 60)
    if not r:
        break
    os.read(m, 64)
    open(sys.argv[2], "a").close()
PY
}
for cmd in probe run; do
	rm -f "$T_TMP/pty" "$T_TMP/seen"
	silent_pty "$T_TMP/pty" "$T_TMP/seen"
	pty_pid=$!
	for _ in $(seq 100); do [ -e "$T_TMP/pty" ] && break; sleep 0.1; done
	if [ $cmd = probe ]; then
		"$IOWATT" probe --meter "um25c:$T_TMP/pty" --seconds 30 2>"$T_TMP/c.err" &
	else
		"$IOWATT" run --target "$T_TMP/t" --meter "um25c:$T_TMP/pty" --rw read --bs 4k \
			--size 64k --idle 0 --no-progress >/dev/null 2>"$T_TMP/c.err" &
	fi
	pid=$!
	for _ in $(seq 300); do [ -e "$T_TMP/seen" ] && break; sleep 0.1; done
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 130 ] && ! grep -q 'no valid reply' "$T_TMP/c.err"
	ok $? "$cmd: Ctrl-C during the meter's open exits 130 at once (exit $rc, no timeout message)"
	kill $pty_pid 2>/dev/null
	wait $pty_pid 2>/dev/null
done
[ ! -e "$T_TMP/t" ]
ok $? "... and the run's test file is not left behind"

done_testing
