#!/usr/bin/env python3
# An independent RFC 2217 server for tests: pyserial's PortManager in front of a tty.
"""pyserial_rfc2217.py TTY PORTFILE [DROP_AFTER_S]

Serves TTY (an emulator's pty) over RFC 2217 on a free port of 127.0.0.1, written to
PORTFILE once it listens, one client at a time, until killed. pyserial's PortManager does
the telnet and COM-PORT-OPTION side: it answers each line setting at once and leaves
SIGNATURE unanswered. With DROP_AFTER_S, the first connection is closed after that long,
so the client has to reconnect.
"""
import socket
import sys
import threading
import time

import serial
import serial.rfc2217

from listen_port import listen


class Pty(serial.Serial):
    """A pty has no modem lines: they read as off and setting them does nothing."""
    cts = dsr = ri = cd = False

    def _update_dtr_state(self):
        pass

    def _update_rts_state(self):
        pass

    def _update_break_state(self):
        pass


class Link:
    """The connection as PortManager writes to it: whole writes, from either thread."""

    def __init__(self, sock):
        self.sock = sock
        self.lock = threading.Lock()

    def write(self, data):
        with self.lock:
            self.sock.sendall(data)


def tty_to_net(port, link, stop):
    while not stop.is_set():
        try:
            data = port.read(port.in_waiting or 1)
        except serial.SerialException:
            break
        if data:
            try:
                link.write(b"".join(port.manager.escape(data)))
            except OSError:
                break
    stop.set()


def serve(port, conn, drop_after_s):
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn.settimeout(0.2)
    link = Link(conn)
    port.manager = serial.rfc2217.PortManager(port, link)
    stop = threading.Event()
    reader = threading.Thread(target=tty_to_net, args=(port, link, stop), daemon=True)
    reader.start()
    end = time.time() + drop_after_s if drop_after_s else None
    while not stop.is_set() and (end is None or time.time() < end):
        try:
            data = conn.recv(4096)
        except socket.timeout:
            continue
        except OSError:
            break
        if not data:
            break
        port.write(b"".join(port.manager.filter(data)))
    stop.set()
    reader.join()
    conn.close()


def main():
    tty, portfile = sys.argv[1], sys.argv[2]
    drop_after_s = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    port = Pty(tty, 115200, timeout=0.1)
    s = listen(portfile, 1)
    while True:
        conn, _ = s.accept()
        serve(port, conn, drop_after_s)
        drop_after_s = 0.0  # only the first connection is dropped


if __name__ == "__main__":
    main()
