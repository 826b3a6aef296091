#!/usr/bin/env bash
# size --sleep-from: a sleep run of the PPK2 emulator (5 and 150 uA) and hand-made results, the days recomputed here from the documented model.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden
SD=$G/sd-sandisk-ultra.json

# Two sleep runs on the PPK2 emulator at the SD card's 3.3 V: what `measure --idle 0 --
# sleep 600` records on a real PPK2, shortened.
# A PPK2 streams 100 kS/s: on a loaded machine iowatt may fall behind it, lose samples
# and mark the run INVALID, as it must. That is not what this file tests, so a run that
# lost samples is taken again (at most three tries), and said.
for ua in 5 150; do
	ma=$(awk -v u="$ua" 'BEGIN { printf "%.6f", u / 1000 }')
	for try in 1 2 3; do
		start_emu ppk2 "$T/ppk2-$ua" --constant-ma "$ma" --volts 3.3 --duration 60
		up=$?
		timeout 60 "$IOWATT" measure --meter "ppk2:$T/ppk2-$ua,vdd=3300" --idle 0 \
			--no-progress --json-out "$T/sleep-$ua.json" -- sleep 2 >"$T/sleep-$ua.run" 2>&1
		rc=$?
		stop_emu
		grep -q "meter samples lost" "$T/sleep-$ua.json" 2>/dev/null || break
		echo "# $ua uA, try $try: meter samples lost (a loaded machine), measured again"
	done
	ok $up "PPK2 emulator at $ua uA up"
	ok $rc "measure --idle 0 -- sleep 2 at $ua uA"
done

# model RESULT JOB SLEEP.json RECORDS_PER_DAY WRITE_BPD: days from the JSON figures and
# docs/charts.md's model: the drive on for its bursts (I/O and tails) at the idle power,
# asleep the rest of the day at the sleep run's power.
model() {
	python3 - "$@" <<'PY'
import json, sys
path, job, sleep, recs, bpd = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
j = next(j for j in json.load(open(path))["jobs"] if j["jobname"] == job)
s = json.load(open(sleep))["jobs"][0]["power"]["active_w"]
p, w = j["power"], j["write"]
tail = (j["phases"]["tail"]["t_end_ns"] - j["phases"]["tail"]["t_start_ns"]) / 1e9
on = 0.0
extra = 0.0
if recs:
    on += recs / w["iops"] + recs * tail
    extra += recs * p["energy_net_j"] / w["total_ios"]
if bpd:
    on += bpd / w["bw_bytes"] + tail
    extra += bpd * j["efficiency"]["j_per_gb_net"] / 1e9
e = p["idle_w"] * on + max(0, s) * (86400 - on) + extra
print("%.2f" % (11.1 * 0.85 / 24 / (e / 86400 / 0.9 + 11.1 * 0.02 / 30.4375 / 24)))
PY
}
life() { awk '/^  life/ { print $2; exit }' "$1"; }

# Emulated sleep, measured card: refused unless --mix-emulated says so.
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min --sleep-from "$T/sleep-5.json" $SD \
	>"$T/mix.out" 2>"$T/mix.err"
[ $? -eq 2 ] && grep -q "sleep-5.json is EMULATED, .*sd-sandisk-ultra.json is measured: not mixed unless --mix-emulated" "$T/mix.err"
ok $? "an emulated sleep figure with a measured result is refused, both files named"

for ua in 5 150; do
	$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min --sleep-from "$T/sleep-$ua.json" \
		--mix-emulated $SD >"$T/s$ua.out" 2>"$T/s$ua.err"
	ok $? "size --records --sleep-from the $ua uA run --mix-emulated"
	want=$(model $SD RND4K-Q32T1-write "$T/sleep-$ua.json" 1440 0)
	got=$(life "$T/s$ua.out")
	[ -n "$got" ] && [ "$got" = "$want" ]
	ok $? "$ua uA: $got days, the model (idle while on, asleep the rest) gives $want"
	check "$ua uA: the sleep line names file, job, phase, duration, samples, interval and meter" -- \
		grep -qE "^  sleep    .* at 3.30 V from $T/sleep-$ua.json, job 'sleep', active phase: 2\.[0-9]+ s, [0-9]+ samples every 10\.0 µs, PPK2 .*, EMULATED$" "$T/s$ua.out"
	check "$ua uA: says the sleep figure is emulated and the result measured" -- \
		grep -q "warning: the sleep figure is EMULATED and this result measured (--mix-emulated)" "$T/s$ua.out"
	# The current in its own unit with 4 significant digits, as the result has it.
	check "$ua uA: the sleep current in µA, 4 significant digits, the result's" -- python3 - "$T/sleep-$ua.json" "$T/s$ua.out" <<'PY'
