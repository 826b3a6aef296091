#!/usr/bin/env bash
# configs/idle-states.ini and size --idle-states (issue 32.6): idle power after longer and
# longer pauses, the first I/O's cost above it, and the break-even pause, against an
# emulated device on a loop ext4 that drops from 80 to 20 mA after 2 s without I/O and
# draws 300 mA more for 300 ms when it wakes.
. "$(dirname "$0")/../lib/lib.sh"
emu_pid=""
t_emu_loop 64 idle
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

"$IOWATT" run idle-states --target "$mnt" --dry-run >"$T_TMP/plan.out" 2>&1 &&
	grep -q "AFTER-120s" "$T_TMP/plan.out"
ok $? "the shipped profile plans (4 jobs, the last after 120 s alone)"

"$IOWATT" emulate um25c --link "$T_TMP/um" --device "$dev" --idle-ma 80 --sleep-after 2 \
	--sleep-ma 20 --wake-ma 300 --wake-ms 300 --cable-ohms 0 --volts 5 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
# The profile's shape with pauses that fit a test: 1 s (still awake), 12 s (asleep).
cat >"$T_TMP/states.ini" <<'INI'
[global]
rw=write
bs=4k
size=4k
ioengine=psync
direct=0
fdatasync=1
idle_samples=4
idle_settle=0
tail_max=20s
tail_hold=1500ms
tail_tolerance=10%
[AFTER-1s]
idle=1s
[AFTER-12s]
idle=12s
INI
"$IOWATT" run "$T_TMP/states.ini" --target "$mnt" --meter "um25c:$T_TMP/um,interval=100ms" \
	--no-progress --json-out "$T_TMP/r.json" >"$T_TMP/r.out" 2>&1
ok $? "two jobs, after 1 s and after 12 s alone, metered" || tail -n 5 "$T_TMP/r.out" | sed 's/^/#   /'
kill "$emu_pid" 2>/dev/null
wait "$emu_pid" 2>/dev/null
emu_pid=""

python3 -c "import json,sys; [print(\"#\", j[\"jobname\"], j[\"validity\"][\"reasons\"]) for j in json.load(open(sys.argv[1]))[\"jobs\"]]" "$T_TMP/r.json"
"$IOWATT" size "$T_TMP/r.json" --idle-states --records 4KiB@1/min >"$T_TMP/size.out" 2>"$T_TMP/size.err"
ok $? "size --idle-states needs no battery ($(head -c 300 "$T_TMP/size.err"))"
sed 's/^/# /' "$T_TMP/size.out"
python3 - "$T_TMP/r.json" "$T_TMP/size.out" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
p = {j["jobname"]: j["power"] for j in r["jobs"]}
awake, deep = p["AFTER-1s"], p["AFTER-12s"]
# The device's states as the emulator draws them, at 5 V.
assert abs(awake["idle_w"] - 0.400) < 0.02, awake["idle_w"]
assert abs(deep["idle_w"] - 0.100) < 0.02, deep["idle_w"]
out = open(sys.argv[2]).read()
m = re.search(r"break-even pause ([0-9.]+) s", out)
assert m, out
be = float(m.group(1))
# Independently: the deep job's extra cost over the awake one's, over the 0.3 W saved.
expect = (deep["energy_net_j"] - awake["energy_net_j"]) / (awake["idle_w"] - deep["idle_w"])
# And from the emulator's parameters: it stays awake 2 s after the I/O (0.3 W above the
# sleep level) and wakes with 300 mA x 0.3 s at 5 V: about 2 + 0.45 / 0.3 = 3.5 s.
print(f"break-even {be} s; from the result's figures {expect:.2f} s; from the emulator's parameters ~3.5 s")
assert abs(be - expect) < 0.15, (be, expect)
assert 2.0 < be < 9.0, be  # the journal commit 5 s after a sync may keep it awake longer
assert "records every 60 s: longer than the break-even" in out, out
PY
ok $? "idle 0.40 W after 1 s, 0.10 W after 12 s; the break-even pause from the figures, near the emulator's 3.5 s; a record a minute pays"

# A result without a lower state says so; a result without the jobs is refused.
python3 - "$T_TMP/r.json" "$T_TMP/flat.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    j["power"]["idle_w"] = 0.400
json.dump(d, open(sys.argv[2], "w"))
PY
cp "$T_TMP/r.samples.csv" "$T_TMP/flat.samples.csv" 2>/dev/null
"$IOWATT" size "$T_TMP/flat.json" --idle-states >"$T_TMP/flat.out" 2>&1 &&
	grep -q "no lower idle state seen" "$T_TMP/flat.out"
ok $? "the same idle power after both pauses: no lower state, no break-even"
"$IOWATT" size "$T_TMP/flat.json" >"$T_TMP/nobatt.out" 2>&1
[ $? -eq 2 ] && grep -q -- "--battery is required" "$T_TMP/nobatt.out"
ok $? "without --idle-states, size still asks for --battery"

done_testing
