#!/usr/bin/env bash
# iowatt plot: every chart renders from the golden results to PNG, SVG and dumb text.
. "$(dirname "$0")/../lib/lib.sh"
t_charts_or_skip_all
G=$REPO/tests/data/golden
FILES="$G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json $G/usbssd-samsung-t7.json $G/nvme-netac.json"

# PNG width and height from the IHDR chunk: bytes 16..23, big-endian.
png_size() {
	python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"
}
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

t_need_gnuplot

# --- PNG: every chart, no gnuplot error or warning
$IOWATT plot -o "$T_TMP/png" $FILES >"$T_TMP/png.out" 2>"$T_TMP/png.err"
ok $? "plot renders all charts to PNG"
! grep -q "gnuplot" "$T_TMP/png.err"
ok $? "no gnuplot errors or warnings"
grep "gnuplot" "$T_TMP/png.err" | sed "s/^/#   /" | head -n 10
for c in efficiency perf-power latency battery timeline-sd-sandisk-ultra timeline-usbstick-sandisk-ultra \
	timeline-usbssd-samsung-t7 timeline-nvme-netac; do
	f="$T_TMP/png/$c.png"
	[ -s "$f" ] && is_png "$f"
	ok $? "$c.png exists with the PNG signature"
done
[ "$(png_size "$T_TMP/png/efficiency.png")" = "1200x850" ]
ok $? "efficiency.png is 1200x850 (IHDR: two rows of 400 px under the title)"
tl=$(png_size "$T_TMP/png/timeline-usbssd-samsung-t7.png")
[ "${tl%x*}" = 1400 ] && [ "${tl#*x}" -ge 742 ] && [ "${tl#*x}" -le 1000 ]
ok $? "timeline PNG is 1400 wide, 720 px and its labels' strip tall ($tl, IHDR)"
# Four jobs: two rows of panels.
[ "$(png_size "$T_TMP/png/perf-power.png")" = "1200x1000" ]
ok $? "perf-power.png grows with the number of jobs (1200x1000)"
[ "$(ls "$T_TMP/png" | wc -l)" -eq 8 ]
ok $? "eight charts and nothing else in the output directory"

