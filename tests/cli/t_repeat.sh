#!/usr/bin/env bash
# --repeat runs jobs in rounds (A B A B ...), each round its own entry, with a summary whose
# interval is the hand-computed Student t one; --repeat-until-steady stops at the first
# steady window of a paced (so steady) job; a profile's repeat= works the same.
. "$(dirname "$0")/../lib/lib.sh"

dir="$T_TMP/target"
mkdir -p "$dir"
cat >"$T_TMP/two.ini" <<'EOF'
[global]
bs=4k
size=2m
direct=0
ioengine=psync
idle=0

[A]
rw=write

[B]
rw=read
EOF

run() { # JSON ARGS...
	local json=$1
	shift
	"$IOWATT" run "$@" --target "$dir" --no-meter --no-progress --json-out "$json" \
		>"$T_TMP/run.out" 2>&1
}

run "$T_TMP/r.json" "$T_TMP/two.ini" --repeat 3
ok $? "two jobs, --repeat 3"
check "entries come in rounds: A B A B A B, rounds 1 1 2 2 3 3" -- python3 - "$T_TMP/r.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
got = [(j["jobname"], j["round"], j["loop"]) for j in d["jobs"]]
want = [("A", 1, 1), ("B", 1, 1), ("A", 2, 1), ("B", 2, 1), ("A", 3, 1), ("B", 3, 1)]
assert got == want, got
EOF
# t(0.975, 2) = 4.302653 (every t table): the interval recomputed from the entries
check "summary: n, mean, stddev and the Student t interval match the entries by hand" -- \
	python3 - "$T_TMP/r.json" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
for s in d["summary"]:
    x = [j["read"]["iops"] + j["write"]["iops"] for j in d["jobs"] if j["jobname"] == s["jobname"]]
    n = len(x)
    m = sum(x) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1))
    half = 4.302653 * sd / math.sqrt(n)
    f = s["figures"]["iops"]
    assert s["entries"] == 3 and s["valid"] == 3 and s["invalid"] == 0, s
    assert f["n"] == 3 and abs(f["mean"] - m) <= 1e-9 * m, (f, m)
    assert abs(f["stddev"] - sd) <= 1e-9 * m, (f, sd)
    assert abs(f["ci95_lo"] - (m - half)) <= 1e-6 * m and abs(f["ci95_hi"] - (m + half)) <= 1e-6 * m, f
    assert f["min"] == min(x) and f["max"] == max(x)
    assert s["figures"]["j_per_gb"]["n"] == 0, "no meter, no energy statistics"
EOF
check "the summary table prints each job's mean +- interval" -- \
	grep -E "^A +3/3 .*\+-" "$T_TMP/run.out"

"$IOWATT" compare --by iops "$T_TMP/r.json" >"$T_TMP/cmp.txt" 2>&1
check "compare: one row per job over its rounds, with its interval" -- python3 - "$T_TMP/cmp.txt" <<'EOF'
import sys
rows = [l for l in open(sys.argv[1]) if "(3 of 3 rounds)" in l]
assert len(rows) == 2 and all("+-" in r for r in rows), rows
EOF
"$IOWATT" compare --format csv --by iops "$T_TMP/r.json" >"$T_TMP/cmp.csv" 2>/dev/null
check "compare CSV: rounds 3, the mean and half its Student t interval" -- \
	python3 - "$T_TMP/cmp.csv" "$T_TMP/r.json" <<'EOF'
import csv, json, sys
d = json.load(open(sys.argv[2]))
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2, rows
for r in rows:
    f = [s for s in d["summary"] if s["jobname"] == r["job"]][0]["figures"]["iops"]
    assert r["rounds"] == "3", r
    assert abs(float(r["iops"]) - f["mean"]) < 1e-6 * f["mean"], (r["iops"], f)
    assert abs(float(r["iops_u95"]) - (f["ci95_hi"] - f["ci95_lo"]) / 2) < 1e-6 * f["mean"], r
EOF

# 256 writes paced at 500 IOPS: every round is 500 IOPS, so rounds 1-5 are steady.
run "$T_TMP/s.json" --rw write --bs 4k --size 1m --rate-iops 500 --ioengine psync \
	--direct 0 --idle 0 --repeat-until-steady 9
ok $? "--repeat-until-steady 9 on a paced job"
check "steady after 5 rounds: no sixth, verdict and window in the summary" -- \
	python3 - "$T_TMP/s.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["jobs"]) == 5, [j["round"] for j in d["jobs"]]
st = d["summary"][0]["steady"]
assert st["metric"] == "iops" and st["reached"] is True, st
assert (st["first_round"], st["last_round"]) == (1, 5), st
assert st["range_rel"] <= 0.2 and st["slope_rel"] <= 0.1, st
EOF
check "the run says why it stopped" -- grep -q "steady on iops after round 5" "$T_TMP/run.out"

printf '[global]\nrepeat=2\nbs=4k\nsize=1m\ndirect=0\nioengine=psync\nidle=0\n[P]\nrw=write\n' \
	>"$T_TMP/rep.ini"
run "$T_TMP/p.json" "$T_TMP/rep.ini"
check "repeat= in a profile: two rounds" -- \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [j["round"] for j in d["jobs"]] == [1, 2]' "$T_TMP/p.json"
"$IOWATT" run --target "$dir" --no-meter --rw read --size 1m --repeat-until-steady 3 \
	--json-out "$T_TMP/bad.json" >"$T_TMP/bad.out" 2>&1
[ $? -eq 2 ] && grep -q "at least 5" "$T_TMP/bad.out"
ok $? "--repeat-until-steady below a window's 5 rounds is refused, saying why"

done_testing
