#!/usr/bin/env bash
# What the page, the matrix and the charts must not hide (issue 20 section 6): every verdict
# and warning the terminal shows is on the page, invalid and uncertain figures are marked
# wherever a figure appears, an ambiguous --label is refused, an emulated series is marked.
. "$(dirname "$0")/../lib/lib.sh"
G=$REPO/tests/data/golden
F=$T_TMP/fx
python3 "$REPO/tests/lib/page_fixtures.py" "$G" "$F" || { ok 1 "fixtures"; done_testing; exit 1; }
cd "$T_TMP" || exit 1

# --- compare: the uncertain job says so in the table and the CSV
$IOWATT compare fx/uncertain.json fx/bigger.json fx/emulated.json >compare.txt 2>compare.err
ok $? "compare of an uncertain, a resized and an emulated result"
grep -E " SEQ1M-Q8T1-write " compare.txt | grep "SanDisk SC64G" | grep -q " UNCERTAIN: +-12 % > 5 %: INA219 resolution "
ok $? "compare's table: the uncertain job's verdict column says UNCERTAIN and why, not yes"
$IOWATT compare --format csv fx/uncertain.json >compare.csv 2>/dev/null
python3 - compare.csv <<'PY'
import csv, sys
rows = {r["job"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["SEQ1M-Q8T1-write"]["uncertain"] == "true", rows["SEQ1M-Q8T1-write"]
assert rows["SEQ1M-Q8T1-read"]["uncertain"] == "false"
PY
ok $? "compare's CSV: an uncertain column, true for the uncertain job only"

# --- the page: the run summary's verdict, the job sizes, compare's warnings
mkdir -p tmp
TMPDIR=$T_TMP/tmp $IOWATT report -o page fx/uncertain.json fx/bigger.json fx/emulated.json \
	"$G/usbssd-samsung-t7.json" >report.log 2>&1
t_report_written $? report.log page
ok $? "report writes the page"
html=page/report.html
grep -q '<td class="unc">UNCERTAIN: +-12 % &gt; 5 %: INA219 resolution</td>' "$html" &&
	grep -q '<td>j_per_gb +-12 % (limit 5 %): INA219 resolution 1 mW at 60 mW mean</td>' "$html"
ok $? "page: the uncertain job's verdict is the terminal's (UNCERTAIN, +-12 % over 5 %, what dominates), the whole text in reasons"
[ "$(grep -c '<td class="unc">UNCERTAIN: ' "$html")" -eq 2 ]
ok $? "page: the comparison table marks the uncertain row the same way"
grep -q '<td class="ok">EMULATED</td>' "$html" && grep -q '<td class="bad">INVALID: ' "$html"
ok $? "page: emulated and invalid verdicts as the terminal prints them"
while read -r want; do
	grep -qF "<li class=\"warning\">warning: $want" "$html" || { echo "# missing: $want"; false; } || break
done <<'EOF'
results were metered with different meters (ina219 in fx/uncertain.json, um25c in fx/bigger.json)
fx/emulated.json: power figures come from an EMULATED meter, not a measurement
EOF
! grep -q "ran another workload\|different options" "$html"
ok $? "page: compare's warnings are listed; a bigger size (per-GB figures, direct I/O) is none of them"
grep -c "^iowatt: warning: compare: " <($IOWATT compare fx/uncertain.json fx/bigger.json fx/emulated.json \
	"$G/usbssd-samsung-t7.json" 2>&1 >/dev/null) >nwarn
[ "$(cat nwarn)" -ge 3 ] && [ "$(grep -c '<li class="warning">' "$html")" -eq "$(cat nwarn)" ]
ok $? "page: as many warnings as compare prints ($(cat nwarn))"
grep -q '<th>size</th>' "$html" && grep -q '<td class="num">4 GiB</td>' "$html" &&
	grep -q '<td class="num">1 GiB</td>' "$html"
ok $? "page: the job tables give each job's size (1 GiB, the resized 4 GiB)"
# the comparison and 4 job tables, and the read/write grid where the page has one
grep -q '<div class="wide"><table class="grid compare">' "$html" &&
	[ "$(sed -n '/<section id="jobs">/,/<\/section>/p' "$html" | grep -o '<div class="wide"><table class="grid">' | wc -l)" -eq 4 ]
ok $? "page: the comparison and each job table scroll in their own box (no column cut off)"

# --- compare --matrix: invalid and uncertain cells marked, in text, markdown and CSV
$IOWATT compare --matrix --by j_per_gb fx/sweep.json >matrix.txt 2>/dev/null
ok $? "compare --matrix --by j_per_gb of a 30-job sweep"
sed 's/^/# /' matrix.txt
grep -qE "^16 KiB +[0-9.]+! " matrix.txt && grep -qE "^64 KiB +[0-9.]+ +[0-9.]+ +[0-9.]+\? " matrix.txt
ok $? "matrix: the invalid 9.4 J/GB is marked '!', the uncertain cell '?'"
grep -q "^! 16 KiB write: INVALID: undervoltage during the job$" matrix.txt &&
	grep -q "^? 64 KiB read: UNCERTAIN: +-9 % > 5 %: INA219 offset (j_per_gb +-9 % (limit 5 %): INA219 offset)$" matrix.txt
ok $? "matrix: each marked cell explained under the table"
[ "$(grep -cE '[0-9][!?]' matrix.txt)" -eq 2 ]
ok $? "matrix: no other cell marked"
$IOWATT compare --matrix --format md --by j_per_gb fx/sweep.json 2>/dev/null | grep -qE "^\| 16 KiB +\| +[0-9.]+! \|"
ok $? "matrix as markdown: the mark too"
$IOWATT compare --matrix --format csv --by j_per_gb fx/sweep.json >matrix.csv 2>/dev/null
python3 - matrix.csv <<'PY'
import csv, sys
rows = {int(r["bs"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert rows[16384]["write"] == "9.4" and rows[16384]["write_validity"] == "invalid", rows[16384]
assert rows[65536]["read_validity"] == "uncertain"
assert rows[4096]["write_validity"] == "valid"
flags = [v for r in rows.values() for k, v in r.items() if k.endswith("_validity") and v != "valid"]
assert len(flags) == 2, flags
PY
ok $? "matrix CSV: a validity column after each operation (invalid, uncertain, valid)"

# --- --label FILE=NAME names exactly one result
$IOWATT compare --label quick.json=x fx/a/quick.json fx/b/quick.json >label.out 2>label.err
[ $? -eq 2 ] && grep -q "error: .*--label 'quick.json=x': quick.json names more than one result (fx/a/quick.json and fx/b/quick.json)" label.err &&
	[ ! -s label.out ]
ok $? "an ambiguous --label (two quick.json) is refused, naming the option and both files"
$IOWATT compare --label fx/a/quick.json=x fx/a/quick.json fx/b/quick.json 2>/dev/null >label2.out
[ $? -eq 0 ] && [ "$(grep -c "  x  " label2.out)" -eq 4 ]
ok $? "the label given as the path names one result (its 4 jobs)"

# --- the charts (gnuplot draws them; --keep-data keeps what it was given)
t_need_gnuplot "charts not checked"
if t_emulated; then
	t_skip_charts
	done_testing
	exit
fi
mkdir -p keep
TMPDIR=$T_TMP/keep $IOWATT plot --keep-data --format svg -o svg fx/sweep.json fx/emulated.json \
	fx/uncertain.json >plot.log 2>&1
ok $? "plot --format svg of the sweep, an emulated and an uncertain result"
! grep -v "meta files kept in" plot.log | grep -q "gnuplot"
ok $? "no gnuplot message"
grep -v "meta files kept in" plot.log | grep "gnuplot" | sed 's/^/#   /' | head -n 5
data=$(ls -d keep/iowatt-plot.* | head -n 1)

# sweep: the invalid point is no part of any line; the uncertain one is ringed
python3 - "$data/sweep/sweep.dat" "$REPO/plots/sweep.gp" "$data/sweep/meta.gp" <<'PY'
import re, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
inv = [r for r in rows if r[3] == "0"]
# sweep.dat's J/GB is in the axis' unit (kJ/GB here: the 4 KiB randread's 1430 J/GB)
per_j = 1e-3 if re.search(r"^JPGUNIT = 'kJ'", open(sys.argv[3]).read(), re.M) else 1
assert len(inv) == 1 and int(r[0]) == 16384 and abs(float(inv[0][2]) - 9.4 * per_j) < 1e-9 if (r := inv[0]) else 0, inv
assert [r[0] for r in rows if r[4] == "1"] == ["65536"], rows
gp = open(sys.argv[2]).read().replace("\\\n", " ")
clauses = [c for line in gp.splitlines() if re.match(r"\s*plot ", line) for c in line.split(", ")]
lines = [c for c in clauses if re.search(r"with (lines|linespoints)\b", c) and "dat index" in c]
assert lines and all("$4==1 ?" in c for c in lines), [c for c in lines if "$4==1 ?" not in c]
PY
ok $? "sweep: the invalid 9.4 J/GB is drawn, but every line of sweep.gp joins valid points only"
grep -q "^HASUNCERTAIN = 1$" "$data/sweep/meta.gp" && grep -q ">uncertain (ringed)<" svg/sweep.svg &&
	grep -q ">invalid (open marker, not joined)<" svg/sweep.svg
ok $? "sweep: the uncertain point is ringed, and the key says what rings and open markers are"

# one emulated result among real ones: its series is marked, not every chart
! grep -q "EMULATED meter data" svg/efficiency.svg svg/sweep.svg svg/battery.svg svg/perf-power.svg \
	svg/timeline-uncertain.svg svg/timeline-sweep.svg
ok $? "no chart of a mixed set, nor a real result's timeline, is titled EMULATED meter data"
grep -q ">Netac NVMe SSD 128GB (PCIe Gen2 x1) (EMULATED)<" svg/efficiency.svg &&
	grep -q ">SanDisk SC64G (SD)<" svg/efficiency.svg && ! grep -q "SanDisk SC64G (SD) (EMULATED)" svg/efficiency.svg &&
	grep -q "Netac NVMe SSD 128GB (PCIe Gen2 x1) (EMULATED), SEQ1M-Q8T1-write" svg/battery.svg &&
	grep -q "Timeline: Netac NVMe SSD 128GB (PCIe Gen2 x1) - EMULATED meter data" svg/timeline-emulated.svg
ok $? "the emulated device is marked in the keys and its own timeline's title; the real ones are not"
! grep -q "(EMULATED)" svg/latency.svg
ok $? "latency (no power figures) carries no EMULATED mark"

# efficiency: 34 jobs wrap into rows, labels in SI, room for the notes over the bars
w=$(sed -n 's/^ viewBox="0 0 \([0-9]*\) [0-9]*"$/\1/p' svg/efficiency.svg)
[ -n "$w" ] && [ "$w" -le 1800 ] && [ "$(sed -n 's/^NJROW = //p' "$data/efficiency/meta.gp")" -ge 2 ]
ok $? "efficiency: 34 jobs wrap into rows of one chart $w px wide (not a strip thousands of px wide)"
python3 - "$data/efficiency/efficiency.dat" <<'PY'
import shlex, sys
rows = [shlex.split(l) for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
labels = [r[7] for r in rows] + [r[8] for r in rows]
assert not [l for l in labels if "e+" in l or "e-" in l], labels
assert "1.43" in labels, sorted(set(labels))  # 1430 J/GB on a kJ/GB axis
notes = sorted(r[9] for r in rows if r[9])
assert notes == ["INVALID", "UNCERTAIN", "UNCERTAIN"], notes  # the verdict's words
PY
ok $? "efficiency: value labels in the axis' unit (1.43 kJ/GB, no exponent); invalid and uncertain bars carry a note"
python3 - "$data/efficiency/efficiency.dat" "$data/efficiency/meta.gp" <<'PY'
import math, re, shlex, sys
rows = [shlex.split(l) for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
meta = open(sys.argv[2]).read()
num = lambda k: float(re.search(r"^%s = (\S+)$" % re.escape(k), meta, re.M).group(1))
def room(lo, hi, top):  # the share of the panel's height above the highest label
    return math.log(hi / top) / math.log(hi / lo)
top2 = max(float(r[11]) for r in rows)
assert room(num("YMIN2"), num("YMAX2"), top2) >= 0.3, (num("YMIN2"), num("YMAX2"), top2)
for p in range(1, int(num("NPANEL")) + 1):
    top = max(float(r[10]) for r in rows if r[6] == str(p))
    note = any(r[9] for r in rows if r[6] == str(p))
    assert room(num("YMIN1[%d]" % p), num("YMAX1[%d]" % p), top) >= (0.3 if note else 0.1), p
PY
ok $? "efficiency: every panel's axis leaves room over its highest label for the value and its note"

# timeline: the left axis fits the data; the throughput trace is drawn over the power line
python3 - "$data" <<'PY'
import glob, re, sys
# the SD card's 4 jobs (25 MB/s at most), each label across the top of its phase but one
for t in glob.glob(sys.argv[1] + "/timeline-uncertain"):
    meta = open(t + "/meta.gp").read()
    ymax = float(re.search(r"^YMAX = (\S+)$", meta, re.M).group(1))
    mb = max(float(l.split()[1]) for l in open(t + "/io.dat") if l.strip() and not l.startswith("#"))
    assert ymax <= 1.35 * mb, (t, ymax, mb)
    print("# %s: left axis to %.1f MB/s for %.1f MB/s of data" % (t.split("/")[-1], ymax, mb))
    break
else:
    sys.exit("no SD timeline")
PY
ok $? "timeline: the left axis ends within 35 % over the highest throughput"
python3 - "$REPO/plots/timeline.gp" <<'PY'
import re, sys
gp = open(sys.argv[1]).read().replace("\\\n", " ")
plot = [l for l in gp.splitlines() if re.match(r"\s*plot ", l) and "power index" in l][0]
tp = [i for i, c in enumerate(plot.split(", ")) if re.search(r"\b(io|iotrace)\b.*using 1:2 with lines", c)]
pw = [i for i, c in enumerate(plot.split(", ")) if re.search(r"power index .*using 1:(2|\(\$2\*PWS\)) axes x1y2 with lines", c)]
assert tp and pw and min(tp) > max(pw), (tp, pw)
PY
ok $? "timeline: the throughput trace is drawn after (over) the power lines"

# axes (issue 20.6, 24.1): no tick or label in exponent notation, SI prefixes on counts,
# power and energy axes in the unit their figures choose, or the one --units fixes
svg_texts() { sed -n 's/.*<text[^>]*>\(.*\)<\/text>.*/\1/p' "$@" | sed 's/<[^>]*>//g'; }
$IOWATT plot --format svg -o fast fx/fast.json fx/uncertain.json >fast.log 2>&1
ok $? "plot of a 2 M IOPS drive beside an SD card"
svg_texts fast/*.svg svg/*.svg >texts.txt
! grep -E '[0-9]e[-+]?[0-9]' texts.txt
ok $? "no chart text in exponent notation ($(wc -l <texts.txt) texts of $(ls fast/*.svg svg/*.svg | wc -l) charts)"
svg_texts fast/perf-power.svg | grep -qx "1 M" && svg_texts fast/perf-power.svg | grep -qx "100 k"
ok $? "perf-power: the IOPS axis reads 100 k and 1 M (was 1e+06)"
svg_texts svg/efficiency.svg | grep -qx "kJ/GB" && svg_texts svg/sweep.svg | grep -qx "kJ/GB"
ok $? "efficiency and sweep: J/GB up to 1430 drawn on a kJ/GB axis"
$IOWATT plot --format svg --units J -o fixedj fx/sweep.json >/dev/null 2>&1 &&
	svg_texts fixedj/efficiency.svg | grep -qx "J/GB" && svg_texts fixedj/efficiency.svg | grep -qx "1430"
ok $? "--units J: the J/GB axis and its labels in J (1430)"
$IOWATT plot --format svg -o sd fx/uncertain.json >/dev/null 2>&1 &&
	svg_texts sd/perf-power.svg | grep -qx "active power (mW)" &&
	svg_texts sd/timeline-uncertain.svg | grep -qx "power (mW)" &&
	svg_texts svg/perf-power.svg | grep -qx "active power (W)"
ok $? "a 0.3-0.4 W SD card's power axes in mW, beside a 2 W drive in W"
$IOWATT plot --format svg --units uW -o uw fx/uncertain.json >/dev/null 2>&1 &&
	svg_texts uw/perf-power.svg | grep -qx "active power (µW)" &&
	! svg_texts uw/perf-power.svg | grep -qE '[0-9]{6}[0-9]{6}'
ok $? "--units uW: power axes in µW, their six-digit ticks spaced apart"

# many jobs, several devices (issue 20.6): 4 devices x 34 jobs stay legible in bounded charts
mkdir -p keep2
TMPDIR=$T_TMP/keep2 $IOWATT plot --keep-data --format svg -o fleet fx/fleet/*.json >fleet.log 2>&1
ok $? "plot of 4 devices x 34 jobs"
fdata=$(ls -d keep2/iowatt-plot.* | head -n 1)
svg_size() { sed -n 's/^ viewBox="0 0 \([0-9]*\) \([0-9]*\)"$/\1 \2/p' "$1"; }
read -r pw ph < <(svg_size fleet/perf-power.svg)
[ "$pw" -le 1600 ] && [ "$ph" -le 2400 ] && grep -q "^COMPACT = 1$" "$fdata/perf-power/meta.gp" &&
	[ "$(sed -n 's/^NJOBS = //p' "$fdata/perf-power/meta.gp")" -eq 34 ]
ok $? "perf-power: 34 panels in ${pw}x${ph} px (one a row of two was 1200x7600)"
n=0
for d in "Netac NVMe SSD 128GB (PCIe Gen2 x1)" "SanDisk SC64G (SD)" "Samsung Portable SSD T7 (USB 5000M)" "SanDisk Ultra (USB 480M)"; do
	[ "$(svg_texts fleet/perf-power.svg | grep -cxF "$d")" -eq 1 ] && n=$((n + 1))
done
[ "$n" -eq 4 ]
ok $? "perf-power: small panels, each device named once in the key under the title"
read -r ew eh < <(svg_size fleet/efficiency.svg)
python3 - "$fdata/efficiency/efficiency.dat" "$fdata/efficiency/meta.gp" "$ew" "$eh" "$REPO/plots/efficiency.gp" <<'PY'
import re, shlex, sys
rows = [shlex.split(l) for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
meta = open(sys.argv[2]).read()
num = lambda k: float(re.search(r"^%s = (\S+)$" % re.escape(k), meta, re.M).group(1))
w, h = int(sys.argv[3]), int(sys.argv[4])
assert w <= 1800 and h <= 2000, (w, h)  # a slot per device per job was 1800x4600
# every bar labelled with its figure: IOPS per mA and J/GB
assert all(r[7] for r in rows if r[2] != "NaN") and all(r[8] for r in rows if r[3] != "NaN")
assert len(rows) == 4 * 34, len(rows)
# a bar at least a 9 pt line wide (its label stands upright on it)
per_job = (num("JW[1]") * w - 90) / (num("JN[1]") + 0.8)
assert num("BOXW") * per_job >= 12, (num("BOXW"), per_job)
gp = open(sys.argv[5]).read().replace("\\\n", " ")
labels = [c for c in gp.split(", ") if "with labels" in c]
assert labels and any("rotate by 90" in c for c in labels), labels
# too narrow to read across: every label stands upright (no text in the across columns)
assert not [r for r in rows if r[16] or r[17]], [r for r in rows if r[16] or r[17]][:3]
print("# efficiency %dx%d px, bars %.1f px wide" % (w, h, num("BOXW") * per_job))
PY
ok $? "efficiency: 4 x 34 bars in a chart of at most 1800x2000 px, each a line wide with its upright label"

# a short job's label stands over the plot, never on the data nor pushing it down
python3 - "$data/timeline-uncertain/meta.gp" "$data/timeline-uncertain/io.dat" <<'PY'
import re, sys
meta = open(sys.argv[1]).read()
labels = [l for l in meta.splitlines() if l.startswith("set label ") and " J tail" in l]
assert len(labels) == 4, labels
assert all(re.search(r" at [0-9.]+, graph 1 offset 0,", l) for l in labels), labels
assert any("rotate by 90" in l for l in labels), "no upright label: the case is not tested"
ymax = float(re.search(r"^YMAX = (\S+)$", meta, re.M).group(1))
mb = max(float(l.split()[1]) for l in open(sys.argv[2]) if l.strip() and not l.startswith("#"))
assert ymax <= 1.1 * mb, (ymax, mb)
tm = float(re.search(r"^TMARGIN = (\S+)$", meta, re.M).group(1))
assert tm < 0.85, tm  # the strip over the plot holds the upright label
PY
ok $? "timeline: job labels in a strip over the plot (one upright), the axis within 10 % of the data"

done_testing
