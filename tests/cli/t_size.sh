#!/usr/bin/env bash
# iowatt size: battery life from the golden results, recomputed here from the model in docs/charts.md.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden
FILES="$G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json $G/usbssd-samsung-t7.json $G/nvme-netac.json"

# life FILE_JOB... : days the model gives, from the JSON figures, for OUT's device.
# Independent of the C code: the formula as documented, in Python.
model() { # model JSON JOBNAME WH USABLE REG SD BYTES_PER_DAY
	python3 - "$@" <<'PY'
import json, sys
path, job, wh, usable, reg, sd, bpd = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])  # MB = 10^6
j = next(j for j in json.load(open(path))["jobs"] if j["jobname"] == job)
e_day = j["power"]["idle_w"] * 86400 + bpd * j["efficiency"]["j_per_gb_net"] / 1e9
drain = e_day / 86400 / reg + wh * sd / 30.4375 / 24
print("%.2f" % (wh * usable / 24 / drain))
PY
}
days_of() { # days_of OUT DEVICE-SUBSTRING
	awk -v d="$2" 'index($0, d) == 1 { dev = 1 } dev && /^  life/ { print $2; exit }' "$1"
}

$IOWATT size --battery 3000mAh@3.7V --write 200MB/day $FILES >"$T_TMP/w.out" 2>"$T_TMP/w.err"
ok $? "size with --write over four results"
want=$(model $G/sd-sandisk-ultra.json SEQ1M-Q8T1-write 11.1 0.85 0.90 0.02 200e6)
got=$(days_of "$T_TMP/w.out" "SanDisk SC64G")
[ -n "$got" ] && [ "$got" = "$want" ]
ok $? "SD card: $got days, the documented model gives $want"
want=$(model $G/nvme-netac.json SEQ1M-Q8T1-write 11.1 0.85 0.90 0.02 200e6)
got=$(days_of "$T_TMP/w.out" "Netac NVMe")
[ -n "$got" ] && [ "$got" = "$want" ]
ok $? "NVMe: $got days, the documented model gives $want"
grep -A2 "^SanDisk SC64G" "$T_TMP/w.out" | grep -q "write    job SEQ1M-Q8T1-write (write, bs 1 MiB)"
ok $? "a MB/day stream uses the 1 MiB sequential write job and says so"
grep -A2 "^Samsung Portable SSD T7" "$T_TMP/w.out" | grep -q "job RND4K-Q32T1-write"
ok $? "the undervoltage-invalid job is passed over for a valid one"
grep -q "^longest: SanDisk SC64G (SD)" "$T_TMP/w.out"
ok $? "names the device that lasts longest"
grep -q "warning: idle power is 100 % of the daily energy" "$T_TMP/w.out"
ok $? "warns that idle power dominates"
grep -q "days  = usable_Wh / 24 h / (E_day / 86400 s / regulator" "$T_TMP/w.out" && \
	grep -q "usable 85 % = 9.435 Wh; regulator 90 %; self-discharge 2.0 %/month" "$T_TMP/w.out"
ok $? "prints the formula and every input"

# Derating, regulator and self-discharge change the answer as the model says.
$IOWATT size --battery 20Wh --usable 70% --regulator 80% --self-discharge 5%/month --write 1GB/day \
	$G/sd-sandisk-ultra.json >"$T_TMP/d.out" 2>&1
ok $? "size with explicit derating"
want=$(model $G/sd-sandisk-ultra.json SEQ1M-Q8T1-write 20 0.70 0.80 0.05 1073741824)
got=$(days_of "$T_TMP/d.out" "SanDisk SC64G")
[ "$got" = "$want" ]
ok $? "derated: $got days, the model gives $want"

# Small records use the 4 KiB job and its energy per I/O.
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min $G/sd-sandisk-ultra.json >"$T_TMP/r.out" 2>&1
ok $? "size with --records"
grep -q "records  job RND4K-Q32T1-write (randwrite, bs 4 KiB)" "$T_TMP/r.out" && grep -q "x 1440 IO/day" "$T_TMP/r.out"
ok $? "records pick the 4 KiB write job, 1440 I/Os a day"
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/r.out" <<'PY'
import json, re, sys
j = next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["jobname"] == "RND4K-Q32T1-write")
per_io = j["power"]["energy_net_j"] / j["write"]["total_ios"]
m = re.search(r"= ([0-9.]+) ([kmµn]?)J/day\n", open(sys.argv[2]).read().split("records  ")[1])
got = float(m.group(1)) * {"k": 1e3, "": 1, "m": 1e-3, "µ": 1e-6, "n": 1e-9}[m.group(2)]
sys.exit(0 if abs(got - 1440 * per_io) < 0.01 else 1)
PY
ok $? "record energy = 1440 x energy_net_j / total_ios"

