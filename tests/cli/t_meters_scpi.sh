#!/usr/bin/env bash
# The scpi: meter (issue 33.1) against its emulator (a pty, ser2net raw TCP, a USBTMC stand-in) and an independent SCPI server: figures, channels, SYST:ERR?, hostile servers, Ctrl-C.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"
. "$(dirname "$0")/../lib/ser2net_lib.sh"
. "$(dirname "$0")/../lib/bg_lib.sh"

SERVER=$REPO/tests/lib/scpi_server.py
SRV_PIDS=()
scpi_cleanup() {
	local p
	for p in "${SRV_PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	s2n_cleanup
}
trap scpi_cleanup EXIT

# srv_start MODE: the independent server, its port in $SPORT, what it was sent in $T/MODE.log.
srv_start() {
	: >>"$T/$1.log"
	python3 "$SERVER" "$1" "$T/$1.port" "$T/$1.log" 2>>"$T/server.err" &
	SRV_PIDS+=($!)
	SPORT=$(port_from "$T/$1.port")
}

# against MODE NAME SPEC_TAIL ARGS...: the MODE server, then a probe of it (ARGS after the
# spec) to its end; $rc, $ms, its output in $T/NAME.out.
against() {
	local mode=$1 name=$2 tail=$3
	shift 3
	srv_start "$mode"
	t0=$(date +%s%N)
	bg "$name" probe --meter "scpi:tcp://127.0.0.1:$SPORT$tail" "$@"
	finish
}

# interrupted MODE NAME FILE ERE: a probe of the MODE server, SIGINT once $T/FILE matches
# ERE; $rc, $ms.
interrupted() {
	srv_start "$1"
	bg "$2" probe --meter "scpi:tcp://127.0.0.1:$SPORT"
	wait_for "$T/$3" "$4" 1
	stop_with INT
}

# mean_of JSON: "W mA V samples" of the first job's active phase.
mean_of() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["jobs"][0]["power"]
print("%.4f %.3f %.4f %d %s" % (p["active_w"], p["active_ma"], p["active_v"],
      d["jobs"][0]["validity"]["samples_active"], d["meters"][0]["emulated"]))
PY
}

M_ARGS=(--idle 1s --idle-samples 2 --tail-hold 0.5s --tail-max 1s)

# 1. The emulator on its pty: energy against its truth.
measure_one scpi ",interval=50ms" 3

# Corrupt (cut) replies, a stall and a hang-up of the emulator: counted, reconnected, read on.
fault_one scpi "" "bad frames"

# 2. The emulator's DP832 through the USBTMC path (a pty named usbtmc0 standing in for
# the kernel's device: written and read as usbtmc is), output 2 by "CH2".
start_emu scpi "$T/usbtmc0" --constant-ma 250 --duration 60 --truth "$T/tmc.truth"
ok $? "scpi emulator up as usbtmc0"
timeout 60 "$IOWATT" measure --meter "scpi:$T/usbtmc0,ch=2,interval=50ms" "${M_ARGS[@]}" \
	--json-out "$T/tmc.json" -v -- sleep 2 >"$T/tmc.run" 2>&1
ok $? "measure through the USBTMC stand-in exits 0"
grep -q "USBTMC stand-in" "$T/tmc.run" && grep -q "DP832 ch2 (emulated)" "$T/tmc.run"
ok $? "it went through the usbtmc port, read output 2, and says emulated"
energy_vs_truth "$T/tmc.json" "$T/tmc.truth"
ok $? "usbtmc: active-phase energy within 0.5 % of the emulator's truth"
"$IOWATT" probe --meter "scpi:$T/usbtmc0,ch=4" --seconds 1 >"$T/ch4.out" 2>&1
[ $? -ne 0 ] && grep -q "ch=4, but iowatt knows 3 outputs of the DP832" "$T/ch4.out"
ok $? "ch=4 on a DP832: refused, saying why"
stop_emu

