#!/usr/bin/env bash
# A kernel-log line written while loop 2 of a metered run is in its active phase must land
# on loop 2 (and invalidate it), never on loop 1.
. "$(dirname "$0")/lib.sh"

if ! t_is_root; then
	skip "needs root for loop devices"
	done_testing
	exit
fi
if ! [ -x "$IOWATT" ] || "$IOWATT" emulate --help 2>&1 | grep -q "not available"; then
	skip "iowatt with run and emulate not built yet"
	done_testing
	exit
fi
# Not in $(...): t_loop_ext4 records the mount for cleanup in this shell.
t_loop_ext4 128 flags >"$T_TMP/mnt.path" || { ok 1 "loop ext4"; done_testing; exit 1; }
mnt=$(cat "$T_TMP/mnt.path")
emu_pid=""
run_pid=""
stop_all() {
	[ -n "$run_pid" ] && kill "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null
	[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null && wait "$emu_pid" 2>/dev/null
	run_pid=""
	emu_pid=""
}
trap 'stop_all; t_cleanup' EXIT

"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 200 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
[ -e "$T_TMP/um" ]
ok $? "emulator started"
mkfifo "$T_TMP/kmsg"
# Keep a writer open for the whole run so each echo below is one more line, not an EOF.
exec 7<>"$T_TMP/kmsg"

"$IOWATT" run --rw write --bs 1M --size 32M --rate-iops 10 --loops 2 --target "$mnt" \
	--meter "um25c:$T_TMP/um,interval=100ms" --kmsg "$T_TMP/kmsg" \
	--idle 1s --idle-samples 10 --tail-hold 500ms --tail-max 3s --no-progress \
	--json-out "$T_TMP/r.json" >"$T_TMP/run.out" 2>&1 &
run_pid=$!

# Wait (by progress, not by clock) until loop 2 reports its first interval.
seen=1
for _ in $(seq 600); do
	if [ -f "$T_TMP/r.intervals.csv" ] &&
		awk -F, 'NR > 1 && $2 == 2 { f = 1 } END { exit !f }' "$T_TMP/r.intervals.csv"; then
		seen=0
		break
	fi
	kill -0 "$run_pid" 2>/dev/null || break
	sleep 0.1
done
ok $seen "loop 2 reached its active phase"
echo "2,900,1,-;raspberrypi-hwmon soc:firmware:raspberrypi-hwmon: Under-voltage detected! (0x00050005)" >&7
echo "6,901,2,-;raspberrypi-hwmon soc:firmware:raspberrypi-hwmon: Voltage normalised (0x00000000)" >&7
wait "$run_pid"
rc=$?
run_pid=""
ok $rc "run exits 0 (rc=$rc)"
[ $rc -eq 0 ] || sed 's/^/#   /' "$T_TMP/run.out" | tail -20
exec 7>&-

if [ -f "$T_TMP/r.json" ]; then
	n1=$(jget "$T_TMP/r.json" 'sum(e["kind"] == "undervoltage" for e in d["jobs"][0]["events"])')
	n2=$(jget "$T_TMP/r.json" 'sum(e["kind"] == "undervoltage" and e["source"] == "kmsg" for e in d["jobs"][1]["events"])')
	[ "$n1" = 0 ]
	ok $? "loop 1 has no undervoltage event (got $n1)"
	[ "$n2" = 1 ]
	ok $? "loop 2 has the kmsg undervoltage (got $n2)"
	[ "$(jget "$T_TMP/r.json" 'd["jobs"][0]["validity"]["valid"]')" = True ]
	ok $? "loop 1 stays valid"
	[ "$(jget "$T_TMP/r.json" 'd["jobs"][1]["validity"]["valid"]')" = False ]
	ok $? "loop 2 is invalid"
	jget "$T_TMP/r.json" 'd["jobs"][1]["validity"]["reasons"]' | sed 's/^/# /'
else
	ok 1 "result written"
fi
stop_all
done_testing
