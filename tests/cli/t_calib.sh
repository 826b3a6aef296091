#!/usr/bin/env bash
# size=auto calibrations that check themselves, and the plan's ETA, on a loop device that a
# cgroup throttles (io.max): a calibration that moved too few I/Os is retried, and one that
# started while a background writer kept the device busy is retried or, once 5 s of waiting
# found no quiet spell, taken with the device said busy once, reasons in the log and the
# result; the ETA of a second run, with the first's result as its basis, is within
# 25 % of that run's wall time; a job that runs ten times faster than its calibration, too
# short for its meter, runs again at the size its own rate needs.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
mnt=$(t_loop_ext4 256 calib) || { ok 1 "loop ext4"; done_testing; exit 1; }
dev=$(findmnt -no SOURCE "$mnt")
t_cgroup_root >/dev/null || {
	echo "1..0 # skip no io throttle here (cgroup v2 io.max or v1 blkio)"
	exit 0
}
# "no limit" is max in io.max, 0 in blkio.throttle.*
read -r kind _ < <(t_cgroup_root)
[ "$kind" = v2 ] && un=max || un=0
out=$T_TMP/results
mkdir -p "$out"

# tries_hold RESULT ASSERTS: the Python ASSERTS hold, on a = the first job's size_auto and
# t = its calibration tries (printed as ios, seconds, wait_s, rejected).
tries_hold() {
	python3 - "$@" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))["jobs"][0]["size_auto"]
t = a["tries"]
print("# tries:", [(x["ios"], round(x["seconds"], 2), round(x["wait_s"], 1), x["rejected"])
                   for x in t])
exec(sys.argv[2])
EOF
}

# 1. Too few I/Os: at 6 read IOPS a 1 s calibration moves about 6 4 KiB reads, under the
# 16 a rate needs; each retry runs twice as long until one moves enough.
cg=$(t_throttle "$dev" $un $un 6 $un) || { ok 1 "throttle $dev"; done_testing; exit 1; }
t_in_cgroup "$cg" "$IOWATT" run --target "$mnt" --no-meter --no-progress --kmsg none \
	--rw randread --bs 4k --filesize 4m --size auto:1s --json-out "$T_TMP/few.json" \
	>"$T_TMP/few.out" 2>&1
ok $? "size=auto at 6 IOPS runs"
grep -E "size=auto calibration 1 of 4 rejected: [0-9]+ I/Os in .* a rate needs at least 16 I/Os" \
	"$T_TMP/few.out" >/dev/null
ok $? "the first calibration is rejected for too few I/Os, in the log"
tries_hold "$T_TMP/few.json" '
assert len(t) >= 2, t
assert all("I/Os in" in x["rejected"] for x in t[:-1]), t
assert t[-1]["rejected"] is None and t[-1]["ios"] >= 16 and a["note"] is None, t
assert t[-1]["seconds"] > t[0]["seconds"] * 1.5, t        # the retry ran longer
assert a["calibration_bytes"] == t[-1]["bytes"], a'
ok $? "the result keeps every try and its reason; the one taken moved 16 I/Os or more"

# 2. Busy: a writer in a cgroup held to 2 MB/s writes for about 12 s while the run starts.
# The throttle lets its writes through in bursts, so the first quiet spell can be a gap
# between two: that try sees the other I/O and is rejected, the next waits for a longer
# spell. Where 5 s of waiting find none, the device is said busy once and the try is taken
# as it is (a note says so): no try is rejected as busy, none waits again.
wcg=$(t_throttle "$dev" $un 2000000 $un $un)
t_in_cgroup "$wcg" dd if=/dev/zero of="$mnt/writer.bin" bs=64k count=384 oflag=direct \
	status=none &
writer=$!
sleep 1
"$IOWATT" run --target "$mnt" --no-meter --no-progress --kmsg none --rw randread --bs 4k \
	--filesize 8m --size auto:1s --json-out "$T_TMP/busy.json" >"$T_TMP/busy.out" 2>&1
ok $? "size=auto while another writer keeps the device busy runs"
wait "$writer"
rm -f "$mnt/writer.bin"
said=$(grep -c "is busy with I/O that is not iowatt's" "$T_TMP/busy.out")
[ "$said" -le 1 ] && ! grep -q "rejected: the device was busy" "$T_TMP/busy.out" &&
	{ [ "$said" -eq 1 ] || grep -Eq "size=auto calibration 1 of 4 rejected: the device moved .* of other I/O beside" "$T_TMP/busy.out"; }
ok $? "the busy device is said once (or a try seeing its I/O rejected), never rejected as busy ($said)"
tries_hold "$T_TMP/busy.json" '
said = int(sys.argv[3])
assert t[-1]["rejected"] is None, t
assert not any((x["rejected"] or "").startswith("the device was busy") for x in t), t
if said:
    assert a["note"].startswith("calibrated on a busy device"), a["note"]
else:
    assert len(t) >= 2 and "other I/O" in t[0]["rejected"] and a["note"] is None, t
    assert t[-1]["wait_s"] >= 0.25, t                    # it waited for a quiet spell' "$said"
