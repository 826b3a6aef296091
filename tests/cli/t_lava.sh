#!/usr/bin/env bash
# contrib/lava/iowatt.yaml's steps run as LAVA's test shell would (params as shell
# variables, set -e, /bin/sh, from the repository's top) with a stub lava-test-case that
# logs what it is told: the measurements reported must be the result file's, job by job.
. "$(dirname "$0")/../lib/lib.sh"
PY=/usr/bin/python3 # Debian's python, with python3-yaml
"$PY" -c 'import yaml' 2>/dev/null || { echo "1..0 # skip python3-yaml is not installed (tests/deps.sh)"; exit 0; }

emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

# The stub: NAME|RESULT|MEASUREMENT|UNITS per call; --shell runs the command for the result.
mkdir -p "$T_TMP/bin"
cat >"$T_TMP/bin/lava-test-case" <<'EOF'
#!/bin/sh
name=$1; shift
result="" measurement="" units=""
while [ $# -gt 0 ]; do
	case $1 in
	--result) result=$2; shift 2 ;;
	--measurement) measurement=$2; shift 2 ;;
	--units) units=$2; shift 2 ;;
	--shell) shift; if "$@"; then result=pass; else result=fail; fi; break ;;
	*) echo "lava-test-case stub: unknown argument $1" >&2; exit 2 ;;
	esac
done
echo "$name|$result|$measurement|$units" >>"$LAVA_STUB_LOG"
EOF
chmod +x "$T_TMP/bin/lava-test-case"

# run_steps LOG PARAM=VALUE...: the definition's steps, its params overridden as LAVA's
# job parameters are, in the shell script LAVA would write.
run_steps() {
	local log=$1
	shift
	"$PY" - "$REPO/contrib/lava/iowatt.yaml" "$@" >"$T_TMP/run.sh" <<'PY' || return 1
import shlex, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["metadata"]["format"] == "Lava-Test Test Definition 1.0"
params = dict(d.get("params", {}))
params.update(a.split("=", 1) for a in sys.argv[2:])
for k, v in params.items():
    print(f"{k}={shlex.quote(str(v))}")
print("set -e")
for step in d["run"]["steps"]:
    print(step)
PY
	(cd "$REPO" && LAVA_STUB_LOG=$log PATH="$T_TMP/bin:$PATH" /bin/sh "$T_TMP/run.sh") >"$log.out" 2>&1
}

# compare_cases LOG RESULT: every job's J/GB, IOPS/mA and validity as the result has them.
compare_cases() {
	"$PY" - "$1" "$2" <<'PY'
import json, math, sys
cases = {}
for line in open(sys.argv[1]):
    name, result, meas, units = line.rstrip("\n").split("|")
    cases[name] = (result, meas, units)
res = json.load(open(sys.argv[2]))
assert cases.pop("iowatt-result")[0] == "pass"
n = 0
for j in res["jobs"]:
    name, valid = j["jobname"], j["validity"]["valid"]
    want = "pass" if valid else "fail"
    for key, units in (("j_per_gb", "J/GB"), ("iops_per_ma", "IOPS/mA")):
        result, meas, u = cases.pop(f"{name}.{key}")
        value = j["efficiency"][key]
        assert u == units, f"{name}.{key}: units {u}"
        assert result == want, f"{name}.{key}: {result}, valid {valid}"
        assert math.isclose(float(meas), value, rel_tol=1e-12), f"{name}.{key}: {meas} != {value}"
        print(f"{name}.{key}: {meas} {u} ({result}) = result's {value}")
    result, meas, u = cases.pop(f"{name}.valid")
    assert (result, meas, u) == (want, "1.0" if valid else "0.0", "valid"), (name, result, meas, u)
    n += 1
assert n >= 2, "too few jobs to say anything"
cases.pop("iowatt-present", None)
cases.pop("iowatt-run", None)
cases.pop("iowatt-strict", None)
assert not cases, f"cases the result has no job for: {cases}"
PY
}

