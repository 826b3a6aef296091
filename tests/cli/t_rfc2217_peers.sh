#!/usr/bin/env bash
# Honest RFC 2217 servers (issue 34): pyserial's PortManager and ser2net confirm the line, and iowatt goes on at once, on connect and reconnect.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"
. "$(dirname "$0")/../lib/ser2net_lib.sh"

PY=/usr/bin/python3 # Debian's python, with python3-serial (tests/deps.sh)
PY_PID=""
peers_cleanup() {
	[ -n "$PY_PID" ] && kill "$PY_PID" 2>/dev/null && wait "$PY_PID" 2>/dev/null
	s2n_cleanup
}
trap peers_cleanup EXIT

# probe_peer NAME PORT SECONDS: a probe over RFC 2217; $rc, and $extra_ms: how much longer
# than SECONDS it took (the connect, the handshake, the first reply, the exit).
probe_peer() {
	local t0=$(date +%s%N)
	timeout 60 "$IOWATT" probe --meter "um25c:rfc2217://127.0.0.1:$2" --seconds "$3" >"$T/$1.out" 2>&1
	rc=$?
	extra_ms=$((($(date +%s%N) - t0) / 1000000 - $3 * 1000))
}

# confirmed NAME: the line was confirmed (no wait for an answer that does not come), and
# every reading was good.
confirmed() {
	! grep -q "did not confirm the line settings" "$T/$1.out" &&
		grep -qE "^probe: [1-9][0-9]* samples, .* 0 bad frames" "$T/$1.out"
}

start_emu um25c "$T/um" --constant-ma 250 --duration 600
ok $? "um25c emulator up"

# 1. pyserial's PortManager: answers every line setting, never SIGNATURE.
if ! "$PY" -c 'import serial.rfc2217' 2>/dev/null; then
	skip "pyserial (python3-serial) is not installed: tests/deps.sh installs it"
	skip "pyserial: reconnect"
else
	pyserial_start() { # DROP_AFTER_S: the server, its port in $PY_PORT
		local pf=$T/py.$RANDOM.port
		"$PY" "$REPO/tests/lib/pyserial_rfc2217.py" "$T/um" "$pf" "$1" 2>>"$T/py.err" &
		PY_PID=$!
		PY_PORT=$(port_from "$pf")
	}
	pyserial_stop() {
		kill "$PY_PID" 2>/dev/null
		wait "$PY_PID" 2>/dev/null
		PY_PID=""
	}
	pyserial_start 0
	probe_peer py "$PY_PORT" 3
	[ $rc -eq 0 ] && confirmed py
	ok $? "pyserial's PortManager: the line confirmed without SIGNATURE, probe --seconds 3 took ${extra_ms} ms more (rc=$rc)"
	[ $rc -eq 0 ] || tail -n 3 "$T/py.out" "$T/py.err" | sed 's/^/#   /'
	pyserial_stop
	# The first connection is closed after 1.5 s: the reconnect has the same handshake.
	pyserial_start 1.5
	probe_peer py-drop "$PY_PORT" 4
	[ $rc -eq 0 ] && confirmed py-drop && grep -qE "^probe: .* 1 reconnects" "$T/py-drop.out"
	ok $? "pyserial: a dropped link reconnects without a wait or a warning (${extra_ms} ms more than --seconds 4, rc=$rc)"
	[ $rc -eq 0 ] || tail -n 3 "$T/py-drop.out" | sed 's/^/#   /'
	pyserial_stop
fi

# 2. ser2net (which also answers SIGNATURE): the same.
if ! command -v ser2net >/dev/null 2>&1; then
	skip "ser2net is not installed: tests/deps.sh installs it"
elif ! s2n_start "$T/um"; then
	ok 1 "ser2net in front of the emulator"
else
	probe_peer s2n "$S2N_RFC" 3
	[ $rc -eq 0 ] && confirmed s2n
	ok $? "ser2net: the line confirmed, probe --seconds 3 took ${extra_ms} ms more (rc=$rc)"
	s2n_stop
fi
stop_emu

done_testing
