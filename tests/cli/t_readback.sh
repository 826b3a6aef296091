#!/usr/bin/env bash
# Odd but well-formed results read back: a % or "]]>" or U+FFFE in a name, figures no
# measurement has (iops 1e308, idle_w -5, a 0 ns percentile), no meter, a `measure`
# result: every chart draws or is left out with a note, and plot, report and size say so.
. "$(dirname "$0")/../lib/lib.sh"
G=$REPO/tests/data/golden

# odd.py STEM KIND: a golden result made odd, with its CSVs beside it.
cat >"$T_TMP/odd.py" <<'PY'
import json, os, shutil, sys
golden, out, stem, kind = sys.argv[1:5]
src = "sd-sandisk-ultra"
d = json.load(open(os.path.join(golden, src + ".json")))
jobs = d["jobs"]
if kind == "name":
    jobs[0]["jobname"] = sys.argv[5]
elif kind == "iops":
    for j in jobs:
        for dr in ("read", "write"):
            if j[dr]["iops"]:
                j[dr]["iops"] = 1e308
elif kind == "idle":
    for j in jobs:
        j["power"]["idle_w"] = -5
        for m in j["meters"]:
            m["power"]["idle_w"] = -5
elif kind == "pct0":
    for j in jobs:
        for dr in ("read", "write"):
            p = j[dr]["clat_ns"]["percentile"]
            for k in p:
                p[k] = 0
elif kind == "nometer":
    d["meters"] = []
    for j in jobs:
        j["power"] = None
        j["efficiency"] = None
        j["meters"] = []
files = {}
for k in ("intervals", "samples"):
    shutil.copy(os.path.join(golden, "%s.%s.csv" % (src, k)), os.path.join(out, "%s.%s.csv" % (stem, k)))
    files[k] = "%s.%s.csv" % (stem, k)
d["files"] = files
json.dump(d, open(os.path.join(out, stem + ".json"), "w"), indent=1)
PY
odd() { python3 "$T_TMP/odd.py" "$G" "$T_TMP" "$@"; }

