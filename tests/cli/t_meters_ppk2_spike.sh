#!/usr/bin/env bash
# PPK2 spike filter: an emulated range-switch transient is smoothed as Nordic's software does (on by default), kept with spike_filter=off.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# spike_run NAME SPEC_TAIL: a measure while the emulator steps 5 uA -> 20 mA -> 5 uA -> 20 mA (three
# range switches, each with the emulator's transient: 4x, 2x, 1.3x the new current on the
# switch and the two samples after it); raw samples in $T/NAME.samples.csv.
spike_run() {
	local name=$1 tail=$2 rc
	start_emu ppk2 "$T/$name" --step "0:0.005,2:20,3:0.005,4:20" --volts 3.3 --cable-ohms 0 \
		--truth "$T/$name.truth" --duration 60
	timeout 60 "$IOWATT" measure --meter "ppk2:$T/$name,vdd=3300$tail" --samples raw \
		--idle 1s --idle-samples 2 --tail-hold 0.2s --tail-max 0.5s \
		--json-out "$T/$name.json" -- sleep 3 >"$T/$name.run" 2>&1
	rc=$?
	ok $rc "measure with the PPK2 emulator ($name) exits 0"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/$name.run" | tail -5
	stop_emu
}

# check NAME MODE: the samples around the switches against the emulator's transient.
check() {
	python3 - "$T/$1.json" "$T/$1.samples.csv" "$T/$1.truth" "$2" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
mode = sys.argv[4]
a = [float(r["a"]) for r in csv.DictReader(open(sys.argv[2]))]
sw = [r for r in csv.DictReader(open(sys.argv[3])) if r["kind"] == "range_switch"]
spike = max(float(r["a"]) for r in sw) if sw else 0.0
peak = max(a)
proc = d["meters"][0]["processing"]
print("# %s: %d samples, %d range switches in the truth log (transient up to %.1f mA), "
      "peak read %.3f mA; processing: %s" % (mode, len(a), len(sw), spike * 1e3, peak * 1e3, proc))
if mode == "on":
    ok = len(sw) >= 1 and spike > 0.07 and peak < 0.0205 and proc.startswith("spike filter after")
else:
    ok = len(sw) >= 1 and peak > 0.07 and proc.startswith("spike filter off")
sys.exit(0 if ok else 1)
PY
}

spike_run on ""
check on on
ok $? "spike filter on (default): the 80 mA transient never reaches the samples (peak within 20.5 mA), the result says the filter ran"
spike_run off ",spike_filter=off"
check off off
ok $? "spike_filter=off: the emulated transient (4 x 20 mA) is in the raw samples, the result says so"

"$IOWATT" probe --meter "ppk2:$T/none,spike_filter=maybe" --seconds 1 >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "spike_filter" "$T/err"
ok $? "spike_filter=maybe is refused, naming the key"

done_testing
