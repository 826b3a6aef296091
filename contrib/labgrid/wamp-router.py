#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# A minimal WAMP v2 router (JSON over WebSocket) for Debian 12's labgrid 0.4.1 coordinator.
#
# Why it exists: labgrid 0.4.x's coordinator, exporter and client are WAMP sessions that
# meet in a router, upstream's being crossbar. Debian packages labgrid 0.4.1 but not
# crossbar (README.Debian: "does not support this operation mode"), and Debian 13 has no
# labgrid at all, so on a Debian host the router is the one missing piece. This one
# implements what labgrid 0.4.1 uses and nothing else: one realm, exact-match RPC with the
# caller disclosed to the callee, exact-match publish/subscribe, the session meta events
# wamp.session.on_join / on_leave and the meta procedure wamp.session.kill.
# labgrid 25 and later have a gRPC coordinator of their own and need none of this.
#
# Who may join: whoever holds the run's secret, a token in a file only its owner can read
# (--secret-file: made, mode 0600, when it does not exist). labgrid 0.4.1 always answers
# the ticket challenge with "dummy-ticket", so it carries the secret in the URL's path,
# ws://HOST:PORT/ws/SECRET; any other WAMP client may connect to ws://HOST:PORT/ws and give
# the secret as its ticket. Everything else is refused: another local user can reach
# 127.0.0.1 but cannot read the file. A session's claimed authid is believed (labgrid's
# coordinator sorts sessions by it), so the secret is the whole boundary. wamp.session.kill
# is honoured only from the session that registered the coordinator's procedures (labgrid's
# coordinator ends a stale exporter with it), and a message is at most --max-message bytes.
#
# Usage: wamp-router.py --secret-file FILE [--host 127.0.0.1] [--port 20408] [--realm realm1]
#   [--max-message BYTES]
# The URL for labgrid is then ws://HOST:PORT/ws/$(cat FILE), given in the environment
# (LG_CROSSBAR for the exporter and client, WS for the coordinator), never on a command
# line, which every user of the host can read in ps.
import argparse
import asyncio
import hmac
import itertools
import json
import os
import secrets
import stat
import sys

import txaio
from autobahn.asyncio.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.types import ConnectionDeny

# WAMP message codes (the WAMP specification, "Message Codes and Direction").
HELLO, WELCOME, ABORT, CHALLENGE, AUTHENTICATE, GOODBYE = 1, 2, 3, 4, 5, 6
ERROR = 8
PUBLISH, PUBLISHED = 16, 17
SUBSCRIBE, SUBSCRIBED, UNSUBSCRIBE, UNSUBSCRIBED, EVENT = 32, 33, 34, 35, 36
CALL, CANCEL, RESULT = 48, 49, 50
REGISTER, REGISTERED, UNREGISTER, UNREGISTERED, INVOCATION, INTERRUPT, YIELD = (
    64, 65, 66, 67, 68, 69, 70)

MAX_MESSAGE = 1 << 20          # labgrid's own client refuses messages above 1 MiB too
MAX_HANDSHAKE = 16 << 10       # the HTTP upgrade request: autobahn buffers it unbounded
COORDINATOR_PREFIX = "org.labgrid.coordinator."

ROLES = {
    "broker": {"features": {"publisher_exclusion": True, "session_meta_api": True}},
    "dealer": {"features": {"caller_identification": True, "session_meta_api": True}},
}


class Realm:
    """Everything the sessions of one realm share: who is there, what is registered."""

    def __init__(self, name, secret):
        self.name = name
        self.secret = secret
        self.ids = itertools.count(1)
        self.sessions = {}            # session id -> Session
        self.procedures = {}          # procedure -> (registration id, Session)
        self.subscriptions = {}       # topic -> (subscription id, set of Sessions)
        self.invocations = {}         # invocation id -> (caller, call request id, callee)

    def publish(self, topic, args, publisher=None, exclude_me=True):
        sub = self.subscriptions.get(topic)
        if not sub:
            return None
        pub_id = next(self.ids)
        for s in list(sub[1]):
            if exclude_me and s is publisher:
                continue
            s.send([EVENT, sub[0], pub_id, {}] + args)
        return pub_id

    def is_coordinator(self, session):
        return any(s is session and proc.startswith(COORDINATOR_PREFIX)
                   for proc, (_r, s) in self.procedures.items())

    def meta_call(self, session, req, proc, args):
        """The router's own procedures: only what labgrid calls."""
        if proc == "wamp.session.kill" and not self.is_coordinator(session):
            print(f"wamp-router: refused wamp.session.kill from session {session.session_id}",
                  file=sys.stderr)
            return session.send([ERROR, CALL, req, {}, "wamp.error.not_authorized"])
        if proc == "wamp.session.kill" and args:
            target = self.sessions.get(args[0])
            if target is None:
                return session.send([ERROR, CALL, req, {}, "wamp.error.no_such_session"])
            target.sendClose(code=1000, reason="killed")
            return session.send([RESULT, req, {}])
        return session.send([ERROR, CALL, req, {}, "wamp.error.no_such_procedure"])


