#!/usr/bin/env bash
# Meters behind ser2net (RFC 2217 and raw TCP) read as over their pty, for every serial family; errors.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"
. "$(dirname "$0")/../lib/ser2net_lib.sh"
s2n_need

# measure_via TAG SPEC: a short measure of `sleep 3` metered by SPEC, its result in $T/TAG.json.
measure_via() {
	timeout 90 "$IOWATT" measure --meter "$2" --idle 1s --idle-samples 2 --tail-hold 0.5s \
		--tail-max 1s --json-out "$T/$1.json" -- sleep 3 >"$T/$1.run" 2>&1
}

# figures TAG: the figures compared, one line (also what the report quotes).
figures() {
	python3 - "$T/$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m, p = d["meters"][0], d["jobs"][0]["power"]
rtt = m.get("link_rtt_ms")
print("active_w %.4f active_ma %.2f idle_w %.4f samples %d bad %d emulated %s rtt %s model '%s'" %
      (p["active_w"], p["active_ma"], p["idle_w"], m["samples"], m["frames_bad"],
       m["emulated"], "-" if rtt is None else "%.2f ms" % rtt, m["model"]))
PY
}

# same_figures A B: active W and mA within 0.2 %, idle W too, both emulated, no bad frame,
# B's link round trip reported.
same_figures() {
	python3 - "$T/$1.json" "$T/$2.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
pa, pb = a["jobs"][0]["power"], b["jobs"][0]["power"]
ok = all(abs(pa[k] - pb[k]) <= 0.002 * abs(pa[k]) for k in ("active_w", "active_ma", "idle_w"))
ok = ok and a["meters"][0]["emulated"] and b["meters"][0]["emulated"]
ok = ok and b["meters"][0]["frames_bad"] == 0 and b["meters"][0]["samples"] > 0
# The link's round trip: reported for the network port, null for the pty.
ok = ok and a["meters"][0]["link_rtt_ms"] is None and b["meters"][0]["link_rtt_ms"] >= 0
sys.exit(0 if ok else 1)
PY
}

# 1. Every serial family: the pty, then RFC 2217, then raw TCP, from one emulator (seed 1).
# FNIRSI meters are USB HID, not serial: ser2net cannot serve them.
family() { # EMU DRIVER SPEC_TAIL EMU_ARGS...
	local emu=$1 drv=$2 tail=$3 tag
	shift 3
	if ! start_emu "$emu" "$T/$emu" --constant-ma 250 --seed 1 --duration 300 "$@"; then
		ok 1 "$emu emulator up"
		return
	fi
	if ! s2n_start "$T/$emu"; then
		ok 1 "ser2net up in front of the $emu emulator"
		stop_emu
		return
	fi
	measure_via "$emu-pty" "$drv:$T/$emu$tail"
	ok $? "$emu over its pty: measure exits 0"
	for tag in rfc2217 tcp; do
		if [ $tag = rfc2217 ]; then port=$S2N_RFC; else port=$S2N_RAW; fi
		measure_via "$emu-$tag" "$drv:$tag://127.0.0.1:$port$tail"
		ok $? "$emu over $tag: measure exits 0"
		same_figures "$emu-pty" "$emu-$tag"
		ok $? "$emu over $tag: the pty's figures (active W, mA, idle W within 0.2 %), no bad frame, EMULATED, round trip reported"
		grep -q "EMULATED" "$T/$emu-$tag.run"
		ok $? "$emu over $tag: the summary says EMULATED"
	done
	for tag in pty rfc2217 tcp; do
		echo "# $emu $tag: $(figures "$emu-$tag")"
	done
	s2n_stop
	stop_emu
}

family um25c um25c ""
family tc66c tc66c ""
family atorch atorch ""
family atorch-dc atorch "" --volts 12 --cable-ohms 0
family ppk2 ppk2 ",vdd=5000" --volts 5.0 --cable-ohms 0