# --- SVG
$IOWATT plot --format svg -o "$T_TMP/svg" $FILES 2>"$T_TMP/svg.err"
ok $? "plot renders all charts to SVG"
n=0
for f in "$T_TMP"/svg/*.svg; do grep -q "<svg" "$f" && n=$((n + 1)); done
[ "$n" -eq 8 ]
ok $? "eight SVG files with an <svg> element ($n)"
grep -q "Storage efficiency per job" "$T_TMP/svg/efficiency.svg"
ok $? "SVG carries the chart title as text"

# --- dumb text: titles, labels, legends
$IOWATT plot --format dumb -o "$T_TMP/txt" $FILES 2>"$T_TMP/txt.err"
ok $? "plot renders all charts as dumb text"
txt=$T_TMP/txt
check "efficiency: title, both panels" -- grep -q "Storage efficiency per job" "$txt/efficiency.txt"
check "efficiency: IOPS per mA panels" -- grep -q "IOPS per mA, 4 KiB records" "$txt/efficiency.txt"
check "efficiency: energy per GB panel" -- grep -q "Energy per GB moved" "$txt/efficiency.txt"
check "efficiency: job names on the x axis" -- grep -q "RND4K-Q32T1-write" "$txt/efficiency.txt"
check "efficiency: the undervoltage run's bar says INVALID, the verdict's word" -- grep -q "INVALID" "$txt/efficiency.txt"
check "efficiency: device legend names the link" -- grep -q "Netac NVMe SSD 128GB (PCIe Gen2 x1)" "$txt/efficiency.txt"
check "timeline: title names the device" -- grep -q "Timeline: Samsung Portable SSD T7 (USB 5000M)" "$txt/timeline-usbssd-samsung-t7.txt"
check "timeline: undervoltage event labelled" -- grep -q "undervoltage" "$txt/timeline-usbssd-samsung-t7.txt"
check "timeline: power axis" -- grep -q "power (W)" "$txt/timeline-usbssd-samsung-t7.txt"
check "timeline: tail phase in the legend" -- grep -q "tail (drive still busy after the job)" "$txt/timeline-sd-sandisk-ultra.txt"
check "perf-power: Pareto front" -- grep -q "Pareto front" "$txt/perf-power.txt"
check "perf-power: IOPS axis for 4 KiB jobs" -- grep -q "IOPS (higher is better)" "$T_TMP/svg/perf-power.svg"
check "perf-power: MB/s axis for 1 MiB jobs" -- grep -q "MB/s (higher is better)" "$T_TMP/svg/perf-power.svg"
check "latency: title says clat for results without total latency" -- grep -q "Completion latency (clat" "$txt/latency.txt"
check "latency: percentile legend" -- grep -q "p99.9" "$txt/latency.txt"
check "battery: title with the battery" -- grep -q "3000 mAh @ 3.7 V" "$txt/battery.txt"
check "battery: names the job used per device" -- grep -q "RND4K-Q32T1-write" "$txt/battery.txt"

# dumb without -o goes to stdout; --chart picks one; --label renames a device.
$IOWATT plot --format dumb --chart latency --label "$G/nvme-netac.json=Boot NVMe" $FILES >"$T_TMP/stdout.txt" 2>/dev/null
ok $? "dumb to stdout with --chart and --label"
grep -q "Boot NVMe" "$T_TMP/stdout.txt" && ! grep -q "Netac" "$T_TMP/stdout.txt"
ok $? "--label FILE=NAME replaces the device name"
! grep -q "Storage efficiency" "$T_TMP/stdout.txt"
ok $? "--chart latency draws only that chart"
$IOWATT plot --format dumb --battery 11.1Wh --chart battery $FILES 2>/dev/null | grep -q "11.1 Wh"
ok $? "--battery sets the battery chart's battery"

# --- one device, one valid job: label layers with nothing to show must not crash gnuplot
python3 - "$G/nvme-netac.json" "$T_TMP/one.json" <<'PY'
import json, os, shutil, sys
d = json.load(open(sys.argv[1]))
d["jobs"] = d["jobs"][:1]
# A result reads only CSVs beside it: they are copied there.
for v in d["files"].values():
    shutil.copy(os.path.join(os.path.dirname(sys.argv[1]), v), os.path.dirname(sys.argv[2]))
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT plot --format dumb -o "$T_TMP/one" "$T_TMP/one.json" 2>"$T_TMP/one.err"
ok $? "a single valid job renders every chart (gnuplot 5.4 crashed on all-NaN label layers)"
! grep -q "gnuplot" "$T_TMP/one.err" && [ "$(ls "$T_TMP/one" | wc -l)" -eq 3 ] && grep -q "no write job" "$T_TMP/one.err" &&
	grep -q "perf-power: skipped: nothing to compare" "$T_TMP/one.err"
ok $? "three charts (no battery chart: no write job; no perf-power: one point compares nothing), each said, no gnuplot message"

# --- one device: one perf-power panel of its jobs, no Pareto front; none for a point alone
mkdir -p "$T_TMP/onedev"
TMPDIR=$T_TMP/onedev $IOWATT plot --keep-data --format svg --chart perf-power -o "$T_TMP/onedev/out" \
	"$G/nvme-netac.json" >/dev/null 2>"$T_TMP/onedev.err"
kept=$(sed -n 's/.*kept in //p' "$T_TMP/onedev.err")
[ "$(sed -n 's/^NJOBS = //p' "$kept/perf-power/meta.gp")" = 1 ] &&
	grep -q "^HASFRONT\[1\] = 0" "$kept/perf-power/meta.gp" &&
	[ "$(grep -vc '^#\|^$' "$kept/perf-power/perf.dat")" = 4 ]
ok $? "one device: one perf-power panel holding its four jobs as points, no front"
svg=$T_TMP/onedev/out/perf-power.svg
grep -q "every job" "$svg" && grep -q "RND4K-Q32T1-write" "$svg" && ! grep -q "Pareto front" "$svg"
ok $? "its panel names the device's jobs, and no Pareto front in the key"

# --- value labels read across where their bar's slot holds them, upright where it does not
$IOWATT plot --format svg --chart efficiency -o "$T_TMP/across" "$G/nvme-netac.json" >/dev/null 2>&1
python3 - "$T_TMP/across/efficiency.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
# each value label: the group that holds its <text>, with its transform
# gnuplot 6 wraps a label's text in a <tspan>, gnuplot 5.4 does not
labels = re.findall(r'<g transform="([^"]*)"[^>]*>\s*<text>(?:<tspan[^>]*>)?([0-9.]+)(?:</tspan>)?</text>', svg)
vals = [(t, v) for t, v in labels if v in ("0.767", "0.541", "88.1", "55.7", "4.12", "5.83", "9.18", "14.5")]
sys.exit(0 if len(vals) == 8 and not any("rotate" in t for t, v in vals) else 1)
PY
ok $? "one device, four jobs: all eight value labels read across (no rotate)"
mkdir -p "$T_TMP/fleetfx"
python3 "$REPO/tests/lib/page_fixtures.py" "$G" "$T_TMP/fleetfx" >/dev/null
$IOWATT plot --format svg --chart efficiency -o "$T_TMP/fleet" "$T_TMP"/fleetfx/fleet/*.json >/dev/null 2>&1
python3 - "$T_TMP/fleet/efficiency.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
# value labels are set smaller than the axes' tic labels (whose markup differs between
# gnuplot 5.4 and 6): the numbers in the smallest type are the bars' labels
found = re.findall(r'<g transform="([^"]*)"[^>]*font-size="([0-9.]+)"[^>]*>\s*<text>(?:<tspan[^>]*>)?'
                   r'([0-9.]+ ?[kmM]?)(?:</tspan>)?</text>', svg)
small = min(float(f) for t, f, v in found)
labels = [t for t, f, v in found if float(f) == small]
rot = [t for t in labels if "rotate" in t]
sys.exit(0 if len(labels) > 100 and len(rot) > 0.9 * len(labels) else 1)
PY
ok $? "four devices x 34 jobs: the narrow bars' labels stand upright"

# --- a measured command (power, no speed, no latency) beside a run: no empty panel for it
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/measured.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
for k in ("options", "read", "write", "sync", "cpu"):
    j.pop(k, None)
j["jobname"] = "sleep-cmd"
j["command"] = ["sleep", "2"]
for k in ("iops_per_ma", "iops_per_w", "mbps_per_w", "j_per_gb", "j_per_gb_net", "uj_per_io",
          "uah_per_io", "uah_per_mb"):
    j["efficiency"].pop(k, None)
d["jobs"] = [j]
d.pop("files", None)
d.pop("summary", None)
json.dump(d, open(sys.argv[2], "w"))
PY
mkdir -p "$T_TMP/mx"
TMPDIR=$T_TMP/mx $IOWATT plot --keep-data --format svg -o "$T_TMP/mx/out" "$G/nvme-netac.json" \
	"$T_TMP/measured.json" >/dev/null 2>"$T_TMP/mx.err"
kept=$(sed -n 's/.*kept in //p' "$T_TMP/mx.err")
! grep -q "sleep-cmd" "$kept/perf-power/meta.gp" && ! grep -q "sleep-cmd" "$kept/latency/meta.gp" &&
	grep -q "perf-power: sleep-cmd: left out" "$T_TMP/mx.err" && grep -q "latency: sleep-cmd: left out" "$T_TMP/mx.err"
ok $? "a measured command's job has no perf-power panel nor latency column, and each says why"
$IOWATT plot --format svg -o "$T_TMP/mo" "$T_TMP/measured.json" >/dev/null 2>"$T_TMP/mo.err"
[ ! -e "$T_TMP/mo/perf-power.svg" ] && [ ! -e "$T_TMP/mo/latency.svg" ] &&
	grep -q "perf-power: skipped: nothing to compare" "$T_TMP/mo.err" &&
	grep -q "latency: skipped: no job has latency" "$T_TMP/mo.err"
ok $? "a measure result alone: no perf-power nor latency chart, each with its note"
$IOWATT report -o "$T_TMP/mpage" "$T_TMP/measured.json" >/dev/null 2>&1
grep -q "Not drawn: perf-power: nothing to compare" "$T_TMP/mpage/report.html" &&
	grep -q "Not drawn: latency: no job has latency percentiles" "$T_TMP/mpage/report.html"
ok $? "the report page names each chart left out, with its note"

# --- a job far shorter than the run is marked, not lost in a sliver of a line
python3 - "$G/nvme-netac.json" "$T_TMP/longtail.json" <<'PY'
import json, os, shutil, sys
d = json.load(open(sys.argv[1]))
d["jobs"][-1]["phases"]["tail"]["t_end_ns"] += 3000 * 10**9
# A result reads only CSVs beside it: they are copied there.
for v in d["files"].values():
    shutil.copy(os.path.join(os.path.dirname(sys.argv[1]), v), os.path.dirname(sys.argv[2]))
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT plot --format dumb --chart timeline "$T_TMP/longtail.json" >"$T_TMP/longtail.txt" 2>"$T_TMP/longtail.err"
ok $? "timeline of a run with a 3000 s tail"
grep -q "short job: mean MB/s" "$T_TMP/longtail.txt" && ! grep -q gnuplot "$T_TMP/longtail.err"
ok $? "short jobs get a marker (legend: short job: mean MB/s)"
$IOWATT plot --format dumb --chart timeline "$G/nvme-netac.json" 2>/dev/null | grep -q "short job"
[ $? -ne 0 ]
ok $? "no marker when every job is long enough to see"

# --- an event listed by two jobs is drawn once; same-named results get distinct timelines
mkdir -p "$T_TMP/a" "$T_TMP/b" "$T_TMP/tmpk"
cp "$G"/usbssd-samsung-t7.* "$T_TMP/a/"
cp "$G"/usbssd-samsung-t7.* "$T_TMP/b/"
python3 - "$T_TMP/a/usbssd-samsung-t7.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][2]["events"] = d["jobs"][1]["events"]
json.dump(d, open(sys.argv[1], "w"))
PY
TMPDIR=$T_TMP/tmpk $IOWATT plot --keep-data --format dumb --chart timeline -o "$T_TMP/two" \
	"$T_TMP/a/usbssd-samsung-t7.json" "$T_TMP/b/usbssd-samsung-t7.json" 2>/dev/null
ok $? "two results with the same file name"
[ -s "$T_TMP/two/timeline-usbssd-samsung-t7.txt" ] && [ -s "$T_TMP/two/timeline-usbssd-samsung-t7-2.txt" ]
ok $? "their timelines do not overwrite each other (-2 suffix)"
[ "$(grep -c "set arrow" "$T_TMP"/tmpk/iowatt-plot.*/timeline-usbssd-samsung-t7/meta.gp)" -eq 2 ]
ok $? "an event in two jobs' lists is drawn once"

