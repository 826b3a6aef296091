#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# A minimal WAMP v2 router (JSON over WebSocket) for Debian 12's labgrid 0.4.1 coordinator.
#
# Why it exists: labgrid 0.4.x's coordinator, exporter and client are WAMP sessions that
# meet in a router, upstream's being crossbar. Debian packages labgrid 0.4.1 but not
# crossbar (README.Debian: "does not support this operation mode"), and Debian 13 has no
# labgrid at all, so on a Debian host the router is the one missing piece. This one
# implements what labgrid 0.4.1 uses and nothing else: one realm, ticket authentication
# that admits any ticket (as labgrid's own crossbar config does), exact-match RPC with the
# caller disclosed to the callee, exact-match publish/subscribe, the session meta events
# wamp.session.on_join / on_leave and the meta procedure wamp.session.kill.
# It is no security boundary: run it on a lab network you trust, as crossbar would be.
#
# Usage: wamp-router.py [--host 127.0.0.1] [--port 20408] [--realm realm1]
# The URL for labgrid is then ws://HOST:PORT/ws (LG_CROSSBAR, labgrid-client -x).
import argparse
import asyncio
import itertools
import json
import sys

import txaio
from autobahn.asyncio.websocket import WebSocketServerFactory, WebSocketServerProtocol

# WAMP message codes (the WAMP specification, "Message Codes and Direction").
HELLO, WELCOME, ABORT, CHALLENGE, AUTHENTICATE, GOODBYE = 1, 2, 3, 4, 5, 6
ERROR = 8
PUBLISH, PUBLISHED = 16, 17
SUBSCRIBE, SUBSCRIBED, UNSUBSCRIBE, UNSUBSCRIBED, EVENT = 32, 33, 34, 35, 36
CALL, CANCEL, RESULT = 48, 49, 50
REGISTER, REGISTERED, UNREGISTER, UNREGISTERED, INVOCATION, INTERRUPT, YIELD = (
    64, 65, 66, 67, 68, 69, 70)

ROLES = {
    "broker": {"features": {"publisher_exclusion": True, "session_meta_api": True}},
    "dealer": {"features": {"caller_identification": True, "session_meta_api": True}},
}


class Realm:
    """Everything the sessions of one realm share: who is there, what is registered."""

    def __init__(self, name):
        self.name = name
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

    def meta_call(self, session, req, proc, args):
        """The router's own procedures: only what labgrid calls."""
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
        for proto in request.protocols:
            if proto == "wamp.2.json":
                return proto
        raise ValueError("this router speaks wamp.2.json only")

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
        if code == HELLO:
            if m[0] != realm.name:
                return self.send([ABORT, {}, "wamp.error.no_such_realm"])
            details = m[1]
            if "ticket" in details.get("authmethods", []):
                self.pending_hello = details
                return self.send([CHALLENGE, "ticket", {}])
            return self.welcome(details)
        if code == AUTHENTICATE:
            return self.welcome(self.pending_hello or {})
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


def main():
    ap = argparse.ArgumentParser(description="minimal WAMP router for labgrid 0.4.1")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=20408)
    ap.add_argument("--realm", default="realm1")
    a = ap.parse_args()
    Session.realm = Realm(a.realm)
    # The factory's protocols wait on futures of the loop it is given: the one that runs.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    txaio.use_asyncio()
    txaio.config.loop = loop
    factory = WebSocketServerFactory(f"ws://{a.host}:{a.port}/ws", loop=loop)
    factory.protocol = Session
    factory.setProtocolOptions(autoPingInterval=10, autoPingTimeout=30)
    server = loop.run_until_complete(loop.create_server(factory, a.host, a.port))
    print(f"wamp-router: ws://{a.host}:{a.port}/ws realm {a.realm}", flush=True)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    main()
