#!/usr/bin/python3
# A hostile or honest WAMP peer for tests/cli/t_wamp_router.sh, on raw sockets (standard
# library only) so that it can send what no WAMP library would: a wrong ticket, an
# oversize message, an HTTP request without end.
#
#   wamp_peer.py PORT SCENARIO [ARG...]    prints what happened; exit 0 when it happened
#
# Scenarios (PATH is the URL path, e.g. /ws or /ws/SECRET):
#   join PATH TICKET           HELLO with ticket auth; prints "welcome N" or "abort URI"
#   anonymous PATH             HELLO without auth methods; same output
#   http PATH                  the upgrade alone; prints "http STATUS"
#   flood-header MB            MB MiB of HTTP header without its end; prints "dropped after N MiB"
#   oversize PATH TICKET MB    joins, then one text message of MB MiB; prints "dropped after
#                              N MiB" (the router closed on us) or "sent"
#   oversize-first PATH MB     the same message at once after the upgrade, before any HELLO
#   victim PATH TICKET FILE    joins, registers org.example.victim, writes its session id to
#                              FILE, then answers calls until its connection ends: prints
#                              "closed" then (or "timeout" after 120 s of silence)
#   kill PATH TICKET SID [PROC]  joins (registering PROC first when given, as labgrid's
#                              coordinator does), calls wamp.session.kill SID: prints
#                              "result" or "error URI"
#   call PATH TICKET PROC      joins, calls PROC: prints "result ARGS" or "error URI"
import base64
import json
import os
import socket
import struct
import sys


class Peer:
    def __init__(self, port, path, timeout=20):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        self.path = path

    def upgrade(self):
        """The WebSocket opening handshake: the HTTP status the router answers."""
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           "Sec-WebSocket-Protocol: wamp.2.json\r\n\r\n").encode())
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buf += chunk
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        return int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0

    def frame_header(self, length, opcode=1):
        if length < 126:
            h = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            h = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            h = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        return h + b"\0\0\0\0"  # a zero mask: the payload goes as it is

    def send(self, msg):
        data = json.dumps(msg).encode()
        self.sock.sendall(self.frame_header(len(data)) + data)

    def recv_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next WAMP message, skipping pings (answered) and raising EOFError on a close."""
        while True:
            b0, b1 = self.recv_exact(2)
            length = b1 & 0x7F
            if length == 126:
                length = struct.unpack("!H", self.recv_exact(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self.recv_exact(8))[0]
            payload = self.recv_exact(length)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise EOFError
            if opcode == 9:
                self.sock.sendall(self.frame_header(len(payload), 10) + payload)
                continue
            if opcode == 1:
                return json.loads(payload)

    def join(self, ticket, authmethods=("ticket",)):
        """('welcome', session id) or ('abort', URI) or ('http', status)."""
        status = self.upgrade()
        if status != 101:
            return "http", status
        self.send([1, "realm1", {"roles": {"caller": {}, "callee": {}, "subscriber": {},
                                           "publisher": {}},
                                 "authmethods": list(authmethods), "authid": "coordinator"}])
        try:
            msg = self.recv()
            if msg[0] == 4:
                self.send([5, ticket, {}])
                msg = self.recv()
        except EOFError:
            return "closed", None
        if msg[0] == 2:
            return "welcome", msg[1]
        return "abort", msg[2] if msg[0] == 3 else msg


def flood(sock, mib, first=b""):
    """Sends mib MiB (after first) until the router drops the connection: MiB sent."""
    chunk = b"x" * (1 << 20)
    sent = 0
    try:
        sock.sendall(first)
        for sent in range(1, mib + 1):
            sock.sendall(chunk)
    except OSError:
        return sent, True
    return sent, False


def main():
    port, scenario, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    if scenario == "flood-header":
        p = Peer(port, "/ws")
        sent, dropped = flood(p.sock, int(args[0]), b"GET /ws HTTP/1.1\r\nX-Pad: ")
        print(f"dropped after {sent} MiB" if dropped else "sent")
        return 0 if dropped else 1
    p = Peer(port, args[0], timeout=120 if scenario == "victim" else 20)
    if scenario == "oversize-first":
        if p.upgrade() != 101:
            print("upgrade refused")
            return 1
        mib = int(args[1])
        sent, dropped = flood(p.sock, mib, p.frame_header(mib << 20))
        print(f"dropped after {sent} MiB" if dropped else "sent")
        return 0
    if scenario == "http":
        print(f"http {p.upgrade()}")
        return 0
    if scenario == "anonymous":
        what, detail = p.join(None, authmethods=())
        print(what, detail)
        return 0
    what, detail = p.join(args[1])
    if scenario == "join" or what != "welcome":
        print(what, detail)
        return 0 if scenario == "join" else 1
    if scenario == "oversize":
        mib = int(args[2])
        sent, dropped = flood(p.sock, mib, p.frame_header(mib << 20))
        print(f"dropped after {sent} MiB" if dropped else "sent")
        return 0
    if scenario == "victim":
        p.send([64, 1, {}, "org.example.victim"])
        assert p.recv()[0] == 65
        with open(args[2], "w") as f:
            f.write(f"{detail}\n")
        try:
            while True:
                msg = p.recv()
                if msg[0] == 68:  # INVOCATION: answered, so the victim is seen alive
                    p.send([70, msg[1], {}, ["alive"]])
        except TimeoutError:
            print("timeout")
        except (EOFError, OSError):
            print("closed")
        return 0
    if scenario == "kill":
        if len(args) > 3:
            p.send([64, 1, {}, args[3]])
            assert p.recv()[0] == 65
        p.send([48, 2, {}, "wamp.session.kill", [int(args[2])], {}])
        target = args[2]
    else:
        p.send([48, 2, {}, args[2]])
        target = args[2]
    try:
        msg = p.recv()
    except EOFError:
        print("closed")
        return 0
    if msg[0] == 50:
        print("result", *(msg[3] if len(msg) > 3 else []))
    else:
        print("error", msg[4], f"({target})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