# A chart that gnuplot finished: a PNG ends with its IEND chunk.
png_whole() { [ "$(tail -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "49454e44ae426082" ]; }
svg_wellformed() { # every SVG in DIR parses as XML
	python3 - "$1" <<'PY'
import os, sys, xml.dom.minidom
n = 0
for f in sorted(os.listdir(sys.argv[1])):
    if f.endswith(".svg"):
        xml.dom.minidom.parse(os.path.join(sys.argv[1], f))
        n += 1
sys.exit(0 if n else 1)
PY
}

# --- reading back: the checks a measurement has (no chart needed)
odd iops iops
$IOWATT compare "$T_TMP/iops.json" >"$T_TMP/iops.cmp" 2>"$T_TMP/iops.err"
ok $? "compare of a result with iops 1e308 exits 0"
grep -q "jobs\[0\].read.iops: 1e+308 (beyond 1e+15) cannot be measured: read as not known" "$T_TMP/iops.err"
ok $? "iops 1e308 is named and read as not known"
! grep -qiE "\binf\b|1e\+308" "$T_TMP/iops.cmp"
ok $? "and no inf or 1e308 reaches the table"
odd idle idle
$IOWATT compare "$T_TMP/idle.json" >/dev/null 2>"$T_TMP/idle.err"
grep -q "jobs\[0\].power.idle_w: a negative value (-5) cannot be measured" "$T_TMP/idle.err" &&
	grep -q "more figures cannot be measured" "$T_TMP/idle.err"
ok $? "a negative idle power is named once, the rest counted"
odd pct0 pct0
$IOWATT compare "$T_TMP/pct0.json" >/dev/null 2>"$T_TMP/pct0.err"
grep -q "percentile.1.000000: a latency of 0 ns cannot be measured" "$T_TMP/pct0.err"
ok $? "a 0 ns percentile is named and left out"

# --- size of a measured command: --job is suggested
jobname=measured
mkdir -p "$T_TMP/m"
cp "$G/sd-sandisk-ultra.json" "$T_TMP/m/cmd.json"
python3 - "$T_TMP/m/cmd.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# what `measure` writes: one job, a command, no block size or direction
j = d["jobs"][0]
j["jobname"] = "measured"
j["options"] = {}
for dr in ("read", "write"):
    for k in ("io_bytes", "bw_bytes", "iops", "total_ios", "runtime"):
        j[dr][k] = 0
d["jobs"] = [j]
d["files"] = {}
json.dump(d, open(sys.argv[1], "w"))
PY
$IOWATT size --battery 3000mAh@3.7V "$T_TMP/m/cmd.json" >/dev/null 2>"$T_TMP/size.err"
rc=$?
[ $rc -ne 0 ] && grep -q "name one with --job: '$jobname'" "$T_TMP/size.err"
ok $? "size of a measured command names the job --job can pick (rc=$rc)"
$IOWATT size --battery 3000mAh@3.7V --job "$jobname" "$T_TMP/m/cmd.json" >/dev/null 2>&1
ok $? "and size --job $jobname works"

# --- a padded result: the parse is bounded, not only the file (docs/results.md)
# pad OUT KEY N: the golden result with N zeros in an array under KEY.
pad() {
	python3 - "$G/sd-sandisk-ultra.json" "$@" <<'PY'
import json, sys
src, out, key, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
doc = json.load(open(src))
doc["files"] = {}
text = json.dumps(doc)
with open(out, "w") as f:
    f.write(text[:-1] + ', "%s": [0' % key + ",0" * (n - 1) + "]}\n")
PY
}
# Peak RSS (KiB) of a command, from getrusage of its process.
peak_kib() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
pad "$T_TMP/pad.json" padding 10000000
$IOWATT compare "$T_TMP/pad.json" >"$T_TMP/pad.out" 2>&1
ok $? "compare reads a 20 MB result whose unknown key holds 10 M zeros"
base=$(peak_kib "$IOWATT" compare "$G/sd-sandisk-ultra.json")
padded=$(peak_kib "$IOWATT" compare "$T_TMP/pad.json")
file_kib=$(( $(stat -c %s "$T_TMP/pad.json") / 1024 ))
# Before, jansson built every zero: 21x the file. Now the file is read in pieces and the
# zeros never kept: less than the file itself, with room for a sanitizer's allocator.
[ $((padded - base)) -lt "$file_kib" ]
ok $? "its peak RSS grows by less than the file ($((padded - base)) KiB over $base KiB for a $file_kib KiB file)"
pad "$T_TMP/many.json" events 2100000
$IOWATT compare "$T_TMP/many.json" >/dev/null 2>"$T_TMP/many.err"
rc=$?
[ $rc -ne 0 ] && grep -q "many.json:1:[0-9]*: more than 2000000 values" "$T_TMP/many.err"
ok $? "2.1 M values under a key iowatt reads are refused before they are built (rc=$rc)"

t_need_gnuplot
if t_emulated; then
	t_skip_charts 10
	done_testing
	exit
fi

# --- a % in a job name: gnuplot reads a tic label as a format
odd pct name "70%read"
$IOWATT plot -o "$T_TMP/pct" "$T_TMP/pct.json" >"$T_TMP/pct.log" 2>&1
ok $? "plot of a job named 70%read exits 0"
! grep -q "Bad format character" "$T_TMP/pct.log" && png_whole "$T_TMP/pct/efficiency.png" &&
	png_whole "$T_TMP/pct/latency.png"
ok $? "its efficiency and latency charts are whole PNGs"
$IOWATT report -o "$T_TMP/pctr" "$T_TMP/pct.json" >/dev/null 2>&1
ok $? "report of it exits 0"

# --- ]]> and U+FFFE in a name: the SVG stays well-formed XML
odd cdata name "a]]>b"
odd fffe name "$(printf 'a\xef\xbf\xbeb')"
$IOWATT plot --format svg -o "$T_TMP/svg" "$T_TMP/cdata.json" "$T_TMP/fffe.json" >/dev/null 2>&1 &&
	svg_wellformed "$T_TMP/svg"
ok $? "plot --format svg with ]]> and U+FFFE in names writes well-formed SVG"

# --- impossible figures and no meter: every chart whole, what is drawn says so
odd nometer nometer
$IOWATT plot -o "$T_TMP/odd" "$T_TMP/iops.json" "$T_TMP/idle.json" "$T_TMP/pct0.json" \
	"$T_TMP/nometer.json" >"$T_TMP/odd.log" 2>&1
ok $? "plot of results with iops 1e308, idle_w -5, 0 ns percentiles and no meter exits 0"
! grep -qE "gnuplot|undefined variable|inf\b" "$T_TMP/odd.log"
ok $? "no inf in a chart script, no gnuplot error"
whole=1
for f in "$T_TMP"/odd/*.png; do png_whole "$f" || whole=0; done
[ $whole = 1 ] && [ -n "$(ls "$T_TMP"/odd/*.png)" ]
ok $? "every chart written is a whole PNG"

# --- a `measure` result: its timeline draws (no throughput line), report exits 0
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 200 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
timeout 60 "$IOWATT" measure --meter "um25c:$T_TMP/um,interval=100ms" --idle 1s --idle-samples 5 \
	--tail-hold 0.5s --tail-max 3s --no-progress --json-out "$T_TMP/meas.json" -- sleep 1.5 \
	>"$T_TMP/meas.out" 2>&1
$IOWATT plot -o "$T_TMP/mplot" "$T_TMP/meas.json" >"$T_TMP/mplot.log" 2>&1 &&
	png_whole "$T_TMP/mplot/timeline-meas.png" && ! grep -q "gnuplot" "$T_TMP/mplot.log"
ok $? "plot of a measure result draws its timeline without a gnuplot complaint"
[ ! -e "$T_TMP/mplot/efficiency.png" ] && grep -q "efficiency: skipped: no job has IOPS per mA or J/GB" "$T_TMP/mplot.log"
ok $? "and no empty efficiency chart: left out, saying why"
$IOWATT report -o "$T_TMP/mrep" "$T_TMP/meas.json" >/dev/null 2>&1
ok $? "report of a measure result exits 0"

done_testing
