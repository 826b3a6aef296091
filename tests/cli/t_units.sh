#!/usr/bin/env bash
# Units a sleep current is read in (issue 24.1): the PPK2 emulator at 5, 150 and 1500 uA through the summary, compare, CSV and the page.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# run_at UA: a short measure of `sleep 1` with the PPK2 emulator drawing UA at 3 V.
run_at() {
	local ua=$1 ma
	ma=$(awk -v u="$ua" 'BEGIN { printf "%.6f", u / 1000 }')
	start_emu ppk2 "$T/p$ua" --constant-ma "$ma" --volts 3.0 --duration 60
	ok $? "PPK2 emulator up at $ua uA"
	timeout 60 "$IOWATT" measure --meter "ppk2:$T/p$ua,vdd=3000" --idle 1s --idle-samples 2 \
		--tail-hold 0.2s --tail-max 0.5s --json-out "$T/p$ua.json" --no-progress "${@:2}" \
		-- sleep 1 >"$T/p$ua.run" 2>&1
	ok $? "measure at $ua uA exits 0"
	stop_emu
}

# row FILE: the summary's row of job sleep as "W-head A-head | W A" (heads from its header).
summary_cells() {
	awk '$1 == "job" { for (i = 1; i <= NF; i++) if ($i == "verdict") v = i; wh = $(v - 5); ah = $(v - 4) }
	     $1 == "sleep" && $2 ~ /^[0-9]+$/ { print wh, ah, $(NF - 6), $(NF - 5) }' "$1"
}

run_at 5
run_at 150
run_at 1500
for ua in 5 150 1500; do
	echo "# $ua uA: $(summary_cells "$T/p$ua.run")"
	[ -n "$(summary_cells "$T/p$ua.run")" ] || sed 's/^/#   /' "$T/p$ua.run" | tail -8
done
# The emulator's ADC steps are 43 nA on its lowest range: 3 significant digits of a
# 5 uA current are 4.9x..5.0x; its mean is the current within 1 %.
summary_cells "$T/p5.run" | grep -Eq "^µW µA [0-9]{2}\.[0-9] [45]\.[0-9]{3}$"
ok $? "5 uA: the summary says µA and µW, 4 significant digits of the current (5.0xx), not 0.005 mA"
summary_cells "$T/p150.run" | grep -Eq "^µW µA [0-9]{3} 1[45][0-9]\.[0-9]$"
ok $? "150 uA: µA with 4 digits (15x.x), W as 3 digits of µW (450)"
summary_cells "$T/p1500.run" | grep -Eq "^mW mA [0-9]\.[0-9]{2} 1\.[45][0-9]{2}$"
ok $? "1500 uA: mA (1.5xx) and mW (4.50): the unit follows the figure"
grep -q "sleep loop 1: - is undefined, not hidden: IOPS/mA: no I/O counted; J/GB: no bytes moved" "$T/p5.run"
ok $? "a - in IOPS/mA and J/GB says why (no I/O), not hidden"
python3 - "$T/p5.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["power"]
print("# result: active_ma %r, active_w %r" % (p["active_ma"], p["active_w"]))
sys.exit(0 if 0.0045 < p["active_ma"] < 0.0055 and 1e-5 < p["active_w"] < 2e-5 else 1)
PY
ok $? "the result keeps its own units: active_ma 0.005 (mA), active_w 1.5e-05 (W)"

# --units fixes a unit whatever the figure; a wrong one is refused naming the option.
start_emu ppk2 "$T/pf" --constant-ma 0.150 --volts 3.0 --duration 60
timeout 60 "$IOWATT" measure --meter "ppk2:$T/pf,vdd=3000" --idle 1s --idle-samples 2 \
	--tail-hold 0.2s --tail-max 0.5s --json-out "$T/pf.json" --no-progress --units mA,W \
	-- sleep 1 >"$T/pf.run" 2>&1
stop_emu
echo "# --units mA,W: $(summary_cells "$T/pf.run")"
summary_cells "$T/pf.run" | grep -Eq "^W mA 0\.000[0-9]{3} 0\.1[45][0-9]{2}$"
ok $? "--units mA,W: 150 uA in mA (0.15xx), 450 uW in W, same digits"
"$IOWATT" measure --no-meter --units volts=mV -- true >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "units" "$T/err" && grep -q "unknown quantity 'volts'" "$T/err"
ok $? "--units volts=mV is refused with exit 2, naming the option and why"
sed 's/^/#   /' "$T/err" | head -2

done_testing
