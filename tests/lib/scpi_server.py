#!/usr/bin/env python3
# An SCPI instrument on a plain socket for tests, written apart from iowatt's emulator.
"""scpi_server.py MODE PORTFILE LOGFILE

Listens on a free port of 127.0.0.1 (its number written to PORTFILE) and plays a Keysight
E36312A: channel lists "(@N)", output 1 at 5 V / 120 mA, output 2 at 12 V / 250 mA,
output 3 at 3.3 V / 10 mA. Every command received is appended to LOGFILE.
Modes:

  ok       answers *IDN?, MEAS:CURR? (@N), MEAS:VOLT? (@N), SYST:ERR?, *CLS
  error    as ok, but every third MEAS:CURR? gets no reply and queues -222 (SCPI's rule
           for a query in error), which SYST:ERR? then gives
  endless  answers *IDN?, then sends one line without end (no LF)
  flood    answers *IDN?, then sends "1.0\\n" lines as fast as the kernel takes them
  silent   accepts and reads (and logs), never answers
  drop     as ok, but closes each connection after 10 MEAS:CURR?
  n6705    a Keysight N6705C with a digitizer: SENS:SWE:POIN/TINT (TINT rounded to
           20.48 us steps, as SENS:SWE:TINT? says), INIT:ACQ, *TRG, then FETC:ARR:CURR?
           and FETC:ARR:VOLT? (@N) answer once the acquisition would have ended: the
           first half of the points 100 mA, the second 300 mA, at 5 V
  n6705lies  as n6705, but SENS:SWE:TINT? says 1E+30 s whatever was set
"""
import socket
import sys
import threading
import time

from listen_port import listen

OUTPUTS = {1: (5.0, 0.120), 2: (12.0, 0.250), 3: (3.3, 0.010)}
IDN = "Keysight Technologies,E36312A,MY00000042,2.1.0-1.0.4-1.12"
IDN_N6705 = "Keysight Technologies,N6705C,MY00000043,D.03.01.1320"
TINT_STEP = 20.48e-6
log_lock = threading.Lock()


def log(path, line):
    with log_lock, open(path, "a") as f:
        f.write(line + "\n")


def channel(arg):
    arg = arg.strip()
    if not arg:
        return 1
    if arg.startswith("(@") and arg.endswith(")") and arg[2:-1].isdigit():
        n = int(arg[2:-1])
        return n if n in OUTPUTS else None
    return None


def digitizer(up, state):
    """The N6705C's acquisition commands: (handled, reply)."""
    if up.startswith("SENS:SWE:POIN "):
        state["points"] = int(up.split()[1].split(",")[0])
    elif up.startswith("SENS:SWE:TINT "):
        t = float(up.split()[1].split(",")[0])
        state["tint"] = max(1, round(t / TINT_STEP)) * TINT_STEP
    elif up.startswith("SENS:SWE:TINT?"):
        return True, "%+.6E" % (1e30 if state["mode"] == "n6705lies" else state["tint"])
    elif up.startswith(("SENS:FUNC:", "TRIG:ACQ:SOUR ")):
        pass
    elif up.startswith("INIT:ACQ"):
        state["armed"] = True
    elif up == "*TRG":
        if state.get("armed"):
            state["trg"] = time.monotonic()
            state["armed"] = False
    elif up.startswith(("FETC:ARR:CURR?", "FETC:ARR:VOLT?")):
        if "trg" not in state:
            state["errors"].append('-230,"Data corrupt or stale"')
            return True, None
        wait = state["trg"] + state["points"] * state["tint"] - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        n = state["points"]
        if "CURR" in up:
            vals = [0.100] * (n // 2) + [0.300] * (n - n // 2)
            state["fetches"] = state.get("fetches", 0) + 1
        else:
            vals = [5.0] * n
        return True, ",".join("%+.6E" % v for v in vals)
    else:
        return False, None
    return True, None


def answer(cmd, state):
    """The reply line to one command, or None for none."""
    up = cmd.strip().lstrip(":").upper()
    if up == "*IDN?":
        return IDN_N6705 if state["mode"].startswith("n6705") else IDN
    if state["mode"].startswith("n6705"):
        handled, reply = digitizer(up, state)
        if handled:
            return reply
    if up == "*CLS":
        state["errors"].clear()
        return None
    if up.startswith("SYST:ERR?") or up.startswith("SYSTEM:ERROR?"):
        return state["errors"].pop(0) if state["errors"] else '+0,"No error"'
    for q, idx in (("MEAS:CURR?", 1), ("MEAS:VOLT?", 0)):
        if up.startswith(q):
            ch = channel(up[len(q):])
            if ch is None:
                state["errors"].append('-222,"Data out of range"')
                return None
            if idx == 1:
                state["curr"] += 1
                if state["mode"] == "error" and state["curr"] % 3 == 0:
                    state["errors"].append('-222,"Data out of range"')
                    return None
            return "%+.6E" % OUTPUTS[ch][idx]
    state["errors"].append('-113,"Undefined header"')
    return None


def serve(c, mode, logpath):
    state = {"mode": mode, "errors": [], "curr": 0, "points": 1, "tint": TINT_STEP}
    buf = b""
    try:
        while True:
            d = c.recv(4096)
            if not d:
                return
            buf += d
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                cmd = line.decode(errors="replace").strip()
                log(logpath, cmd)
                if mode == "silent":
                    continue
                reply = answer(cmd, state)
                if reply is not None:
                    c.sendall((reply + "\n").encode())
                if mode in ("endless", "flood") and cmd.upper() == "*IDN?":
                    chunk = b"7" * 65536 if mode == "endless" else b"1.0\n" * 16384
                    while True:
                        c.sendall(chunk)
                if mode == "drop" and state["curr"] >= 10:
                    return
    except OSError:
        return
    finally:
        c.close()


def main():
    mode, portfile, logpath = sys.argv[1:4]
    s = listen(portfile, 8)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, mode, logpath), daemon=True).start()


if __name__ == "__main__":
    main()
