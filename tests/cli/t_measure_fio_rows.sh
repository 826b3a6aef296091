#!/usr/bin/env bash
# measure -- fio ... --output-format=json with several fio jobs: after the command's row
# (its I/O summed, the whole command's power), a row per fio job named as fio names it,
# with that job's own I/O figures (its numjobs clones summed) and the power of its own span
# where it ran alone; jobs that ran at the same time say their energy is shared.
# A fake fio in PATH prints the JSON layout of fio 3.x (keys as a real fio 3.33 run writes
# them; FAKE_STAMPS=1 adds 3.39's job_start, the jobs overlapping); real fio, where
# installed, runs two jobs one after the other (stonewall), then two side by side.
. "$(dirname "$0")/../lib/lib.sh"

emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 300 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
meas="--meter um25c:$T_TMP/um,interval=100ms --idle 1s --idle-samples 5 --tail-hold 0
	--tail-max 0 --no-progress --kmsg none"

# fio's JSON for a job file of two jobs, the first with numjobs=2 (two entries of its name)
mkdir -p "$T_TMP/bin"
cat >"$T_TMP/fio.py" <<'EOF'
import json, os, sys, time
time.sleep(0.3)
now = int(time.time() * 1000)
def lat(p50, p99):
    return {"min": p50 // 2, "max": p99 * 2, "mean": float(p50), "stddev": float(p50) / 4,
            "N": 100, "percentile": {"1.000000": p50 // 2, "50.000000": p50,
                                     "99.000000": p99}}
def ddir(nbytes, ios, p50, p99, ms):
    return {"io_bytes": nbytes, "io_kbytes": nbytes // 1024,
            "bw_bytes": nbytes * 1000 // ms if nbytes else 0,
            "bw": nbytes // ms if nbytes else 0, "iops": ios * 1000.0 / ms if ios else 0.0,
            "runtime": ms if nbytes else 0, "total_ios": ios, "short_ios": 0, "drop_ios": 0,
            "slat_ns": lat(0, 0), "clat_ns": lat(p50, p99), "lat_ns": lat(p50 + 500, p99 + 500)}
stamps = os.environ.get("FAKE_STAMPS") == "1"
def job(name, gid, rd, wr, ms):
    j = {"jobname": name, "groupid": gid, "error": 0, "eta": 0, "elapsed": 1,
         "job options": {"name": name}, "read": rd, "write": wr,
         "trim": ddir(0, 0, 0, 0, ms), "sync": {"total_ios": 0, "lat_ns": lat(0, 0)},
         "job_runtime": ms, "usr_cpu": 1.0, "sys_cpu": 2.0, "ctx": 10, "majf": 0, "minf": 10}
    if stamps:  # fio 3.39: each job's start; here all three from the same moment
        j["job_start"] = now - 250
    return j
none = ddir(0, 0, 0, 0, 200)
doc = {"fio version": "fio-3.33", "timestamp": now // 1000, "timestamp_ms": now,
       "time": time.ctime(now / 1000),
       "jobs": [job("seq-write", 0, none, ddir(4 << 20, 64, 90000, 400000, 200), 200),
                job("seq-write", 0, none, ddir(6 << 20, 96, 95000, 410000, 200), 200),
                job("rand-read", 1, ddir(1 << 20, 256, 7000, 30000, 100), none, 100)],
       "disk_util": []}
json.dump(doc, sys.stdout, indent=2)
print()
EOF
printf '#!/bin/sh\nexec python3 "%s" "$@"\n' "$T_TMP/fio.py" >"$T_TMP/bin/fio"
chmod +x "$T_TMP/bin/fio"
printf '[seq-write]\nrw=write\nnumjobs=2\n[rand-read]\nrw=randread\nstonewall\n' >"$T_TMP/jobs.fio"

PATH="$T_TMP/bin:$PATH" "$IOWATT" measure $meas --json-out "$T_TMP/fake.json" -- \
	fio "$T_TMP/jobs.fio" --output-format=json >"$T_TMP/fake.out" 2>"$T_TMP/fake.err"
ok $? "measure -- fio JOBFILE --output-format=json (fio's JSON: 2 jobs, one with numjobs=2)"
check "the command's row, then a row per fio job named by fio, with that job's I/O" -- \
	python3 - "$T_TMP/fake.json" <<'EOF'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
