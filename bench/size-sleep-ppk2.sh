#!/usr/bin/env bash
# size with and without --sleep-from a PPK2 emulator sleep run at 5 and 150 uA (issue 24 s.1), and the battery chart with the 5 uA run.
# usage: bench/size-sleep-ppk2.sh [IOWATT] [OUTDIR]; runs about 20 s. The sleep figures are
# EMULATED; the sized card is the measured golden SD card (3.3 V), hence --mix-emulated.
set -u
IOWATT=${1:-${IOWATT:-./iowatt}}
OUT=${2:-$(mktemp -d)}
BENCH=size-sleep-ppk2
. "$(dirname "$0")/lib.sh"
trap 'stop_emu; t_cleanup' EXIT
SD=tests/data/golden/sd-sandisk-ultra.json
mkdir -p "$OUT"
for ua in 5 150; do
	link="$OUT/ppk2-$ua"
	ma=$(awk -v u="$ua" 'BEGIN { printf "%.6f", u / 1000 }')
	start_emu_as ppk2 "$link" --constant-ma "$ma" --volts 3.3 --duration 60 || exit 1
	"$IOWATT" measure --meter "ppk2:$link,vdd=3300" --idle 0 --no-progress --force \
		--json-out "$OUT/sleep-$ua.json" -- sleep 5 >/dev/null 2>&1
	stop_emu
done
for wl in "--records 4KiB@1/min" "--write 200MB/day" ""; do
	echo "== iowatt size --battery 3000mAh@3.7V ${wl:-(idle only)} $SD"
	# shellcheck disable=SC2086
	"$IOWATT" size --battery 3000mAh@3.7V $wl "$SD" 2>&1 | grep -E "^  (idle|life|average) "
	for ua in 5 150; do
		echo "-- --sleep-from sleep-$ua.json --mix-emulated"
		# shellcheck disable=SC2086
		"$IOWATT" size --battery 3000mAh@3.7V $wl --sleep-from "$OUT/sleep-$ua.json" \
			--mix-emulated "$SD" 2>&1 | grep -E "^  (sleep|asleep|energy|average|life|interval) "
	done
done
"$IOWATT" plot --chart battery -o "$OUT" --sleep-from "$OUT/sleep-5.json" --mix-emulated \
	"$SD" tests/data/golden/nvme-netac.json 2>&1 | grep -v "^iowatt: plot: wrote"
echo "(results and battery.png in $OUT)"
