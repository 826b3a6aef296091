#!/usr/bin/env bash
# Temperatures as a series on the run's clock: every reading in the result, the highest of
# each job in the summary and in compare.
. "$(dirname "$0")/../lib/lib.sh"

if ! t_is_root; then
	skip "needs root for loop devices"
	done_testing
	exit
fi
mnt=$(t_loop_ext4 64 temps) || { ok 1 "loop ext4"; done_testing; exit 1; }
cp -a "$REPO/tests/data/sysfs-flags/pi" "$T_TMP/sys"
zone="$T_TMP/sys/sys/devices/virtual/thermal/thermal_zone1/temp"
echo 70000 >"$zone"
run_pid=""
trap '[ -n "$run_pid" ] && kill "$run_pid" 2>/dev/null; t_cleanup' EXIT

# Paced so that the job lasts a few seconds: the SoC warms up during its first loop.
"$IOWATT" run --rw write --bs 1M --size 6M --rate-iops 2 --loops 2 --target "$mnt" --no-meter \
	--kmsg none --sysfs-root "$T_TMP/sys" --no-progress --json-out "$T_TMP/r.json" \
	>"$T_TMP/run.out" 2>&1 &
run_pid=$!
for _ in $(seq 300); do
	[ -f "$T_TMP/r.intervals.csv" ] && [ "$(wc -l <"$T_TMP/r.intervals.csv")" -ge 2 ] && break
	sleep 0.1
done
echo 80500 >"$zone"
wait "$run_pid"
ok $? "a run with a SoC thermal zone exits 0"
run_pid=""

python3 - "$T_TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["temperature_series"]
t = [x["t_ns"] for x in s]
assert len(s) >= 3, len(s)
assert t == sorted(t), "readings in time order"
first = min(j["phases"]["active"]["t_start_ns"] for j in d["jobs"])
last = max(j["phases"]["active"]["t_end_ns"] for j in d["jobs"])
assert d["t0_ns"] <= t[0] <= first and t[-1] >= last, (d["t0_ns"], t[0], first, t[-1], last)
soc = {x["soc_c"] for x in s}
assert soc <= {70.0, 80.5} and soc == {70.0, 80.5}, soc
assert all(x["drive_c"] is None for x in s)
gaps = [(b - a) / 1e9 for a, b in zip(t, t[1:])]
assert max(gaps) < 1.6, gaps
print("# %d readings over %.1f s, SoC %s" % (len(s), (t[-1] - t[0]) / 1e9, sorted(soc)))
PY
ok $? "temperature_series: every reading, in order, on the run's clock, at least once a second"
[ "$(jget "$T_TMP/r.json" '[j["temperatures"]["soc_c"]["max"] for j in d["jobs"]][-1]')" = 80.5 ]
ok $? "the job's own highest reading"
grep -q "SoC C" "$T_TMP/run.out" && grep -E "^write-1m-q1t1 +2 " "$T_TMP/run.out" | grep -q " 80.5"
ok $? "the summary has a SoC C column with the job's highest"
sed 's/^/# /' "$T_TMP/run.out" | grep -v "info" | tail -6
"$IOWATT" compare "$T_TMP/r.json" 2>/dev/null | grep -q "SoC C"
ok $? "and so has compare"

done_testing
