#!/usr/bin/env bash
# iowatt plot: what makes a chart fit to publish, where the chart's files can tell it.
. "$(dirname "$0")/../lib/lib.sh"
t_charts_or_skip_all
G=$REPO/tests/data/golden
FILES="$G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json $G/usbssd-samsung-t7.json $G/nvme-netac.json"

t_need_gnuplot

# edit IN OUT PYTHON: a copy of a golden result changed by PYTHON (on `d`), its CSVs kept.
edit() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, os, shutil, sys
d = json.load(open(sys.argv[1]))
# A result reads only CSVs beside it: they are copied there.
for v in d["files"].values():
    shutil.copy(os.path.join(os.path.dirname(sys.argv[1]), v), os.path.dirname(sys.argv[2]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
# keep CHART FILES...: plot with --keep-data; prints the chart's data directory.
keep() {
	local chart=$1 dir
	shift
	dir=$(mktemp -d "$T_TMP/keep.XXXXXX")
	TMPDIR=$dir $IOWATT plot --keep-data --format dumb --chart "$chart" -o "$dir/out" "$@" \
		>/dev/null 2>"$dir/err" || { sed 's/^/#   /' "$dir/err"; return 1; }
	ls -d "$dir"/iowatt-plot.*/"$chart"* | head -n 1
}

# --- efficiency: an invalid (hatched) bar keeps its device's colour
$IOWATT plot --format svg --chart efficiency -o "$T_TMP/svg" "$G/sd-sandisk-ultra.json" \
	"$G/usbssd-samsung-t7.json" 2>/dev/null
# The T7 (second device: Okabe-Ito orange 230,159,0) has an undervoltage job: its hatching.
grep -A1 "<pattern" "$T_TMP/svg/efficiency.svg" | grep -q "stroke:rgb(230,159,0)"
ok $? "efficiency: the invalid bar's hatching is in its device's colour"
! grep -A1 "<pattern" "$T_TMP/svg/efficiency.svg" | grep "stroke:rgb" | grep -v "rgb(230,159,0)\|rgb(64,64,64)" | grep -q .
ok $? "efficiency: no hatching in a colour that is no device's (only the key's grey)"

# --- efficiency: IOPS per mA of 4 KiB and 1 MiB records on their own axes
$IOWATT plot --format dumb --chart efficiency $FILES >"$T_TMP/eff.txt" 2>/dev/null
grep -q "IOPS per mA, 4 KiB records" "$T_TMP/eff.txt" && grep -q "IOPS per mA, 1 MiB records" "$T_TMP/eff.txt"
ok $? "efficiency: a panel of IOPS per mA per record size"
d=$(keep efficiency $FILES)
[ "$(sed -n 's/^NPANEL = //p' "$d/meta.gp")" = 2 ] && grep -q "^YMIN1\[2\] = " "$d/meta.gp"
ok $? "efficiency: each record size has its own y axis (NPANEL 2, YMIN1 per panel)"

# --- dumb: devices are told apart without colour (each has its own character)
chars=$(for dev in "SanDisk SC64G" "SanDisk Ultra" "Samsung Portable" "Netac NVMe"; do
	grep -o ".$dev" "$T_TMP/eff.txt" | head -n 1 | cut -c1
done | sort -u | grep -v ' ' | wc -l)
[ "$chars" -eq 4 ]
ok $? "dumb efficiency: each device's key sample has its own character ($chars of 4)"

# --- latency: only what doubts the latencies is marked; no EMULATED (it shows no power)
edit "$G/usbssd-samsung-t7.json" "$T_TMP/emu.json" '
d["emulated"] = True
for m in d["meters"]: m["emulated"] = True
d["jobs"][2]["status"] = "failed"
d["jobs"][2]["error"] = "io_setup: EAGAIN"'
$IOWATT plot --format dumb --chart latency,efficiency -o "$T_TMP/lat" "$T_TMP/emu.json" 2>/dev/null
! grep -q "EMULATED" "$T_TMP/lat/latency.txt" && grep -q "EMULATED" "$T_TMP/lat/efficiency.txt"
ok $? "latency: no EMULATED note (the efficiency chart of the same result has it)"
d=$(keep latency "$T_TMP/emu.json")
[ "$(grep -c '"failed"' "$d/latency.dat")" -eq 1 ] && ! grep -q '"invalid"\|"undervoltage"' "$d/latency.dat"
ok $? "latency: the failed job is marked, the undervoltage (power-invalid) job is not"

# --- battery: ticks that tell 0.87 from 0.73 days; an x range that fits the devices
# Slower writers than the golden SD card: the axis has to end before 1 TiB a day.
edit "$G/sd-sandisk-ultra.json" "$T_TMP/bat-a.json" '
for j in d["jobs"]:
    if j.get("write"): j["write"]["bw_bytes"] //= 10'
edit "$G/usbstick-sandisk-ultra.json" "$T_TMP/bat-b.json" '
for j in d["jobs"]:
    if j.get("write"): j["write"]["bw_bytes"] //= 10'
d=$(keep battery "$T_TMP/bat-a.json" "$T_TMP/bat-b.json")
[ "$(sed -n 's/^YLOG = //p' "$d/meta.gp")" = 0 ] && [ "$(sed -n 's/^YLO = //p' "$d/meta.gp")" = 0 ]
ok $? "battery: days within 20x of each other are read on a linear axis from 0"
n=$(grep -cE '"[0-9]+\.[0-9]{2,} days"' "$d/labels.dat")
[ "$n" -eq 2 ]
ok $? "battery: each line's days written at its start with 3 significant digits ($n labels)"
python3 - "$d/meta.gp" "$T_TMP/bat-a.json" "$T_TMP/bat-b.json" <<'PY'
import json, re, sys
meta = open(sys.argv[1]).read()
xmax = float(re.search(r"^XMAX = (\S+)", meta, re.M).group(1))
speeds = []
for f in sys.argv[2:]:
    d = json.load(open(f))
    w = [j for j in d["jobs"] if j["jobname"] == "SEQ1M-Q8T1-write"][0]
    speeds.append(w["write"]["bw_bytes"] * 86400 / 2**20)
# The axis ends just past the fastest device writing flat out (at most 1 TiB a day).
end = min(max(speeds), 2**20)
sys.exit(0 if end <= xmax <= 1.1 * end else 1)
PY
ok $? "battery: the x axis ends where the fastest device writes flat out"
python3 - "$d/battery.dat" <<'PY'
import sys
# More data a day never lengthens a battery's life: each line falls or stays, no bump.
for b in (b for b in open(sys.argv[1]).read().split("\n\n") if b.strip()):
    days = [float(l.split()[1]) for l in b.splitlines() if l.strip() and not l.startswith("#")]
    if len(days) < 10 or any(b2 > a * (1 + 1e-9) for a, b2 in zip(days, days[1:])):
        sys.exit(1)
PY
ok $? "battery: each line's days only fall as more is written a day (no bump)"

# --- perf-power: the front is drawn even where one valid point is left; labels whole
edit "$G/usbssd-samsung-t7.json" "$T_TMP/pp.json" 'pass'
d=$(keep perf-power --label "$T_TMP/pp.json=SD-like (loop0)" "$T_TMP/pp.json" "$G/nvme-netac.json")
python3 - "$d/front.dat" <<'PY'
import sys
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
rows = [[l for l in b.splitlines() if l.strip() and "NaN" not in l] for b in blocks]
# A staircase: 2 corners per front point after the first, 1 for it and 1 at the edge.
sys.exit(0 if rows and all(len(r) >= 2 and len(r) % 2 == 0 for r in rows) else 1)
PY
ok $? "perf-power: every panel has a front staircase (>= 2 corners), also with one valid point"
grep -q '"SD-like (loop0)' "$d/perf.dat"
ok $? "perf-power: a label keeps its parenthesis ('SD-like (loop0)' not cut to 'SD-like')"
# Labels cover no point and no other label, even for twins whose points coincide: read from
# the SVG's own positions (label box from its anchor, ~0.55 em a character; points' radius).
mkdir -p "$T_TMP/twins"
edit "$G/sd-sandisk-ultra.json" "$T_TMP/twins/a.json" 'pass'
edit "$G/sd-sandisk-ultra.json" "$T_TMP/twins/b.json" 'pass'
$IOWATT plot --chart perf-power --format svg -o "$T_TMP/ppsvg" --label "a.json=Card A (twin)" \
	--label "b.json=Card B (twin)" --label "usbstick-sandisk-ultra.json=Stick" \
	--label "nvme-netac.json=NVMe" --label "usbssd-samsung-t7.json=T7 SSD" \
	"$T_TMP/twins/a.json" "$T_TMP/twins/b.json" "$G/usbstick-sandisk-ultra.json" \
	"$G/nvme-netac.json" "$G/usbssd-samsung-t7.json" >/dev/null 2>&1
python3 - "$T_TMP/ppsvg/perf-power.svg" "Card A (twin)" "Card B (twin)" Stick NVMe "T7 SSD" \
	<<'PY' >"$T_TMP/pp-labels.out"
import re, sys
svg, names = open(sys.argv[1]).read(), set(sys.argv[2:])
pts = [tuple(map(float, m)) for m in re.findall(
    r"<use xlink:href='#gpPt\d+' transform='translate\(([\d.]+),([\d.]+)\) scale\(([\d.]+)\)'", svg)]
labels = []
for x, y, fs, anchor, text in re.findall(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*'
                                        r'font-size="([\d.]+)"\s*text-anchor="(\w+)">\s*<text>([^<]*)</text>', svg):
    if text in names:
        x, y, fs = float(x), float(y), float(fs)
        w = len(text) * 0.55 * fs
        x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        labels.append((text, x0, y - 0.75 * fs, x0 + w, y + 0.2 * fs))
bad = 0
for t, a0, b0, a1, b1 in labels:
    for px, py, r in pts:
        nx, ny = min(max(px, a0), a1), min(max(py, b0), b1)
        if (nx - px) ** 2 + (ny - py) ** 2 < (0.8 * r) ** 2:
            print("# label %r covers the point at %.0f,%.0f" % (t, px, py)); bad += 1
for i, A in enumerate(labels):
    for B in labels[i + 1:]:
        if A[1] < B[3] and B[1] < A[3] and A[2] < B[4] and B[2] < A[4]:
            print("# labels %r and %r overlap" % (A[0], B[0])); bad += 1
print("%d labels %d points %d bad" % (len(labels), len(pts), bad))
sys.exit(1 if bad or len(labels) < 10 else 0)
PY
ok $? "perf-power: no label covers a point or another label, twins included ($(tail -1 "$T_TMP/pp-labels.out"))"
grep "^#" "$T_TMP/pp-labels.out"

# --- timeline: the meter by model and port; merged labels for events at one time
$IOWATT plot --format dumb --chart timeline "$G/nvme-netac.json" >"$T_TMP/tl.txt" 2>/dev/null
grep -q "INA226 on i2c-1@0x45" "$T_TMP/tl.txt" && ! grep -q "ina226:/dev" "$T_TMP/tl.txt"
ok $? "timeline: the legend names the meter by model and port, not its spec"
edit "$G/usbssd-samsung-t7.json" "$T_TMP/oc.json" '
ev = d["jobs"][1]["events"][0]
oc = dict(ev, kind="usb_overcurrent", text="usb 1-1-port2: over-current condition")
d["jobs"][1]["events"].insert(0, dict(oc, t_ns=ev["t_ns"] - 10**6))'
d=$(keep timeline "$T_TMP/oc.json")
grep "^set label" "$d/meta.gp" | grep "undervoltage" | grep -q "USB over-current"
ok $? "timeline: undervoltage and over-current at one time share one label (neither hidden)"

# --- the J/GB subtitle and the timeline say what j_per_gb counts: the tail above idle
edit "$G/sd-sandisk-ultra.json" "$T_TMP/tailnet.json" '
for j in d["jobs"]:
    for p in [j["power"]] + [m["power"] for m in j.get("meters", [])]:
        p["energy_tail_net_j"] = 0.04'
$IOWATT plot --format dumb --chart efficiency,timeline -o "$T_TMP/tn" "$T_TMP/tailnet.json" 2>/dev/null
grep -q "active phase + tail above idle" "$T_TMP/tn/efficiency.txt" &&
	grep -q "active phase + tail (lower" "$T_TMP/eff.txt"
ok $? "efficiency: J/GB subtitle 'active phase + tail above idle' (older results: '+ tail')"
d=$(keep timeline "$T_TMP/tailnet.json")
grep -q '+0.04 J tail above idle' "$d/meta.gp"
ok $? "timeline: each job's label gives its tail energy above idle (energy_tail_net_j)"

# --- temperatures on the timeline: a panel under it, on the same time axis
edit "$G/usbssd-samsung-t7.json" "$T_TMP/temp.json" '
t0 = d["t0_ns"]
d["temperature_series"] = [{"t_ns": t0 + i * 10**9, "soc_c": 52 + i * 0.2,
                            "drive_c": None if i < 3 else 41 + i * 0.1} for i in range(28)]'
d=$(keep timeline "$T_TMP/temp.json")
[ "$(sed -n 's/^HASTEMP = //p' "$d/meta.gp")" = 1 ] && [ "$(grep -vc '^#' "$d/temp.dat")" -eq 28 ] &&
	[ "$(grep -c 'NaN' "$d/temp.dat")" -eq 3 ]
ok $? "timeline: the run's temperature series is drawn (28 readings, the drive's absent ones NaN)"
$IOWATT plot --format dumb --chart timeline "$T_TMP/temp.json" >"$T_TMP/temp.txt" 2>"$T_TMP/temp.err"
grep -q "SoC" "$T_TMP/temp.txt" && grep -q "drive" "$T_TMP/temp.txt" && ! grep -q gnuplot "$T_TMP/temp.err"
ok $? "timeline: a temperature panel with SoC and drive lines, no gnuplot message"
$IOWATT plot --chart timeline -o "$T_TMP/tpng" "$T_TMP/temp.json" 2>/dev/null
python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); w, h = struct.unpack(">II", d[16:24]); sys.exit(0 if w == 1400 and 960 + 22 <= h <= 1240 else 1)' "$T_TMP/tpng/timeline-temp.png"
ok $? "timeline: taller (1400 x 960 and the labels' strip) with the temperature panel"
! grep -q "^HASTEMP = 1" "$(keep timeline "$G/nvme-netac.json")/meta.gp"
ok $? "timeline: no temperature panel for a run without a temperature series"

# --- a plot directory holds only the charts of the results just given
mkdir -p "$T_TMP/dir"
$IOWATT plot -o "$T_TMP/dir" --format dumb $FILES 2>/dev/null
echo mine >"$T_TMP/dir/timeline-mine.txt"
ln -s "$T_TMP/victim" "$T_TMP/dir/link.txt"
echo keep >"$T_TMP/victim"
echo "link.txt" >>"$T_TMP/dir/.iowatt-charts"
$IOWATT plot -o "$T_TMP/dir" --format dumb "$G/nvme-netac.json" 2>"$T_TMP/dir.err"
ok $? "plot again into the same directory with one result"
[ ! -e "$T_TMP/dir/timeline-sd-sandisk-ultra.txt" ] && [ -s "$T_TMP/dir/timeline-nvme-netac.txt" ] &&
	grep -q "removed .*timeline-sd-sandisk-ultra.txt" "$T_TMP/dir.err"
ok $? "the older results' timelines are removed, and it says so"
[ -s "$T_TMP/dir/timeline-mine.txt" ] && [ -L "$T_TMP/dir/link.txt" ] && [ -s "$T_TMP/victim" ]
ok $? "a file iowatt did not write, and a symlink listed by hand, are left alone"
$IOWATT plot -o "$T_TMP/dir" --format dumb --chart latency "$G/sd-sandisk-ultra.json" 2>/dev/null
[ -s "$T_TMP/dir/timeline-nvme-netac.txt" ] && [ -s "$T_TMP/dir/efficiency.txt" ]
ok $? "charts of kinds not drawn this time stay (--chart latency keeps the timeline)"

# --- plot --chart sweep: MB/s and J/GB against record size, per operation and device
python3 - "$G" "$T_TMP" <<'PY'
import copy, json, math, os, sys
g, out = sys.argv[1], sys.argv[2]
for name, scale in (("sd-sandisk-ultra", 1.0), ("usbstick-sandisk-ultra", 0.6)):
    d = json.load(open(os.path.join(g, name + ".json")))
    d["files"] = {k: os.path.join(g, v) for k, v in d["files"].items()}
    tmpl = {j["jobname"]: j for j in d["jobs"]}
    jobs = []
    for bs in (4096, 16384, 1048576, 16777216):
        for op in ("write", "rewrite", "read", "randread"):
            t = copy.deepcopy(tmpl["SEQ1M-Q8T1-write" if "write" in op else "SEQ1M-Q8T1-read"])
            t["jobname"] = "REC%dK-%s" % (bs // 1024, op)
            t["options"]["rw"], t["options"]["bs"] = op, bs
            k = "write" if "write" in op else "read"
            f = max(0.02, (1 - math.exp(-bs / 5e4)) * scale)
            t[k]["bw_bytes"] = int(t[k]["bw_bytes"] * f)
            t["efficiency"]["j_per_gb"] /= f
            jobs.append(t)
    d["jobs"] = jobs
    json.dump(d, open(os.path.join(out, name + "-sweep.json"), "w"))
PY
d=$(keep sweep "$T_TMP/sd-sandisk-ultra-sweep.json" "$T_TMP/usbstick-sandisk-ultra-sweep.json")
[ -n "$d" ] && [ "$(grep -c '^# .*: ' "$d/sweep.dat")" -eq 8 ] && [ "$(sed -n 's/^NKEYOP = //p' "$d/meta.gp")" = 4 ]
ok $? "sweep: a line per device and operation (2 x 4), the key names the 4 operations run"
python3 - "$d/sweep.dat" <<'PY'
import sys
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
xs = [[float(l.split()[0]) for l in b.splitlines() if l and not l.startswith("#")] for b in blocks]
sys.exit(0 if all(x == sorted(x) and len(x) == 4 for x in xs) else 1)
PY
ok $? "sweep: each line runs over its 4 record sizes in order"
$IOWATT plot --format dumb --chart sweep "$T_TMP/sd-sandisk-ultra-sweep.json" \
	"$T_TMP/usbstick-sandisk-ultra-sweep.json" >"$T_TMP/sweep.txt" 2>"$T_TMP/sweep.err"
grep -q "Record-size sweep" "$T_TMP/sweep.txt" && grep -q "J/GB" "$T_TMP/sweep.txt" &&
	grep -q "16 MiB" "$T_TMP/sweep.txt" && ! grep -q gnuplot "$T_TMP/sweep.err"
ok $? "sweep: MB/s and J/GB panels against record size (4 KiB .. 16 MiB), no gnuplot message"
$IOWATT plot --format dumb --chart sweep $FILES 2>&1 >/dev/null | grep -q "sweep: skipped: no operation ran at two record sizes"
ok $? "sweep: skipped, and said, when no operation ran at two record sizes"

# --- a run without a meter: the I/O charts, no gnuplot warning
python3 "$G/strip_power.py" "$G/sd-sandisk-ultra.json" "$T_TMP/nopower.json"
$IOWATT plot -o "$T_TMP/np" "$T_TMP/nopower.json" >/dev/null 2>"$T_TMP/np.err"
ok $? "a result without a meter plots"
! grep -q "gnuplot" "$T_TMP/np.err" && [ -s "$T_TMP/np/timeline-nopower.png" ] && [ -s "$T_TMP/np/latency.png" ]
ok $? "its timeline and latency charts are drawn without a gnuplot warning"
grep "gnuplot" "$T_TMP/np.err" | sed 's/^/#   /' | head -n 5

done_testing
