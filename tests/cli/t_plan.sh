#!/usr/bin/env bash
# The plan before a run: jobs, bytes moved (size x threads x loops), estimated duration from
# the device's measured speed; --dry-run prints only that.
. "$(dirname "$0")/../lib/lib.sh"

if ! t_is_root; then
	skip "needs root for loop devices"
	done_testing
	exit
fi
mnt=$(t_loop_ext4 128 plan) || { ok 1 "loop ext4"; done_testing; exit 1; }
dev=$(findmnt -no SOURCE "$mnt")
out="$T_TMP/results"
mkdir -p "$out"

# sbc-fio's SEED003 jobs run 4 threads 3 times: --size 1G is 12 GiB each. Under qemu-user
# libaio answers ENOSYS and a profile's explicit ioengine=libaio is rightly refused there.
# psync runs one I/O at a time per thread, so the plan shows depth 1 there.
engine=()
depth=8
t_emulated && engine=(--ioengine psync) && depth=1
"$IOWATT" run sbc-fio --size 1G --target "$mnt" --output "$out" --dry-run "${engine[@]}" \
	--meter um25c:/nonexistent >"$T_TMP/dry.out" 2>&1
ok $? "--dry-run exits 0 (the meter is not opened)"
sed 's/^/# /' "$T_TMP/dry.out"
grep -E "^SEED003-write +write +4 KiB +$depth +4 +1 GiB +3 +12 GiB" "$T_TMP/dry.out" >/dev/null
ok $? "SEED003-write: 4 threads x 3 loops x 1 GiB = 12 GiB"
grep -q "^plan: 8 jobs (16 loops in all) on $mnt ($(basename "$dev")): 52 GiB moved" "$T_TMP/dry.out"
ok $? "the total of all jobs, and the device it goes to"
[ -z "$(ls -A "$mnt" | grep -v lost+found)" ] && [ -z "$(ls -A "$out")" ]
ok $? "--dry-run creates nothing on the target or in the output directory"
! grep -q "^job .*status" "$T_TMP/dry.out"
ok $? "and runs nothing"

# size=auto: what each job moves is chosen by its calibration, so the plan says so.
"$IOWATT" run quick --size auto --target "$mnt" --output "$out" --dry-run >"$T_TMP/auto.out" 2>&1
grep -q "^plan: 8 jobs (8 loops in all) on $mnt .*: bytes moved chosen by size=auto;" \
	"$T_TMP/auto.out" && ! grep -q "0 B moved" "$T_TMP/auto.out"
ok $? "size=auto: the plan says size=auto chooses the bytes moved, not '0 B moved'"

# A paced job's size=auto is a count of its bursts, so its time is known before any rate:
# iot-logger's LOG-64K-burst-sync pauses thinktime=8s between bursts.
"$IOWATT" run iot-logger --size auto --target "$mnt" --output "$out" --dry-run \
	>"$T_TMP/paced.out" 2>&1
sed 's/^/# /' "$T_TMP/paced.out" | tail -4
python3 - "$T_TMP/paced.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"^LOG-64K-burst-sync .* ([\d.]+) s, paced$", t, re.M)
assert m, t
s = float(m.group(1))
assert s >= 8 and abs(s / 8 - round(s / 8)) < 0.01, s  # whole spacings of 8 s
assert "2 paced size=auto jobs as long as their bursts" in t, t
PY
ok $? "size=auto on paced jobs: the ETA is their bursts at their spacing (whole 8 s pauses), said so"

# A throttled device's measured speed gives the next plan its duration.
cg=$(t_throttle "$dev" 23000000 14000000 2200 600) || { ok 1 "throttle $dev"; done_testing; exit 1; }
t_in_cgroup "$cg" "$IOWATT" run --rw write --bs 1M --iodepth 4 --size 16M --target "$mnt" \
	--output "$out" --no-meter --no-progress --kmsg none >"$T_TMP/run.out" 2>&1
ok $? "a run on the device at 14 MB/s"
awk '/^plan: /{p=NR} /^job .*status/{s=NR} END{exit !(p && s && p < s)}' "$T_TMP/run.out"
ok $? "a run prints its plan before it starts (before the summary)"
"$IOWATT" run --rw write --bs 1M --iodepth 4 --size 64M --loops 2 --target "$mnt" \
	--output "$out" --dry-run >"$T_TMP/dry2.out" 2>&1
sed 's/^/# /' "$T_TMP/dry2.out"
python3 - "$T_TMP/dry2.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"128 MiB +(\d+\.\d) s at ([\d.]+) MB/s", t)
assert m, t
secs, mbps = float(m.group(1)), float(m.group(2))
assert 11 <= mbps <= 17, mbps           # the throttle's 14 MB/s, as measured
assert abs(secs - 134.2 / mbps) < 0.2, (secs, mbps)
assert re.search(r"estimated duration: \d.*(as|at the rates of) the earlier result .*/results/iowatt-.*\.json", t), t
PY
ok $? "the plan's time for 128 MiB comes from the 14 MB/s the device did"

done_testing
