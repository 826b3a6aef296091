#!/usr/bin/env bash
# INA2xx sampling rate: samples/s at each ADC setting against the conversion-time limit.
#
# The chip is the register model in tests/umock/ina_emul.h served through umockdev on
# /dev/i2c-1. It answers at once (no 100/400 kHz bus), so what is measured is the driver's
# pacing: sleep most of a conversion, then poll the conversion-ready flag. The ratio is
# samples/s over 1/conversion-time (target >= 0.90). "cpu" is the reading thread's CPU
# share, which includes umockdev's socket round trip per register access (xfer_us);
# where 3 transfers per sample cost more than a conversion, the emulated transport, not
# the driver, is the limit (marked "transport-bound"). EMULATED: no real chip involved.
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
SECS=${SECS:-1}
bin="$O/tests/umock_ina"
if [ ! -x "$bin" ]; then
	make -s -j2 O="$O" "$bin" >/dev/null || exit 1
fi
command -v umockdev-wrapper >/dev/null || { echo "needs umockdev-wrapper" >&2; exit 1; }

printf 'EMULATED INA2xx (register model, instant bus), %ss per setting\n' "$SECS"
printf '%-7s %-8s %10s %10s %7s %7s %9s  %s\n' chip adc samples/s limit/s ratio cpu xfer_us note
run() { # chip adc
	local line
	line=$(umockdev-wrapper "$bin" --rate "$1" "$2" "$SECS" 2>/dev/null | tail -n 1)
	set -- $line
	# chip adc samples/s N limit N ratio N cpu N% xfer_us N xfers/sample N
	local sps=$4 lim=$6 ratio=$8 cpu=${10} xus=${12} xps=${14} note=""
	if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.90) }'; then
		note="ok"
	elif awk -v x="$xus" -v n="$xps" -v l="$lim" 'BEGIN { exit !(x * n * l / 1e6 > 0.9) }'; then
		note="transport-bound"
	else
		note="BELOW TARGET"
	fi
	printf '%-7s %-8s %10s %10s %7s %7s %9s  %s\n' "$1" "$2" "$sps" "$lim" "$ratio" "$cpu" "$xus" "$note"
}
for adc in 9bit 10bit 11bit 12bit avg2 avg4 avg8; do
	run ina219 "$adc"
done
for adc in "adc=avg1,ct=140us" "adc=avg1,ct=588us" "adc=avg1,ct=1.1ms" "adc=avg4,ct=1.1ms"; do
	run ina226 "$adc"
done
run ina260 "adc=avg1,ct=1.1ms"