# 1. A run on the emulated UM25C, the steps as LAVA runs them.
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 250 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 100); do grep -q EMULATED "$T_TMP/emu.log" 2>/dev/null && break; sleep 0.1; done
mkdir -p "$T_TMP/target"
run_steps "$T_TMP/cases1" IOWATT="$IOWATT" PROFILE="$REPO/tests/data/profiles/fleet.ini" \
	TARGET="$T_TMP/target" METER="um25c:$T_TMP/um,interval=100ms" OUT="$T_TMP/out"
ok $? "the definition's steps run to the end under /bin/sh with set -e"
grep -q "^iowatt-present|pass|" "$T_TMP/cases1" && grep -q "^iowatt-run|pass|" "$T_TMP/cases1"
ok $? "iowatt-present and iowatt-run pass"
check "measurements = the result file's J/GB, IOPS/mA and validity, job by job" -- \
	compare_cases "$T_TMP/cases1" "$T_TMP/out/iowatt.json"
sed 's/^/#   /' "$T_TMP/last.out"
grep -q "EMULATED" "$T_TMP/cases1.out"
ok $? "the log says the figures are EMULATED"
rc1=$(cat "$T_TMP/out/iowatt.rc" 2>/dev/null)
want=fail
[ "$rc1" = 0 ] && want=pass
case $rc1 in 0 | 4 | 5) grep -q "^iowatt-strict|$want|" "$T_TMP/cases1" ;; *) false ;; esac
ok $? "iowatt-strict says what --strict's exit says (rc $rc1: $want)"

# 1b. --strict: a job too short for the meter is INVALID (exit 4). Its own cases fail; the
# run's case passes (the run went through) and iowatt-strict fails.
run_steps "$T_TMP/cases1b" IOWATT="$IOWATT" PROFILE="$REPO/tests/data/profiles/fleet.ini" \
	TARGET="$T_TMP/target" METER="um25c:$T_TMP/um,interval=100ms" OUT="$T_TMP/out1b" \
	EXTRA="--jobs seq-write --size 4m"
ok $? "with an INVALID job the steps still run to the end"
[ "$(cat "$T_TMP/out1b/iowatt.rc")" = 4 ] && grep -q "^iowatt-run|pass|" "$T_TMP/cases1b" &&
	grep -q "^iowatt-strict|fail|" "$T_TMP/cases1b" && grep -q "^seq-write\.valid|fail|" "$T_TMP/cases1b"
ok $? "exit 4: iowatt-run passes, iowatt-strict and the job's valid case fail (rc $(cat "$T_TMP/out1b/iowatt.rc" 2>/dev/null))"

# 2. An invalid job is a failed case, its figures still reported (a stored result).
golden=$REPO/tests/data/golden/usbssd-samsung-t7.json
(LAVA_STUB_LOG=$T_TMP/cases2 PATH="$T_TMP/bin:$PATH" "$PY" "$REPO/contrib/lava/lava_cases.py" "$golden") >"$T_TMP/cases2.out" 2>&1
ok $? "lava_cases.py on $golden exits 0"
check "a stored result with an invalid job: that job's cases fail, the others pass, figures equal" -- \
	compare_cases "$T_TMP/cases2" "$golden"
grep -q "^[^|]*\.valid|fail|0.0|valid$" "$T_TMP/cases2" && grep -q "invalid: " "$T_TMP/cases2.out"
ok $? "the invalid job says why"

# 3. No result (the run died before writing it): one failed case, no invented figures.
rm -f "$T_TMP/cases3"
(LAVA_STUB_LOG=$T_TMP/cases3 PATH="$T_TMP/bin:$PATH" "$PY" "$REPO/contrib/lava/lava_cases.py" "$T_TMP/none.json") >"$T_TMP/cases3.out" 2>&1
[ $? -eq 1 ] && [ "$(cat "$T_TMP/cases3")" = "iowatt-result|fail||" ]
ok $? "a missing result: iowatt-result fails, exit 1, nothing else reported"