$IOWATT size --battery 3000mAh@3.7V --duty 2s/60s --supply-v 5 $G/usbstick-sandisk-ultra.json >"$T_TMP/u.out" 2>&1
ok $? "size with --duty and --supply-v"
grep -q "duty     job SEQ1M-Q8T1-write" "$T_TMP/u.out" && grep -q "supply 5.00 V (--supply-v)" "$T_TMP/u.out"
ok $? "duty uses the write job's active power; supply voltage from the option"

# MB is 10^6 bytes as run prints MB/s; MiB says 2^20.
$IOWATT size --battery 11.1Wh --write 50MB/day $G/sd-sandisk-ultra.json >"$T_TMP/mb.out" 2>&1
$IOWATT size --battery 11.1Wh --write 50MiB/day $G/sd-sandisk-ultra.json >"$T_TMP/mib.out" 2>&1
grep -q "x 0.05 GB/day" "$T_TMP/mb.out" && grep -q "x 0.05243 GB/day" "$T_TMP/mib.out"
ok $? "--write 50MB/day is 0.05 GB a day, 50MiB/day 0.05243 GB"

# --power-off: the drive draws its idle power only while its bursts run (I/O at the job's
# IOPS, then the tail), recomputed here from the result.
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min --power-off $G/sd-sandisk-ultra.json \
	>"$T_TMP/off.out" 2>&1
ok $? "size --records --power-off"
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/off.out" <<'PY'
import json, re, sys
j = next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["jobname"] == "RND4K-Q32T1-write")
out = open(sys.argv[2]).read()
p = j["power"]
tail = (j["phases"]["tail"]["t_end_ns"] - j["phases"]["tail"]["t_start_ns"]) / 1e9
on = 1440 / j["write"]["iops"] + 1440 * tail
e = p["idle_w"] * on + 1440 * p["energy_net_j"] / j["write"]["total_ios"]
days = 11.1 * 0.85 / 24 / (e / 86400 / 0.9 + 11.1 * 0.02 / 30.4375 / 24)
got_on = float(re.search(r"on ([0-9.]+) s a day", out).group(1))
got_days = float(re.search(r"life +([0-9.]+) days", out).group(1))
print("# on %.1f s (want %.1f), %.2f days (want %.2f)" % (got_on, on, got_days, days))
sys.exit(0 if abs(got_on - on) < 0.1 and abs(got_days - days) < 0.01 else 1)
PY
ok $? "on time = records / IOPS + records x tail; idle only then: days as the model gives"
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min $G/sd-sandisk-ultra.json >"$T_TMP/on.out" 2>&1
[ "$(awk '/^  life/ {print $2}' "$T_TMP/off.out" | cut -d. -f1)" -gt \
	"$(awk '/^  life/ {print 10 * $2}' "$T_TMP/on.out" | cut -d. -f1)" ]
ok $? "a logger that powers its card off lasts over 10x longer than one that keeps it idle"
grep -q "^                  - idle_W x 100 % x (86400 s - on_s)" "$T_TMP/off.out" &&
	grep -q "100 % of the idle 74.80 mW is not drawn" "$T_TMP/off.out"
ok $? "the model line and the saving are printed"
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min --power-off=40% \
	$G/sd-sandisk-ultra.json >"$T_TMP/off40.out" 2>&1
grep -q "40 % of the idle 74.80 mW is not drawn" "$T_TMP/off40.out"
ok $? "--power-off=40%: a board-level meter, the drive 40 % of its idle"

# Only invalid write jobs, one with a negative net energy (idle drifting up in a short
# job): the invalid job is used with a warning, and the negative energy counts as 0.
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/allbad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    if "write" in j["options"]["rw"]:
        j["validity"]["valid"] = False
        j["validity"]["reasons"] = ["5 samples in the active phase (< 20)"]
        j["efficiency"]["j_per_gb_net"] = -40.0
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT size --battery 11.1Wh --write 1GB/day "$T_TMP/allbad.json" >"$T_TMP/bad.out" 2>&1
ok $? "size with only invalid write jobs still answers"
grep -q "warning: job SEQ1M-Q8T1-write is INVALID (5 samples in the active phase" "$T_TMP/bad.out"
ok $? "says the job it used is invalid, with the reason"
grep -q "came out negative.*counted as 0" "$T_TMP/bad.out" && grep -q "= idle 5.763 kJ + workload 0 J$" "$T_TMP/bad.out"
ok $? "a negative net energy counts as 0, never as a bonus"

