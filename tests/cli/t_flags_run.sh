#!/usr/bin/env bash
# A kernel-log line written, or the rpi_volt alarm raised in a fake sysfs tree, while loop 2
# of a metered run is in its active phase must land on loop 2 (and invalidate it), never on
# loop 1; temperatures come from the same tree.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
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

# run_loops NAME EXTRA_ARGS...: a 2-loop metered run in the background.
run_loops() {
	local name=$1
	shift
	"$IOWATT" run --rw write --bs 1M --size 32M --rate-iops 10 --loops 2 --target "$mnt" \
		--meter "um25c:$T_TMP/um,interval=100ms" \
		--idle 1s --idle-samples 10 --tail-hold 500ms --tail-max 3s --no-progress \
		--json-out "$T_TMP/$name.json" "$@" >"$T_TMP/$name.out" 2>&1 &
	run_pid=$!
}

# Wait (by progress, not by clock) until loop 2 of NAME reports its first interval.
wait_loop2() {
	local name=$1 seen=1
	for _ in $(seq 600); do
		if [ -f "$T_TMP/$name.intervals.csv" ] &&
			awk -F, 'NR > 1 && $2 == 2 { f = 1 } END { exit !f }' "$T_TMP/$name.intervals.csv"; then
			seen=0
			break
		fi
		kill -0 "$run_pid" 2>/dev/null || break
		sleep 0.1
	done
	ok $seen "$name: loop 2 reached its active phase"
}

finish() { # NAME
	wait "$run_pid"
	local rc=$?
	run_pid=""
	ok $rc "$1: run exits 0 (rc=$rc)"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T_TMP/$1.out" | tail -20
}

# check_loops NAME SOURCE: the undervoltage from SOURCE is on loop 2 only.
check_loops() {
	local r="$T_TMP/$1.json" n1 n2
	if [ ! -f "$r" ]; then
		ok 1 "$1: result written"
		return
	fi
	n1=$(jget "$r" 'sum(e["kind"] == "undervoltage" for e in d["jobs"][0]["events"])')
	n2=$(jget "$r" 'sum(e["kind"] == "undervoltage" and e["source"] == "'"$2"'" for e in d["jobs"][1]["events"])')
	[ "$n1" = 0 ]
	ok $? "$1: loop 1 has no undervoltage event (got $n1)"
	[ "$n2" = 1 ]
	ok $? "$1: loop 2 has the $2 undervoltage (got $n2)"
	# Whether loop 1 is valid also depends on the meter's coverage, which a loaded machine's
	# pty gaps decide; what this test owns is that no undervoltage reason lands on it.
	n1=$(jget "$r" 'sum("undervoltage" in x for x in d["jobs"][0]["validity"]["reasons"])')
	[ "$n1" = 0 ]
	ok $? "$1: loop 1 is not invalidated by the undervoltage (got $n1 reasons)"
	jget "$r" 'd["jobs"][0]["validity"]["reasons"]' | sed 's/^/# loop 1: /'
	[ "$(jget "$r" 'd["jobs"][1]["validity"]["valid"]')" = False ]
	ok $? "$1: loop 2 is invalid"
	n2=$(jget "$r" 'sum(x.startswith("undervoltage during the active phase") for x in d["jobs"][1]["validity"]["reasons"])')
	[ "$n2" = 1 ]
	ok $? "$1: loop 2's reason is the undervoltage (got $n2)"
	jget "$r" 'd["jobs"][1]["validity"]["reasons"]' | sed 's/^/# loop 2: /'
}

run_loops kmsg --kmsg "$T_TMP/kmsg"
wait_loop2 kmsg
echo "2,900,1,-;raspberrypi-hwmon soc:firmware:raspberrypi-hwmon: Under-voltage detected! (0x00050005)" >&7
echo "6,901,2,-;raspberrypi-hwmon soc:firmware:raspberrypi-hwmon: Voltage normalised (0x00000000)" >&7
finish kmsg
exec 7>&-
check_loops kmsg kmsg

# The same through the rpi_volt hwmon alarm of a private copy of the fake Pi tree.
cp -a "$REPO/tests/data/sysfs-flags/pi" "$T_TMP/sys"
alarm="$T_TMP/sys/sys/class/hwmon/hwmon0/in0_lcrit_alarm"
run_loops sysfs --kmsg none --sysfs_root "$T_TMP/sys"
wait_loop2 sysfs
echo 1 >"$alarm"
# Held for several of the watcher's 150 ms ticks; which job it lands on does not depend
# on this length, only on when it was raised.
sleep 1
echo 0 >"$alarm"
finish sysfs
check_loops sysfs rpi_volt
[ "$(jget "$T_TMP/sysfs.json" 'd["jobs"][1]["temperatures"]["soc_c"]["max"]')" = 51.234 ]
ok $? "SoC temperature read from the tree's cpu-thermal zone"

# Both sources: the kernel's "Voltage normalised" line is rate-limited and never comes; the
# rpi_volt alarm's return to 0 ends the kmsg span, and the record names rpi_volt for it.
cp -a "$REPO/tests/data/sysfs-flags/pi" "$T_TMP/sys2"
alarm="$T_TMP/sys2/sys/class/hwmon/hwmon0/in0_lcrit_alarm"
mkfifo "$T_TMP/kmsg2"
exec 7<>"$T_TMP/kmsg2"
run_loops both --kmsg "$T_TMP/kmsg2" --sysfs_root "$T_TMP/sys2"
for _ in $(seq 600); do
	[ -f "$T_TMP/both.intervals.csv" ] &&
		awk -F, 'NR > 1 && $2 == 1 { f = 1 } END { exit !f }' "$T_TMP/both.intervals.csv" && break
	kill -0 "$run_pid" 2>/dev/null || break
	sleep 0.1
done
echo "2,900,1,-;raspberrypi-hwmon soc:firmware:raspberrypi-hwmon: Under-voltage detected! (0x00050005)" >&7
echo 1 >"$alarm"
sleep 1
echo 0 >"$alarm"
finish both
exec 7>&-
r="$T_TMP/both.json"
if [ -f "$r" ]; then
	# Wherever the kmsg line landed, its span ends where rpi_volt's alarm ended.
	jget "$r" '[e for j in d["jobs"] for e in j["events"] if e["source"] == "kmsg" and e["kind"] == "undervoltage"][0]' >"$T_TMP/both.kmsg"
	jget "$r" '[e["t_ns"] for e in d["events"] if e["source"] == "rpi_volt" and e["kind"] == "undervoltage_end"][0]' >"$T_TMP/both.end"
	grep -q "'end_source': 'rpi_volt'" "$T_TMP/both.kmsg" &&
		grep -q "'t_end_ns': $(cat "$T_TMP/both.end")," "$T_TMP/both.kmsg"
	ok $? "both: the kmsg span without its end line ends at rpi_volt's alarm end, which it names" ||
		sed 's/^/#   /' "$T_TMP/both.kmsg"
	# A later job is invalidated only if it started before that end (event order, not time).
	v=$(jget "$r" 'str(any(j["phases"]["active"]["t_start_ns"] > '"$(cat "$T_TMP/both.end")"' and any("undervoltage" in x for x in j["validity"]["reasons"]) for j in d["jobs"]))')
	[ "$v" = False ]
	ok $? "both: no job that started after the alarm ended is invalidated by the kmsg line"
else
	ok 1 "both: result written"
	ok 1 "both: result written"
fi
stop_all
done_testing
