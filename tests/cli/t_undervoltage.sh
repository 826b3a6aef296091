#!/usr/bin/env bash
# A sagging 5 V line seen by the meter is an undervoltage event: it invalidates the job it
# overlaps, and --stop-on-undervoltage ends the run there.
. "$(dirname "$0")/../lib/lib.sh"

emu_pid=""
stop_emu() { [ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait "$emu_pid" 2>/dev/null; emu_pid=""; }
trap 'stop_emu; t_cleanup' EXIT
start_emu() {
	rm -f "$T_TMP/um"
	# 5.0 V at the charger, 0.5 ohm of cable: 100 mA gives 4.95 V, 800 mA sags to 4.60 V.
	"$IOWATT" emulate um25c --link "$T_TMP/um" --volts 5.0 --cable-ohms 0.5 \
		--step "0:100,$1:800,$2:100" >"$T_TMP/emu.log" 2>&1 &
	emu_pid=$!
	for _ in $(seq 50); do [ -e "$T_TMP/um" ] && return 0; sleep 0.1; done
	return 1
}
meter() { echo "um25c:$T_TMP/um,interval=100ms"; }
phases="--idle 1s --idle-samples 5 --tail-hold 0.5s --tail-max 2s --no-progress"
mkdir -p "$T_TMP/dir"

# Two paced jobs of about 4 s each; the sag comes during the second one only.
cat >"$T_TMP/two.ini" <<'INI'
[global]
rw=write
bs=64k
size=2m
rate_iops=8
[first]
[second]
INI
start_emu 9 30 || ok 1 "emulator started"
timeout 90 "$IOWATT" run "$T_TMP/two.ini" --target "$T_TMP/dir" --meter "$(meter)" $phases \
	--json-out "$T_TMP/uv.json" >"$T_TMP/uv.out" 2>&1
ok $? "a run through a sag completes (rc=$?)"
stop_emu
python3 - "$T_TMP/uv.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j1, j2 = d["jobs"]
uv2 = [e for e in j2["events"] if e["kind"] == "undervoltage"]
print("# first:", j1["validity"], "\n# second:", j2["validity"])
ok = j1["validity"]["valid"] and not j2["validity"]["valid"] and uv2 and \
     any("undervoltage" in r for r in j2["validity"]["reasons"]) and \
     not [e for e in j1["events"] if e["kind"] == "undervoltage"] and \
     j2["power"]["min_v"] < 4.75
sys.exit(0 if ok else 1)
PY
ok $? "the sag invalidates exactly the job it overlaps, with the reason and min_v"

start_emu 3 30 || ok 1 "emulator started"
timeout 90 "$IOWATT" run "$T_TMP/two.ini" --target "$T_TMP/dir" --meter "$(meter)" $phases \
	--stop-on-undervoltage --json-out "$T_TMP/stop.json" >"$T_TMP/stop.out" 2>&1
rc=$?
stop_emu
ok $((rc == 1 ? 0 : 1)) "--stop-on-undervoltage ends the run with exit 1 (rc=$rc)"
[ "$(jget "$T_TMP/stop.json" 'd["status"] + " " + str(len(d["jobs"])) + " " + d["jobs"][0]["status"]')" = "interrupted 1 interrupted" ]
ok $? "the first job is kept, marked interrupted, and no further job runs"
grep -q "stop-on-undervoltage" "$T_TMP/stop.out"
ok $? "the run says why it stopped"
[ -z "$(ls "$T_TMP/dir")" ]
ok $? "the test file is removed"

done_testing
