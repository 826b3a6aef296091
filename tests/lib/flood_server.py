#!/usr/bin/env python3
# A hostile serial server on 127.0.0.1 for tests: negotiates RFC 2217, then floods.
"""flood_server.py MODE PORTFILE [UPSTREAM_PORT AFTER_S [BYTES_PER_S]]

Listens on a free port of 127.0.0.1 (written to PORTFILE once it listens) and serves every
connection in a thread until killed. With UPSTREAM_PORT, an honest server there (ser2net
in front of an emulator) is relayed both ways until AFTER_S seconds after the first
connection, and the flood begins then (on that connection and on every later one).
UPSTREAM_PORT 0: no relay. BYTES_PER_S: the flood paced to that rate (0: as fast as the
kernel takes it).
Modes:

  ff       RFC 2217: negotiates as a server should, confirms every COM-PORT-OPTION command,
           then sends escaped 0xFF bytes (IAC IAC) without end
  data     the same, but ordinary bytes
  raw      no telnet at all: bytes from the first moment (a tcp:// port that floods)
  options  RFC 2217 negotiation, then telnet option requests (IAC DO/WILL x) without end,
           never reading again: the client's answers pile up in its send buffer
"""
import os
import select
import socket
import sys
import tempfile
import threading
import time

from listen_port import listen

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
COM_PORT = 44


def negotiate(c):
    """Answers the client's offers and COM-PORT-OPTION commands until it has set its line
    (SET-CONTROL seen) or half a second passes without a byte."""
    c.settimeout(0.5)
    buf = b""
    line_set = 0
    while line_set < 3:  # the three SET-CONTROL commands end the client's setup
        try:
            d = c.recv(4096)
        except socket.timeout:
            break
        if not d:
            return False
        buf += d
        out = b""
        i = 0
        while i < len(buf):
            if buf[i] != IAC:
                i += 1
                continue
            if i + 1 >= len(buf):
                break
            verb = buf[i + 1]
            if verb in (WILL, WONT, DO, DONT):
                if i + 2 >= len(buf):
                    break
                opt = buf[i + 2]
                if verb == WILL:
                    out += bytes([IAC, DO, opt])
                elif verb == DO:
                    out += bytes([IAC, WILL, opt])
                i += 3
            elif verb == SB:
                end = buf.find(bytes([IAC, SE]), i)
                if end < 0:
                    break
                sb = buf[i + 2:end]
                if len(sb) >= 2 and sb[0] == COM_PORT:
                    out += bytes([IAC, SB, COM_PORT, sb[1] + 100]) + sb[2:] + bytes([IAC, SE])
                    if sb[1] == 5:
                        line_set += 1
                i = end + 2
            else:
                i += 2
        buf = buf[i:]
        if out:
            c.sendall(out)
    c.settimeout(None)
    return True


def relay_until(c, up, t_flood, quiet):
    """Copies both ways until t_flood (time.time()); from then on the client's bytes are
    read and dropped by a thread (unless quiet: the options flood never reads)."""
    stop = threading.Event()

    def upward():
        try:
            while not stop.is_set():
                d = c.recv(65536)
                if not d:
                    return
                up.sendall(d)
        except OSError:
            return
        if not quiet:
            drain(c)

    threading.Thread(target=upward, daemon=True).start()
    while time.time() < t_flood:
        r, _, _ = select.select([up], [], [], max(0.0, t_flood - time.time()))
        if r:
            d = up.recv(65536)
            if not d:
                break
            c.sendall(d)
    stop.set()
    up.close()


def drain(c):
    try:
        while c.recv(65536):
            pass
    except OSError:
        pass


def serve(c, mode, upstream, t_flood, rate):
    try:
        if upstream and time.time() < t_flood:
            relay_until(c, socket.create_connection(("127.0.0.1", upstream)), t_flood,
                        mode == "options")
        else:
            if mode != "raw" and not negotiate(c):
                return
            if mode != "options":
                threading.Thread(target=drain, args=(c,), daemon=True).start()
        if mode == "ff":
            chunk = bytes([IAC]) * 65536
        elif mode == "data":
            chunk = bytes(range(0, 255)) * 256
        elif mode == "raw":
            chunk = bytes(range(256)) * 256
        else:  # options: unknown ones, which the client must refuse one by one
            chunk = b"".join(bytes([IAC, DO if i % 2 else WILL, 100 + i % 100])
                             for i in range(20000))
        # From a file by sendfile(): the kernel fills the socket as fast as it drains, so
        # the flood outpaces any reader, as a compiled server would.
        src = tempfile.TemporaryFile()
        src.write(chunk * 16)
        src.flush()
        size = src.tell()
        step = 65536 if rate else size
        t_next = time.time()
        while True:
            off = 0
            while off < size:
                off += os.sendfile(c.fileno(), src.fileno(), off, min(step, size - off))
                if rate:
                    t_next += step / rate
                    time.sleep(max(0.0, t_next - time.time()))
    except OSError:
        pass
    finally:
        c.close()


def main():
    mode, portfile = sys.argv[1], sys.argv[2]
    upstream = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    after_s = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    t_flood = 0.0
    # A small receive window: a client whose answers are never read finds its send
    # buffer full soon.
    s = listen(portfile, 8, rcvbuf=4096)
    while True:
        c, _ = s.accept()
        if not t_flood:
            t_flood = time.time() + after_s
        threading.Thread(target=serve, args=(c, mode, upstream, t_flood, rate), daemon=True).start()


if __name__ == "__main__":
    main()
