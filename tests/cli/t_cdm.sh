#!/usr/bin/env bash
# CrystalDiskMark's grid: compare --format cdm per device, EMULATED and '-' marked, the page's table.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden

# Every figure of the text against the result it came from (nothing written down here).
cat >"$T_TMP/check.py" <<'PY'
import json, math, re, sys
doc, text = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
power = len(sys.argv) < 4
sections = dict(re.findall(r"\[(Read|Write)\]\n((?:.+\n)+)", text))
assert set(sections) == {"Read", "Write"}, sections.keys()
def sig(v, n=4):
    if v == 0: return "0"
    d = max(0, min(9, n - 1 - math.floor(math.log10(abs(v)))))
    return "%.*f" % (d, v)
for j in doc["jobs"]:
    o = j["options"]
    write = "write" in o["rw"]
    d = j["write" if write else "read"]
    bs = o["bs"]
    size = "%dMiB" % (bs >> 20) if bs % (1 << 20) == 0 else "%dKiB" % (bs >> 10)
    kind = ("Random " if o["rw"].startswith("rand") else "Sequential ") + size
    label = r"%s \(Q=%3d, T=%2d\)" % (kind, o["iodepth"], o.get("numjobs", 1))
    line = re.search(r"^ *" + label + r": (.*)$", sections["Write" if write else "Read"], re.M)
    assert line, (label, sections)
    f = line.group(1).split()
    assert f[0] == "%.3f" % (d["bw_bytes"] / 1e6) and f[1] == "MB/s", (f, d["bw_bytes"])
    assert f[3] == "%.1f" % d["iops"] and f[4] == "IOPS]", f
    assert f[6] == "%.2f" % (d["clat_ns"]["mean"] / 1e3), (f, d["clat_ns"]["mean"])
    want = [sig(j["efficiency"]["j_per_gb"]), sig(j["efficiency"]["iops_per_ma"])] if power else ["-", "-"]
    assert f[8:12] == [want[0], "J/GB", want[1], "IOPS/mA"], (f[8:], want)
PY

$IOWATT compare --format cdm $G/nvme-netac.json >"$T_TMP/cdm.txt" 2>"$T_TMP/cdm.err"
ok $? "compare --format cdm takes a quick-profile result"
python3 "$T_TMP/check.py" $G/nvme-netac.json "$T_TMP/cdm.txt"
ok $? "[Read] and [Write]: each job's MB/s, IOPS, mean latency, J/GB and IOPS/mA on its test's line"
head -4 "$T_TMP/cdm.txt" | grep -q "^iowatt " && grep -q "Device: Netac NVMe SSD 128GB" "$T_TMP/cdm.txt" &&
	! grep -q EMULATED "$T_TMP/cdm.txt"
ok $? "the header names iowatt and the device; no EMULATED for a real meter"
grep -q "^\* J/GB = .*IOPS/mA = " "$T_TMP/cdm.txt"
ok $? "the units are said in the header"

# Two devices: one block each, the label from --label.
$IOWATT compare --format cdm --label $G/sd-sandisk-ultra.json="My SD card" $G/sd-sandisk-ultra.json \
	$G/usbssd-samsung-t7.json >"$T_TMP/two.txt" 2>/dev/null
[ "$(grep -c '^\[Read\]' "$T_TMP/two.txt")" = 2 ] && grep -q "Device: My SD card" "$T_TMP/two.txt"
ok $? "a block per device, named by --label"

# An emulated meter is said in the header.
python3 - $G/nvme-netac.json "$T_TMP/emu.json" <<'PY'
import json, shutil, sys
d = json.load(open(sys.argv[1]))
d["emulated"] = True
for m in d["meters"]:
    m["emulated"] = True
d.pop("files", None)
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare --format cdm "$T_TMP/emu.json" 2>/dev/null | grep -q "Device: .*EMULATED"
ok $? "an emulated result says EMULATED in its header"

# Without a meter: '-' where J/GB and IOPS/mA are undefined.
python3 $G/strip_power.py $G/nvme-netac.json "$T_TMP/nopower.json"
$IOWATT compare --format cdm "$T_TMP/nopower.json" >"$T_TMP/np.txt" 2>/dev/null &&
	python3 "$T_TMP/check.py" $G/nvme-netac.json "$T_TMP/np.txt" nopower
ok $? "no power figures: '-' for J/GB and IOPS/mA, the performance figures kept"

# No read/write pair: said, and a failure.
python3 - $G/nvme-netac.json "$T_TMP/reads.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"] = [j for j in d["jobs"] if "read" in j["options"]["rw"]]
d.pop("files", None)
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare --format cdm "$T_TMP/reads.json" >"$T_TMP/none.txt" 2>"$T_TMP/none.err"
[ $? -ne 0 ] && [ ! -s "$T_TMP/none.txt" ] && grep -q "no read/write pair" "$T_TMP/none.err"
ok $? "a result without a read/write pair: a warning, no text, a failure"

# The page: the same grid in the comparison section.
if command -v gnuplot >/dev/null; then
	$IOWATT report -o "$T_TMP/page" $G/nvme-netac.json $G/sd-sandisk-ultra.json >"$T_TMP/page.log" 2>&1
	t_report_written $? "$T_TMP/page.log" "$T_TMP/page"
	ok $? "report writes a page"
	python3 - "$T_TMP/page/report.html" $G/nvme-netac.json $G/sd-sandisk-ultra.json <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
sec = page[page.index('<section id="compare">'):page.index("</section>", page.index('<section id="compare">'))]
m = re.search(r'<table class="grid rwgrid">(.*?)</table>', sec, re.S)
assert m, "no grid in the comparison section"
heads = re.findall(r"<th>(.*?)</th>", m.group(1))
assert heads[:2] == ["device", "test"] and "Read MB/s" in heads and "Write IOPS/mA" in heads, heads
rows = re.findall(r"<tr>(.*?)</tr>", m.group(1).split("</thead>")[1])
assert len(rows) == 4, len(rows)
for f in sys.argv[2:]:
    d = json.load(open(f))
    for j in d["jobs"]:
        w = "write" in j["options"]["rw"]
        mbps = j["write" if w else "read"]["bw_bytes"] / 1e6
        cell = "%.3g" % mbps if mbps < 100 else "%.0f" % mbps
        assert any(re.search(r'<td class="num">%s ?</td>' % re.escape(cell), r) for r in rows), (f, cell)
PY
	ok $? "the page's comparison has the grid: a row per device and test, each job's MB/s"
else
	skip "gnuplot not installed: no page"
	skip "gnuplot not installed: no page"
fi

done_testing