# --- results without power data: skipped with a note, not a crash
python3 "$REPO/tests/data/golden/strip_power.py" "$G/sd-sandisk-ultra.json" "$T_TMP/nopower.json"
$IOWATT plot -o "$T_TMP/np" "$T_TMP/nopower.json" >/dev/null 2>"$T_TMP/np.err"
ok $? "a result without power data plots without error"
grep -q "no power data" "$T_TMP/np.err"
ok $? "the power charts say why they were skipped"
[ ! -e "$T_TMP/np/efficiency.png" ] && [ -s "$T_TMP/np/latency.png" ] && [ -s "$T_TMP/np/timeline-nopower.png" ]
ok $? "efficiency skipped; latency and throughput timeline drawn"

# --- bad inputs name the file or option
echo '{"schema_version": 1, "jobs": [' >"$T_TMP/broken.json"
$IOWATT plot -o "$T_TMP/x" "$T_TMP/broken.json" 2>"$T_TMP/e1"
[ $? -eq 2 ] && grep -q "broken.json:[0-9]*:[0-9]*:" "$T_TMP/e1"
ok $? "malformed JSON: exit 2, error names file:line"
echo '{"schema_version": 99, "jobs": []}' >"$T_TMP/future.json"
$IOWATT plot -o "$T_TMP/x" "$T_TMP/future.json" 2>"$T_TMP/e2"
[ $? -eq 2 ] && grep -q "future.json: schema_version 99" "$T_TMP/e2"
ok $? "schema from the future: exit 2, names file and version"
$IOWATT plot -o "$T_TMP/x" "$T_TMP/missing.json" 2>"$T_TMP/e3"
[ $? -eq 2 ] && grep -q "missing.json" "$T_TMP/e3"
ok $? "missing file: exit 2, names it"
$IOWATT plot --format jpeg $FILES 2>"$T_TMP/e4"
[ $? -eq 2 ] && grep -q -- "--format 'jpeg'" "$T_TMP/e4"
ok $? "bad --format is named"
$IOWATT plot --chart pie $FILES 2>"$T_TMP/e5"
[ $? -eq 2 ] && grep -q -- "--chart 'pie'" "$T_TMP/e5"
ok $? "bad --chart is named"
$IOWATT plot --label nonsense $FILES 2>"$T_TMP/e6"
[ $? -eq 2 ] && grep -q -- "--label 'nonsense'" "$T_TMP/e6"
ok $? "bad --label is named"

