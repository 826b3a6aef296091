#!/usr/bin/env bash
# size --endurance (issue 32 item 5): the device's days at the workload's writes times the
# measured write amplification (jobs[].wear of a synced 4 KiB write job through ext4 on a
# loop device an EMULATED UM25C follows), the energy per GB, and which ends first; every
# figure recomputed here from the result and the options, independently of iowatt's code.
# --endurance device extrapolates the device's own wear figure (used_pct) from its change.
. "$(dirname "$0")/../lib/lib.sh"

t_emu_loop 64 endur
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --device "$dev" --idle-ma 90 --ma-per-mbps 20 \
	--ma-per-kiops 1000 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done

# two rounds of 4 KiB writes synced each: ext4's journal makes the disk write more than the job
"$IOWATT" run --target "$mnt" --meter "um25c:$T_TMP/um,interval=100ms" --rw write --bs 4k \
	--size 2m --fdatasync 1 --direct 0 --ioengine psync --repeat 2 --idle 1s --idle-samples 4 \
	--tail-max 0 --tail-hold 0 --no-progress --json-out "$T_TMP/r.json" >"$T_TMP/run.out" 2>&1
ok $? "two rounds of synced 4 KiB writes through ext4 on the loop device"
check "each round has its write amplification (jobs[].wear)" -- python3 -c '
import json, math, sys
js = json.load(open(sys.argv[1]))["jobs"]
was = [j["wear"]["write_amplification"] for j in js]
print("# write amplification per round:", was)
assert len(was) == 2 and all(w and w > 1 for w in was), was' "$T_TMP/r.json"

size() { # OUT ARGS...: size with a 3000 mAh battery and 100 MB a day
	local out=$1
	shift
	"$IOWATT" size --battery 3000mAh@3.7V --write 100MB/day "$@" "$T_TMP/r.json" >"$out" 2>&1
}

# The figures iowatt prints, against the same arithmetic done here: device bytes a day =
# 100 MB x WA (the rounds' mean; the interval from their lowest and highest), days = rated /
# that, J per device GB = J/GB net / WA, and the battery's days (iowatt's, with its +-95 %)
# before or after the device's interval.
cat >"$T_TMP/check.py" <<'PY'
import json, re, sys
out = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
rated, given = float(sys.argv[3]), float(sys.argv[4])
js = [j for j in d["jobs"] if j["status"] == "ok"]
was = [j["wear"]["write_amplification"] for j in js]
wa, lo, hi = (given, given, given) if given else (sum(was) / len(was), min(was), max(was))
dev_bpd = 100e6 * wa
days, days_lo, days_hi = rated / dev_bpd, rated / (100e6 * hi), rated / (100e6 * lo)
m = re.search(r"device +([0-9.]+) (MB|GB) written a day .* write amplification ([0-9.]+)", out)
got = float(m.group(1)) * (1e6 if m.group(2) == "MB" else 1e9)
assert abs(got - dev_bpd) <= 5e-4 * dev_bpd, (got, dev_bpd)
assert abs(float(m.group(3)) - wa) <= 5e-3 * wa, (m.group(3), wa)
m = re.search(r"wears .* = ([0-9.]+) days", out)
assert abs(float(m.group(1)) - days) <= max(1, 1e-3 * days), (m.group(1), days)
if hi > lo:
    m = re.search(r"\(([0-9]+) to ([0-9]+) days over", out)
    assert abs(float(m.group(1)) - days_lo) <= 1 and abs(float(m.group(2)) - days_hi) <= 1, (m.groups(), days_lo, days_hi)
SI = {"m": 1e-3, "": 1, "k": 1e3, "M": 1e6}
m = re.search(r"per GB +([0-9.]+) (m|k|M|)J per GB of the workload's data.*; ([0-9.]+) (m|k|M|)J per GB reaching", out)
jpg = [float(m.group(1)) * SI[m.group(2)], float(m.group(3)) * SI[m.group(4)]]
assert abs(jpg[1] - jpg[0] / wa) <= 2e-3 * jpg[0] / wa, (jpg, wa)
m = re.search(r"life +([0-9.]+) days", out)
b = float(m.group(1))
u = re.search(r"interval \+-([0-9.]+) days", out)
bu = float(u.group(1)) if u else 0
first = re.search(r"first +(.*)", out).group(1)
want = ("the battery" if b + bu < days_lo else "the device" if days_hi < b - bu else "too close")
assert first.startswith(want), (first, want, b, bu, days_lo, days_hi)
print("# WA %.3f (%.3f..%.3f): %.4g B/day, %.1f days (%.1f..%.1f); battery %.2f +-%.2f days: %s" %
      (wa, lo, hi, dev_bpd, days, days_lo, days_hi, b, bu, first))
PY

size "$T_TMP/s1.out" --endurance 40TB
ok $? "size --endurance 40TB"
sed -n '/^  life/p;/^  device/,/^  first/p' "$T_TMP/s1.out" | sed 's/^/# /'
check "40 TB: the device's days at 100 MB a day x the measured WA, their interval, J/GB, which ends first" -- \
	python3 "$T_TMP/check.py" "$T_TMP/s1.out" "$T_TMP/r.json" 40e12 0