ok $? "the result says why a try was rejected, or that the taken one ran on a busy device"

# 2b. Disagreement: the same job against an earlier result (--rates-from) that says the
# device did ten times its rate: the try is rejected for it; the next, agreeing with the
# first, is taken with a note that the device's rate has moved (or all four tries fail and
# the note says so).
python3 - "$T_TMP/busy.json" "$T_TMP/fast10.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    j["read"]["bw_bytes"] *= 10
json.dump(d, open(sys.argv[2], "w"))
EOF
"$IOWATT" run --target "$mnt" --no-meter --no-progress --kmsg none --rw randread --bs 4k \
	--filesize 8m --size auto:1s --rates-from "$T_TMP/fast10.json" \
	--json-out "$T_TMP/dis.json" >"$T_TMP/dis.out" 2>&1
ok $? "size=auto with --rates-from an earlier result ten times faster runs"
grep -q "size=auto calibration 1 of 4 rejected: .* MB/s is more than 1.5 x away from the .* MB/s of 1 job of this name and shape in $T_TMP/fast10.json" \
	"$T_TMP/dis.out"
ok $? "the calibration that disagrees with the earlier result is rejected, naming it"
tries_hold "$T_TMP/dis.json" '
assert "more than 1.5 x away" in t[0]["rejected"] and len(t) >= 2, t
assert a["reference"].endswith("fast10.json") and a["reference_rate_bytes_per_s"] > 0, a
assert a["note"] and ("has moved" in a["note"] or "4 tries" in a["note"]), a'
ok $? "the result names the reference and notes why a disagreeing rate was taken"
! "$IOWATT" run --target "$mnt" --no-meter --rw read --size 1m --rates-from "$T_TMP/none.json" \
	--json-out "$T_TMP/none-run.json" >"$T_TMP/none.out" 2>&1 &&
	grep -q "option --rates-from $T_TMP/none.json: not a result iowatt can read" "$T_TMP/none.out"
ok $? "--rates-from a file that is not a result is refused, naming the option and file"

# 3. The ETA: three jobs at SD-card speeds with the EMULATED UM25C at 10 Hz; the second
# run's plan rests on the first's result in the output directory.
sd=$(t_throttle "$dev" 23000000 14000000 2200 600)
"$IOWATT" emulate um25c --link "$T_TMP/um" --device "$(basename "$dev")" >"$T_TMP/emu.log" 2>&1 &
emu=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
cat >"$T_TMP/three.ini" <<'EOF'
[global]
size=auto:2s
filesize=32m
; the ETA does not foresee a retake for precision: none here (a short retake still can be)
max_uncertainty=1000%
idle=1s
idle_samples=5
tail_hold=1s
[seq-write]
rw=write
bs=1m
[rand-read]
rw=randread
bs=4k
iodepth=8
[seq-read]
rw=read
bs=1m
EOF
eta_run() { # N: run N of the profile; prints its wall time in seconds
	local t0 t1 tick rc
	# tests/run.sh stops a test silent for 45 s: a run takes about 40
	( while sleep 15; do echo "# run $1 goes on" >&2; done ) &
	tick=$!
	t0=$(date +%s.%N)
	t_in_cgroup "$sd" "$IOWATT" run "$T_TMP/three.ini" --target "$mnt" -o "$out" \
		--meter "um25c:$T_TMP/um,interval=100ms" --no-progress --kmsg none \
		>"$T_TMP/eta$1.out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	kill "$tick"
	wait "$tick" 2>/dev/null
	[ $rc -eq 0 ] || return 1
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
}
w1=$(eta_run 1)
ok $? "first run (no earlier result)"
grep "^estimated duration" "$T_TMP/eta1.out" | sed 's/^/# run 1: /'
echo "# run 1 took $w1 s"
w2=$(eta_run 2)
ok $? "second run"
grep "^estimated duration" "$T_TMP/eta2.out" | sed 's/^/# run 2: /'
echo "# run 2 took $w2 s"
kill "$emu" 2>/dev/null
wait "$emu" 2>/dev/null
python3 - "$T_TMP/eta2.out" "$w2" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"^estimated duration: ((?:\d+ h )?(?:\d+ min )?[\d.]+ s) \(I/O .*; .*as the earlier result (\S+)/iowatt-\S+\.json ran them", t, re.M)
assert m, t
def secs(s):
    v = 0.0
    for n, u in re.findall(r"([\d.]+) (h|min|s)", s):
        v += float(n) * {"h": 3600, "min": 60, "s": 1}[u]
    return v
eta, wall = secs(m.group(1)), float(sys.argv[2])
print("# ETA %.1f s, wall %.1f s: %+.0f %%" % (eta, wall, 100 * (eta - wall) / wall))
assert abs(eta - wall) <= 0.25 * wall, (eta, wall)
EOF
ok $? "the second run's ETA, from the first's result, is within 25 % of its wall time"

