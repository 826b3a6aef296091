#!/usr/bin/env bash
# What runs outside a job's phases, its size=auto calibration and its file layout, is in the
# result (phases.calibration, phases.prepare) and shaded and named on the timeline, so that
# its I/O does not read as measurement.
. "$(dirname "$0")/../lib/lib.sh"

t_um25c_constant 250
mkdir -p "$T_TMP/t"
# one job sized by a calibration (whose file is laid out inside it), one laid out before it
cat >"$T_TMP/p.ini" <<INI
[global]
direct=0
ioengine=psync
bs=64k
idle=1s
idle_samples=5
tail_max=0
tail_hold=0
[auto-read]
rw=read
size=auto
filesize=16m
[fixed-read]
rw=read
size=4m
filesize=24m
INI
"$IOWATT" run "$T_TMP/p.ini" --target "$T_TMP/t" --meter "$meter" --no-progress \
	--json-out "$T_TMP/r.json" >"$T_TMP/r.out" 2>&1
ok $? "a run of a size=auto job and a job on a larger file"
check "the result records the calibration and both layouts, each before its job's idle phase" -- \
	python3 - "$T_TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a, f = d["jobs"]
pa, pf = a["phases"], f["phases"]
s = lambda p, k: (p[k]["t_start_ns"], p[k]["t_end_ns"])
c0, c1 = s(pa, "calibration")
l0, l1 = s(pa, "prepare")
assert d["t0_ns"] <= c0 <= l0 < l1 <= c1 <= pa["idle"]["t_start_ns"], (c0, l0, l1, c1)
m0, m1 = s(pf, "prepare")
assert "calibration" not in pf
assert pa["tail"]["t_end_ns"] <= m0 < m1 <= pf["idle"]["t_start_ns"], (m0, m1)
PY
t_need_gnuplot "the timeline's bands"
if t_emulated; then
	t_skip_charts 2
	done_testing
	exit
fi
mkdir -p "$T_TMP/k"
TMPDIR=$T_TMP/k "$IOWATT" plot --keep-data --format svg --chart timeline -o "$T_TMP/c" "$T_TMP/r.json" \
	>/dev/null 2>"$T_TMP/plot.err"
kept=$(sed -n 's/.*kept in //p' "$T_TMP/plot.err")
meta=$(ls "$kept"/timeline-*/meta.gp)
grep -q "^HASPREP = 1" "$meta" && grep -q "^HASCALIB = 1" "$meta" &&
	[ "$(grep -c "^set object rect .*fc rgb '#FFF0B0'" "$meta")" = 1 ] &&
	[ "$(grep -c "^set object rect .*fc rgb '#E2DAF0'" "$meta")" = 2 ]
ok $? "timeline: one calibration band and two layout bands, each in its own colour"
svg=$(ls "$T_TMP"/c/timeline-*.svg)
grep -q "size=auto calibration (not measured)" "$svg" && grep -q "file layout (not measured)" "$svg"
ok $? "timeline: the key names the calibration and the file layout as not measured"
done_testing