# 4. Hostile results (written here, so no raw control character is committed): the
# script's console output is what LAVA parses for its signals, so nothing from the file
# may open a line or a <LAVA_SIGNAL_...> there; a malformed file is one failed case.
"$PY" - "$T_TMP/hostile" <<'PY'
import json, os, sys
os.makedirs(sys.argv[1])
SIG = "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=INJECTED RESULT=pass>"
def job(name, valid=True, reasons=(), **kw):
    j = {"jobname": name, "round": 1, "loop": 1,
         "validity": {"valid": valid, "reasons": list(reasons)},
         "efficiency": {"j_per_gb": 5.5, "iops_per_ma": 0.5}}
    j.update(kw)
    return j
cases = {
    "reason_nl": [job("A", False, ["brown-out\n" + SIG]), job("B")],
    "reason_inline": [job("A", False, ["x " + SIG + " \u2028\x1b[2K\r" + SIG]), job("B")],
    "name_ctl": [job("A\r" + SIG, False, ["r"]), job("B")],
    "collide": [job("a b", False, ["undervoltage"]), job("a_b")],
    "round_nl": [job("A", round="1\n" + SIG + "\n" + SIG), job("A", round=2)],
    "round_bool": [job("A", round=True), job("A", round=2)],
    "loop_big": [job("A", loop=10**30), job("A", loop=2)],
    "no_jobname": [job("A"), {"round": 1}],
    "validity_str": [job("A"), job("B", validity="yes")],
    "figure_str": [job("A", efficiency={"j_per_gb": "1\n" + SIG})],
}
for k, jobs in cases.items():
    json.dump({"jobs": jobs}, open(os.path.join(sys.argv[1], k + ".json"), "w"))
open(os.path.join(sys.argv[1], "top_list.json"), "w").write("[1, 2]")
open(os.path.join(sys.argv[1], "deep.json"), "w").write("[" * 100000 + "]" * 100000)
PY
hostile() { # NAME: lava_cases.py on it; sets rc, log, out
	log=$T_TMP/hostile/$1.cases out=$T_TMP/hostile/$1.out
	(LAVA_STUB_LOG=$log PATH="$T_TMP/bin:$PATH" "$PY" "$REPO/contrib/lava/lava_cases.py" \
		"$T_TMP/hostile/$1.json") >"$out" 2>&1
	rc=$?
	touch "$log"
}
inert() { # the output has no signal and no control character but newline; the case names
	# are LAVA's characters, each once
	! grep -q '<LAVA_' "$out" && ! LC_ALL=C grep -q '[[:cntrl:]]' "$out" &&
		! cut -d'|' -f1 "$log" | grep -qv '^[A-Za-z0-9._-]*$' &&
		[ "$(cut -d'|' -f1 "$log" | sort | uniq -d)" = "" ]
}
for k in reason_nl reason_inline name_ctl; do
	hostile $k
	[ $rc -eq 0 ] && inert && grep -q '^A[^|]*\.valid|fail|' "$log" && grep -q '^B\.valid|pass|' "$log" &&
		[ "$(wc -l <"$log")" -eq 7 ]
	ok $? "$k: the job's cases as the result has them, no forged signal or line on the console"
done
grep -q 'invalid: brown-out\\x0a\\x3cLAVA_SIGNAL' "$T_TMP/hostile/reason_nl.out"
ok $? "reason_nl: the reason is printed with its newline shown as \\x0a"
hostile collide
[ $rc -eq 0 ] && inert && grep -q '^a_b\.valid|pass|' "$log" && grep -q '^a_b\.n2\.valid|fail|' "$log" &&
	grep -q '^a_b\.n2: the job "a b"' "$out"
ok $? "collide: 'a_b' (valid) keeps its name, 'a b' (invalid) is a_b.n2 and fails, said on the console"
for k in round_nl round_bool loop_big no_jobname validity_str figure_str top_list deep; do
	hostile $k
	[ $rc -eq 1 ] && inert && [ "$(cat "$log")" = "iowatt-result|fail||" ] &&
		grep -q "lava_cases.py: .*$k.json: ." "$out"
	ok $? "$k: malformed, so iowatt-result fails with the reason ($(head -n 1 "$out" | sed 's/.*json: //')) and nothing else is reported"
done

done_testing
