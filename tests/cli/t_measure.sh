#!/usr/bin/env bash
# `iowatt measure`: any command metered with the same idle / active / tail phases.
. "$(dirname "$0")/../lib/lib.sh"

t_um25c_constant 200
phases="--idle 1s --idle-samples 5 --tail-hold 0.5s --tail-max 3s --no-progress"

timeout 60 "$IOWATT" measure --meter "$meter" $phases --json-out "$T_TMP/m1.json" \
	-- sleep 2.5 >"$T_TMP/m1.out" 2>&1
ok $? "measure -- sleep 2.5 exits 0"
[ "$(jget "$T_TMP/m1.json" 'd["jobs"][0]["exit_status"]')" = 0 ]
ok $? "the command's exit status is recorded"
active=$(jget "$T_TMP/m1.json" '(d["jobs"][0]["phases"]["active"]["t_end_ns"] - d["jobs"][0]["phases"]["active"]["t_start_ns"]) / 1e9')
python3 -c "import sys; sys.exit(0 if 2.5 <= $active < 4.0 else 1)"
ok $? "the active phase spans the command (${active} s)"
python3 - "$T_TMP/m1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["jobs"][0]["power"]
# constant 200 mA: the mean current is the emulator's, and energy is mean power x time
a = d["jobs"][0]["phases"]["active"]
t = (a["t_end_ns"] - a["t_start_ns"]) / 1e9
ok = abs(p["active_ma"] - 200) < 2 and abs(p["energy_active_j"] - p["active_w"] * t) < 0.01 * p["energy_active_j"]
print("# active_ma %.2f, energy %.4f J over %.2f s" % (p["active_ma"], p["energy_active_j"], t))
sys.exit(0 if ok else 1)
PY
ok $? "power and energy of the command's window"

timeout 60 "$IOWATT" measure --meter "$meter" $phases --json-out "$T_TMP/m2.json" \
	-- sh -c 'exit 3' >"$T_TMP/m2.out" 2>&1
rc=$?
ok $((rc == 1 ? 0 : 1)) "a failing command makes measure exit 1 (rc=$rc)"
[ "$(jget "$T_TMP/m2.json" 'd["jobs"][0]["status"] + " " + str(d["jobs"][0]["exit_status"])')" = "failed 3" ]
ok $? "and the result says failed with its status"
python3 - "$T_TMP/m2.json" "$T_TMP/m2.json" <<'PY'
import json, shlex, sys
cmd = json.load(open(sys.argv[1]))["command"]
words = shlex.split(cmd)
assert words[words.index("--json-out") + 1] == sys.argv[2], words
assert words[-3:] == ["sh", "-c", "exit 3"], (cmd, words)
PY
ok $? "the recorded command is shell-quoted: it splits back into the words it was given"

timeout 30 "$IOWATT" measure --meter "$meter" $phases --json-out "$T_TMP/m3.json" \
	-- /nonexistent/cmd >"$T_TMP/m3.out" 2>&1
rc=$?
ok $((rc != 0 ? 0 : 1)) "a command that cannot start is an error (rc=$rc)"
if t_emulated; then
	# qemu-user runs posix_spawn's child as a plain fork: the exec error comes back as
	# exit 127, not as an error of the spawn that could name the command.
	skip "naming the command: under qemu-user posix_spawn cannot report the exec error"
else
	grep -q "/nonexistent/cmd" "$T_TMP/m3.out"
	ok $? "naming the command"
fi

# The command as a child of iowatt, once the active phase has started it; prints its pid.
child_of() { # PID NAME
	local c
	for _ in $(seq 300); do
		c=$(pgrep -P "$1" -x "$2" | head -1)
		[ -n "$c" ] && { echo "$c"; return 0; }
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# A signal to iowatt is the command's too; the run ends interrupted with 128 + signal.
"$IOWATT" measure --meter "$meter" $phases --json-out "$T_TMP/m5.json" -- sleep 60 \
	>"$T_TMP/m5.out" 2>&1 &
pid=$!
child=$(child_of $pid sleep)
kill -TERM $pid
wait $pid
rc=$?
ok $((rc == 143 ? 0 : 1)) "SIGTERM ends measure with 143 (rc=$rc)"
[ "$(jget "$T_TMP/m5.json" 'd["status"] + " " + d["jobs"][0]["status"] + " " + str(d["jobs"][0]["exit_signal"])')" = "interrupted interrupted 15" ]
ok $? "the command got the signal too: interrupted, exit_signal 15"
[ -n "$child" ] && kill "$child" 2>/dev/null

# A second signal, later than the first by more than 0.5 s, means "out now".
"$IOWATT" measure --meter "$meter" $phases --json-out "$T_TMP/m6.json" \
	-- sh -c 'trap "" INT; sleep 60' >"$T_TMP/m6.out" 2>&1 &
pid=$!
child=$(child_of $pid sh)
kill -INT $pid
sleep 1
kill -0 $pid 2>/dev/null
ok $? "a command that ignores the forwarded SIGINT keeps the run going"
kill -INT $pid
wait $pid
rc=$?
ok $((rc == 130 ? 0 : 1)) "a second SIGINT exits at once with 130 (rc=$rc)"
[ -n "$child" ] && pkill -P "$child" 2>/dev/null; [ -n "$child" ] && kill "$child" 2>/dev/null

done_testing
