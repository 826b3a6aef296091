#!/usr/bin/env bash
# size --records priced from the power model (issue 35.4): a record costs its write and its
# share of flushes from the result's pooled energy_models (else the job's energy_model), and
# keeps the drive awake for their latency, not its pacing slot; without a model, J/IO net.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden/sd-sandisk-ultra.json
JOB=RND4K-Q32T1-write

# model OUT FDATASYNC MODEL-JSON [OWN-JSON]: the golden result with the job synced every
# FDATASYNC writes (0: not), energy_models set to MODEL-JSON's entries (meter, bs, direct
# filled in) and the job's own energy_model to OWN-JSON's
model() {
	python3 - "$G" "$JOB" "$@" <<'PY'
import json, sys
src, job, out, fds, models = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), json.loads(sys.argv[5])
own = json.loads(sys.argv[6]) if len(sys.argv) > 6 else None
d = json.load(open(src))
j = next(j for j in d["jobs"] if j["jobname"] == job)
if fds:  # a paced logger: 2 records a second, each synced
    j["options"]["fdatasync"] = fds
    j["write"]["iops"] = 2.0
    j["sync"] = {"total_ios": j["write"]["total_ios"] // fds,
                 "lat_ns": {"min": 1, "max": 9000000, "mean": 4e6, "stddev": 1, "percentile": {}}}
for m in models:
    m.update(meter=j["meters"][0]["spec"], bs=j["options"]["bs"], direct=bool(j["options"]["direct"]))
d["energy_models"] = models
if own:
    j["power"]["energy_model"] = j["meters"][0]["power"]["energy_model"] = own[0]
json.dump(d, open(out, "w"))
PY
}
entry() { # entry WRITE FLUSH SUM [PAIR RATIO]: one energy_models entry (null: not known)
	echo "[{\"jobs\": 2, \"readings\": 100, \"reads\": 0, \"writes\": 1000, \"flushes\": 1000,
	  \"verdict\": \"${VERDICT:-ok}\", \"why\": null, \"read_uj_per_op\": null, \"read_uj_per_op_u95\": null,
	  \"write_uj_per_op\": $1, \"write_uj_per_op_u95\": ${WU:-30}, \"flush_uj_per_op\": $2,
	  \"flush_uj_per_op_u95\": 40, \"sum_uj_per_op\": $3, \"sum_uj_per_op_u95\": 50,
	  \"sum_ratio\": ${5:-1}, \"sum_of\": $( [ "$3" = null ] && echo null || echo "\"${4:-write+flush}\""),
	  \"misfit\": 1.0}]"
}
perday() { # the records line's J/day in mJ
	python3 -c 'import re,sys; t=open(sys.argv[1]).read().split("records  ")[1].split("\n")[0]
m=re.search(r"= ([0-9.]+) ([kmµ]?)J/day", t); print("%.1f" % (float(m.group(1)) * {"k": 1e6, "": 1e3, "m": 1, "µ": 1e-3}[m.group(2)]))' "$1"
}
size() { $IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min --job $JOB "$@" 2>&1; }

model "$T_TMP/w.json" 0 "$(entry 300 null null)"
size "$T_TMP/w.json" >"$T_TMP/w.out"
ok $? "size --records from a result with a pooled model"
grep -q "write + flush, the device's pooled model, ok" "$T_TMP/w.out"
ok $? "says the pooled model priced the record"
got=$(perday "$T_TMP/w.out")
[ "$got" = "432.0" ]
ok $? "an unsynced record is its write: 300 uJ x 1440/day = 432 mJ/day (got $got)"

model "$T_TMP/f.json" 1 "$(entry 300 100 null)"
size "$T_TMP/f.json" >"$T_TMP/f.out"
got=$(perday "$T_TMP/f.out")
[ "$got" = "576.0" ]
ok $? "a synced one adds its flush: 400 uJ x 1440 = 576 mJ/day (got $got)"
want=$(python3 -c 'import json,sys; j=next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["jobname"]==sys.argv[2]); print("%.1f" % ((min(j["write"]["clat_ns"]["mean"], 1e9 / j["write"]["iops"]) + 4e6) / 1e6))' "$T_TMP/f.json" $JOB)
grep -q "awake $want ms per I/O" "$T_TMP/f.out"
ok $? "awake for its write and its flush ($want ms), not its 500 ms slot: $(grep -o 'awake [^ ]* ms' "$T_TMP/f.out")"

