#!/usr/bin/env bash
# The plan's meter fit (issue 21.5): before running, which jobs the slowest meter cannot
# measure and why, with the fix, in the plan and in --dry-run; in the result as run; and
# size=auto giving a paced or bursty job more of its own bursts, never a calibrated stream.
. "$(dirname "$0")/../lib/lib.sh"

# plan PROFILE INTERVAL EXTRA...: the --dry-run plan against an unopened UM25C spec
plan() {
	local p=$1 iv=$2
	shift 2
	"$IOWATT" run "$p" --target "$T_TMP/f" --meter "um25c:/dev/null,interval=$iv" --dry-run "$@" 2>&1
}

plan "$REPO/configs/iot-logger.ini" 500ms >"$T_TMP/a.out"
rc=$?
ok "$([ $rc -eq 0 ] && ! grep -q "aliased" "$T_TMP/a.out" && grep -q "^  LOG-64K-burst-sync: .*coarse: 8 bursts" "$T_TMP/a.out"; echo $?)" \
	"iot-logger at 2 Hz: nothing aliased; the 8 flushes are coarse, saying so"
grep -q "LOG-64K-burst-sync: .*fix: 80 bursts or more (size=auto chooses them)" "$T_TMP/a.out"
ok $? "with the fix: 80 bursts, which size=auto chooses"
sed -n '/meter fit/,$p' "$T_TMP/a.out" | sed 's/^/#   /'

plan "$REPO/configs/iot-logger.ini" 500ms --rate-dither 0 >"$T_TMP/b.out"
grep -q "^  LOG-4K-2IOPS-sync: paced 2/s: aliased: activity at 2 Hz in step with the meter's 2 Hz readings.*fix: rate_dither=100%" "$T_TMP/b.out" &&
	grep -q "^meter fit: 1 job this meter cannot measure as given" "$T_TMP/b.out"
ok $? "undithered, the 2 records/s job is aliased at 2 Hz, before running, with its fix"

plan "$REPO/configs/iot-logger.ini" 500ms --size auto >"$T_TMP/c.out"
! grep -q "coarse\|aliased\|too short" "$T_TMP/c.out" &&
	grep -q "^  LOG-4K-2IOPS-sync: .*uncertain: 80 bursts: .*above the run's 5 % limit: UNCERTAIN when run" "$T_TMP/c.out" &&
	grep -q "^meter fit: 2 jobs UNCERTAIN when run from the readings alone" "$T_TMP/c.out"
ok $? "with --size auto both jobs are measurable at 2 Hz, and the plan says they will be UNCERTAIN at the 5 % limit"
plan "$REPO/configs/iot-logger.ini" 500ms --size auto --max-uncertainty 60% >"$T_TMP/c2.out"
grep -q "^meter fit: every job's pattern suits" "$T_TMP/c2.out"
ok $? "against a 60 % limit they suit it: the fit judges by the run's max_uncertainty"
plan "$REPO/configs/iot-logger.ini" 1s >"$T_TMP/d.out"
grep -q "LOG-64K-burst-sync: .*aliased: 8 bursts at random phases" "$T_TMP/d.out"
ok $? "at 1 Hz 8 dithered flushes are too few: some phase sees none"

"$IOWATT" run "$REPO/configs/iot-logger.ini" --target "$T_TMP/f" --dry-run >"$T_TMP/e.out" 2>&1
! grep -q "meter fit" "$T_TMP/e.out"
ok $? "without a meter the plan says nothing of a fit"

# A real run on a pty emulator (constant current: the verdict is the plan's, not the
# meter's): the result keeps the verdict, and size=auto keeps the bursts.
if ! "$IOWATT" emulate --help >/dev/null 2>&1; then
	skip "no emulator"
	skip "no emulator"
	skip "no emulator"
	done_testing
	exit
fi
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 100 >"$T_TMP/emu.log" 2>&1 &
emu=$!
trap 'kill $emu 2>/dev/null; wait $emu 2>/dev/null; t_cleanup' EXIT
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
"$IOWATT" run --target "$T_TMP/f" --meter "um25c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --fdatasync 1 --direct 0 --thinktime 1s --size auto --idle 1s --idle-samples 5 \
	--tail-max 0 --no-progress --kmsg none --json-out "$T_TMP/r.json" >"$T_TMP/r.out" 2>&1
