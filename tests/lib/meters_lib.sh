# Helpers for the FNB58, TC66C, ATORCH and PPK2 emulator tests (sourced after lib.sh).

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

measure_one() { # NAME SPEC_TAIL SECONDS EMU_ARGS...
	local name=$1 tail=$2 secs=$3
	shift 3
	start_emu "$name" "$T/$name" --constant-ma 250 --truth "$T/$name.truth" --duration 60 "$@"
	ok $? "$name emulator up"
	grep -q "EMULATED" "$T/$name.out"
	ok $? "$name emulator says EMULATED"
	timeout 60 "$IOWATT" measure --meter "${name%-dc}:$T/$name$tail" --idle 1s --idle-samples 2 --tail-hold 0.5s --tail-max 1s \
		--json-out "$T/$name.json" -- sleep "$secs" >"$T/$name.run" 2>&1
	ok $? "measure with the $name emulator exits 0"
	grep -q "EMULATED" "$T/$name.run"
	ok $? "$name: the summary says EMULATED"
	energy_vs_truth "$T/$name.json" "$T/$name.truth"
	ok $? "$name: active-phase energy within 0.5 % of the emulator's truth"
	stop_emu
}

# wait_for FILE ERE [COUNT]: until FILE has COUNT lines matching ERE. The bound only
# keeps a broken reader from hanging the suite; nothing is asserted about how long it took.
wait_for() {
	local f=$1 re=$2 n=${3:-1} i
	for i in $(seq 400); do
		[ "$(grep -cE -- "$re" "$f" 2>/dev/null)" -ge "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# fault_one NAME SPEC_TAIL COUNTER EMU_ARGS...: a probe through corrupt frames, a stall and a
# hang-up. Each fault is asked for (SIGUSR1, SIGUSR2) once the probe has shown what comes
# before it, so the order of events decides, not the clock: readings, a stall, readings
# again, a hang-up, readings after the reconnect.
fault_one() {
	local name=$1 tail=$2 counter=$3 summary n probe pid rc reading
	shift 3
	probe="$T/f$name.probe"
	reading=" [0-9.]+ mA .* S/s"
	# Broken frames show on the lines; a PPK2's lost samples only in the totals.
	bad="bad [0-9]+"
	[ "$counter" = "bad frames" ] && bad="bad [1-9]"
	start_emu "$name" "$T/f$name" --constant-ma 200 --corrupt-pct 10 --duration 120 --seed 3 \
		--stall 2@signal --hangup 2@signal "$@"
	ok $? "faulty $name emulator up"
	timeout 100 "$IOWATT" probe --meter "${name%-dc}:$T/f$name$tail" >"$probe" 2>&1 &
	pid=$!
	wait_for "$probe" "$reading" 2 &&
		kill -USR1 "$EMU_PID" && wait_for "$T/f$name.err" "stall over" &&
		n=$(grep -cE -- "$reading" "$probe") && wait_for "$probe" "$reading" $((n + 1)) &&
		kill -USR2 "$EMU_PID" && wait_for "$T/f$name.err" "back on" &&
		wait_for "$probe" " 200\.0 mA .*$bad.*reconnects [1-9]" 1
	ok $? "$name: readings, a stall, readings, a hang-up, then 200 mA readings again after the reconnect"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] && grep -q "^probe: " "$probe"
	ok $? "$name: probe survives corrupt frames, a stall and a hang-up, and ends on Ctrl-C (rc $rc)"
	[ "$rc" -eq 130 ] || sed 's/^/#   /' "$probe" | tail -n 15
	summary=$(grep '^probe:' "$probe")
	echo "# $summary"
	n=$(echo "$summary" | sed -n "s/.* \([0-9]*\) $counter.*/\1/p")
	[ "${n:-0}" -gt 0 ]
	ok $? "$name: broken frames counted ($counter: $n)"
	n=$(echo "$summary" | sed -n 's/.* \([0-9]*\) reconnects.*/\1/p')
	[ "${n:-0}" -ge 1 ]
	ok $? "$name: the hang-up is a reconnect ($n)"
	grep -q "event: meter_gap" "$probe"
	ok $? "$name: gaps are events"
	stop_emu
}

have_emulator() {
	"$IOWATT" emulate --help 2>&1 | grep -q "^  $1 "
}

# el_charges_ok CHECK LABEL: each kind's line "KIND VALUE U95 TRUTH HIT" in CHECK (event-locked's
# energy per op against the emulator's, HIT 1 within 2 x U95) as a test.
el_charges_ok() {
	local k
	for k in read write; do
		awk -v k=$k '$1 == k && $5 == 1 { f = 1 } END { exit !f }' "$1"
		ok $? "$2$k: the emulator's charge per op within 2 x the event-locked U95 ($(awk -v k=$k '$1 == k { print $2 " +- " $3 " uJ against " $4 }' "$1"))"
	done
}