names = [j["jobname"] for j in jobs]
assert names == ["seq-write+rand-read", "seq-write", "rand-read"], names
cmd, sw, rr = jobs
assert all(j["io_source"] == "fio" for j in jobs), jobs
assert sw["write"]["io_bytes"] == 10 << 20 and sw["write"]["total_ios"] == 160, sw["write"]
assert sw["read"]["io_bytes"] == 0 and rr["write"]["io_bytes"] == 0, (sw["read"], rr["write"])
assert rr["read"]["io_bytes"] == 1 << 20 and rr["read"]["total_ios"] == 256, rr["read"]
# rates over the job's own job_runtime (the clones ran side by side for 200 ms)
assert sw["write"]["bw_bytes"] == (10 << 20) * 5, sw["write"]
assert abs(rr["read"]["iops"] - 2560) < 1e-6, rr["read"]
# latency: the clone that did most of the job's I/Os; each row its own job's
assert sw["write"]["clat_ns"]["percentile"]["50.000000"] == 95000, sw["write"]["clat_ns"]
assert rr["read"]["clat_ns"]["percentile"]["50.000000"] == 7000, rr["read"]["clat_ns"]
# the command's row sums them all, and alone carries the power the meter saw
assert cmd["write"]["io_bytes"] == 10 << 20 and cmd["read"]["io_bytes"] == 1 << 20, cmd
assert cmd["power"] is not None and cmd["power"]["active_w"] > 0, cmd["power"]
# fio 3.33 stamps no job's start: its groups ran one after another, so each row has the
# power of its own span (200 ms, then 100 ms: too short for 20 samples, and said so)
ca, sa, ra = (j["phases"]["active"] for j in (cmd, sw, rr))
assert sa["t_start_ns"] == ca["t_start_ns"] and ra["t_end_ns"] == ca["t_end_ns"], (ca, sa, ra)
assert sa["t_end_ns"] == ra["t_start_ns"], (sa, ra)
span = ca["t_end_ns"] - ca["t_start_ns"]
assert abs((sa["t_end_ns"] - sa["t_start_ns"]) - span * 2 / 3) <= 1, (sa, span)
for r in (sw, rr):
    assert r["power"] is not None, r["jobname"]
    assert not r["validity"]["valid"], r["validity"]
    assert r["validity"]["reasons"][0].startswith("active phase has "), r["validity"]
EOF
FAKE_STAMPS=1 PATH="$T_TMP/bin:$PATH" "$IOWATT" measure $meas --json-out "$T_TMP/fake39.json" -- \
	fio "$T_TMP/jobs.fio" --output-format=json >"$T_TMP/fake39.out" 2>"$T_TMP/fake39.err"
check "fio 3.39's job_start: jobs that overlapped have no power, their energy said shared" -- \
	python3 - "$T_TMP/fake39.json" <<'EOF'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
cmd, sw, rr = jobs
assert cmd["power"] is not None, cmd
for r, other in ((sw, "rand-read"), (rr, "seq-write")):
    assert r.get("power") is None, r["jobname"]
    assert not r["validity"]["valid"], r["validity"]
    assert r["validity"]["reasons"][0].startswith("energy shared with '%s'" % other), r["validity"]
EOF
check "the log says which row has what" -- \
	grep -q "fio ran 3 jobs (seq-write+rand-read): this row has their I/O summed.*a row each after it" "$T_TMP/fake.err"
check "the summary lists the three rows" -- python3 - "$T_TMP/fake.out" <<'EOF'
import re, sys
rows = [l.split()[0] for l in open(sys.argv[1]) if re.match(r"^\S+\s+1\s+ok\s", l)]
assert rows == ["seq-write+rand-read", "seq-write", "rand-read"], rows
EOF

# Real fio, two jobs on two files, where fio is installed (tests/deps.sh installs it).
if command -v fio >/dev/null; then
	"$IOWATT" measure $meas --json-out "$T_TMP/real.json" -- fio --name=w1 --rw=write \
		--bs=64k --size=4M --filename="$T_TMP/f1" --name=r1 --rw=read --bs=64k --size=2M \
		--filename="$T_TMP/f2" --output-format=json >"$T_TMP/real.out" 2>"$T_TMP/real.err"
	ok $? "measure -- fio with two jobs (real fio)"
	check "a row per real fio job, its bytes as fio reports them" -- python3 - \
		"$T_TMP/real.json" "$T_TMP/real.out" <<'EOF'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
out = open(sys.argv[2]).read()
fio = json.loads(out[out.index("{"):out.rindex("}") + 1])["jobs"]
assert [j["jobname"] for j in jobs] == ["w1+r1", "w1", "r1"], [j["jobname"] for j in jobs]
for row, f in zip(jobs[1:], fio):
    for d in ("read", "write"):
        assert row[d]["io_bytes"] == f[d]["io_bytes"], (row["jobname"], d, row[d], f[d])