# --- no gnuplot: a clear error with the package to install
mkdir -p "$T_TMP/emptybin" "$T_TMP/tmpd"
TMPDIR=$T_TMP/tmpd PATH=$T_TMP/emptybin $IOWATT plot -o "$T_TMP/nognu" $FILES 2>"$T_TMP/e7"
[ $? -eq 1 ] && grep -q "apt-get install gnuplot-nox" "$T_TMP/e7"
ok $? "missing gnuplot: exit 1 and says apt-get install gnuplot-nox"
[ "$(grep -c "gnuplot not found" "$T_TMP/e7")" -eq 1 ]
ok $? "missing gnuplot is reported once, not per chart"
TMPDIR=$T_TMP/tmpd $IOWATT plot --format dumb --chart efficiency $FILES >/dev/null 2>&1
[ -z "$(ls -A "$T_TMP/tmpd")" ]
ok $? "temporary chart data removed after success and after failure"
TMPDIR=$T_TMP/tmpd $IOWATT plot --keep-data --format dumb --chart battery $FILES >/dev/null 2>"$T_TMP/keep.err"
kept=$(sed -n 's/.*kept in //p' "$T_TMP/keep.err")
[ -f "$kept/battery/meta.gp" ] && [ -f "$kept/battery/battery.dat" ] && gnuplot -c "$REPO/plots/battery.gp" "$kept/battery" >/dev/null 2>&1
ok $? "--keep-data leaves data a user can re-plot with gnuplot -c plots/battery.gp DIR"