class Session(WebSocketServerProtocol):
    realm = None  # set on the protocol class by main()

    def onConnect(self, request):
        self.session_id = None
        self.pending_hello = None
        self.refused = False  # a refused connection is closing: what it sends is ignored
        # The secret in the path admits the connection; /ws alone must give it as a ticket.
        path = request.path.rstrip("/")
        if path == "/ws":
            self.admitted = False
        elif path.startswith("/ws/") and self.same_secret(path[4:]):
            self.admitted = True
        else:
            raise ConnectionDeny(ConnectionDeny.FORBIDDEN, "not this router's secret")
        for proto in request.protocols:
            if proto == "wamp.2.json":
                return proto
        raise ValueError("this router speaks wamp.2.json only")

    def same_secret(self, given):
        return isinstance(given, str) and hmac.compare_digest(given.encode(),
                                                               self.realm.secret.encode())

    def _dataReceived(self, data):
        # autobahn keeps the whole upgrade request in memory until its blank line: a peer
        # that never sends one is dropped once the request is longer than any real one.
        if self.state == self.STATE_CONNECTING and len(self.data) + len(data) > MAX_HANDSHAKE:
            print("wamp-router: dropping a connection whose HTTP request exceeds "
                  f"{MAX_HANDSHAKE} bytes", file=sys.stderr)
            self.data = b""
            self.transport.abort()
            return
        super()._dataReceived(data)

    def refuse(self, why):
        print(f"wamp-router: refused a session: {why}", file=sys.stderr)
        self.refused = True
        self.send([ABORT, {"message": why}, "wamp.error.not_authorized"])
        self.sendClose(code=1000, reason="not authorized")

    def send(self, msg):
        self.sendMessage(json.dumps(msg).encode(), isBinary=False)

    def onMessage(self, payload, isBinary):
        try:
            msg = json.loads(payload.decode())
            self.handle(msg[0], msg[1:])
        except Exception as e:  # a broken peer is dropped, the router keeps serving others
            print(f"wamp-router: dropping session {self.session_id}: {e!r}", file=sys.stderr)
            self.sendClose(code=1000, reason="protocol error")

    def welcome(self, details):
        realm = self.realm
        self.session_id = next(realm.ids)
        authid = details.get("authid") or f"anonymous-{self.session_id}"
        method = "ticket" if self.pending_hello else "anonymous"
        self.info = {"session": self.session_id, "authid": authid, "authrole": "public",
                     "authmethod": method, "authprovider": "static", "transport": {}}
        realm.sessions[self.session_id] = self
        self.send([WELCOME, self.session_id, dict(self.info, roles=ROLES, realm=realm.name)])
        realm.publish("wamp.session.on_join", [[self.info]])

    def handle(self, code, m):
        realm = self.realm
        if self.refused:
            return None
        if code == HELLO:
            if self.session_id is not None or self.pending_hello is not None:
                raise ValueError("a second HELLO")
            if m[0] != realm.name:
                return self.send([ABORT, {}, "wamp.error.no_such_realm"])
            details = m[1]
            if "ticket" in details.get("authmethods", []):
                self.pending_hello = details
                return self.send([CHALLENGE, "ticket", {}])
            if self.admitted:
                return self.welcome(details)
            return self.refuse("no secret in the URL and no ticket")
        if code == AUTHENTICATE:
            if self.pending_hello is None or self.session_id is not None:
                raise ValueError("AUTHENTICATE without a challenge")
            if not self.admitted and not self.same_secret(m[0]):
                return self.refuse("wrong ticket")
            return self.welcome(self.pending_hello)
        if self.session_id is None:
            raise ValueError(f"message {code} before WELCOME")
        if code == GOODBYE:
            self.send([GOODBYE, {}, "wamp.close.goodbye_and_out"])
            return self.sendClose(code=1000)
        if code == REGISTER:
            req, _opts, proc = m[:3]
            if proc in realm.procedures:
                return self.send([ERROR, REGISTER, req, {}, "wamp.error.procedure_already_exists"])
            reg = next(realm.ids)
            realm.procedures[proc] = (reg, self)
            return self.send([REGISTERED, req, reg])
        if code == UNREGISTER:
            req, reg = m[:2]
            for proc, (r, s) in list(realm.procedures.items()):
                if r == reg and s is self:
                    del realm.procedures[proc]
                    return self.send([UNREGISTERED, req])
            return self.send([ERROR, UNREGISTER, req, {}, "wamp.error.no_such_registration"])
        if code == CALL:
            req, _opts, proc = m[:3]
            args = m[3:]
            target = realm.procedures.get(proc)
            if target is None:
                return realm.meta_call(self, req, proc, args[0] if args else [])
            inv = next(realm.ids)
            realm.invocations[inv] = (self, req, target[1])
            return target[1].send([INVOCATION, inv, target[0], {"caller": self.session_id}] + args)
        if code == YIELD or (code == ERROR and m[0] == INVOCATION):
            inv = m[0] if code == YIELD else m[1]
            caller = realm.invocations.pop(inv, None)
            if caller is None or caller[0].session_id is None:
                return None
            if code == YIELD:
                return caller[0].send([RESULT, caller[1], {}] + m[2:])
            return caller[0].send([ERROR, CALL, caller[1]] + m[2:])
        if code == CANCEL:
            return None  # labgrid 0.4.1 waits on its calls; nothing to interrupt
        if code == SUBSCRIBE:
            req, _opts, topic = m[:3]
            sub = realm.subscriptions.setdefault(topic, (next(realm.ids), set()))
            sub[1].add(self)
            return self.send([SUBSCRIBED, req, sub[0]])
        if code == UNSUBSCRIBE:
            req, sid = m[:2]
            for topic, (i, members) in realm.subscriptions.items():
                if i == sid:
                    members.discard(self)
            return self.send([UNSUBSCRIBED, req])
        if code == PUBLISH:
            req, opts, topic = m[:3]
            pub = realm.publish(topic, m[3:], self, opts.get("exclude_me", True))
            if opts.get("acknowledge"):
                self.send([PUBLISHED, req, pub or next(realm.ids)])
            return None
        raise ValueError(f"unsupported message code {code}")

    def onClose(self, wasClean, code, reason):
        realm = self.realm
        sid = getattr(self, "session_id", None)
        if sid is None or realm.sessions.get(sid) is not self:
            return
        del realm.sessions[sid]
        for proc, (_r, s) in list(realm.procedures.items()):
            if s is self:
                del realm.procedures[proc]
        for _topic, (_i, members) in realm.subscriptions.items():
            members.discard(self)
        # Calls this session made are forgotten; those it was serving end with an error
        # for their callers (labgrid's coordinator expects wamp.error.canceled then).
        for inv, (caller, req, callee) in list(realm.invocations.items()):
            if caller is self or callee is self:
                del realm.invocations[inv]
            if callee is self and caller is not self and caller.session_id is not None:
                caller.send([ERROR, CALL, req, {}, "wamp.error.canceled"])
        # labgrid 0.4.1's on_session_leave(session_id) takes the id alone.
        realm.publish("wamp.session.on_leave", [[sid]])
        self.session_id = None