model "$T_TMP/s.json" 1 "$(entry null null 500)"
size "$T_TMP/s.json" >"$T_TMP/s.out"
got=$(perday "$T_TMP/s.out")
[ "$got" = "720.0" ]
ok $? "write and flush known only as their sum: 500 uJ x 1440 = 720 mJ/day (got $got)"

# the fit's base is the kind with more ops: an end_fsync's flush makes it "flush+write",
# flush + 0.8 x write per flush in the fit's windows, while the job did a flush a write: a
# record (write + flush) is 500 + 0.2 x c_write, c_write in [0, 500 / 0.8], so between 500
# and 625 uJ: 562.5, its U95 the sum's (50) x 1.125 and the half-range 62.5 (it was priced
# 625 +- 62.5 as the sum / 0.8, the top of the range; a bench run read 3081 +- 76 uJ so
# against a truth of 2453)
model "$T_TMP/fw.json" 1 "$(entry null null 500 flush+write 0.8)"
size "$T_TMP/fw.json" >"$T_TMP/fw.out"
got=$(perday "$T_TMP/fw.out")
[ "$got" = "810.0" ] && grep -q "562.5 +-118.8 µJ/IO (write + flush, the device's pooled model" "$T_TMP/fw.out"
ok $? "known as flush + 0.8 x write: a record between 500 and 625 uJ, 562.5 +- 118.8 uJ x 1440 = 810 mJ/day (got $got: $(grep -o 'records .*J/IO' "$T_TMP/fw.out"))"

# --power-off: the drive is on for each record's latency and the tail, not 1 / IOPS
model "$T_TMP/f0.json" 1 "[]"
size "$T_TMP/f.json" --power-off >"$T_TMP/po.out"
size "$T_TMP/f0.json" --power-off >"$T_TMP/po0.out"
days() { awk '/^  life/ { print $2; exit }' "$1"; }
python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' "$(days "$T_TMP/po.out")" "$(days "$T_TMP/po0.out")"
ok $? "powered off between records, the model's awake time gives more days ($(days "$T_TMP/po.out")) than a 500 ms slot per record ($(days "$T_TMP/po0.out"))"

size "$G" >"$T_TMP/n.out"
grep -q "mJ/IO net x\|J/IO net x" "$T_TMP/n.out"
ok $? "without a model: J/IO net as before"

# the pool only where it is ok; else the job's own where that is; else why none is usable
model "$T_TMP/pf.json" 1 "$(VERDICT="poor fit" entry 300 100 null)" "$(entry 500 200 null)"
size "$T_TMP/pf.json" >"$T_TMP/pf.out"
grep -q "700.0 +-50.00 µJ/IO (write + flush, the job's model, ok)" "$T_TMP/pf.out"
ok $? "a pool that fits poorly is passed over for the job's own ok model: $(grep -o 'records .*J/IO ([^)]*)' "$T_TMP/pf.out")"
model "$T_TMP/pw.json" 1 "$(WU=900 entry 300 100 null)"
size "$T_TMP/pw.json" >"$T_TMP/pw.out"
grep -q "J/IO net x .*no power model prices it: the device's pooled model prices it 400 +-901 uJ, its U95 above 100 %" "$T_TMP/pw.out"
ok $? "a price whose U95 is above it is not used, and that is said: $(grep -o 'no power model.*' "$T_TMP/pw.out")"
model "$T_TMP/pn.json" 1 "$(VERDICT="poor fit" entry 300 100 null)" "$(VERDICT="not identifiable" WU=null entry null null null)"
size "$T_TMP/pn.json" >"$T_TMP/pn.out"
grep -q "J/IO net x .*no power model prices it: the device's pooled model is poor fit; the job's model is not identifiable" "$T_TMP/pn.out"
ok $? "neither ok: both named: $(grep -o 'no power model.*' "$T_TMP/pn.out")"
model "$T_TMP/ps.json" 1 "$(VERDICT="not identifiable" entry null null 500)"
size "$T_TMP/ps.json" >"$T_TMP/ps.out"
grep -q "500.0 +-50.00 µJ/IO (write + flush, the device's pooled model, not identifiable)" "$T_TMP/ps.out"
ok $? "write and flush known only as their sum: the record is known, priced with its U95"

done_testing
