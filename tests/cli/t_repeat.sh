#!/usr/bin/env bash
# --repeat runs jobs in rounds (A B A B ...), each round its own entry, with a summary whose
# interval is the hand-computed Student t one; --repeat-until-steady stops at the first
# steady window of the rounds it records; a profile's repeat= works the same.
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

# 256 writes paced at 500 IOPS are steady on an idle machine, but a busy one stretches a
# round now and then, so the rounds it takes are not fixed. The stopping rule is: stop
# after the first round whose last 5 rounds' IOPS pass SNIA's window (max - min within
# 20 % of their mean, the fit line's excursion within 10 %), else run all 9. Both checks
# judge the rounds the result records by that rule, so they hold whatever the load and
# fail when the run stops early, late, or on a window that is not steady.
run "$T_TMP/s.json" --rw write --bs 4k --size 1m --rate-iops 500 --ioengine psync \
	--direct 0 --idle 0 --repeat-until-steady 9
ok $? "--repeat-until-steady 9 on a paced job"
cat >"$T_TMP/steady_rule.py" <<'EOF'
import json

def judge(w):
    n, m = len(w), sum(w) / len(w)
    xm = (n - 1) / 2
    slope = sum((i - xm) * (v - m) for i, v in enumerate(w)) / sum((i - xm) ** 2 for i in range(n))
    return (max(w) - min(w)) / abs(m), abs(slope) * (n - 1) / abs(m)

def counts(j):
    """A failed, interrupted or invalid round is left out of the judgement."""
    return j["status"] == "ok" and (j.get("validity") or {}).get("valid") is not False

def expected(path):
    """The counted rounds' IOPS, and the round that ends the first steady window (None)."""
    d = json.load(open(path))
    e = [j for j in d["jobs"] if counts(j)]
    x = [j["write"]["iops"] for j in e]
    for k in range(5, len(x) + 1):
        r, s = judge(x[k - 5:k])
        if r <= 0.2 and s <= 0.1:
            return d, x, e[k - 1]["round"]
    return d, x, None
EOF
check "it stops at the first steady window of 5 rounds and not before; the summary names it" -- \
	python3 - "$T_TMP/s.json" "$T_TMP/steady_rule.py" <<'EOF'
import runpy, sys
rule = runpy.run_path(sys.argv[2])
d, x, k = rule["expected"](sys.argv[1])
print("rounds' iops:", [round(v, 1) for v in x], "first steady window ends at round", k)
assert [j["round"] for j in d["jobs"]] == list(range(1, len(d["jobs"]) + 1)), d["jobs"]
st = d["summary"][0]["steady"]
assert st["metric"] == "iops", st
n = len(d["jobs"])
if k is None:
    assert n == 9 and st["reached"] is False, ("no steady window, yet it stopped", st)
else:
    w = [j for j in d["jobs"] if rule["counts"](j) and j["round"] <= k][-5:]
    assert n == k, ("steady after round %d, yet %d rounds" % (k, n))
    assert st["reached"] is True and (st["first_round"], st["last_round"]) == (w[0]["round"], k), st
    r, s = rule["judge"]([j["write"]["iops"] for j in w])
    assert abs(st["range_rel"] - r) < 1e-9 and abs(st["slope_rel"] - s) < 1e-9, (st, r, s)
EOF
k=$(python3 -c 'import runpy, sys
print(runpy.run_path(sys.argv[1])["expected"](sys.argv[2])[2] or "")' \
	"$T_TMP/steady_rule.py" "$T_TMP/s.json")
if [ -n "$k" ]; then
	check "the run says why it stopped (after round $k)" -- \
		grep -q "steady on iops after round $k " "$T_TMP/run.out"
else
	check "no steady window in 9 rounds: no claim that it was, the summary says NOT steady" -- \
		bash -c '! grep -q "steady on iops after round" "$1" && grep -q "iops NOT steady" "$1"' \
		_ "$T_TMP/run.out"
fi

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