# Below a day, hours: the NVMe result's battery lasts under a day at its idle power.
mkdir -p "$T_TMP/hoursd"
TMPDIR=$T_TMP/hoursd $IOWATT plot --keep-data --format dumb --chart battery \
	"$REPO/tests/data/golden/nvme-netac.json" >"$T_TMP/hours.txt" 2>"$T_TMP/hours.err"
kept=$(sed -n 's/.*kept in //p' "$T_TMP/hours.err")
grep -q "[0-9] hours" "$T_TMP/hours.txt" && ! grep -qE "(^|[^0-9])0\.[0-9]+ days" "$T_TMP/hours.txt" &&
	grep -q "^YUNIT = 'hours'" "$kept/battery/meta.gp" && grep -q "^YS = 24" "$kept/battery/meta.gp"
ok $? "battery: a life below a day reads in hours (label and axis), never 0.x days"
$IOWATT plot --format dumb --chart battery "$REPO/tests/data/golden/nvme-netac.json" \
	"$REPO/tests/data/golden/sd-sandisk-ultra.json" >"$T_TMP/mixed.txt" 2>/dev/null
grep -q "[0-9] hours" "$T_TMP/mixed.txt" && grep -q "[0-9] days" "$T_TMP/mixed.txt"
ok $? "battery: with a device lasting days, its label in days and the short one's in hours"
$IOWATT plot --format dumb --chart battery "$REPO/tests/data/golden/nvme-netac.json" 2>/dev/null |
	grep -q "battery 3000 mAh @ 3.7 V (11.10 Wh), a default (--battery)" &&
	$IOWATT plot --format dumb --battery 3000mAh@3.7V --chart battery "$REPO/tests/data/golden/nvme-netac.json" \
		2>/dev/null | grep "battery 3000 mAh" | grep -vq "default"
ok $? "battery: the title names the battery and says when it is the default, not when given"
# An idle baseline in doubt: its idle bar marked '?', and said under the currents panel.
python3 - "$REPO/tests/data/golden/nvme-netac.json" "$T_TMP/doubt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    j["power"]["idle_baseline"] = {"estimator": "huber", "readings": 24, "quiet": 0, "excluded": 24,
                                   "exclusion_s": 1.6, "extended_s": 2.0, "watched": "nvme0n1",
                                   "reason": "idle baseline: no quiet reading over all 24 readings"}
d.pop("files", None)
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT plot --format svg --chart battery -o "$T_TMP/doubt" "$T_TMP/doubt.json" >/dev/null 2>"$T_TMP/doubt.err"
grep -q "idle ?" "$T_TMP/doubt/battery.svg" && grep -q "idle baseline in doubt" "$T_TMP/doubt/battery.svg" &&
	! grep -qi "warning" "$T_TMP/doubt.err"
ok $? "battery: an idle baseline in doubt marks its idle bar '?' and says why, no gnuplot warning"
$IOWATT plot --format svg --chart battery -o "$T_TMP/nodoubt" "$REPO/tests/data/golden/nvme-netac.json" >/dev/null 2>&1
[ -s "$T_TMP/nodoubt/battery.svg" ] && ! grep -q "idle baseline in doubt" "$T_TMP/nodoubt/battery.svg"
ok $? "battery: a clean idle baseline is not marked"

done_testing
