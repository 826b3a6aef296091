#!/usr/bin/env bash
# The benchmark's own cost: each job's CPU time (user + sys of its threads, per I/O, and the
# whole process's over the job) is in the result, and a meter on the board's supply makes
# the summary say its figures include that CPU, with figures that follow from the result;
# an INA says which rail it is on with supply=drive|board.
. "$(dirname "$0")/../lib/lib.sh"

dir="$T_TMP/target"
mkdir -p "$dir"
# A USB-C source's power_supply node from the fake tree: a board-level meter, 30 W constant.
board=(--sysfs_root "$REPO/tests/data/sysfs-meters" --meter "power_supply:ucsi-source-psy-1,interval=50ms")

run() { # JSON ARGS...
	local json=$1
	shift
	"$IOWATT" run --target "$dir" --rw randread --bs 4k --size 2m --numjobs 2 --direct 0 \
		--ioengine psync --idle 300ms --tail-max 0 --no-progress --json-out "$json" "$@" \
		>"$json.out" 2>&1
}

run "$T_TMP/b.json" "${board[@]}"
ok $? "a 2-thread job metered by a board-level meter"
check "jobs[].cpu: user + sys = the threads' CPU, per I/O = it over the I/Os, within each thread's runtime" -- \
	python3 - "$T_TMP/b.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
c = j["cpu"]
ios = j["read"]["total_ios"] + j["write"]["total_ios"]
assert c["threads"] == 2, c
assert c["cpu_s"] > 0 and c["user_s"] >= 0 and c["sys_s"] >= 0, c
assert abs(c["user_s"] + c["sys_s"] - c["cpu_s"]) <= 1e-6, c
assert ios == 2 * 512, ios
assert abs(c["per_io_us"] * ios - c["cpu_s"] * 1e6) <= 1e-6 * c["cpu_s"] * 1e6, (c, ios)
a = j["phases"]["active"]
active_s = (a["t_end_ns"] - a["t_start_ns"]) / 1e9
# A thread cannot use more CPU than the wall time it ran; its clock starts a little before
# the first I/O (opening, buffers), so allow the runtime plus 100 ms each.
assert c["cpu_s"] <= 2 * (active_s + 0.1), (c, active_s)
assert c["process_s"] > 0, c
assert d["meters"][0]["board_level"] is True, d["meters"][0]
EOF
check "the summary says the board's figures include iowatt's CPU, with the result's figures" -- \
	python3 - "$T_TMP/b.json" "$T_TMP/b.json.out" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
m = re.search(r"measures the board's supply: its figures include the CPU running iowatt "
              r"\((\d+) % of a core over the active phases, ([0-9.e+-]+) us of CPU per I/O\)", out)
assert m, out
j = d["jobs"][0]
a = j["phases"]["active"]
share = j["cpu"]["process_s"] / ((a["t_end_ns"] - a["t_start_ns"]) / 1e9) * 100
assert abs(int(m.group(1)) - share) <= 0.5 + 1e-9, (m.group(1), share)
per_io = j["cpu"]["per_io_us"]  # printed with 3 significant digits
assert abs(float(m.group(2)) - per_io) <= 0.005 * per_io, (m.group(2), per_io)
EOF

# An ina226 through hwmon sits on the drive's rail unless supply=board says otherwise.
hw=(--sysfs_root "$REPO/tests/data/sysfs-meters")
run "$T_TMP/h.json" "${hw[@]}" --meter "hwmon:ina226,interval=50ms"
run "$T_TMP/hb.json" "${hw[@]}" --meter "hwmon:ina226,interval=50ms,supply=board"
check "hwmon ina226: the drive's rail by default, the board's with supply=board" -- \
	python3 - "$T_TMP/h.json" "$T_TMP/hb.json" <<'EOF'
import json, sys
assert json.load(open(sys.argv[1]))["meters"][0]["board_level"] is False
assert json.load(open(sys.argv[2]))["meters"][0]["board_level"] is True
assert "CPU running iowatt" not in open(sys.argv[1] + ".out").read()
assert "CPU running iowatt" in open(sys.argv[2] + ".out").read()
EOF
"$IOWATT" run --target "$dir" "${hw[@]}" --meter "hwmon:ina226,supply=cpu" --size 1m \
	--json-out "$T_TMP/bad.json" >"$T_TMP/bad.out" 2>&1
[ $? -eq 2 ] && grep -q "supply=cpu: expected one of drive, board" "$T_TMP/bad.out"
ok $? "supply=cpu is refused, naming the choices"

# The same job metered by an emulated USB tester in the drive's cable: no such note.
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 300 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
run "$T_TMP/u.json" --meter "um25c:$T_TMP/um,interval=100ms"
ok $? "the same job metered by an emulated UM25C"
check "a meter in the drive's cable: the result still has the CPU, the summary no board note" -- \
	python3 - "$T_TMP/u.json" "$T_TMP/u.json.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["jobs"][0]["cpu"]["per_io_us"] > 0, d["jobs"][0]["cpu"]
assert d["meters"][0]["board_level"] is False, d["meters"][0]
assert "CPU running iowatt" not in open(sys.argv[2]).read()
EOF

done_testing