assert jobs[1]["write"]["io_bytes"] == 4 << 20 and jobs[2]["read"]["io_bytes"] == 2 << 20
EOF
	# A stonewalled pair paced to 3 s each (fio 3.33 stamps no start: the spans are
	# its job_runtime, groups one after another before its report)
	"$IOWATT" measure $meas --json-out "$T_TMP/seq.json" -- fio --name=w1 --rw=write \
		--bs=64k --size=24M --rate=8m --filename="$T_TMP/f1" --name=r1 --stonewall \
		--rw=read --bs=64k --size=24M --rate=8m --filename="$T_TMP/f2" \
		--output-format=json >"$T_TMP/seq.out" 2>"$T_TMP/seq.err"
	ok $? "measure -- fio with a stonewalled pair (real fio)"
	check "each real job one after the other: the energy of its own span, the two the command's over their share of its span" -- \
		python3 - "$T_TMP/seq.json" "$T_TMP/seq.out" <<'EOF'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
out = open(sys.argv[2]).read()
fio = {j["jobname"]: j for j in json.loads(out[out.index("{"):out.rindex("}") + 1])["jobs"]}
cmd, w1, r1 = jobs
span = lambda j: (j["phases"]["active"]["t_end_ns"] - j["phases"]["active"]["t_start_ns"]) / 1e6
for r in (w1, r1):
    assert r["power"] is not None and r["validity"]["valid"], (r["jobname"], r.get("validity"))
    # its span is fio's job_runtime of it (ms stamps), inside the command's
    assert abs(span(r) - fio[r["jobname"]]["job_runtime"]) <= 2, (span(r), fio[r["jobname"]])
    assert r["phases"]["tail"]["t_end_ns"] == r["phases"]["tail"]["t_start_ns"], r["phases"]
assert w1["phases"]["active"]["t_end_ns"] <= r1["phases"]["active"]["t_start_ns"]
e = lambda j: j["power"]["energy_active_j"]
print("# w1 %.3f J over %.0f ms, r1 %.3f J over %.0f ms, the command %.3f J over %.0f ms"
      % (e(w1), span(w1), e(r1), span(r1), e(cmd), span(cmd)))
# constant current: the rows' energy is the command's over their share of its span (fio
# 3.33's spans fill it; 3.39's job_start leaves the gap between the groups out: 206 ms)
share = (span(w1) + span(r1)) / span(cmd)
assert abs(e(w1) + e(r1) - e(cmd) * share) <= 0.02 * e(cmd), (e(w1), e(r1), e(cmd), share)
# constant current: energy in proportion to each span
assert abs(e(w1) / e(r1) - span(w1) / span(r1)) <= 0.05 * span(w1) / span(r1)
EOF
	"$IOWATT" measure $meas --json-out "$T_TMP/par.json" -- fio --name=w1 --rw=write \
		--bs=64k --size=8M --rate=8m --filename="$T_TMP/f1" --name=r1 \
		--rw=read --bs=64k --size=8M --rate=8m --filename="$T_TMP/f2" \
		--output-format=json >"$T_TMP/par.out" 2>"$T_TMP/par.err"
	check "two real jobs side by side: no energy of their own, each says it is shared" -- \
		python3 - "$T_TMP/par.json" <<'EOF'
import json, sys
cmd, w1, r1 = json.load(open(sys.argv[1]))["jobs"]
assert cmd["power"] is not None
for r, other in ((w1, "r1"), (r1, "w1")):
    assert r.get("power") is None, r["jobname"]
    assert r["validity"]["reasons"][0].startswith("energy shared with '%s'" % other), r["validity"]
EOF
	# --strict judges the figures a result publishes: a row whose energy is shared has none,
	# so with the command's row valid (3 s at 10 readings a second) the exit is 0, not 3
	"$IOWATT" measure $meas --strict --json-out "$T_TMP/strict.json" -- fio --name=w1 \
		--rw=write --bs=64k --size=24M --rate=8m --filename="$T_TMP/f1" --name=r1 \
		--rw=read --bs=64k --size=24M --rate=8m --filename="$T_TMP/f2" \
		--output-format=json >"$T_TMP/strict.out" 2>"$T_TMP/strict.err"
	rc=$?
	check "--strict: fio rows side by side (energy shared) do not fail a valid command's run" -- \
		python3 - "$T_TMP/strict.json" "$rc" <<'EOF'
import json, sys
cmd, w1, r1 = json.load(open(sys.argv[1]))["jobs"]
assert cmd["validity"]["valid"] and w1.get("power") is None and r1.get("power") is None, cmd["validity"]
assert int(sys.argv[2]) == 0, "exit %s" % sys.argv[2]
EOF
else
	skip "fio not installed (tests/deps.sh installs it)"
	skip "fio not installed"
	skip "fio not installed"
	skip "fio not installed"
	skip "fio not installed"
	skip "fio not installed"
fi

done_testing
