#!/usr/bin/env bash
# Frames captured from real meters (tests/data/atorch, tests/data/tc66c, tests/data/um; sources in their READMEs) replayed on a pty to the drivers.
. "$(dirname "$0")/../lib/lib.sh"
T=$T_TMP
DATA="$REPO/tests/data"
REPLAY_PID=

replay_stop() {
	[ -n "$REPLAY_PID" ] && kill "$REPLAY_PID" 2>/dev/null && wait "$REPLAY_PID" 2>/dev/null
	REPLAY_PID=
}
trap 'replay_stop; t_cleanup' EXIT

# replay LINK ARGS...: tests/lib/replay_pty.py in the background, once LINK is there.
replay() {
	local link=$1 i
	python3 "$REPO/tests/lib/replay_pty.py" "$@" >"$link.replay" 2>&1 &
	REPLAY_PID=$!
	for i in $(seq 1 100); do
		grep -q READY "$link.replay" 2>/dev/null && [ -L "$link" ] && return 0
		sleep 0.05
	done
	return 1
}

# expect_rows CSV FILE SCALE: probe's rows are the captured reports' V and A (V x SCALE),
# at least 3 of them, and each report read is one of the file's.
expect_rows() {
	python3 - "$1" "$2" "$3" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
scale = float(sys.argv[3])
want = set()
for line in open(sys.argv[2]):
    m = re.search(r" v=(\S+) a=(\S+)", line)
    if m:
        want.add((round(float(m.group(1)) * scale, 4), round(float(m.group(2)), 4)))
got = [(round(float(r["v"]), 4), round(float(r["a"]), 4)) for r in rows]
print("# %d rows, e.g. %s; the captures hold %d distinct V, A pairs" % (len(got), got[:3], len(want)))
sys.exit(0 if len(got) >= 3 and all(g in want for g in got) else 1)
PY
}

# atorch_case NAME SPEC_TAIL SCALE: the file's reports pushed 4 a second; probe reads them.
atorch_case() {
	local name=$1 tail=$2 scale=$3
	replay "$T/$name" push 0.25 "$DATA/atorch/$name.hex"
	timeout 60 "$IOWATT" probe --meter "atorch:$T/$name$tail" --seconds 3 --csv "$T/$name.csv" \
		>"$T/$name.out" 2>&1
	ok $? "probe atorch:$name$tail over the pty exits 0"
	expect_rows "$T/$name.csv" "$DATA/atorch/$name.hex" "$scale"
	ok $? "$name: the driver reads the captured reports' V and A"
	replay_stop
}

atorch_case dl24 "" 1
atorch_case ud18 "" 1
atorch_case j7c ",check=off" 1
grep -q "[1-9][0-9]* reports taken without a checksum (check=off)" "$T/j7c.out"
ok $? "j7c: the reports taken unchecked are counted and said"
atorch_case dl24-issue73 ",check=off" 1
atorch_case dt3010 ",v_scale=0.1" 0.1

# The J7-C's known quirk: a strict driver rejects every real report, and says what to do.
replay "$T/j7strict" push 0.25 "$DATA/atorch/j7c.hex"
timeout 60 "$IOWATT" probe --meter "atorch:$T/j7strict" --seconds 1 >"$T/j7strict.out" 2>&1
rc=$?
replay_stop
[ $rc -ne 0 ] && grep -q "a J7-C needs check=off" "$T/j7strict.out"
ok $? "j7c with the checksum on: refused, naming check=off (0 of 12 real reports pass)"
[ $rc -ne 0 ] || sed 's/^/#   /' "$T/j7strict.out" | tail -3

# TC66C firmware 1.18: each "getva" answered with the published ciphertext.
if "$IOWATT" meters --help 2>&1 | grep -q "^  tc66c: "; then
	replay "$T/tc66c" answer getva "$DATA/tc66c/cipher.hex" whole
	timeout 60 "$IOWATT" probe --meter "tc66c:$T/tc66c" --seconds 2 --csv "$T/tc66c.csv" \
		>"$T/tc66c.out" 2>&1
	ok $? "probe tc66c over the pty exits 0"
	replay_stop
	python3 - "$T/tc66c.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = {(round(float(r["v"]), 4), round(float(r["a"]), 5), round(float(r["w"]), 4)) for r in rows}
print("# %d rows: %s" % (len(rows), sorted(got)))
sys.exit(0 if rows and got == {(5.1609, 0.0199, 0.1026)} else 1)
PY
	ok $? "tc66c: 5.1609 V, 19.90 mA and the meter's own 0.1026 W, as its display showed"
else
	skip "built without nettle: no TC66C driver"
fi

# UM34C: each 0xF0 poll answered with the next of the five published replies.
replay "$T/um34c" answer hex:f0 "$DATA/um/um34c.hex"
timeout 60 "$IOWATT" probe --meter "um34c:$T/um34c,interval=200ms" --seconds 2 \
	--csv "$T/um34c.csv" >"$T/um34c.out" 2>&1
ok $? "probe um34c over the pty exits 0"
replay_stop
expect_rows "$T/um34c.csv" "$DATA/um/um34c.hex" 1
ok $? "um34c: the driver reads the captured replies' V and A (5.10 and 5.08 V, 0 A)"
grep -q " 0 bad frames" "$T/um34c.out"
ok $? "um34c: every real reply passes the driver's checksum (0 bad frames)"
grep "^probe: " "$T/um34c.out" | sed 's/^/# /'

done_testing
