#!/usr/bin/env bash
# Uncertainty against a known truth: an emulated UM25C erring as its datasheet allows
# (--noise, seeds 1-8) holds the truth inside every run's interval without a uselessly
# wide one (bench/uncertainty-coverage.sh does 100 runs); a UM24C at 12 mA is flagged
# uncertain in the result and the summary, naming what limits it.
. "$(dirname "$0")/../lib/lib.sh"

if ! "$IOWATT" emulate --help 2>&1 | grep -q -- "--noise"; then
	skip "iowatt emulate has no --noise"
	done_testing
	exit
fi
IOWATT=$IOWATT "$REPO/bench/uncertainty-coverage.sh" -n 8 -s 1 >"$T_TMP/cov.out" 2>&1
rc=$?
sed 's/^/# /' "$T_TMP/cov.out"
ok $rc "8 seeded runs: truth inside every interval, mean U95 <= 3x the RMS error"
check "both active_w and energy_active_j were judged" -- \
	test "$(grep -c ': meets$' "$T_TMP/cov.out")" -eq 2

emu_pid="" shm=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; [ -n "$shm" ] && rm -rf "$shm"; t_cleanup' EXIT
"$IOWATT" emulate um24c --link "$T_TMP/um" --constant-ma 12 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
# On tmpfs where there is one: no disk under the target, so the machine's other writes to
# the test's disk cannot make the idle baseline (and so the verdict) uncertain.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
	shm=$(mktemp -d /dev/shm/iowatt-test.XXXXXX); then
	tgt=$shm
else
	tgt=$T_TMP/t
	mkdir -p "$tgt"
fi
"$IOWATT" run --target "$tgt" --meter "um24c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --size 8m --rate-iops 40 --direct 0 --ioengine psync --idle 1s \
	--idle-samples 5 --tail-max 0 --no-progress --json-out "$T_TMP/u.json" \
	>"$T_TMP/u.out" 2>&1
ok $? "a 12 mA load metered by a UM24C (1 mA steps)"
check "the result flags it uncertain, above the 5 % default, naming the 3-digit offset" -- \
	python3 - "$T_TMP/u.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v = j["validity"]
u = v["uncertainty"]
assert v["uncertain"] is True, v
assert u["figure"] == "j_per_gb" and u["u95_rel"] > u["limit"] == 0.05, u
assert u["dominant"].startswith("UM24C offset"), u
assert abs(j["efficiency"]["j_per_gb_u95"] - u["u95_rel"] * j["efficiency"]["j_per_gb"]) < 1e-9 * j["efficiency"]["j_per_gb"]
b = u["budget"]
assert b["offset"] == max(b.values()), b
EOF
check "the summary says UNCERTAIN with the dominant term" -- \
	grep -E "UNCERTAIN: \+-[0-9.]+ % > 5 %: UM24C offset$" "$T_TMP/u.out" &&
	grep -E "loop 1: UNCERTAIN: j_per_gb \+-[0-9.]+ % \(limit 5 %\): UM24C offset" "$T_TMP/u.out"
"$IOWATT" run --target "$tgt" --meter "um24c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --size 8m --rate-iops 40 --direct 0 --ioengine psync --idle 1s \
	--idle-samples 5 --tail-max 0 --max-uncertainty 50% --no-progress \
	--json-out "$T_TMP/u2.json" >"$T_TMP/u2.out" 2>&1
check "--max-uncertainty 50% accepts the same figure" -- \
	python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["jobs"][0]["validity"]; assert v["uncertain"] is False and v["uncertainty"]["limit"] == 0.5, v' "$T_TMP/u2.json"

done_testing