# 4. A calibration no check can catch: the device runs the job ten times faster than it ran
# the calibration (here the run moves from a 100 IOPS throttle to a 1000 IOPS one once the
# calibration is over, in its 3 s idle phase, as a draining throttle or a warmed cache
# would). The calibrated size is over in about half a second, too short for 20 samples of
# the 10 Hz meter: the loop runs again at the size its own rate needs, and the result keeps
# that run alone and says why.
slow_cg=$(t_throttle "$dev" $un $un 100 $un)
fast_cg=$(t_throttle "$dev" $un $un 1000 $un)
# speeding_up NAME: the run in the slow cgroup with an EMULATED UM25C polled at 10 Hz,
# moved to the fast one once its calibration is logged; $run, $emu and $pids (iowatt's:
# t_in_cgroup runs it in a child of $run) for the caller; output in $T_TMP/NAME.{out,json}.
speeding_up() {
	"$IOWATT" emulate um25c --link "$T_TMP/um-$1" --constant-ma 300 >"$T_TMP/emu-$1.log" 2>&1 &
	emu=$!
	for _ in $(seq 50); do [ -e "$T_TMP/um-$1" ] && break; sleep 0.1; done
	t_in_cgroup "$slow_cg" "$IOWATT" run --target "$mnt" --meter "um25c:$T_TMP/um-$1,interval=100ms" \
		--no-progress --kmsg none --rw randread --bs 4k --iodepth 4 --filesize 8m --size auto \
		--idle 3s --idle-samples 5 --tail-max 0 --tail-hold 0 --json-out "$T_TMP/$1.json" \
		>"$T_TMP/$1.out" 2>&1 &
	run=$!
	wait_for "size=auto: .* at .* MB/s (.* calibration)" "$T_TMP/$1.out"
	pids=$(cat "$slow_cg/cgroup.procs")
	for p in $pids; do echo "$p" >"$fast_cg/cgroup.procs"; done
}
wait_for() { # REGEX FILE: until FILE matches, or the run has ended
	for _ in $(seq 600); do
		grep -q "$1" "$2" && return 0
		kill -0 "$run" 2>/dev/null || return 1
		sleep 0.1
	done
}
speeding_up retake
wait "$run"
ok $? "a size=auto run whose device speeds up after the calibration runs"
kill "$emu" 2>/dev/null
wait "$emu" 2>/dev/null
grep -E "size=auto: the calibrated [0-9.]+ [KMG]iB ran in .* at .* MB/s, [0-9.]+x the calibration's .* MB/s: [0-9]+ samples \(< 20\); run again at " \
	"$T_TMP/retake.out" >/dev/null
ok $? "the short run is seen and run again, in the log" || sed 's/^/#   /' "$T_TMP/retake.out" | tail -n 12
python3 - "$T_TMP/retake.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["jobs"]) == 1, [j["jobname"] for j in d["jobs"]]
j = d["jobs"][0]
a, v = j["size_auto"], j["validity"]
print("# retake:", a["retake"])
print("# reason:", a["reason"])
assert a["retake"] and "run again at" in a["retake"], a
assert "its first run's rate" in a["reason"], a
# the calibrated size is under 2 x rate x target; a retake at least doubles it
assert j["options"]["size"] == a["size"] and a["size"] >= 2 * a["rate_bytes_per_s"] * a["target_s"], a
assert v["samples_active"] >= 20 and a["job_s"] >= 0.9 * a["target_s"] / 2, (v, a)
# the short run left out is on the kept run's clock, between its calibration and its idle
ph = j["phases"]
assert ph["calibration"]["t_end_ns"] <= ph["retaken"]["t_start_ns"] < ph["retaken"]["t_end_ns"] <= ph["idle"]["t_start_ns"], ph
EOF
ok $? "the result keeps the run at its own rate's size alone: 20 samples or more, says why, and when the short run was (phases.retaken)"

# 4b. The same, stopped (SIGINT) during the retake: the first run, finished, is what the
# result keeps, marked as such; nothing measured is lost.
speeding_up stop
# at once: the retake then has its 3 s idle phase and its job still to run
wait_for "run again at" "$T_TMP/stop.out"
for p in $pids; do kill -INT "$p" 2>/dev/null; done
wait "$run"
rc=$?
kill "$emu" 2>/dev/null
wait "$emu" 2>/dev/null
python3 - "$T_TMP/stop.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["jobs"]) == 1, [j["jobname"] for j in d["jobs"]]
j = d["jobs"][0]
a = j["size_auto"]
print("# retake:", a["retake"])
assert j["status"] == "ok" and a["retake"].endswith("that run was stopped: the first run kept"), a
assert j["options"]["size"] == a["size"] and "(1 s calibration)" in a["reason"], a
EOF
ok $(($? == 0 && rc == 130 ? 0 : 1)) "stopped during the retake: exit 130, the finished first run kept and said so (rc=$rc)" ||
	sed 's/^/#   /' "$T_TMP/stop.out" | tail -n 8

done_testing