# 3. The emulator behind ser2net's raw TCP port: scpi:tcp://, still labelled emulated.
if command -v ser2net >/dev/null 2>&1; then
	start_emu scpi "$T/s2n" --constant-ma 180 --duration 60 --truth "$T/s2n.truth" &&
		s2n_start "$T/s2n"
	ok $? "scpi emulator behind ser2net"
	timeout 60 "$IOWATT" measure --meter "scpi:tcp://127.0.0.1:$S2N_RAW,interval=50ms" \
		"${M_ARGS[@]}" --json-out "$T/s2n.json" -- sleep 2 >"$T/s2n.run" 2>&1
	ok $? "measure over scpi:tcp:// exits 0"
	grep -q EMULATED "$T/s2n.run"
	ok $? "over TCP the emulator's figures still say EMULATED"
	energy_vs_truth "$T/s2n.json" "$T/s2n.truth"
	ok $? "tcp: active-phase energy within 0.5 % of the emulator's truth"
	s2n_stop
	stop_emu
else
	for i in 1 2 3 4; do skip "ser2net is not installed"; done
fi

# 4. The independent server (a Keysight E36312A in Python): each output's figures, by "(@N)".
srv_start ok
for c in "1 120.000 5.0000" "2 250.000 12.0000"; do
	set -- $c
	timeout 60 "$IOWATT" measure --meter "scpi:tcp://127.0.0.1:$SPORT,ch=$1,interval=50ms" \
		"${M_ARGS[@]}" --json-out "$T/ind$1.json" -- sleep 2 >"$T/ind$1.run" 2>&1
	ok $? "measure against the independent server, ch=$1, exits 0"
	read -r w ma v n emu < <(mean_of "$T/ind$1.json")
	echo "# independent server ch=$1: active $w W, $ma mA, $v V, $n samples, emulated $emu"
	[ "$ma" = "$2" ] && [ "$v" = "$3" ] && [ "$n" -ge 20 ] && [ "$emu" = False ]
	ok $? "ch=$1: the server's $2 mA at $3 V, not labelled emulated"
	grep -qxF "MEAS:CURR? (@$1)" "$T/ok.log" && grep -qxF "MEAS:VOLT? (@$1)" "$T/ok.log"
	ok $? "ch=$1: asked as the E36300 wants, MEAS:CURR? (@$1)"
done
grep -qxF "*IDN?" "$T/ok.log" && grep -qxF "SYST:ERR?" "$T/ok.log" && grep -qxF "*CLS" "$T/ok.log"
ok $? "it asked *IDN?, cleared old errors with *CLS and read SYST:ERR? at open"

# 4b. The buffered acquisition (points=): an N6705C digitizing 100 points per 200 ms,
# fetched with FETC:ARR:CURR?/VOLT?: a 500 S/s meter whose readings show the 100/300 mA
# square wave a 5 S/s poll would average away.
srv_start n6705
timeout 60 "$IOWATT" measure --meter "scpi:tcp://127.0.0.1:$SPORT,points=100,interval=200ms" \
	"${M_ARGS[@]}" --json-out "$T/arr.json" -- sleep 2 >"$T/arr.run" 2>&1
ok $? "measure with points=100 against the N6705C server exits 0"
read -r w ma v n emu < <(mean_of "$T/arr.json")
peak=$(python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["jobs"][0]["power"]["peak_ma"])' "$T/arr.json")
echo "# N6705C points=100: active $w W, $ma mA (peak $peak mA), $v V, $n samples"
python3 -c 'import sys; ma, n, peak = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]); sys.exit(0 if 180 <= ma <= 220 and n >= 500 and peak == 300.0 else 1)' "$ma" "$n" "$peak"
ok $? "the arrays' readings: a mean between the square's levels, its 300 mA peak, hundreds of samples"
grep -qxF "SENS:SWE:POIN 100,(@1)" "$T/n6705.log" && grep -qxF "TRIG:ACQ:SOUR BUS,(@1)" "$T/n6705.log" &&
	grep -qxF "FETC:ARR:CURR? (@1)" "$T/n6705.log" && grep -q "^SENS:SWE:TINT 0.002,(@1)" "$T/n6705.log"
