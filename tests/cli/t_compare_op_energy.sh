#!/usr/bin/env bash
# Energy per operation per device (issue 35.4): compare's table, markdown and CSV and the report
# page show each result's pooled energy_models: uJ per read, write and flush with U95, "-" for a
# kind the device did not do, a lock-step pair as its sum with a note, a fit that is not ok and
# why; results without energy_models show nothing and never fail.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden
OTHER=$G/usbstick-sandisk-ultra.json

# The SD card's golden result with two pooled models: its 1 MiB jobs' (every kind known, no
# reads) and its 4 KiB jobs' (write and flush in lock-step: only their sum).
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = next(j for j in d["jobs"] if j["options"]["bs"] == 1048576)
k = next(j for j in d["jobs"] if j["options"]["bs"] == 4096)
def model(job, **kw):
    m = {"meter": job["meters"][0]["spec"], "bs": job["options"]["bs"],
         "direct": bool(job["options"]["direct"]), "jobs": 2, "readings": 300, "reads": 0,
         "writes": 900, "flushes": 900, "verdict": "ok", "why": None,
         "read_uj_per_op": None, "read_uj_per_op_u95": None, "write_uj_per_op": 613.0,
         "write_uj_per_op_u95": 51.0, "flush_uj_per_op": 281.0, "flush_uj_per_op_u95": 92.0,
         "sum_uj_per_op": None, "sum_uj_per_op_u95": None, "sum_ratio": None, "sum_of": None,
         "misfit": 1.02}
    m.update(kw)
    return m
d["energy_models"] = [model(j), model(k, write_uj_per_op=None, write_uj_per_op_u95=None,
    flush_uj_per_op=None, flush_uj_per_op_u95=None, sum_uj_per_op=894.0,
    sum_uj_per_op_u95=60.0, sum_ratio=1.0, sum_of="write+flush", verdict="not identifiable",
    why="write and flush move together in every job: only a write with its 1.00 flushes can be known")]
json.dump(d, open(sys.argv[2], "w"))
PY

$IOWATT compare "$T_TMP/m.json" "$OTHER" >"$T_TMP/t.out" 2>"$T_TMP/t.err"
ok $? "compare with a result holding energy_models"
sed -n '/^Energy per operation/,$p' "$T_TMP/t.out" >"$T_TMP/op.txt"
sed 's/^/#   /' "$T_TMP/op.txt"
grep -q "read µJ ±95%.*write µJ ±95%.*flush µJ ±95%" "$T_TMP/op.txt"
ok $? "its own table, each kind's head with its unit and interval"
row1=$(grep "1 MiB" "$T_TMP/op.txt")
echo "$row1" | grep -qE " - +613 ±51 +281 ±92 +ok$"
ok $? "the 1 MiB model: no reads '-', write 613 ±51, flush 281 ±92 uJ, fit ok"
row4=$(grep "4 KiB" "$T_TMP/op.txt")
echo "$row4" | grep -qE "894 ±60 † +† +not identifiable$"
ok $? "the lock-step pair as its sum in write's cell, flush's marked, the verdict shown"
grep -q "^† .*lock-step" "$T_TMP/op.txt" && grep -q "4 KiB direct: not identifiable: write and flush move together" "$T_TMP/op.txt"
ok $? "notes: what the sum holds, and why the fit is not ok"
[ "$(grep -c "SanDisk Ultra" "$T_TMP/op.txt")" = 0 ]
ok $? "the result without energy_models has no row"

$IOWATT compare --format md "$T_TMP/m.json" "$OTHER" >"$T_TMP/m.md" 2>/dev/null
grep -q "^| device .*| read µJ ±95% *| write µJ ±95% *| flush µJ ±95% *| fit" "$T_TMP/m.md" &&
	grep -qE "^\| .*1 MiB.*\| 613 ±51 +\| 281 ±92 +\| ok" "$T_TMP/m.md" && grep -q "^- † " "$T_TMP/m.md"
ok $? "markdown: the same table with its units, and its notes as a list"

$IOWATT compare --format csv "$T_TMP/m.json" "$OTHER" >"$T_TMP/m.csv" 2>/dev/null
python3 - "$T_TMP/m.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
big = [r for r in rows if r["bs"] == "1048576" and "m.json" in r["file"]]
small = [r for r in rows if r["bs"] == "4096" and "m.json" in r["file"]]
other = [r for r in rows if "m.json" not in r["file"]]
assert big and small and other
for r in big:
    assert (r["device_write_uj_per_op"], r["device_write_uj_per_op_u95"]) == ("613", "51"), r
    assert (r["device_flush_uj_per_op"], r["device_read_uj_per_op"]) == ("281", ""), r
    assert r["device_model_verdict"] == "ok"
