#!/usr/bin/env bash
# Push entry point: what the meter core absorbs from a driver that delivers on its own
# thread (meter_deliver), at rates from a 1 Hz ATORCH to past a 100 kS/s PPK2.
#
# usage: bench/meter-push.sh [SECONDS]     (default 3 s per rate; no root needed)
#
# The driver is the fake push driver of tests/lib/push_meter.h, run by test_meter_core: its
# thread makes samples at the rate, hands them over every 2 ms without timestamps (the
# core's sample clock stamps them), and the main thread drains the ring every 10 ms as a
# run does. Columns:
# samples/s delivered, samples lost to ring overruns, stall gaps, timestamps out of order,
# the share of steps exactly one period apart, CPU of the whole process (driver thread,
# supervisor, drain) as a share of one core, how long meter_thread_stop() took, and the
# ring's size. Nothing here is a real meter: it measures the core alone.
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
SECS=${1:-3}
bin="$O/tests/test_meter_core"
if [ ! -x "$bin" ]; then
	make -s -j2 O="$O" "$bin" >/dev/null || exit 1
fi
printf '%-8s %12s %9s %5s %6s %8s %7s %8s %7s\n' rate delivered/s overruns gaps order on_grid cpu stop_ms ring
for rate in 1 100 1000 10000 100000 400000; do
	set -- $("$bin" --push-rate "$rate" "$SECS")
	# rate R delivered/s D samples N overruns O gaps G out_of_order B on_grid F cpu C stop_ms S ring Z
	printf '%-8s %12s %9s %5s %6s %8s %7s %8s %7s\n' "$2" "$4" "$8" "${10}" "${12}" "${14}" \
		"${16}" "${18}" "${20}"
done