# 2. 0xFF in the data, which RFC 2217 sends as IAC IAC. TC66C: a current sweeping
# 250-262 mA (0.04 mA every 10 ms) gives AES blocks of many values, some holding 0xFF.
# PPK2: a current whose ADC code ends in 0xFF (ppk2_ff_ma), so every sample word starts
# with 0xFF. Seen first on the raw port (the bytes as the meter sends them), then read over
# RFC 2217 with no bad frame and nothing lost (a 0xFF left doubled or dropped shifts
# every later word, which the PPK2's counter shows as lost samples).
SWEEP=$(python3 -c 'print(",".join("%.2f:%.2f" % (i * 0.01, 250 + 0.04 * (i % 300)) for i in range(3000)))')
count_ff() { # PORT KIND: 0xFF bytes in what the meter sends on the raw port
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
buf, end = b"", time.time() + 20
if sys.argv[2] == "tc66c":
    time.sleep(0.5)  # ser2net opens the pty once the client is in
    # Only the AES blocks holding V, A and W change: many replies, each another current.
    for _ in range(150):
        s.sendall(b"getva")
        want = len(buf) + 192
        while len(buf) < want and time.time() < end:
            buf += s.recv(4096)
        time.sleep(0.02)
else:  # ppk2: ampere mode, start, a second of words, stop
    # ser2net opens the pty once the client is in: what is sent before can be lost (or
    # cut), so it waits first, and the start is sent again until words come.
    time.sleep(0.5)
    s.settimeout(1)
    while len(buf) < 400000 and time.time() < end:
        if not buf:
            s.sendall(bytes([0x11, 1, 0x06]))
        try:
            buf += s.recv(65536)
        except socket.timeout:
            pass
    s.sendall(bytes([0x07]))
print("%d of %d" % (buf.count(b"\xff"), len(buf)))
PY
}