for r in small:
    assert (r["device_sum_of"], r["device_sum_uj_per_op"], r["device_sum_uj_per_op_u95"]) == ("write+flush", "894", "60"), r
    assert r["device_write_uj_per_op"] == "" and r["device_model_verdict"] == "not identifiable"
for r in other:
    assert all(r[k] == "" for k in r if k.startswith("device_")), r
PY
ok $? "CSV: each job's row carries its device's pooled uJ per op (uj in the key), empty without a model"

# CSV: the pool's writes per flush, and a job's event-locked figures from a fast meter with
# whether its 100 ms model agreed, beside the pooled ones (empty where the job has none).
python3 - "$T_TMP/m.json" "$T_TMP/el.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
small = next(m for m in d["energy_models"] if m["bs"] == 4096)
small.update(direct=False, writes_per_flush=1)
el = {"read": {"read_uj_per_op": 1253.0, "read_uj_per_op_u95": 276.0, "reads": 900,
               "agrees_with_model": False, "agrees_with_trace": True},
      "write": {"sum_of": "write+flush", "sum_uj_per_op": 2993.0, "sum_uj_per_op_u95": 336.0,
                "sum_ratio": 1.0, "writes": 900, "flushes": 900, "agrees_with_model": True}}
for j in d["jobs"]:
    if j["options"]["bs"] == 4096:
        j["options"].update(direct=0, fdatasync=1)
        e = el[j["options"]["rw"][-5:].replace("dread", "read")]
        j["power"]["event_locked"] = j["meters"][0]["power"]["event_locked"] = e
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare --format csv "$T_TMP/el.json" "$OTHER" >"$T_TMP/el.csv" 2>/dev/null
python3 - "$T_TMP/el.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
head = list(rows[0])
assert all(k.endswith(("_uj_per_op", "_uj_per_op_u95", "_sum_of", "_agrees_with_model",
                       "_agrees_with_trace"))
           for k in head if k.startswith("event_locked_")), head
mine = lambda bs: [r for r in rows if r["bs"] == bs and "el.json" in r["file"]]
rd = [r for r in mine("4096") if r["rw"] == "randread"]
wr = [r for r in mine("4096") if r["rw"] == "randwrite"]
big, other = mine("1048576"), [r for r in rows if "el.json" not in r["file"]]
assert rd and wr and big and other
for r in rd:
    assert (r["event_locked_read_uj_per_op"], r["event_locked_read_uj_per_op_u95"]) == ("1253", "276"), r
    assert r["event_locked_write_uj_per_op"] == "" and r["event_locked_sum_of"] == ""
    assert r["event_locked_agrees_with_model"] == "false"
    assert r["event_locked_agrees_with_trace"] == "true"
for r in wr:
    assert (r["event_locked_sum_of"], r["event_locked_sum_uj_per_op"],
            r["event_locked_sum_uj_per_op_u95"]) == ("write+flush", "2993", "336"), r
    assert r["event_locked_agrees_with_model"] == "true" and r["event_locked_read_uj_per_op"] == ""
    assert r["event_locked_agrees_with_trace"] == ""
for r in rd + wr:
    assert r["device_writes_per_flush"] == "1" and r["device_sum_uj_per_op"] == "894", r
for r in big:
    assert r["device_writes_per_flush"] == "0" and r["event_locked_agrees_with_model"] == "", r
    assert all(r[k] == "" for k in r if k.startswith("event_locked_")), r
for r in other:
    assert all(r[k] == "" for k in r if k.startswith(("device_", "event_locked_"))), r
PY
ok $? "CSV: device_writes_per_flush, and each job's event-locked uJ per op (sum, checks) or empty"

# The fit column is the worst of the pool's agreement and its jobs' own fits: a pool of one
# job agrees with itself whatever its fit; a cost below zero beyond its U95 is no figure.
python3 - "$T_TMP/m.json" "$T_TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
big = next(m for m in d["energy_models"] if m["bs"] == 1048576)
big["jobs"] = 1
for j in d["jobs"]:
    if j["options"]["bs"] == 1048576:
        own = {"verdict": "poor fit", "why": "residuals 3.6 x the meter's noise"}
        j["power"]["energy_model"] = j["meters"][0]["power"]["energy_model"] = own