# Errors name the file or the option.
python3 "$REPO/tests/data/golden/strip_power.py" "$G/sd-sandisk-ultra.json" "$T_TMP/nopower.json"
$IOWATT size --battery 11.1Wh --write 1MB/day "$T_TMP/nopower.json" 2>"$T_TMP/e1" >/dev/null
[ $? -eq 2 ] && grep -q "nopower.json: no power data" "$T_TMP/e1"
ok $? "result without power data: exit 2, file named"
bad() { # bad DESCRIPTION EXPECTED-IN-STDERR ARGS...
	local desc=$1 want=$2
	shift 2
	$IOWATT size "$@" $G/sd-sandisk-ultra.json >/dev/null 2>"$T_TMP/bad.err"
	[ $? -eq 2 ] && grep -q -- "$want" "$T_TMP/bad.err"
	ok $? "$desc"
}
bad "--battery without a voltage" "--battery '3000mAh'" --battery 3000mAh
bad "--battery garbage" "--battery 'big'" --battery big
bad "missing --battery" "--battery is required" --write 1MB/day
bad "--write without a period" "--write '200MB'" --battery 11.1Wh --write 200MB
bad "--read with a bad size" "--read 'lots/day'" --battery 11.1Wh --read lots/day
bad "--records without a rate" "--records '4KiB'" --battery 11.1Wh --records 4KiB
bad "--duty longer than its period" "--duty '90s/60s'" --battery 11.1Wh --duty 90s/60s
bad "--usable as a bare number" "--usable '85'" --battery 11.1Wh --usable 85
bad "--supply-v negative" "--supply-v '-5'" --battery 11.1Wh --supply-v -5
bad "--job that no result has" "no job named 'NOPE'" --battery 11.1Wh --write 1MB/day --job NOPE
echo '{"schema_version": 1, "jobs": [' >"$T_TMP/broken.json"
$IOWATT size --battery 11.1Wh "$T_TMP/broken.json" 2>"$T_TMP/e2" >/dev/null
[ $? -eq 2 ] && grep -q "broken.json:[0-9]*:[0-9]*:" "$T_TMP/e2"
ok $? "malformed JSON: exit 2, file named"

# Intervals: the idle power and the energy per GB carry _u95s (set by hand here); the days
# get an interval by first-order propagation, its dominant input named, recomputed below.
python3 - "$REPO/tests/data/golden/sd-sandisk-ultra.json" "$T_TMP/u.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    for p in [j["power"]] + [m["power"] for m in j.get("meters", [])]:
        p["idle_w_u95"] = 0.002
    for e in [j["efficiency"]] + [m["efficiency"] for m in j.get("meters", [])]:
        e["j_per_gb_net_u95"] = 0.1 * e["j_per_gb_net"]
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT size --battery 11.1Wh --write 2GB/day "$T_TMP/u.json" >"$T_TMP/u.out" 2>&1
ok $? "size with figures that carry intervals"
check "days +-interval from idle (+-2 mW) and workload (10 %) shares, by hand, in their units" -- \
	python3 - "$T_TMP/u.out" <<'PY'
import math, re, sys
t = open(sys.argv[1]).read()
SI = {"k": 1e3, "": 1, "m": 1e-3, "µ": 1e-6, "n": 1e-9}
days = float(re.search(r"life +([0-9.]+) days", t).group(1))
m = re.search(r"idle +([0-9.]+) ([kmµn]?)W from", t)
idle = float(m.group(1)) * SI[m.group(2)]
m = re.search(r"workload ([0-9.]+) ([kmµn]?)J\n", t)
work = float(m.group(1)) * SI[m.group(2)]
m = re.search(r"interval \+-([0-9.]+) days at 95 %: idle power [0-9.]+ \+-2.000 mW gives "
              r"\+-([0-9.]+), the workload's [0-9.]+ \+-([0-9.]+) ([kmµn]?)J/day \+-([0-9.]+); (.*) dominates", t)
assert m, t
total, d_idle, u_work, d_work, dom = float(m.group(1)), float(m.group(2)), float(m.group(3)) * SI[m.group(4)], float(m.group(5)), m.group(6)
avg_w = idle + work / 86400
per_w = days / avg_w          # regulator 90 %, self-discharge 2 %/month: close to days / P
assert abs(u_work - 0.1 * work) <= 0.01 * work + 0.01, (u_work, work)
assert abs(d_idle - per_w * 0.002) <= 0.05 * per_w * 0.002 + 0.01, (d_idle, per_w)
assert abs(d_work - per_w * u_work / 86400) <= 0.05 * per_w * u_work / 86400 + 0.01, d_work
assert abs(total - math.hypot(d_idle, d_work)) <= 0.011, (total, d_idle, d_work)
assert dom == ("the idle power" if d_idle >= d_work else "the workload's energy"), dom
PY
check "the summary table has the days' interval" -- grep -qE "^SanDisk SC64G \(SD\) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" "$T_TMP/u.out"

done_testing