size "$T_TMP/s2.out" --endurance 20GB --write-amplification 3
ok $? "size --endurance 20GB --write-amplification 3"
check "20 GB at WA 3 (given): 300 MB a day reach the device, 66.7 days" -- \
	python3 "$T_TMP/check.py" "$T_TMP/s2.out" "$T_TMP/r.json" 20e9 3

size "$T_TMP/s3.out" --endurance 50GB --write-amplification 1
check "50 GB at WA 1 against a 3000 mAh battery's under a day: the battery ends first" -- \
	python3 "$T_TMP/check.py" "$T_TMP/s3.out" "$T_TMP/r.json" 50e9 1

size "$T_TMP/s6.out" --endurance 10MB --write-amplification 2
check "10 MB at WA 2: 200 MB a day wear it out in 0.05 days, before the battery" -- \
	python3 "$T_TMP/check.py" "$T_TMP/s6.out" "$T_TMP/r.json" 10e6 2
grep -q "first    the device wears out before the battery" "$T_TMP/s6.out"
ok $? "and says the device ends first"

# The closing table answers which ends first in one place: beside each result's battery
# days, the device's days, their interval and which ends first, as the block above says.
cat >"$T_TMP/table.py" <<'PY'
import re, sys
out = open(sys.argv[1]).read()
head = next(l for l in out.splitlines() if l.startswith("device ") and "device days" in l)
row = out.splitlines()[out.splitlines().index(head) + 1]
cells = re.split(r" {2,}", row.strip())
days, interval, first = cells[-3], cells[-2], cells[-1]
wears = re.search(r"wears .* = (?:at least )?([0-9.]+) days", out)
assert abs(float(days) - float(wears.group(1))) <= max(0.01, 1e-3 * float(days)), (days, wears.group(0))
rng = re.search(r"\(([0-9]+) to ([0-9]+) days over", out)
if rng:
    lo, hi = interval.split("..")
    assert abs(float(lo) - float(rng.group(1))) <= 1 and abs(float(hi) - float(rng.group(2))) <= 1, (interval, rng.groups())
else:
    assert interval == "-", interval
said = re.search(r"first +(.*)", out).group(1)
want = {"battery": "the battery runs out", "device": "the device wears out", "overlap": "too close"}[first]
assert said.startswith(want), (first, said)
print("# table: device days %s, interval %s, ends first: %s" % (days, interval, first))
PY
for s in s1 s2 s6; do
	check "the closing table of $s: the device's days, interval and which ends first, beside the battery's" -- \
		python3 "$T_TMP/table.py" "$T_TMP/$s.out"
done
grep -A1 "device days" "$T_TMP/s6.out" | tail -n 1 | grep -q " device$"
ok $? "10 MB at WA 2: the table says the device ends first"

"$IOWATT" size --battery 3000mAh@3.7V --write 100MB/day --endurance lots "$T_TMP/r.json" \
	>"$T_TMP/bad.out" 2>&1
[ $? -ne 0 ] && grep -q "e.g. 40TB" "$T_TMP/bad.out"
ok $? "--endurance lots is refused, with an example"

# --endurance device: the loop device has no wear figure of its own; an NVMe drive whose
# percentage used rose 2 while 30 GB reached it is rated about 1.5 TB (1 to 3 TB: one step
# of 1 either way), from the same result with the figures set
size "$T_TMP/s4.out" --endurance device
grep -q "no wear figure of its own" "$T_TMP/s4.out"
ok $? "--endurance device on a device without a wear figure says so"
python3 - "$T_TMP/r.json" "$T_TMP/nvme.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["device"]["health"] = {"source": "nvme", "used_pct": 12}
for k, j in enumerate(d["jobs"]):
    j["wear"]["device_bytes"] = 15000000000
    j["wear"]["smart_bytes"] = None
    j["wear"]["health_changes"] = [{"key": "used_pct", "start": 10 + k, "end": 11 + k}]
json.dump(d, open(sys.argv[2], "w"))
PY
"$IOWATT" size --battery 3000mAh@3.7V --write 100MB/day --endurance device "$T_TMP/nvme.json" \
	>"$T_TMP/s5.out" 2>&1
ok $? "size --endurance device on a result whose used_pct moved"
sed -n '/^  rating/,/^  wears/p' "$T_TMP/s5.out" | sed 's/^/# /'
check "used_pct +2 over 30 GB: about 1.5 TB (1 to 3 TB), so 1.5e12 / (100 MB x WA) days" -- python3 - \
	"$T_TMP/s5.out" "$T_TMP/nvme.json" <<'PY'
import json, re, sys
out = open(sys.argv[1]).read()
js = json.load(open(sys.argv[2]))["jobs"]
was = [j["wear"]["write_amplification"] for j in js]
wa, lo, hi = sum(was) / 2, min(was), max(was)
assert re.search(r"rating +about 1\.500 TB: used_pct rose 2 \(steps of 1\) while 30\.00 GB", out), out
days = 1.5e12 / (100e6 * wa)
m = re.search(r"wears .* = ([0-9.]+) days.*\(([0-9]+) to ([0-9]+) days", out)
assert abs(float(m.group(1)) - days) <= 1, (m.group(1), days)
assert abs(float(m.group(2)) - 1e12 / (100e6 * hi)) <= 1, m.groups()
assert abs(float(m.group(3)) - 3e12 / (100e6 * lo)) <= 1, m.groups()
PY
done_testing