small = next(m for m in d["energy_models"] if m["bs"] == 4096)
small.update(sum_of=None, sum_uj_per_op=None, sum_uj_per_op_u95=None, sum_ratio=None,
             write_uj_per_op=-16117.0, write_uj_per_op_u95=5009.0, flush_uj_per_op=900.0,
             flush_uj_per_op_u95=80.0, verdict="ok", why=None)
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare "$T_TMP/bad.json" >"$T_TMP/bad.out" 2>/dev/null
sed -n '/^Energy per operation/,$p' "$T_TMP/bad.out" >"$T_TMP/bad.txt"
sed 's/^/#   /' "$T_TMP/bad.txt"
grep "1 MiB" "$T_TMP/bad.txt" | grep -qE "613 ±51 +281 ±92 +poor fit$" &&
	grep -q "1 MiB direct: poor fit: residuals 3.6 x the meter's noise" "$T_TMP/bad.txt"
ok $? "a pool of one job whose own fit is poor: poor fit, and why"
grep "4 KiB" "$T_TMP/bad.txt" | grep -qE " - +- +900 ±80 +poor fit$" &&
	! grep -q "16117\|-16100" "$T_TMP/bad.txt" && grep -q "4 KiB direct: poor fit: a cost below zero" "$T_TMP/bad.txt"
ok $? "a write of -16117 ±5009 uJ is '-', the fit poor and why"
# a result from before pools were per writes per flush: its buffered synced jobs' fits count
python3 - "$T_TMP/bad.json" "$T_TMP/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["energy_models"]:
    m.pop("writes_per_flush", None)
    m["direct"] = False
for j in d["jobs"]:
    j["options"].update(direct=0, fdatasync=4)
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare "$T_TMP/old.json" 2>/dev/null | grep -q "1 MiB buffered: poor fit: residuals 3.6"
ok $? "a result written before: its synced buffered job's poor fit still shows"
grep -q "writes per flush" "$T_TMP/bad.txt"
ok $? "the caption says pools are per writes per flush too"

# Results without energy_models (the goldens, a measure result): nothing, no failure.
$IOWATT compare $G/sd-sandisk-ultra.json "$OTHER" >"$T_TMP/n.out" 2>&1
ok $? "compare of results without energy_models"
! grep -q "Energy per operation\|µJ ±95%" "$T_TMP/n.out"
ok $? "shows no energy-per-operation table"
cp $G/sd-sandisk-ultra.intervals.csv "$T_TMP/m.intervals.csv"
python3 $G/strip_power.py "$T_TMP/m.json" "$T_TMP/nometer.json"
$IOWATT compare --format md "$T_TMP/nometer.json" >"$T_TMP/nm.md" 2>&1 &&
	$IOWATT compare --format csv "$T_TMP/nometer.json" >/dev/null 2>&1
ok $? "a result whose jobs lost their meters, energy_models kept, compares in md and CSV"

# The report page: a small per-device table "Energy per operation".
if command -v gnuplot >/dev/null; then
	mkdir -p "$T_TMP/tmp"
	TMPDIR=$T_TMP/tmp $IOWATT report -o "$T_TMP/page" "$T_TMP/m.json" "$OTHER" >"$T_TMP/p.log" 2>&1
	t_report_written $? "$T_TMP/p.log" "$T_TMP/page"
	ok $? "report writes the page"
	python3 - "$T_TMP/page/report.html" <<'PY'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<h3 id="op-energy">Energy per operation</h3>(.*?)</table>', html, re.S)
assert m, "no table"
t = m.group(1)
assert "write µJ ±95%" in t
rows = re.findall(r"<tr>(.*?)</tr>", t, re.S)
cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r) for r in rows]
big = next(c for c in cells if c[2].startswith("1 MiB"))
assert big[4:] == ["-", "613 ±51", "281 ±92", "ok"], big
small = next(c for c in cells if c[2].startswith("4 KiB"))
assert small[5:] == ["894 ±60 †", "†", "not identifiable"], small
assert "write and flush move together" in html
PY
	ok $? "the page's table: the same cells, the notes under it"
	TMPDIR=$T_TMP/tmp $IOWATT report -o "$T_TMP/page0" $G/sd-sandisk-ultra.json >"$T_TMP/p0.log" 2>&1
	t_report_written $? "$T_TMP/p0.log" "$T_TMP/page0" && ! grep -q 'id="op-energy"' "$T_TMP/page0/report.html"
	ok $? "a page from results without energy_models has no such table"
else
	skip "gnuplot not installed: the report page's table"
fi

done_testing
