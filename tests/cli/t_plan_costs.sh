#!/usr/bin/env bash
# The plan's forecast at an earlier result's costs (issue 35.6, --costs-from): the per-op U95
# it predicts is relative to the device's measured uJ per read/write/flush (its pooled
# energy_models, else the job's power.energy_model), the plan names where they come from,
# falls back to the assumed costs saying so, and refuses a file that is not a result. The
# readings it simulates scatter as that result's fit did (its misfit, window, hold, lag).
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
mkdir -p "$T_TMP/target" "$T_TMP/out"
G=tests/data/golden/sd-sandisk-ultra.json

plan() { # plan [ARGS...]: iot-logger's synced 4 KiB records, dry run, a UM25C read at 2 Hz
	$IOWATT run configs/iot-logger.ini --jobs LOG-4K-2IOPS-sync --target "$T_TMP/target" \
		--output "$T_TMP/out" --dry-run --meter "um25c:/nonexistent,interval=500ms" "$@" 2>&1
}
# costs OUT WRITE FLUSH POOLED [MISFIT]: the golden result with a 4 KiB buffered model of
# WRITE and FLUSH uJ (U95 a tenth), as a pooled energy_models entry (POOLED 1) or as the
# power.energy_model of a job named LOG-4K-2IOPS-sync (0: a 100 ms window held 100 ms at no
# lag), its residuals MISFIT (default 1) x the meter's noise
costs() {
	python3 - "$G" "$@" <<'PY'
import json, sys
src, out, w, f, pooled = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5] == "1"
misfit = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0
d = json.load(open(src))
m = {"verdict": "ok", "why": None, "read_uj_per_op": None, "read_uj_per_op_u95": None,
     "write_uj_per_op": w, "write_uj_per_op_u95": w / 10, "flush_uj_per_op": f,
     "flush_uj_per_op_u95": f / 10, "sum_uj_per_op": None, "sum_uj_per_op_u95": None,
     "sum_ratio": None, "sum_of": None}
if pooled:
    m.update(meter="um25c:/dev/rfcomm0", bs=4096, direct=False, jobs=2, readings=200, reads=0,
             writes=256, flushes=256, misfit=misfit)
    d["energy_models"] = [m]
else:
    d["energy_models"] = []
    j = d["jobs"][0]
    j["jobname"] = "LOG-4K-2IOPS-sync"
    j["power"]["energy_model"] = dict(m, awake_w=None, idle_w=0.45, idle_w_u95=0.001,
                                      readings=100, residual_rms_w=0.001 * misfit,
                                      noise_rms_w=0.001, lag_s=0, window_s=0.1, hold_s=0.1,
                                      lag_fitted=True)
json.dump(d, open(out, "w"))
PY
}
# rel FILE: the write's relative U95 (%) on the job's forecast line; its U95 in uJ after
rel() {
	sed -n 's/^  LOG-4K-2IOPS-sync: .*write ±\([0-9.]*\) µJ (\([0-9.]*\) %).*/\2 \1/p' "$1"
}

plan >"$T_TMP/assumed.out"
ok $? "the plan without --costs-from"
grep -q "^  costs: write 600 µJ (assumed), flush 300 µJ (assumed); assumed (no earlier result's" \
	"$T_TMP/assumed.out"
ok $? "without a result the costs are the assumed ones, and it says so"
# the misfit assumed, and where it comes from; a tester's held window
misfit=$(sed -n 's/^  fit simulated: residuals \([0-9.]*\) x the meter.s noise (assumed: the median of [0-9]* emulated UM25C runs of bench\/model-coverage.sh.*/\1/p' "$T_TMP/assumed.out")
[ -n "$misfit" ] && grep -q "^  fit simulated: .*a 100 ms window held until the next conversion, every 100 ms, lag 0 ms (assumed, as a USB tester converts)" "$T_TMP/assumed.out"
ok $? "without a result the fit simulated is assumed (residuals $misfit x the noise, a tester's held window) and the plan says where from"

