#!/usr/bin/env bash
# The plan's power-model forecast (issue 35.6): before running, each patterned job's per-op U95
# from its I/O simulated against the meter and fitted by the model's own code; a faster meter
# predicts a smaller one, and a job above max_uncertainty is called UNCERTAIN with its fix.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
mkdir -p "$T_TMP/target" "$T_TMP/out"

plan() { # plan INTERVAL [ARGS...]: iot-logger's dry-run plan with a UM25C read every INTERVAL
	local iv=$1
	shift
	$IOWATT run configs/iot-logger.ini --target "$T_TMP/target" --output "$T_TMP/out" --dry-run \
		--meter "um25c:/nonexistent,interval=$iv" "$@" 2>&1
}
# u95 FILE JOB: the U95 in uJ of the job's first figure on its model line
u95() {
	python3 - "$1" "$2" <<'PY'
import re, sys
t = open(sys.argv[1]).read().split("model fit:", 1)
line = next((l for l in t[1].splitlines() if l.strip().startswith(sys.argv[2] + ":")), "") if len(t) > 1 else ""
m = re.search(r"±([0-9.]+) µJ \(([0-9.]+) %\)", line)
print(m.group(1) if m else "nan")
PY
}

plan 500ms >"$T_TMP/2hz.out"
ok $? "--dry-run of iot-logger with a 2 Hz meter"
sed -n '/^model fit/,$p' "$T_TMP/2hz.out" | sed 's/^/# /'
grep -q "^model fit: the power model's per-op U95, the job's I/O simulated against a reading every 500 ms" "$T_TMP/2hz.out"
ok $? "the plan has the model's forecast, against the meter's period"
slow=$(u95 "$T_TMP/2hz.out" LOG-4K-2IOPS-sync)
python3 -c 'import math,sys; v=float(sys.argv[1]); sys.exit(not (math.isfinite(v) and v > 0))' "$slow"
ok $? "LOG-4K-2IOPS-sync: a finite per-op U95 at 2 Hz (±$slow uJ)"
grep -qE "^  LOG-4K-2IOPS-sync: (write ±[0-9.]+ µJ .*flush ±|write\+flush ±)" "$T_TMP/2hz.out" &&
	! grep -qE "^  LOG-4K-2IOPS-sync:.*read ±" "$T_TMP/2hz.out"
ok $? "a synced writer's forecast prices its writes and flushes (or their sum), no reads"

plan 100ms >"$T_TMP/10hz.out"
fast=$(u95 "$T_TMP/10hz.out" LOG-4K-2IOPS-sync)
python3 -c 'import math,sys; a,b=map(float,sys.argv[1:]); sys.exit(not (math.isfinite(b) and 0 < b < a))' "$slow" "$fast"
ok $? "a 10 Hz meter forecasts a smaller U95 (±$fast uJ) than a 2 Hz one (±$slow uJ)"

# max_uncertainty below what the forecast gives: UNCERTAIN, with what fixes it
plan 500ms --max_uncertainty 1% >"$T_TMP/tight.out"
line=$(grep "^  LOG-4K-2IOPS-sync:" <(sed -n '/^model fit/,$p' "$T_TMP/tight.out"))
echo "# $line"
echo "$line" | grep -q "UNCERTAIN (above 1 %).*fix: [0-9]* I/Os or more (now [0-9]*), or a meter reading every 100 ms"
ok $? "above max_uncertainty: UNCERTAIN, fixed by more I/Os or a faster meter"
n=$(echo "$line" | sed -n 's/.*fix: \([0-9]*\) I\/Os or more (now \([0-9]*\)).*/\1 \2/p')
python3 -c 'import sys; a,b=map(int,sys.argv[1:]); sys.exit(not a > b)' $n
ok $? "the I/Os it asks for are more than the job has ($n)"

# Without a meter, and for a stream, nothing is forecast.
$IOWATT run configs/iot-logger.ini --target "$T_TMP/target" --output "$T_TMP/out" --dry-run \
	--no-meter >"$T_TMP/none.out" 2>&1
! grep -q "^model fit" "$T_TMP/none.out"
ok $? "no meter: no forecast"
$IOWATT run --rw write --bs 1M --size 16M --target "$T_TMP/target" --output "$T_TMP/out" \
	--dry-run --meter "um25c:/nonexistent,interval=500ms" >"$T_TMP/stream.out" 2>&1
! grep -q "^model fit" "$T_TMP/stream.out"
ok $? "a stream (the readings see it): no forecast"

done_testing