ok $? "a bursty job with --size auto runs"
python3 - "$T_TMP/r.json" >"$T_TMP/r.check" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
sa, mf = j["size_auto"], j["meter_fit"]
# at 10 Hz only the length counts: 20 readings twice over is 4 s; bursts 1.01 s apart
# (a burst taken as 10 ms): 3 spacings, and the first and one spare: 5 bursts
print(sa["from"], sa["size"] // 65536, j["write"]["total_ios"], sa["calibration_s"])
print(mf["verdict"], mf["pattern"], mf["bursts"], mf["meter_period_s"])
PY
read -r from n ios calib <"$T_TMP/r.check"
ok "$([ "$from" = pattern ] && [ "$n" = 5 ] && [ "$ios" = 5 ] && [ "$calib" = 0.0 ]; echo $?)" \
	"size=auto kept the pattern: from $from, $n bursts of 64 KiB ($ios writes), no calibration"
tail -1 "$T_TMP/r.check" | grep -q "^ok bursts of 1 x 64 KiB every 1.0 s 5 0.1$"
ok $? "the result keeps the meter fit: $(tail -1 "$T_TMP/r.check")"
python3 - "$T_TMP/r.json" <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1]))["jobs"][0]["meter_fit"]["model"]
u = [m[k] for k in ("write_uj_per_op_u95", "sum_uj_per_op_u95") if m[k] is not None]
assert u and all(math.isfinite(x) and x > 0 for x in u), m
assert m["read_uj_per_op_u95"] is None and m["noise_assumed"] is False and m["noise_w"] > 0, m
assert m["readings"] > 0 and isinstance(m["uncertain"], bool), m
PY
ok $? "and the model's forecast: a finite write U95 at the meter's declared noise, no reads"
# --dry-run opens no meter, but the spec names its model: the forecast uses the noise its
# driver declares, as the run did, and says so (it assumed 1 mW before: +-269 vs +-118 uJ)
"$IOWATT" run --target "$T_TMP/f" --meter "um25c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --fdatasync 1 --direct 0 --thinktime 1s --size auto --idle 1s --idle-samples 5 \
	--tail-max 0 --no-progress --kmsg none --dry-run >"$T_TMP/r.dry" 2>&1
sed -n '/^model fit/,+2p' "$T_TMP/r.dry" | sed 's/^/# dry: /'
[ -n "$(sed -n '/^model fit/,+2p' "$T_TMP/r.dry")" ] &&
	diff <(sed -n '/^model fit/,+2p' "$T_TMP/r.dry") <(sed -n '/^model fit/,+2p' "$T_TMP/r.out") &&
	grep -q "^model fit: .* noise (the meter's declared accuracy: RDTech" "$T_TMP/r.dry"
ok $? "--dry-run forecasts as the run did, at the noise the UM25C's driver declares, and says so"

# In step with the meter (10 IOPS, 2 Hz): the result keeps the forecast without a U95, and
# at how many of its 8 phases each reading held the same count of I/Os
"$IOWATT" run --target "$T_TMP/f" --meter "um25c:$T_TMP/um,interval=500ms" --rw write \
	--bs 4k --direct 0 --rate-iops 10 --size 200k --idle 1s --idle-samples 3 \
	--tail-max 0 --no-progress --kmsg none --json-out "$T_TMP/st.json" >"$T_TMP/st.out" 2>&1
grep "not identifiable" "$T_TMP/st.out" | sed 's/^/# /'
python3 - "$T_TMP/st.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["jobs"][0]["meter_fit"]["model"]
assert m["in_step_phases"] == 8 and m["uncertain"] is True and m["need_ios"] == 0, m
assert m["write_uj_per_op_u95"] is None and m["u95_rel"] is None and m["sum_of"] is None, m
PY
ok $? "10 IOPS at 2 Hz: the result's forecast is in step at 8 of 8 phases, no U95, UNCERTAIN"

# Too short for the meter: a paced job is told size=auto (more of its bursts), never a
# size from its throughput that would make it a stream.
"$IOWATT" run --target "$T_TMP/f" --meter "um25c:$T_TMP/um,interval=100ms" --rw write \
	--bs 4k --fdatasync 1 --direct 0 --rate-iops 4 --size 16k --idle 1s --idle-samples 5 \
	--tail-max 0 --no-progress --kmsg none --json-out "$T_TMP/s.json" >"$T_TMP/s.out" 2>&1
python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["jobs"][0]["validity"]
print(v["valid"], "; ".join(v["reasons"]))' "$T_TMP/s.json" >"$T_TMP/s.check"
grep -q "^False .*try --size auto (more of its own bursts)" "$T_TMP/s.check" &&
	! grep -q "try --size [0-9]" "$T_TMP/s.check"
ok $? "4 records in 0.75 s: not valid, told --size auto: $(cat "$T_TMP/s.check")"
done_testing