import json, re, sys
want = json.load(open(sys.argv[1]))["jobs"][0]["power"]["active_ma"] * 1000
got = re.search(r"^  sleep    .* = ([0-9.]+) µA at 3.30 V", open(sys.argv[2]).read(), re.M).group(1)
print(got, want)
sys.exit(0 if len(got.replace(".", "").lstrip("0")) == 4 and abs(float(got) - want) <= 5e-4 * want else 1)
PY
done
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min $SD >"$T/idle.out" 2>&1
[ "$(life "$T/s5.out" | cut -d. -f1)" -gt "$(life "$T/idle.out" | awk '{ print int(10 * $1) }')" ]
ok $? "asleep at 5 uA between records the card lasts over 10x longer than idle all day ($(life "$T/s5.out") vs $(life "$T/idle.out") days)"

# Idle only: asleep all day, the average current is the sleep current, shown in µA.
$IOWATT size --battery 220mAh@3V --sleep-from "$T/sleep-5.json" --mix-emulated $SD >"$T/only.out" 2>&1
ok $? "idle-only sizing asleep all day"
python3 - "$T/sleep-5.json" "$T/only.out" <<'PY'
import json, re, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["power"]
t = open(sys.argv[2]).read()
days = 0.66 * 0.85 / 24 / (p["active_w"] / 0.9 + 0.66 * 0.02 / 30.4375 / 24)
got = float(re.search(r"life +([0-9.]+) days", t).group(1))
head = re.search(r"^device +avg (\S+) ", t, re.M).group(1)
avg = float(re.search(r"^SanDisk SC64G \(SD\) +([0-9.]+) ", t, re.M).group(1))
print("# %.2f days (model %.2f), avg %s %s" % (got, days, avg, head))
sys.exit(0 if abs(got - days) <= 0.006 and head == "µA" and abs(avg - p["active_w"] / 3.3 * 1e6) < 0.01 * avg else 1)
PY
ok $? "asleep all day: days from the sleep power alone, the table's average in µA"
$IOWATT size --battery 220mAh@3V --sleep-from "$T/sleep-5.json" --mix-emulated --units current=mA $SD >"$T/ma.out" 2>&1
want=$(python3 -c "import json,sys; print('%.4g' % json.load(open(sys.argv[1]))['jobs'][0]['power']['active_ma'])" "$T/sleep-5.json")
check "--units current=mA: the sleep current in mA with its 4 digits ($want)" -- grep -qE "^  sleep    .* = $want mA at" "$T/ma.out"

# Intervals: a hand-made sleep figure with its _u95 (2 uW) and a sized result with its
# (idle +-2 mW, J/GB +-10 %): three shares in quadrature, recomputed here.
python3 - "$T/sleep-5.json" "$T/u-sleep.json" "$SD" "$T/u.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["power"]["active_w"] = 16.5e-6
d["jobs"][0]["power"]["active_w_u95"] = 2e-6
d["jobs"][0]["power"]["active_ma_u95"] = 2e-6 / 3.3 * 1e3
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[3]))
for j in d["jobs"]:
    j["power"]["idle_w_u95"] = 0.002
    j["efficiency"]["j_per_gb_net_u95"] = 0.1 * j["efficiency"]["j_per_gb_net"]
    for m in j.get("meters", []):
        m["power"]["idle_w_u95"] = 0.002
        m["efficiency"]["j_per_gb_net_u95"] = 0.1 * m["efficiency"]["j_per_gb_net"]
json.dump(d, open(sys.argv[4], "w"))
PY
$IOWATT size --battery 3000mAh@3.7V --write 2GB/day --sleep-from "$T/u-sleep.json" --mix-emulated \
	"$T/u.json" >"$T/u.out" 2>&1
ok $? "size with intervals on both results"
python3 - "$T/u.json" "$T/u.out" <<'PY'
import json, math, re, sys
j = next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["jobname"] == "SEQ1M-Q8T1-write")
t = open(sys.argv[2]).read()
tail = (j["phases"]["tail"]["t_end_ns"] - j["phases"]["tail"]["t_start_ns"]) / 1e9
on = 2e9 / j["write"]["bw_bytes"] + tail
extra = 2e9 * j["efficiency"]["j_per_gb_net"] / 1e9
e = j["power"]["idle_w"] * on + 16.5e-6 * (86400 - on) + extra
sd = 11.1 * 0.02 / 30.4375 / 24
days = 11.1 * 0.85 / 24 / (e / 86400 / 0.9 + sd)
per_w = days / (0.9 * (e / 86400 / 0.9 + sd))
shares = (per_w * 0.002 * on / 86400, per_w * 0.1 * extra / 86400, per_w * 2e-6 * (86400 - on) / 86400)
m = re.search(r"interval \+-([0-9.]+) days at 95 %: .* gives \+-([0-9.]+), .* \+-([0-9.]+), "
              r"the sleep power 16\.50 \+-2\.000 µW \+-([0-9.]+); (.*) dominates", t)