ok $? "set up as the N6700 wants: 100 points 2 ms apart, bus trigger, FETC:ARR:CURR? (@1)"
grep -q "100 points 2007.04 us apart" "$T/arr.run"
ok $? "the samples are spaced as the instrument rounded the interval (SENS:SWE:TINT? 98 x 20.48 us)"
"$IOWATT" probe --meter "scpi:tcp://127.0.0.1:$SPORT,points=1000,interval=20ms" --seconds 1 >"$T/short.out" 2>&1
[ $? -ne 0 ] && grep -q "shorter than the N6705C's 20.5 us between points" "$T/short.out"
ok $? "points closer than the digitizer can: refused, saying why"
srv_start n6705lies
timeout 60 "$IOWATT" probe --meter "scpi:tcp://127.0.0.1:$SPORT,points=100,interval=200ms" --seconds 1 >"$T/lies.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "SENS:SWE:TINT? (@1) answered '+1.000000E+30'" "$T/lies.out" &&
	! grep -q "runtime error" "$T/lies.out"
ok $? "an interval between points longer than the whole interval (1E+30 s): refused, saying why ($(grep -m1 "TINT" "$T/lies.out"))"
srv_start ok
"$IOWATT" probe --meter "scpi:tcp://127.0.0.1:$SPORT,points=100" --seconds 1 >"$T/noarr.out" 2>&1
[ $? -ne 0 ] && grep -q "knows no buffered acquisition of the E36312A" "$T/noarr.out"
ok $? "points= on a model without one: refused, saying why"

# 5. Errors: every third MEAS:CURR? unanswered with -222 queued; SYST:ERR? reads it, the
# run reports it (log and event) and goes on reading.
against error err "" --seconds 4
[ $rc -eq 0 ] && grep -q 'reports SCPI error -222 "Data out of range" (after MEAS:CURR? (@1))' "$T/err.out" &&
	grep -q 'event: info .*SCPI error -222' "$T/err.out" &&
	grep -qE "^probe: [1-9][0-9]* samples, .* [1-9][0-9]* bad frames" "$T/err.out"
ok $? "an error reply: SYST:ERR?'s -222 reported with the query, counted bad, readings go on (rc=$rc)"

# 6. Hostile servers: an endless line and a flood end the link with a reason, not a hang.
against endless endless "" --seconds 3
[ $rc -ne 137 ] && grep -q "longer than 512 bytes" "$T/endless.out"
ok $? "an endless reply line: the link is dropped saying why, probe ends in $ms ms (rc=$rc)"
against flood flood "" --seconds 3
[ $rc -ne 137 ] && grep -qE "the server sends more than a meter can|longer than 512" "$T/flood.out" &&
	! grep -qE "^probe: [1-9]" "$T/flood.out"
ok $? "a flood of number lines: never taken as readings, refused saying why, in $ms ms (rc=$rc)"

# 7. A server that closes after ten readings: reconnects, readings go on.
against drop drop ",interval=50ms" --seconds 4
[ $rc -eq 0 ] && grep -qE "^probe: [1-9][0-9]+ samples, .* [1-9][0-9]* reconnects" "$T/drop.out"
ok $? "a server that hangs up: reconnected and read on (rc=$rc)"

# 8. Ctrl-C: while *IDN? waits on a silent server, and while readings fail on errors.
interrupted silent silent silent.log "IDN"
[ $rc -eq 130 ]
ok $? "SIGINT while *IDN? waits on a silent server: ends in $ms ms (rc=$rc, want 130)"
interrupted error errint errint.out "SCPI error"
[ $rc -eq 130 ] && grep -q "^probe: " "$T/errint.out"
ok $? "SIGINT while a reply is awaited: ends in $ms ms with its summary (rc=$rc)"

# 9. tcp://HOST alone is raw-socket SCPI's port 5025.
if ! listening 5025; then
	"$IOWATT" probe --meter "scpi:tcp://127.0.0.1" --seconds 1 >"$T/p5025.out" 2>&1
	grep -q "127.0.0.1:5025" "$T/p5025.out"
	ok $? "scpi:tcp://127.0.0.1 connects to port 5025"
else
	skip 1 "something listens on 5025 here"
fi

done_testing
