#!/usr/bin/env bash
# contrib/labgrid/wamp-router.py against another user of the host: only the holder of the
# run's secret joins, an admitted peer cannot end another's session, an oversize message
# or endless HTTP request is dropped with the router's memory bounded. Needs only
# python3-autobahn (not labgrid, not root): tests/lib/wamp_peer.py is the peer.
. "$(dirname "$0")/../lib/lib.sh"
PY=/usr/bin/python3 # Debian's python, with python3-autobahn
"$PY" -c 'import autobahn, txaio' 2>/dev/null ||
	{ echo "1..0 # skip python3-autobahn is not installed (tests/deps.sh --fleet)"; exit 0; }
ROUTER=$REPO/contrib/labgrid/wamp-router.py
PEER=$REPO/tests/lib/wamp_peer.py

router_pid="" victim_pid=""
trap '[ -n "$victim_pid" ] && kill "$victim_pid" 2>/dev/null; [ -n "$router_pid" ] && kill "$router_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
peer() { timeout 120 "$PY" "$PEER" "$port" "$@" 2>&1 | tail -n 1; }
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$router_pid/status"; }

# 1. The secret file: made 0600 when missing; one others may read is refused.
mkdir -m 700 "$T_TMP/run"
secret_file=$T_TMP/run/secret
printf 'abcdefghijklmnopqrstuvwxyz012345\n' >"$T_TMP/open" && chmod 644 "$T_TMP/open"
"$PY" "$ROUTER" --secret-file "$T_TMP/open" --port "$(free_port)" >"$T_TMP/open.out" 2>&1
[ $? -ne 0 ] && grep -q "chmod 600" "$T_TMP/open.out"
ok $? "a secret file others may read (0644) is refused: $(tail -n 1 "$T_TMP/open.out")"
chmod 600 "$T_TMP/open" && ln -s "$T_TMP/open" "$T_TMP/link"
"$PY" "$ROUTER" --secret-file "$T_TMP/link" --port "$(free_port)" >"$T_TMP/link.out" 2>&1
[ $? -ne 0 ]
ok $? "a secret file that is a symbolic link is refused: $(tail -n 1 "$T_TMP/link.out")"

port=$(free_port)
"$PY" "$ROUTER" --secret-file "$secret_file" --port "$port" >"$T_TMP/router.log" 2>&1 &
router_pid=$!
for _ in $(seq 100); do grep -q "^wamp-router: ws://" "$T_TMP/router.log" && break; sleep 0.1; done
secret=$(cat "$secret_file" 2>/dev/null)
[ "$(stat -c %a "$secret_file" 2>/dev/null)" = 600 ] && [ ${#secret} -ge 32 ]
ok $? "the router made its secret file, mode 600, ${#secret} characters"
! grep -qF -- "$secret" "$T_TMP/router.log"
ok $? "the router's log does not print the secret"

# 2. Who joins: the secret in the path (labgrid 0.4.1, whose ticket is always
# "dummy-ticket") or as the ticket; nothing else.
check_out() { # DESCRIPTION EXPECTED GOT
	[ "$3" = "$2" ]
	ok $? "$1: $3"
}
check_out "/ws with labgrid's dummy ticket is refused" "abort wamp.error.not_authorized" \
	"$(peer join /ws dummy-ticket)"
check_out "/ws without any auth method is refused" "abort wamp.error.not_authorized" \
	"$(peer anonymous /ws)"
check_out "a wrong secret in the path is refused at the upgrade" "http 403" "$(peer http /ws/not-the-secret)"
out=$(peer join /ws "$secret")
[[ $out == welcome\ * ]]
ok $? "/ws with the secret as ticket joins: $out"
out=$(peer join "/ws/$secret" dummy-ticket)
[[ $out == welcome\ * ]]
ok $? "the secret in the path joins with labgrid's dummy ticket: ${out}"

# 3. wamp.session.kill: refused from an admitted peer, honoured from the coordinator's
# session (labgrid's coordinator ends a stale exporter with it).
"$PY" "$PEER" "$port" victim "/ws/$secret" dummy-ticket "$T_TMP/victim.sid" >"$T_TMP/victim.out" 2>&1 &
victim_pid=$!
for _ in $(seq 100); do [ -s "$T_TMP/victim.sid" ] && break; sleep 0.1; done
sid=$(cat "$T_TMP/victim.sid" 2>/dev/null)
check_out "an admitted peer's wamp.session.kill of another session is refused" \
	"error wamp.error.not_authorized (${sid:-none})" "$(peer kill "/ws/$secret" dummy-ticket "${sid:-0}")"
check_out "the victim still answers its calls" "result alive" "$(peer call "/ws/$secret" dummy-ticket org.example.victim)"
check_out "the session holding org.labgrid.coordinator.* may kill" "result" \
	"$(peer kill "/ws/$secret" dummy-ticket "${sid:-0}" org.labgrid.coordinator.test)"
wait "$victim_pid"
victim_pid=""
check_out "the killed session was closed" "closed" "$(cat "$T_TMP/victim.out")"

# 4. Size: one 150 MiB message (before and after joining) and an HTTP request without
# end are dropped; the router's peak memory grows by less than 32 MiB.
hwm0=$(hwm_kib)
out=$(peer oversize-first /ws 150)
[[ $out == dropped\ after\ * ]]
ok $? "a 150 MiB message before HELLO: $out"
out=$(peer oversize "/ws/$secret" dummy-ticket 150)
[[ $out == dropped\ after\ * ]]
ok $? "a 150 MiB message from an admitted session: $out"
out=$(peer flood-header 150)
[[ $out == dropped\ after\ * ]]
ok $? "150 MiB of HTTP header without its end: $out"
out=$(peer join "/ws/$secret" dummy-ticket)
[[ $out == welcome\ * ]]
ok $? "the router still serves: $out"
hwm1=$(hwm_kib)
echo "# router peak RSS: ${hwm0:-?} KiB before the floods, ${hwm1:-?} KiB after"
[ -n "$hwm0" ] && [ -n "$hwm1" ] && [ $((hwm1 - hwm0)) -lt 32768 ]
ok $? "peak memory grew by $((${hwm1:-0} - ${hwm0:-0})) KiB (< 32 MiB) over 450 MiB offered"
done_testing
