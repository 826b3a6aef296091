#!/usr/bin/env bash
# Device health in results: compare's context warnings, size --records' wear line, the page's Devices card.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden

# inject OUT APP SERIAL WA LABEL: the SD golden result with a health block (SD classes, a
# card's serial hash) and wear on its 4 KiB random write job, as a run would write them.
inject() {
	python3 - "$G/sd-sandisk-ultra.json" "$@" <<'PY'
import json, sys
src, out, app, serial, wa, label = sys.argv[1:7]
d = json.load(open(src))
dev = d["context"]["device"]
dev["health"] = {"source": "sd", "used_pct": None, "speed_class": "C10", "uhs_grade": "U3",
                 "video_class": "V30", "app_class": app, "maker": "SanDisk", "oem": "SD",
                 "product": "SC64G", "date": "2022-06", "serial_hash": serial,
                 "missing": ["used_pct: SD cards report no wear through a standard register"]}
dev["power_management"] = {"control": "auto", "runtime_status": "active", "missing": []}
for j in d["jobs"]:
    if j["jobname"] == "RND4K-Q32T1-write":
        jb = j["write"]["io_bytes"]
        j["wear"] = {"device": "mmcblk0", "job_bytes": jb, "device_bytes": int(jb * float(wa)),
                     "write_amplification": float(wa), "smart_bytes": None, "span_s": 20.0,
                     "health_changes": [], "note": None}
d["label"] = label
json.dump(d, open(out, "w"))
PY
}

inject "$T_TMP/a2.json" A2 5976ff 2.5 "card" && inject "$T_TMP/a1.json" A1 0c41d2 2.5 "card" &&
	inject "$T_TMP/a2b.json" A2 5976ff 2.5 "card"
ok $? "results with health written"

# 1. Two results named as one card but of different A-classes and serials: not the same card.
$IOWATT compare "$T_TMP/a2.json" "$T_TMP/a1.json" >/dev/null 2>"$T_TMP/c1.err"
grep -q "SD application class differs: A2 in .*a2.json, A1 in .*a1.json" "$T_TMP/c1.err"
ok $? "compare warns that the A-classes differ"
grep -q "named as one device but their cards' serials differ (#5976ff, #0c41d2): not the same card" \
	"$T_TMP/c1.err"
ok $? "compare warns that one label covers two cards"
$IOWATT compare "$T_TMP/a2.json" "$T_TMP/a2b.json" >/dev/null 2>"$T_TMP/c2.err"
! grep -qE "application class|serials differ" "$T_TMP/c2.err"
ok $? "the same card twice: no class or serial warning"
sed 's/^/#   /' "$T_TMP/c2.err" | grep -E "class|serial" | head -n 5

# 2. size --records: the records reach the device at the job's measured amplification.
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min "$T_TMP/a2.json" >"$T_TMP/s.out" 2>&1
ok $? "size --records on a result with wear"
# 1440 records a day of 4 KiB at 2.5: 14745600 B = 14.1 MiB a day
grep -q "records reach the device as 14.1 MiB/day (write amplification 2.50 measured)" "$T_TMP/s.out"
ok $? "size --records says what a day of records writes to the device"
grep "wear" "$T_TMP/s.out" | sed 's/^/#   /'
$IOWATT size --battery 3000mAh@3.7V --records 4KiB@1/min $G/sd-sandisk-ultra.json >"$T_TMP/s0.out" 2>&1
! grep -q "reach the device" "$T_TMP/s0.out"
ok $? "a result without wear prints no wear line"

# 3. The page's Devices card shows the classes and the hashed serial, never more.
$IOWATT report "$T_TMP/a2.json" -o "$T_TMP/page" >/dev/null 2>"$T_TMP/r.err"
f="$T_TMP/page/report.html"
grep -q "<tr><th>card classes</th><td>C10 U3 V30 A2</td></tr>" "$f"
ok $? "the Devices card lists the SD classes"
grep -q "SanDisk, SC64G, OEM SD, made 2022-06, serial #5976ff (hashed)" "$f"
ok $? "the Devices card shows the CID with the serial hashed"
grep -q "<tr><th>runtime PM</th><td>may suspend, now active</td></tr>" "$f"
ok $? "the Devices card shows the runtime PM setting"
done_testing
