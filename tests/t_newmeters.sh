#!/usr/bin/env bash
# FNB58, TC66C, ATORCH and PPK2 emulators end to end: energy against truth, faults, binning.
. "$(dirname "$0")/lib.sh"

T=$T_TMP
EMU_PIDS=()
emu_cleanup() {
	local p
	for p in "${EMU_PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done
	for p in "${EMU_PIDS[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done
	t_cleanup
}
trap emu_cleanup EXIT

# start_emu NAME LINK ARGS...: the emulator in the background, once its link is there.
start_emu() {
	local name=$1 link=$2 i
	shift 2
	"$IOWATT" emulate "$name" --link "$link" "$@" >"$link.out" 2>"$link.err" &
	EMU_PID=$!
	EMU_PIDS+=("$EMU_PID")
	for i in $(seq 1 100); do
		[ -L "$link" ] && grep -q EMULATED "$link.out" && return 0
		sleep 0.05
	done
	return 1
}

stop_emu() {
	kill "$EMU_PID" 2>/dev/null
	wait "$EMU_PID" 2>/dev/null
}

# energy_vs_truth RESULT TRUTH: the active phase's energy against the emulator's updates.
energy_vs_truth() {
	python3 - "$1" "$2" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
t0, t1 = j["phases"]["active"]["t_start_ns"], j["phases"]["active"]["t_end_ns"]
meas = j["power"]["energy_active_j"]
u = [r for r in csv.DictReader(open(sys.argv[2])) if r["kind"] == "update"]
true = 0.0
for i in range(len(u)):  # each update holds until the next
    a = max(int(u[i]["t_ns"]), t0)
    b = min(int(u[i + 1]["t_ns"]) if i + 1 < len(u) else t1, t1)
    if b > a:
        true += float(u[i]["w"]) * (b - a) / 1e9
err = abs(meas - true) / true
print("# %s: %.5f J measured, %.5f J true, error %.3f %%, %d samples, valid %s" %
      (d["meters"][0]["model"], meas, true, err * 100, j["validity"]["samples_active"],
       j["validity"]["valid"]))
sys.exit(0 if err < 0.005 else 1)
PY
}

# 1. Constant load through `iowatt measure`, each protocol at its real interface.
measure_one() { # NAME SPEC_TAIL SECONDS EMU_ARGS...
	local name=$1 tail=$2 secs=$3
	shift 3
	start_emu "$name" "$T/$name" --constant-ma 250 --truth "$T/$name.truth" --duration 60 "$@"
	ok $? "$name emulator up"
	grep -q "EMULATED" "$T/$name.out"
	ok $? "$name emulator says EMULATED"
	timeout 60 "$IOWATT" measure --meter "${name%-dc}:$T/$name$tail" --idle 2s \
		--json-out "$T/$name.json" -- sleep "$secs" >"$T/$name.run" 2>&1
	ok $? "measure with the $name emulator exits 0"
	grep -q "EMULATED" "$T/$name.run"
	ok $? "$name: the summary says EMULATED"
	energy_vs_truth "$T/$name.json" "$T/$name.truth"
	ok $? "$name: active-phase energy within 0.5 % of the emulator's truth"
	stop_emu
}

measure_one fnb58 "" 3
if "$IOWATT" emulate --help 2>&1 | grep -q tc66c; then
	measure_one tc66c ",interval=100ms" 3
else
	skip "built without nettle: no tc66c"
fi
measure_one atorch "" 4
jget "$T/atorch.json" "d['jobs'][0]['validity']['reasons'][0]" | grep -q "at 1 Hz a job needs >= 20 s"
ok $? "atorch: a short job is invalid and says how long a job must run"
# The DC layout has 100 mV steps: a 12 V supply without sag is read exactly.
measure_one atorch-dc "" 4 --volts 12 --cable-ohms 0
jget "$T/atorch-dc.json" "d['meters'][0]['model']" | grep -q "ATORCH DC"
ok $? "atorch-dc: read as a DC meter"
measure_one ppk2 ",vdd=5000" 3 --volts 5.0 --cable-ohms 0
jget "$T/ppk2.json" "d['meters'][0]['overruns']" | grep -qx 0
ok $? "ppk2: no sample lost at 100 kS/s"
head -n 1 "$T/ppk2.samples.csv" | grep -q ',n,v_min,v_max,a_min,a_max,w_min,w_max$'
ok $? "ppk2: the samples file is binned (min/mean/max columns)"
awk -F, 'NR > 1 { n++; if ($7 < 90 || $7 > 101) bad++ } END { exit !(n > 3000 && bad < n / 50) }' \
	"$T/ppk2.samples.csv"
ok $? "ppk2: about 100 samples per 1 ms bin"

# 2. Faults: corrupt frames, a stall and a hang-up; no hang, counted, readings resume.
fault_one() { # NAME SPEC_TAIL COUNTER SECONDS EMU_ARGS...
	local name=$1 tail=$2 counter=$3 secs=$4 summary n
	shift 4
	start_emu "$name" "$T/f$name" --constant-ma 200 --corrupt-pct 10 --duration 40 --seed 3 "$@"
	ok $? "faulty $name emulator up"
	timeout 40 "$IOWATT" probe --meter "${name%-dc}:$T/f$name$tail" --seconds "$secs" \
		>"$T/f$name.probe" 2>&1
	ok $? "$name: probe survives corrupt frames, a stall and a hang-up"
	summary=$(grep '^probe:' "$T/f$name.probe")
	echo "# $summary"
	n=$(echo "$summary" | sed -n "s/.* \([0-9]*\) $counter.*/\1/p")
	[ "${n:-0}" -gt 0 ]
	ok $? "$name: broken frames counted ($counter: $n)"
	n=$(echo "$summary" | sed -n 's/.* \([0-9]*\) reconnects.*/\1/p')
	[ "${n:-0}" -ge 1 ]
	ok $? "$name: the hang-up is a reconnect ($n)"
	grep -q "event: meter_gap" "$T/f$name.probe"
	ok $? "$name: gaps are events"
	tail -n 3 "$T/f$name.probe" | grep -q ' 200.0 mA'
	ok $? "$name: readings resume after the faults"
	stop_emu
}

FAULTS="--stall 3@2 --hangup 2@7"
fault_one fnb58 "" "bad frames" 13 $FAULTS
if "$IOWATT" emulate --help 2>&1 | grep -q tc66c; then
	fault_one tc66c "" "bad frames" 13 $FAULTS
else
	skip "built without nettle: no tc66c"
fi
# One report a second: the faults come after the first few, and the run is longer.
fault_one atorch "" "bad frames" 22 --stall 3@6 --hangup 3@12 --corrupt-pct 30
fault_one ppk2 ",vdd=5000" "overruns" 13 $FAULTS --volts 5.0

# 3. Spec checks before any device is touched.
"$IOWATT" probe --meter "ppk2:$T/none,mode=source" --seconds 1 >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "mode=source powers the device: give vdd" "$T/err"
ok $? "ppk2: source mode without vdd= is refused"
"$IOWATT" probe --meter "fnb58:auto" --seconds 1 --sysfs-root "$T" >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "no FNIRSI tester" "$T/err"
ok $? "fnb58:auto with no tester says so"
"$IOWATT" meters --help >"$T/help.out" 2>&1
grep -q "fnb58:auto" "$T/help.out" && grep -q "ppk2:/dev/ttyACM0" "$T/help.out" &&
	grep -q "check=on|off" "$T/help.out"
ok $? "iowatt meters --help lists the new drivers and their keys"

done_testing