ff_case() { # EMU DRIVER SPEC_TAIL WHAT EMU_ARGS...
	local emu=$1 drv=$2 tail=$3 what=$4 n
	shift 4
	start_emu "$emu" "$T/$emu-ff" --duration 300 "$@" &&
		s2n_start "$T/$emu-ff"
	ok $? "$emu behind ser2net ($what)"
	n=$(count_ff "$S2N_RAW" "$emu")
	[ "${n%% *}" -gt 0 ] 2>/dev/null
	ok $? "$emu: the meter's bytes hold 0xFF ($n bytes of its output)"
	timeout 60 "$IOWATT" probe --meter "$drv:rfc2217://127.0.0.1:$S2N_RFC$tail" --seconds 3 \
		>"$T/$emu-ff.probe" 2>&1
	ok $? "$emu over RFC 2217: probe exits 0"
	grep -q "^probe: [1-9][0-9]* samples, .* 0 bad frames, 0 gaps, 0 reconnects, 0 overruns" \
		"$T/$emu-ff.probe"
	ok $? "$emu over RFC 2217: every frame good, nothing lost ($(grep '^probe:' "$T/$emu-ff.probe"))"
	s2n_stop
	stop_emu
}
# ppk2_ff_ma: a current whose ADC code ends in 0xFF, found on the emulator's own pty
# (the code follows the calibration and formula, which may change): read the code at
# two currents, aim at the next code ending in 0xFF, correct from what is read there.
ppk2_ff_ma() {
	python3 - "$IOWATT" "$T/ppk2-cal" <<'PY'
import os, struct, subprocess, sys, termios, time, collections
iowatt, link = sys.argv[1], sys.argv[2]
def code(ma):
    p = subprocess.Popen([iowatt, "emulate", "ppk2", "--link", link, "--constant-ma",
                          "%.4f" % ma, "--duration", "30"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.islink(link):
                break
            time.sleep(0.05)
        fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
        a = termios.tcgetattr(fd)
        a[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
        a[0] = a[1] = 0
        termios.tcsetattr(fd, termios.TCSANOW, a)
        os.write(fd, bytes([0x11, 1, 0x06]))
        buf, end = b"", time.time() + 10
        while len(buf) < 40000 and time.time() < end:
            buf += os.read(fd, 65536)
        os.write(fd, bytes([0x07]))
        os.close(fd)
        n = len(buf) // 4 * 4
        return collections.Counter(struct.unpack_from("<I", buf, i)[0] & 0x3FFF
                                   for i in range(0, n, 4)).most_common(1)[0][0]
    finally:
        p.terminate()
        p.wait()
lo, hi = 250.0, 251.0
c_lo, c_hi = code(lo), code(hi)
per_code = (hi - lo) / (c_hi - c_lo)
target = c_lo + (0xFF - c_lo) % 256
ma = lo + (target - c_lo) * per_code
for _ in range(4):
    c = code(ma)
    if c & 0xFF == 0xFF:
        print("%.4f %d" % (ma, c))
        sys.exit(0)
    ma += (target - c) * per_code * 0.9 if c != target else per_code * 0.3
print("none")
PY
}
ff_case tc66c tc66c "" "a sweeping current" --step "$SWEEP" --update-ms 10
read -r FF_MA FF_CODE < <(ppk2_ff_ma)
if [ "$FF_MA" != none ]; then
	ff_case ppk2 ppk2 ",vdd=5000" "$FF_MA mA, ADC code $FF_CODE" --constant-ma "$FF_MA"
else
	ok 1 "a PPK2 current whose ADC code ends in 0xFF"
fi

# 3. A drop: ser2net is stopped mid-run and started again on the same ports; the meter
# reconnects, the gap is counted and the run goes on.
drop_case() { # EMU DRIVER SCHEME SPEC_TAIL
	local emu=$1 drv=$2 scheme=$3 tail=$4 port rfc raw pid
	start_emu "$emu" "$T/$emu-drop" --constant-ma 250 --duration 300 --truth "$T/$emu-drop.truth" &&
		s2n_start "$T/$emu-drop"
	ok $? "$emu behind ser2net for the drop"
	rfc=$S2N_RFC
	raw=$S2N_RAW
	if [ "$scheme" = rfc2217 ]; then port=$rfc; else port=$raw; fi
	timeout 120 "$IOWATT" measure --meter "$drv:$scheme://127.0.0.1:$port$tail" --idle 1s \
		--idle-samples 2 --tail-hold 0.5s --tail-max 1s --json-out "$T/$emu-drop.json" \
		-- sleep 12 >"$T/$emu-drop.run" 2>&1 &
	pid=$!
	# Stopped once the meter is being read through it (the emulator logs what it sent).
	wait_for "$T/$emu-drop.truth" ',(reply|stream)$' 5
	ok $? "$emu: readings flow through ser2net"
	s2n_stop
	sleep 1
	s2n_start "$T/$emu-drop" "$rfc" "$raw"
	ok $? "ser2net started again on the same ports"
	wait "$pid"
	ok $? "$emu over $scheme: the measure with a drop exits 0"
	[ "$(jget "$T/$emu-drop.json" 'd["meters"][0]["reconnects"] >= 1 and d["meters"][0]["gaps"] >= 1')" = True ]
	ok $? "$emu over $scheme: the drop is a gap and a reconnect ($(jget "$T/$emu-drop.json" '"gaps %d, reconnects %d" % (d["meters"][0]["gaps"], d["meters"][0]["reconnects"])'))"
	grep -q "reconnect" "$T/$emu-drop.run"
	ok $? "$emu over $scheme: the run says it reconnected"
	s2n_stop
	stop_emu
}
drop_case um25c um25c rfc2217 ""
drop_case ppk2 ppk2 tcp ",vdd=5000"

# A stop while the link is down: the meter thread is reconnecting (connects refused, the
# back-off waiting) and SIGTERM still ends the run at once with its result, not after
# the command's 60 s.
start_emu um25c "$T/um-stop" --constant-ma 250 --duration 300 --truth "$T/um-stop.truth" &&
	s2n_start "$T/um-stop"
ok $? "um25c behind ser2net for the stop"
timeout 120 "$IOWATT" measure --meter "um25c:rfc2217://127.0.0.1:$S2N_RFC" --idle 1s \
	--idle-samples 2 --json-out "$T/um-stop.json" -- sleep 60 >"$T/um-stop.run" 2>&1 &
pid=$!
wait_for "$T/um-stop.truth" ',reply$' 5
s2n_stop
wait_for "$T/um-stop.run" 'link lost'
ok $? "the meter's link is lost with ser2net gone"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc -ne 124 ] && [ "$(jget "$T/um-stop.json" 'd["jobs"][0]["status"]')" = interrupted ]
ok $? "SIGTERM while the meter reconnects: the run ends with an interrupted result (rc=$rc), not at the timeout"
stop_emu

# A slow link: a proxy holding the meter's bytes for 150 ms stretches each poll's round
# trip past half a 200 ms interval; iowatt says so (the period is never stretched
# silently) and the readings are still good (the 300 ms reply timeout is not reached).
slow=$(free_port)
start_emu um25c "$T/um-slow" --constant-ma 250 --duration 300 && s2n_start "$T/um-slow"
ok $? "um25c behind ser2net for the slow link"
python3 - "$slow" "$S2N_RAW" 0.15 <<'PY' &
import socket, sys, threading, time, collections
lp, tp, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", lp))
ls.listen(1)
c, _ = ls.accept()
s = socket.create_connection(("127.0.0.1", tp))
q, cv = collections.deque(), threading.Condition()
def reader():  # server -> queue, each chunk due `delay` after it came
    while True:
        d = s.recv(65536)
        with cv:
            q.append((time.time() + delay, d))
            cv.notify()
        if not d:
            return
def writer():  # queue -> client when due: a link with latency, not a slow pipe
    while True:
        with cv:
            while not q:
                cv.wait()
            due, d = q.popleft()
        time.sleep(max(0.0, due - time.time()))
        try:
            if not d:
                c.close()
                return
            c.sendall(d)
        except OSError:  # iowatt closed its end
            return
def upstream():  # client -> server at once
    while True:
        try:
            d = c.recv(65536)
            if not d:
                s.close()
                return
            s.sendall(d)
        except OSError:
            return
for f in (reader, writer, upstream):
    threading.Thread(target=f, daemon=True).start()
time.sleep(60)
PY
PROXY_PID=$!
for _ in $(seq 100); do listening "$slow" && break; sleep 0.05; done
timeout 90 "$IOWATT" measure --meter "um25c:tcp://127.0.0.1:$slow,interval=200ms" --idle 1s \
	--idle-samples 2 --tail-hold 0.5s --tail-max 1s --json-out "$T/slow.json" -- sleep 2 \
	>"$T/slow.out" 2>&1
rc=$?
grep -q "meter 'um25c:tcp://127.0.0.1:$slow,interval=200ms': a reply took [0-9]* ms, over half the 200 ms poll interval" "$T/slow.out"
ok $? "a slow link: the stretched round trip is said, with the interval"
[ "$(jget "$T/slow.json" 'any("over half the 200 ms poll interval" in (e.get("text") or "") for e in d["events"])')" = True ]
ok $? "and it is an event of the result"
[ $rc -eq 0 ] && [ "$(jget "$T/slow.json" 'd["meters"][0]["frames_bad"] == 0 and d["meters"][0]["samples"] > 0')" = True ]
ok $? "and the readings through it are good (rc=$rc)"
grep "a reply took" "$T/slow.out" | sed 's/^/#   /'
kill "$PROXY_PID" 2>/dev/null
wait "$PROXY_PID" 2>/dev/null
s2n_stop
stop_emu

# 4. Errors: named, non-zero, bounded. A port nobody listens on is refused; TEST-NET-1
# (192.0.2.1, RFC 5737) is routed nowhere: refused, unreachable or no answer, whichever
# this network says, within the 3 s connect bound.
port=$(free_port)
timeout 30 "$IOWATT" probe --meter "um25c:tcp://127.0.0.1:$port" --seconds 1 >"$T/refused.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "meter 'um25c:tcp://127.0.0.1:$port': cannot connect .*connection refused" "$T/refused.out"
ok $? "a refused port: non-zero exit, the spec and 'connection refused' named (rc=$rc)"
sed 's/^/#   /' "$T/refused.out" | head -n 3
timeout 30 "$IOWATT" probe --meter "tc66c:rfc2217://192.0.2.1:4001" --seconds 1 >"$T/unreach.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qE "meter 'tc66c:rfc2217://192.0.2.1:4001': cannot connect to 192.0.2.1:4001 within 3.0 s: (connection refused|host unreachable|no answer)" "$T/unreach.out"
ok $? "an unreachable host: non-zero exit within the bound, the cause named (rc=$rc)"
sed 's/^/#   /' "$T/unreach.out" | head -n 3
timeout 30 "$IOWATT" probe --meter "ppk2:tcp://no-such-host.invalid:4001" --seconds 1 >"$T/noname.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "cannot resolve host 'no-such-host.invalid'" "$T/noname.out"
ok $? "an unresolvable name: non-zero exit, the name given"
timeout 30 "$IOWATT" probe --meter "um25c:tcp://127.0.0.1" --seconds 1 >"$T/noport.out" 2>&1
[ $? -ne 0 ] && grep -q "expected tcp://HOST:PORT" "$T/noport.out"
ok $? "a URL without a port: refused, saying the form"

# A server that accepts and says nothing: RFC 2217 gives up on its negotiation, raw TCP
# on the meter's silence; both within their bounds and saying which.
silent=$(free_port)
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4); conns = []
end = time.time() + 60
while time.time() < end:
    s.settimeout(1)
    try: conns.append(s.accept()[0])
    except socket.timeout: pass
' "$silent" &
SILENT_PID=$!
for _ in $(seq 100); do listening "$silent" && break; sleep 0.05; done
timeout 30 "$IOWATT" probe --meter "um25c:rfc2217://127.0.0.1:$silent" --seconds 1 >"$T/silent1.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "did not answer COM-PORT-OPTION (RFC 2217); is it a raw TCP port? then use tcp://127.0.0.1:$silent" "$T/silent1.out"
ok $? "RFC 2217 to a server that never negotiates: a clear error, non-zero (rc=$rc)"
timeout 30 "$IOWATT" probe --meter "um25c:tcp://127.0.0.1:$silent" --seconds 1 >"$T/silent2.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "no valid reply to 0xF0" "$T/silent2.out"
ok $? "raw TCP to a silent server: the meter's own timeout, non-zero (rc=$rc)"
kill "$SILENT_PID" 2>/dev/null
wait "$SILENT_PID" 2>/dev/null

done_testing
