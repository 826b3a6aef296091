#!/usr/bin/env bash
# The timeline's power band: each reading's 95 % interval from the meter's declared accuracy
# (meters[].accuracy), recomputed here from the result by the method of docs/energy.md; it
# follows the reading (a current step widens it) and, for a meter with current ranges, the
# range each reading falls in.
. "$(dirname "$0")/../lib/lib.sh"
t_charts_or_skip_all

t_need_gnuplot
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
# 100 mA, then 400 mA from 2 s on: readings on both sides of a 0.2 A range boundary below.
"$IOWATT" emulate um25c --link "$T_TMP/um" --step "0:100,2:400" >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
mkdir -p "$T_TMP/t"
"$IOWATT" run --target "$T_TMP/t" --meter "um25c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --size 8m --rate-iops 20 --direct 0 --ioengine psync --idle 1s \
	--idle-samples 5 --tail-max 0 --no-progress --json-out "$T_TMP/r.json" >"$T_TMP/r.out" 2>&1
ok $? "a run metered by an emulated UM25C whose current steps from 100 to 400 mA"
kill "$emu_pid" 2>/dev/null
wait "$emu_pid" 2>/dev/null
emu_pid=""

# The same result with two current ranges declared: fine below 0.2 A, coarse above.
python3 - "$T_TMP/r.json" "$T_TMP/ranges.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["meters"][0]["accuracy"]["ranges"] = [
    {"a_max": 0.2, "a": {"gain": 0.001, "offset": 0.0001, "resolution": 0.0001, "noise": 0.0001}},
    {"a_max": 1.0, "a": {"gain": 0.02, "offset": 0.01, "resolution": 0.001, "noise": 0.001}},
]
json.dump(d, open(sys.argv[2], "w"))
EOF

# Where plot keeps a chart's data: the timeline's power.dat.
power_dat() { # RESULT
	local err="$T_TMP/plot.err" kept
	TMPDIR=$T_TMP "$IOWATT" plot --keep-data --format dumb --chart timeline -o "$T_TMP/pl" \
		"$1" >/dev/null 2>"$err" || return 1
	kept=$(sed -n 's/.*kept in //p' "$err")
	ls "$kept"/timeline-*/power.dat
}

# One reading's half band by docs/energy.md: 2 x the root sum of squares of the gain
# (a rectangle, /sqrt 3), offset (/sqrt 3), rounding (step/sqrt 12) and noise terms of W;
# for a meter with ranges, A's terms are those of the range holding the reading.
cat >"$T_TMP/band.py" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
acc = d["meters"][0]["accuracy"]
r3, r12 = math.sqrt(3), math.sqrt(12)
def arange(a):
    for i, r in enumerate(acc["ranges"]):
        if abs(a) <= r["a_max"] or i + 1 == len(acc["ranges"]):
            return r["a"]
    return acc["a"]
def half(v, a, w):
    qa, qv = arange(a), acc["v"]
    gain = math.hypot(qv["gain"], qa["gain"]) / r3 * w
    offset = math.hypot(qa["offset"] / r3 * v, qv["offset"] / r3 * a)
    step = acc["w"]["resolution"]  # the UM25C's own power register
    noise = math.hypot(qa["noise"] * v, qv["noise"] * a)
    return 2 * math.sqrt(gain ** 2 + offset ** 2 + (step / r12) ** 2 + noise ** 2)
samples = [l.rstrip("\n").split(",") for l in open(sys.argv[3]).readlines()[1:]]
rows = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert len(rows) == len(samples) > 20, (len(rows), len(samples))
widths = {}
for s, r in zip(samples, rows):
    v, a, w = float(s[2]), float(s[3]), float(s[4])
    got_w, lo, hi = float(r[1]), float(r[2]), float(r[3])
    h = half(v, a, w)
    assert abs(got_w - w) <= 1e-5 * w, (s, r)
    assert abs((hi - lo) / 2 - h) <= 1e-4 * h + 1e-6 and abs((hi + lo) / 2 - w) <= 1e-5 * w, (s, r, h)
    widths.setdefault(round(a, 3), set()).add(round(h, 6))
assert sorted(widths) == [0.1, 0.4], widths
lo_h, hi_h = max(widths[0.1]), min(widths[0.4])
print("half band at 100 mA %.4g W, at 400 mA %.4g W" % (lo_h, hi_h))
assert hi_h > lo_h * float(sys.argv[4]), (widths, sys.argv[4])
EOF

dat=$(power_dat "$T_TMP/r.json")
ok $? "plot --keep-data keeps the timeline's data"
check "each reading's band is its W -+ 2 u from the UM25C's accuracy, wider at 400 mA" -- \
	python3 "$T_TMP/band.py" "$T_TMP/r.json" "$dat" "$T_TMP/r.samples.csv" 1
dat=$(power_dat "$T_TMP/ranges.json")
ok $? "the same result with two current ranges plots"
# 4x the current with the coarse range's 2 % gain and 10 mA offset: far more than 4x wider.
check "with ranges: readings above 0.2 A take the coarse range's terms, over 10x wider" -- \
	python3 "$T_TMP/band.py" "$T_TMP/ranges.json" "$dat" "$T_TMP/r.samples.csv" 10

done_testing