costs "$T_TMP/same.json" 600 300 1 "$misfit"
costs "$T_TMP/double.json" 1200 600 1
plan --costs-from "$T_TMP/same.json" >"$T_TMP/same.out"
plan --costs-from "$T_TMP/double.json" >"$T_TMP/double.out"
sed -n '/^model fit/,$p' "$T_TMP/double.out" | sed 's/^/# /'
grep -q "^  costs: write 1200 ±120 µJ, flush 600 ±60 µJ; $T_TMP/double.json: mmcblk0's pooled model (4 KiB, buffered, 2 jobs, ok)" \
	"$T_TMP/double.out"
ok $? "the costs used, their U95 and where from (file, device, pooled model) are named"
read -r r1 u1 < <(rel "$T_TMP/assumed.out")
read -r rs us < <(rel "$T_TMP/same.out")
read -r r2 u2 < <(rel "$T_TMP/double.out")
[ -n "$r1" ] && [ "$r1" = "$rs" ] && [ "$u1" = "$us" ]
ok $? "a result at the assumed costs forecasts what the assumed costs do ($r1 % = $rs %)"
# the U95 in uJ is the readings' noise over what the fit can tell, no larger with a larger
# signal; relative to a cost twice as large it is at most half as large, and it is that
# cost's (1200 uJ), not the assumed one's
python3 -c 'import sys; r1, u1, r2, u2 = map(float, sys.argv[1:]); sys.exit(not (u2 <= 1.05 * u1 and r2 <= 0.55 * r1 and abs(r2 - 100 * u2 / 1200) < 0.1))' \
	"$r1" "$u1" "$r2" "$u2"
ok $? "double costs: a smaller relative U95 ($r1 % -> $r2 %), U95 in uJ no larger ($u1 -> $u2), relative to 1200 uJ"

costs "$T_TMP/job.json" 1200 600 0
plan --costs-from "$T_TMP/job.json" >"$T_TMP/job.out"
grep -q "^  costs: write 1200 ±120 µJ, flush 600 ±60 µJ; $T_TMP/job.json: .*'s job LOG-4K-2IOPS-sync (its model, ok)" \
	"$T_TMP/job.out" && [ "$(rel "$T_TMP/job.out")" = "$r2 $u2" ] &&
	grep -q "^  fit simulated: residuals 1.0 x the meter's noise, a 100 ms window held until the next conversion, every 100 ms, lag 0 ms, as the earlier result's fit found them" "$T_TMP/job.out"
ok $? "no pooled model: the job's own power.energy_model, named, its fit's window, hold and lag used (the same as a tester's here: the same forecast)"

# a device whose readings scattered 3 x the meter's noise: the forecast is wider, and says why
costs "$T_TMP/rough.json" 1200 600 0 3
plan --costs-from "$T_TMP/rough.json" >"$T_TMP/rough.out"
read -r r3 u3 < <(rel "$T_TMP/rough.out")
grep "^  fit simulated" "$T_TMP/rough.out" | sed 's/^/# /'
grep -q "^  fit simulated: residuals 3.0 x the meter's noise, .*as the earlier result's fit found them" "$T_TMP/rough.out" &&
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not b > 1.3 * a)' "$u2" "$u3"
ok $? "an earlier fit 3 x the meter's noise: its misfit simulated, the U95 wider (±$u2 -> ±$u3 uJ)"

plan --costs-from "$G" >"$T_TMP/none.out"
grep -q "^  costs: write 600 µJ (assumed), flush 300 µJ (assumed); assumed: $G prices no 4 KiB buffered operation" \
	"$T_TMP/none.out"
ok $? "a result without a model of the job's operations: assumed costs, said why"

echo '{"jobs": []}' >"$T_TMP/bad.json"
plan --costs-from "$T_TMP/bad.json" >"$T_TMP/bad.out"
rc=$?
[ "$rc" -ne 0 ] && grep -q "option --costs-from $T_TMP/bad.json: not a result" "$T_TMP/bad.out" &&
	! grep -q "^model fit" "$T_TMP/bad.out"
ok $? "a file that is not a result: refused, the file named, exit $rc, no plan"
plan --costs-from "$T_TMP/missing.json" >"$T_TMP/missing.out"
rc=$?
[ "$rc" -ne 0 ] && grep -q "missing.json" "$T_TMP/missing.out"
ok $? "a missing file: refused (exit $rc)"

done_testing
