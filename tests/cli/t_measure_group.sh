#!/usr/bin/env bash
# `iowatt measure` owns its command (issue 20): a process group of its own, Ctrl-C and
# SIGTERM passed on to it, SIGKILL after --kill-after, what it leaves running said or ended.
. "$(dirname "$0")/../lib/lib.sh"

GROUPS_STARTED=()
cleanup() {
	local g
	for g in "${GROUPS_STARTED[@]:-}"; do [ -n "$g" ] && kill -KILL -- "-$g" 2>/dev/null; done
	t_cleanup
}
trap cleanup EXIT

opts=(--no-meter --idle 0 --tail-max 0 --no-progress)
IGNORES='trap "" INT TERM; while :; do sleep 0.2; done'
BOUND_S=30 # far above every wait here (--kill-after 2 s at most), far below "never"

# child_of PID: the command iowatt started, once it runs (its pid; its group's too).
child_of() {
	local c
	for _ in $(seq 300); do
		c=$(pgrep -P "$1" -x sh | head -n 1)
		[ -n "$c" ] && { GROUPS_STARTED+=("$c"); echo "$c"; return 0; }
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# ends_within PID SECONDS: waits for PID to exit; its status in $rc, the time in $ms.
ends_within() {
	local t0=$(date +%s%N) i
	for i in $(seq $(($2 * 10))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$1" 2>/dev/null && kill -KILL "$1"
	wait "$1"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}

# group_gone PGID: nothing of the group is alive (its zombies reaped) within a few seconds.
group_gone() {
	for _ in $(seq 50); do
		[ -z "$(ps -o stat= -g "$1" 2>/dev/null | grep -v '^Z')" ] && return 0
		sleep 0.1
	done
	ps -o pid,pgid,stat,args -g "$1" 2>/dev/null | sed 's/^/#   /'
	return 1
}

# status FILE: "run-status job-status exit_signal" of a result.
status() {
	jget "$1" 'd["status"] + " " + d["jobs"][0]["status"] + " " + str(d["jobs"][0].get("exit_signal"))' 2>/dev/null
}

# start NAME KILL_AFTER [setsid]: measure of a command that ignores SIGINT and SIGTERM, in
# the background (in a session of its own with setsid: a terminal's foreground group).
start() {
	${3:-} "$IOWATT" measure "${opts[@]}" --kill-after "$2" --json-out "$T_TMP/$1.json" \
		-- sh -c "$IGNORES" >"$T_TMP/$1.out" 2>&1 &
	pid=$!
	child=$(child_of $pid)
}

# stopped NAME RC WHAT: iowatt exits with RC within the bound, its result written,
# interrupted, the command killed, and nothing of the command's group is left.
stopped() {
	ends_within $pid $BOUND_S
	[ $rc -eq "$2" ] && [ $ms -lt $((BOUND_S * 1000)) ]
	ok $? "$3 ends it in ${ms} ms with $2 (rc=$rc; bound ${BOUND_S} s)"
	[ "$(status "$T_TMP/$1.json")" = "interrupted interrupted 9" ]
	ok $? "$3: the result is written, interrupted, the command killed (exit_signal 9)"
	group_gone "$child"
	ok $? "$3: nothing of the command's group is left"
}

# 1. Ctrl-C at a terminal reaches the whole foreground group: iowatt, not the command,
# which has its own. It ignores the SIGINT passed on, so SIGKILL follows --kill-after.
start c1 2s setsid
[ -n "$child" ] && [ "$(ps -o pgid= -p "$child" | tr -d ' ')" = "$child" ]
ok $? "the command leads a process group of its own"
kill -INT -- "-$pid"
stopped c1 130 "Ctrl-C (--kill-after 2s)"
grep -q "SIGKILL" "$T_TMP/c1.out"
ok $? "the run said it had to kill it"

# 2. A second Ctrl-C kills the group at once, and still writes the result.
start c2 60s setsid
kill -INT -- "-$pid"
sleep 1
kill -0 $pid 2>/dev/null
ok $? "within --kill-after (60 s) the command keeps running after the first Ctrl-C"
kill -INT -- "-$pid"
stopped c2 130 "a second Ctrl-C"

# 3. SIGTERM to iowatt alone (timeout, systemd): passed on as SIGTERM, then SIGKILL.
start t 1s
kill -TERM $pid
stopped t 143 "SIGTERM (--kill-after 1s)"

# 4. A command that returns and leaves a process running in its group: said, left.
timeout $BOUND_S "$IOWATT" measure "${opts[@]}" --json-out "$T_TMP/d.json" \
	-- sh -c 'sleep 600 & echo $! >'"$T_TMP/d.pid"'; sleep 1' >"$T_TMP/d.out" 2>&1
rc=$?
left=$(cat "$T_TMP/d.pid" 2>/dev/null)
pg=$([ -n "$left" ] && ps -o pgid= -p "$left" | tr -d ' ')
GROUPS_STARTED+=("$pg")
[ $rc -eq 0 ] && [ "$(jget "$T_TMP/d.json" 'd["jobs"][0]["status"] + " " + str(d["jobs"][0]["descendants"])')" = "ok {'running': 1, 'ended': False}" ]
ok $? "a descendant still running when the command returned is in the result (rc=$rc)"
grep -q "1 process(es) the command started still ran when it returned: left running" "$T_TMP/d.out"
ok $? "and in the summary"
[ -n "$left" ] && [ "$pg" != "$(ps -o pgid= -p $$ | tr -d ' ')" ]
ok $? "it was left running, in the command's group"
[ -n "$pg" ] && kill -KILL -- "-$pg" 2>/dev/null

# 5. --kill-descendants ends them with the group.
timeout $BOUND_S "$IOWATT" measure "${opts[@]}" --kill-descendants --json-out "$T_TMP/k.json" \
	-- sh -c 'sleep 600 & echo $$ >'"$T_TMP/k.pid"'; sleep 1' >"$T_TMP/k.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(jget "$T_TMP/k.json" 'str(d["jobs"][0]["descendants"])')" = "{'running': 1, 'ended': True}" ]
ok $? "--kill-descendants: the result says they were ended (rc=$rc)"
grep -q "ended with the command" "$T_TMP/k.out"
ok $? "and the summary"
group_gone "$(cat "$T_TMP/k.pid" 2>/dev/null || echo 0)"
ok $? "nothing of the group is left"

# 5b. What leaves the group with setsid is the command's too: seen, said, ended.
timeout $BOUND_S "$IOWATT" measure "${opts[@]}" --json-out "$T_TMP/s.json" \
	-- sh -c 'setsid sleep 600 & echo $! >'"$T_TMP/s.pid"'; sleep 1' >"$T_TMP/s.out" 2>&1
rc=$?
esc=$(cat "$T_TMP/s.pid" 2>/dev/null)
[ $rc -eq 0 ] && [ "$(jget "$T_TMP/s.json" 'str(d["jobs"][0]["descendants"])')" = "{'running': 1, 'ended': False}" ]
ok $? "a setsid grandchild still running is counted (rc=$rc)"
[ -n "$esc" ] && kill -0 "$esc" 2>/dev/null && [ "$(ps -o sid= -p "$esc" | tr -d ' ')" = "$esc" ]
ok $? "it was left running, in a session of its own"
[ -n "$esc" ] && kill -KILL "$esc" 2>/dev/null
timeout $BOUND_S "$IOWATT" measure "${opts[@]}" --kill-descendants --json-out "$T_TMP/s2.json" \
	-- sh -c 'setsid sh -c "trap \"\" TERM; sleep 600" & echo $! >'"$T_TMP/s2.pid"'; sleep 1' \
	>"$T_TMP/s2.out" 2>&1
rc=$?
esc=$(cat "$T_TMP/s2.pid" 2>/dev/null)
[ $rc -eq 0 ] && [ "$(jget "$T_TMP/s2.json" 'str(d["jobs"][0]["descendants"])')" = "{'running': 2, 'ended': True}" ]
ok $? "--kill-descendants ends a setsid grandchild that ignores SIGTERM, and its child (rc=$rc, $(jget "$T_TMP/s2.json" 'str(d["jobs"][0].get("descendants"))'))"
[ -n "$esc" ] && ! kill -0 "$esc" 2>/dev/null
ok $? "nothing of it is left"

# 6. The options are measure's.
"$IOWATT" run --kill-after 2s --target "$T_TMP" --dry-run >/dev/null 2>"$T_TMP/err"
[ $? -eq 2 ] && grep -q "is for iowatt measure" "$T_TMP/err"
ok $? "run refuses --kill-after: it starts no command"
"$IOWATT" measure --help | grep -q -- "--kill-after TIME" &&
	"$IOWATT" measure --help | grep -q -- "--kill-descendants"
ok $? "measure --help lists --kill-after and --kill-descendants"

done_testing