assert m, t
got = [float(m.group(i)) for i in (1, 2, 3, 4)]
want = [math.sqrt(sum(s * s for s in shares))] + list(shares)
print("# got %s, want %s" % (got, ["%.2f" % w for w in want]))
assert all(abs(g - w) <= 0.006 for g, w in zip(got, want)), (got, want)
dom = ["the idle power", "the workload's energy", "the sleep power"][shares.index(max(shares))]
assert m.group(5) == dom, (m.group(5), dom)
assert abs(float(re.search(r"life +([0-9.]+) days", t).group(1)) - days) <= 0.006
PY
ok $? "the days' interval: idle (while on), workload and sleep (while asleep) shares in quadrature"

# A benchmark job's idle phase as the sleep figure (RESULT:JOB): measured, same supply.
$IOWATT size --battery 3000mAh@3.7V --write 1GB/day --sleep-from "$SD:SEQ1M-Q8T1-read" $SD \
	>"$T/job.out" 2>&1
ok $? "--sleep-from RESULT:JOB takes a benchmark job's idle phase"
check "it says the idle phase, its estimated samples and the derived current" -- \
	grep -qE "^  sleep    .* \(current: power / voltage\) from $SD, job 'SEQ1M-Q8T1-read', idle phase: [0-9.]+ s, about [0-9]+ samples every" "$T/job.out"

# Refusals name the file and the job.
bad() { # bad DESCRIPTION EXPECTED-IN-STDERR SIZE-ARGS...
	local desc=$1 want=$2
	shift 2
	$IOWATT size --battery 11.1Wh "$@" >/dev/null 2>"$T/bad.err"
	local rc=$?
	[ $rc -eq 2 ] && grep -q -- "$want" "$T/bad.err"
	ok $? "$desc"
	[ $rc -eq 2 ] || cat "$T/bad.err" | sed 's/^/#   /'
}
python3 - "$T/sleep-5.json" "$T" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
def make(name, fn):
    d = json.load(open(src))
    fn(d["jobs"][0])
    json.dump(d, open("%s/%s.json" % (out, name), "w"))
make("at5v", lambda j: j["power"].update(active_v=5.0, active_w=j["power"]["active_ma"] * 5e-3))
make("failed", lambda j: j.update(status="failed"))
make("invalid", lambda j: j["validity"].update(valid=False, reasons=["12 samples in the active phase (< 20)"]))
make("empty", lambda j: j["phases"]["active"].update(t_end_ns=j["phases"]["active"]["t_start_ns"]))
make("w0", lambda j: j["power"].update(active_w=0.0, active_w_u95=1e-6, active_ma=5.0, active_ma_u95=0.01))
PY
bad "a sleep run at 5 V for a 3.3 V result: refused, the bound said" \
	"at5v.json: measured at 5 V, $SD at 3.3 V: more than 5 % apart" --sleep-from "$T/at5v.json" --mix-emulated $SD
bad "a failed sleep job" "failed.json: job 'sleep' failed" --sleep-from "$T/failed.json" --mix-emulated $SD
bad "an invalid sleep job, with its reason" "invalid.json: job 'sleep' is INVALID (12 samples" \
	--sleep-from "$T/invalid.json" --mix-emulated $SD
bad "a sleep job whose phase is empty" "empty.json: job 'sleep' has no active power to use (the phase is empty)" \
	--sleep-from "$T/empty.json" --mix-emulated $SD
bad "a sleep job whose W and mA x V disagree (0 W at 5 mA, 3.3 V): refused, both said" \
	"w0.json: job 'sleep': its power 0 mW and its current x voltage 5 mA x" --sleep-from "$T/w0.json" --mix-emulated $SD
bad "several jobs and none named" "$SD: 4 jobs with power data ('SEQ1M-Q8T1-read', .*): name one as $SD:JOB" --sleep-from "$SD" $SD
bad "a job the sleep result lacks" "no job named 'NOPE'" --sleep-from "$SD:NOPE" $SD
python3 "$REPO/tests/data/golden/strip_power.py" "$SD" "$T/nopower.json"
bad "a sleep result without a meter" "nopower.json: no job with power data" --sleep-from "$T/nopower.json" $SD
bad "a sleep file that is not there" "nothere.json" --sleep-from "$T/nothere.json" $SD
bad "--sleep-from with --power-off" "--sleep-from and --power-off both" --sleep-from "$T/sleep-5.json" --power-off $SD

done_testing