def read_secret(path):
    """The run's secret from path, made (0600, a fresh random token) when it does not exist;
    a file that others can read, or not ours, is refused: its secret is no secret."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(32) + "\n")
    except FileExistsError:
        pass
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd) as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
            raise ValueError(f"{path} must be a regular file of this user that no one else "
                             f"may read or write (mode {stat.S_IMODE(st.st_mode):o}; chmod 600)")
        secret = f.read(4096).strip()
    if len(secret) < 16 or not all(c.isalnum() or c in "-_" for c in secret):
        raise ValueError(f"{path}: the secret must be 16 or more of A-Z a-z 0-9 - _")
    return secret


def main():
    ap = argparse.ArgumentParser(description="minimal WAMP router for labgrid 0.4.1")
    ap.add_argument("--secret-file", required=True,
                    help="the run's secret (made, mode 0600, when it does not exist)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=20408)
    ap.add_argument("--realm", default="realm1")
    ap.add_argument("--max-message", type=int, default=MAX_MESSAGE,
                    help=f"largest message accepted, bytes [{MAX_MESSAGE}]")
    a = ap.parse_args()
    try:
        secret = read_secret(a.secret_file)
    except (OSError, ValueError) as e:
        sys.exit(f"wamp-router: {e}")
    Session.realm = Realm(a.realm, secret)
    # The factory's protocols wait on futures of the loop it is given: the one that runs.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    txaio.use_asyncio()
    txaio.config.loop = loop
    factory = WebSocketServerFactory(f"ws://{a.host}:{a.port}/ws", loop=loop)
    factory.protocol = Session
    factory.setProtocolOptions(autoPingInterval=10, autoPingTimeout=30,
                               maxFramePayloadSize=a.max_message,
                               maxMessagePayloadSize=a.max_message, failByDrop=True)
    server = loop.run_until_complete(loop.create_server(factory, a.host, a.port))
    print(f"wamp-router: ws://{a.host}:{a.port}/ws/SECRET (SECRET in {a.secret_file}) "
          f"realm {a.realm}", flush=True)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    main()
