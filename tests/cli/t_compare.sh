#!/usr/bin/env bash
# iowatt compare: table and CSV against expected files, ranking direction, comparability warnings.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden
FILES="$G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json $G/usbssd-samsung-t7.json $G/nvme-netac.json"

$IOWATT compare $FILES >"$T_TMP/table.txt" 2>"$T_TMP/table.err"
ok $? "compare prints a table"
diff -u $G/compare.txt "$T_TMP/table.txt" >"$T_TMP/d1"
ok $? "table matches tests/data/golden/compare.txt"
sed 's/^/#   /' "$T_TMP/d1" | head -n 20
$IOWATT compare --format csv --by j_per_gb $FILES >"$T_TMP/out.csv" 2>/dev/null
ok $? "compare --format csv --by j_per_gb"
diff -u $G/compare-j_per_gb.csv "$T_TMP/out.csv" >"$T_TMP/d2"
ok $? "CSV matches tests/data/golden/compare-j_per_gb.csv"
sed 's/^/#   /' "$T_TMP/d2" | head -n 20

# Ranking is within each job and direction-aware; computed here from the CSV itself.
python3 - "$T_TMP/out.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = 0
for job in {r["job"] for r in rows}:
    ranked = sorted((r for r in rows if r["job"] == job and r["rank"]), key=lambda r: int(r["rank"]))
    vals = [float(r["j_per_gb"]) for r in ranked]
    if vals != sorted(vals):
        print("# %s: j_per_gb not ascending by rank: %s" % (job, vals)); bad = 1
    for r in rows:
        if r["job"] == job and r["valid"] == "false" and r["rank"]:
            print("# invalid row ranked: %s" % r["device"]); bad = 1
sys.exit(bad)
PY
ok $? "--by j_per_gb ranks lower first, invalid rows unranked"
python3 - "$G/nvme-netac.json" "$T_TMP/out.csv" <<'PY'
import csv, json, re, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["file"].endswith("nvme-netac.json")]
PRE = {"k": 1e3, "": 1, "m": 1e-3, "u": 1e-6, "n": 1e-9}
# A power figure's CSV key names the unit its column chose (idle_mw, mj_per_io): the value
# there times the prefix is the result's value in its own unit (W, mA, J, uJ).
UNIT = {"active_w": (r"active_(k|m|u|n|)w", 1), "active_ma": (r"active_(m|u|n|)a", 1e-3),
        "idle_w": (r"idle_(m|u|n|)w", 1), "j_per_gb": (r"(k|m|u|n|)j_per_gb", 1),
        "j_per_gb_net": (r"(k|m|u|n|)j_per_gb_net", 1), "uj_per_io": (r"(k|m|u|n|)j_per_io", 1e-6)}
def figure(r, k):
    if k not in UNIT:
        return float(r[k])
    pat, own = UNIT[k]
    key, m = next((c, re.fullmatch(pat, c)) for c in r if re.fullmatch(pat, c))
    return float(r[key]) * PRE[m.group(1)] / own
for j in doc["jobs"]:
    r = next(r for r in rows if r["job"] == j["jobname"])
    for k in ("iops_per_ma", "j_per_gb", "j_per_gb_net", "uj_per_io"):
        assert abs(figure(r, k) - j["efficiency"][k]) < 1e-9 * max(1, abs(j["efficiency"][k])), (k, r)
    for k in ("active_w", "active_ma", "idle_w"):
        assert abs(figure(r, k) - j["power"][k]) < 1e-9 * max(1, abs(j["power"][k])), (k, figure(r, k))
    assert int(r["bw_bytes"]) == j["read"]["bw_bytes"] + j["write"]["bw_bytes"]
PY
ok $? "CSV columns carry the result's values in the unit their key names (idle_mw: 1000 x idle_w)"
head -1 "$T_TMP/out.csv" | grep -q "iops_per_ma,iops_per_ma_u95,iops_per_w,iops_per_w_u95,mbps_per_w,mbps_per_w_u95,j_per_gb,j_per_gb_u95,j_per_gb_net"
ok $? "CSV header uses the result's key names, each with its interval's _u95"

$IOWATT compare --format md --by iops $FILES >"$T_TMP/md.txt" 2>/dev/null
ok $? "compare --format md"
head -1 "$T_TMP/md.txt" | grep -q "| IOPS/mA | J/GB |" && head -1 "$T_TMP/md.txt" | grep -q "| W  *| mA  *|" &&
	! head -1 "$T_TMP/md.txt" | grep -qE "j_per_gb|iops_per_ma|active_mw|active_w" &&
	sed -n 2p "$T_TMP/md.txt" | grep -q '^|-----:|:-'
ok $? "markdown table: the table's headers with their units (J/GB, not j_per_gb), alignment row"
[ "$(grep -c '^| 1 ' "$T_TMP/md.txt")" -eq 4 ]
ok $? "one rank 1 per job"
grep "^| 1 " "$T_TMP/md.txt" | grep -q "RND4K-Q32T1-read" && grep "^| 1 .*RND4K-Q32T1-read" "$T_TMP/md.txt" | grep -q Netac
ok $? "--by iops: the NVMe wins random reads"

grep -q "different meters" "$T_TMP/table.err"
ok $? "warns that the results used different meters"
! grep -q "different options" "$T_TMP/table.err"
ok $? "no options warning when the jobs match"

# Same jobs with a different block size, from an emulated meter.
python3 - "$G/nvme-netac.json" "$T_TMP/emu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["emulated"] = True
d["meters"][0]["emulated"] = True
d["jobs"][0]["options"]["bs"] = 131072
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare $G/sd-sandisk-ultra.json "$T_TMP/emu.json" >"$T_TMP/emu.out" 2>"$T_TMP/emu.err"
ok $? "compare with an emulated result"
grep -q "EMULATED meter" "$T_TMP/emu.err"
ok $? "warns about the emulated meter"
grep Netac "$T_TMP/emu.out" | grep -q "(emulated)"
ok $? "emulated rows are labelled in the table"
grep -q "job 'SEQ1M-Q8T1-read' ran another workload .*(bs)" "$T_TMP/emu.err"
ok $? "warns about different job options and names the option"

# Rails of different voltage (the SD card and NVMe on 3.3 V, the USB devices on 5 V):
# IOPS per mA is not ranked across them; IOPS per W is, and compare says so.
$IOWATT compare --format csv --by iops_per_ma $FILES >"$T_TMP/rail.csv" 2>"$T_TMP/rail.err"
python3 - "$T_TMP/rail.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = 0
for job in {r["job"] for r in rows}:
    ranked = sorted((r for r in rows if r["job"] == job and r["rank"]), key=lambda r: int(r["rank"]))
    w = [float(r["iops_per_w"]) for r in ranked]
    if w != sorted(w, reverse=True):
        print("# %s: not ranked by iops_per_w: %s" % (job, w)); bad = 1
sys.exit(bad)
PY
ok $? "3.3 V and 5 V rails: --by iops_per_ma ranks by iops_per_w"
grep -q "rails of different voltage.*ranked by iops_per_w, not iops_per_ma" "$T_TMP/rail.err"
ok $? "and says why on stderr"
grep -q "ranked by iops_per_w instead where the rows' rails differ in voltage: SEQ1M-Q8T1-read" \
	$G/compare.txt && head -1 $G/compare.txt | grep -q "IOPS/W"
ok $? "the table's footer names the jobs ranked by IOPS/W and shows that column"
SAME="$G/usbstick-sandisk-ultra.json $G/usbssd-samsung-t7.json"
$IOWATT compare --format csv --by iops_per_ma $SAME >"$T_TMP/same.csv" 2>"$T_TMP/same.err"
python3 - "$T_TMP/same.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for job in {r["job"] for r in rows}:
    ranked = sorted((r for r in rows if r["job"] == job and r["rank"]), key=lambda r: int(r["rank"]))
    ma = [float(r["iops_per_ma"]) for r in ranked]
    assert ma == sorted(ma, reverse=True), (job, ma)
PY
ok $? "two 5 V USB devices: ranked by iops_per_ma itself"
! grep -q "rails of different voltage" "$T_TMP/same.err"
ok $? "and no rail warning"

# A randrw job with syncs and a temperature: each direction, the sync latency and the
# highest temperature get columns of their own, in the table only because a row has them.
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/mixed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][2]
j["options"]["rw"] = "randrw"
j["options"]["fdatasync"] = 16
w = json.loads(json.dumps(j["read"]))
w["iops"], w["total_ios"], w["clat_ns"]["percentile"]["99.000000"] = 123.0, 4000, 7500000
j["write"] = w
j["sync"] = {"total_ios": 250, "lat_ns": {"min": 1, "max": 1, "mean": 1.0, "stddev": 0.0,
             "percentile": {"50.000000": 3000000, "99.000000": 4600000}}}
j["temperatures"] = {"soc_c": {"start": 70.0, "end": 75.0, "max": 78.4},
                     "drive_c": {"start": None, "end": None, "max": None}}
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare "$T_TMP/mixed.json" >"$T_TMP/mixed.txt" 2>/dev/null
head -1 "$T_TMP/mixed.txt" | grep -q "r IOPS  w IOPS  r p99 clat ms  w p99 clat ms  sync p99 ms" &&
	head -1 "$T_TMP/mixed.txt" | grep -q "SoC C" && ! head -1 "$T_TMP/mixed.txt" | grep -q "disk C"
ok $? "a mixed, synced, warm job adds read/write (clat: no lat_ns in it), sync and SoC columns (no empty drive column)"
grep "RND4K-Q32T1-read" "$T_TMP/mixed.txt" | grep -q " 123 .* 7.50 .* 4.60 .*78.4"
ok $? "with its write IOPS, write p99, sync p99 and highest SoC temperature"
! head -1 $G/compare.txt | grep -q "r IOPS\\|sync p99\\|disk C" && head -1 $G/compare.txt | grep -q "SoC C"
ok $? "results without mixed or synced jobs or a drive sensor have none of those columns"
$IOWATT compare --format csv "$T_TMP/mixed.json" 2>/dev/null | python3 -c '
import csv, sys
r = [x for x in csv.DictReader(sys.stdin) if x["job"] == "RND4K-Q32T1-read"][0]
assert float(r["write_iops"]) == 123 and float(r["sync_lat_p99_ns"]) == 4600000 and float(r["soc_c_max"]) == 78.4, r
assert float(r["read_iops"]) > 0'
ok $? "the CSV carries read_iops, write_iops, sync_lat_p99_ns and soc_c_max"

# Without power data: performance columns only, no crash.
python3 "$REPO/tests/data/golden/strip_power.py" "$G/sd-sandisk-ultra.json" "$T_TMP/nopower.json"
$IOWATT compare --format csv "$T_TMP/nopower.json" $G/nvme-netac.json >"$T_TMP/np.csv" 2>"$T_TMP/np.err"
ok $? "a result without power data compares"
grep -q "no power data" "$T_TMP/np.err" && grep "nopower" "$T_TMP/np.csv" | head -1 | grep -q "^,SanDisk"
ok $? "its rows are unranked by iops_per_ma and a note says why"
python3 - "$T_TMP/np.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["file"].endswith("nopower.json")]
assert rows
for r in rows:
    for k in [k for k in r if k.startswith(("active_", "idle_")) or k.endswith(("_per_ma", "_per_gb", "_per_mb"))]:
        assert r[k] == "" and (k.endswith("_u95") or r[k + "_u95"] == ""), (k, r[k])
PY
ok $? "its power figures and their _u95 are empty in the CSV (not known, not 0)"
$IOWATT compare "$T_TMP/nopower.json" 2>/dev/null | python3 -c '
import sys
lines = sys.stdin.read().splitlines()
end = lines[0].index("+-95%") + len("+-95%")
rows = [l for l in lines[1:] if l.endswith("none")]
assert rows
for l in rows:
    assert l[:end].split()[-1] == "-", l'
ok $? "and its IOPS/mA +-95% is - in the table"

echo '{"schema_version": 1, "jobs": [}' >"$T_TMP/bad.json"
$IOWATT compare "$T_TMP/bad.json" 2>"$T_TMP/e1"
[ $? -eq 2 ] && grep -q "bad.json:1:[0-9]*: " "$T_TMP/e1"
ok $? "malformed JSON: exit 2, file:line named"
echo '{"schema_version": 2, "jobs": []}' >"$T_TMP/v2.json"
$IOWATT compare "$T_TMP/v2.json" 2>"$T_TMP/e2"
[ $? -eq 2 ] && grep -q "v2.json: schema_version 2" "$T_TMP/e2"
ok $? "newer schema: exit 2, file named"
echo '{"jobs": []}' >"$T_TMP/nov.json"
$IOWATT compare "$T_TMP/nov.json" 2>"$T_TMP/e3"
[ $? -eq 2 ] && grep -q "nov.json: not an iowatt result" "$T_TMP/e3"
ok $? "no schema_version: exit 2, file named"
$IOWATT compare --by speed $FILES 2>"$T_TMP/e4"
[ $? -eq 2 ] && grep -q -- "--by 'speed'" "$T_TMP/e4"
ok $? "unknown --by metric is named"
$IOWATT compare --format xml $FILES 2>"$T_TMP/e5"
[ $? -eq 2 ] && grep -q -- "--format 'xml'" "$T_TMP/e5"
ok $? "unknown --format is named"
$IOWATT compare 2>/dev/null
[ $? -eq 2 ]
ok $? "no files: usage error"

# A job run with loops=2 is two rows, each named with its loop, both charted.
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/loops.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
j2 = copy.deepcopy(d["jobs"][0])
j2["loop"] = 2
j2["efficiency"]["iops_per_ma"] = d["jobs"][0]["efficiency"]["iops_per_ma"] / 2
d["jobs"].insert(1, j2)
json.dump(d, open(sys.argv[2], "w"))
PY
name=$(jget "$G/sd-sandisk-ultra.json" 'd["jobs"][0]["jobname"]')
$IOWATT compare "$T_TMP/loops.json" --format csv >"$T_TMP/loops.csv" 2>/dev/null
grep -q ",$name," "$T_TMP/loops.csv" && grep -q ",$name #2," "$T_TMP/loops.csv"
ok $? "each loop of a job is its own row ($name, $name #2)"
$IOWATT compare "$T_TMP/loops.json" >"$T_TMP/loops.txt" 2>/dev/null
grep -q " $name #2 " "$T_TMP/loops.txt" && ! grep -q "#2#2\|#2 #2\|#1" "$T_TMP/loops.txt"
ok $? "the table names the second loop '$name #2' once and the first plainly (no #1)"
if t_emulated; then
	t_skip_charts
else
	$IOWATT plot "$T_TMP/loops.json" --format dumb --chart efficiency -o "$T_TMP/loops-plot" >/dev/null 2>&1
	grep -rq "#2" "$T_TMP/loops-plot" 2>/dev/null
	ok $? "and its own group in the efficiency chart"
fi

# Intervals: two devices 2 % apart with +-5 % intervals cannot be told apart; a third 50 %
# better can. Made from one result with hand-set figures and u95s.
python3 - "$G/nvme-netac.json" "$T_TMP" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
for name, scale in (("a", 1.0), ("b", 1.02), ("c", 1.5)):
    d = json.load(open(src))
    for j in d["jobs"]:
        for e in [j["efficiency"]] + [m["efficiency"] for m in j.get("meters", [])]:
            e["iops_per_ma"] *= scale
            e["iops_per_ma_u95"] = 0.05 * e["iops_per_ma"]
    json.dump(d, open("%s/%s.json" % (out, name), "w"))
PY
$IOWATT compare --label "$T_TMP/a.json=A" --label "$T_TMP/b.json=B" --label "$T_TMP/c.json=C" \
	"$T_TMP/a.json" "$T_TMP/b.json" "$T_TMP/c.json" >"$T_TMP/tie.txt" 2>/dev/null
ok $? "compare three results with intervals"
check "C ranks 1; B 2 % ahead of A with +-5 % intervals: A is indistinguishable from B" -- \
	python3 - "$T_TMP/tie.txt" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if "SEQ1M-Q8T1-read" in l]
got = {r[1]: r[0] for r in rows}
assert got == {"C": "1", "B": "2", "A": "\u22482"}, got
PY
check "the table says what the interval and the mark mean" -- \
	grep -q "indistinguishable at 95 % from the row ranked N" "$T_TMP/tie.txt"
check "the interval column shows +-5 %" -- \
	python3 -c 'import sys; r=[l.split() for l in open(sys.argv[1]) if "SEQ1M-Q8T1-read" in l and " C " in l][0]; i=r.index("+-0.0575") if "+-0.0575" in r else -1; print(r); assert i > 0' "$T_TMP/tie.txt"
$IOWATT compare --format csv "$T_TMP/a.json" "$T_TMP/b.json" >"$T_TMP/tie.csv" 2>/dev/null
check "CSV: indistinguishable_from names the rank, the _u95 column the half width" -- \
	python3 - "$T_TMP/tie.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["job"] == "SEQ1M-Q8T1-read"]
assert sorted(r["indistinguishable_from"] for r in rows) == ["", "1"], rows
for r in rows:
    assert abs(float(r["iops_per_ma_u95"]) - 0.05 * float(r["iops_per_ma"])) < 1e-9, r
PY

$IOWATT compare --format md --label "$T_TMP/a.json=A" --label "$T_TMP/b.json=B" \
	--label "$T_TMP/c.json=C" "$T_TMP/a.json" "$T_TMP/b.json" "$T_TMP/c.json" \
	>"$T_TMP/tie.md" 2>/dev/null
check "markdown: the +-95% column beside the ranking figure, A marked ≈2" -- \
	python3 - "$T_TMP/tie.md" <<'PY'
import sys
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in open(sys.argv[1]) if l.startswith("|")]
h = rows[0]
i = h.index("IOPS/mA")
assert h[i + 1] == "+-95%", h
got = {r[1]: (r[0], float(r[i]), float(r[i + 1].lstrip("+-"))) for r in rows[2:] if r[2] == "SEQ1M-Q8T1-read"}
assert {k: v[0] for k, v in got.items()} == {"C": "1", "B": "2", "A": "\u22482"}, got
for rank, v, u in got.values():
    assert abs(u - 0.05 * v) <= 0.005 * v, (v, u)  # both printed to 3 digits
PY

# The charts draw the same intervals: efficiency bars' error bars and battery bands.
mkdir -p "$T_TMP/tmpe"
TMPDIR=$T_TMP/tmpe $IOWATT plot --keep-data --format dumb --chart efficiency,battery,perf-power \
	"$T_TMP/a.json" "$T_TMP/c.json" >/dev/null 2>"$T_TMP/keep.err"
kept=$(sed -n 's/.*kept in //p' "$T_TMP/keep.err")
check "efficiency.dat: each bar's IOPS/mA interval is the figure -+ its u95" -- \
	python3 - "$kept/efficiency/efficiency.dat" <<'PY'
import shlex, sys
n = 0
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    f = shlex.split(line)
    v, lo, hi = float(f[2]), float(f[12]), float(f[13])
    assert abs(lo - 0.95 * v) < 1e-4 * v and abs(hi - 1.05 * v) < 1e-4 * v, f
    n += 1
assert n > 0
PY
check "battery.dat: a days interval beside each point (unknown here: no idle_w_u95)" -- \
	awk 'NF == 4 && $3 == "NaN" && $4 == "NaN" {ok = 1} END {exit !ok}' "$kept/battery/battery.dat"
check "perf.dat: the points carry their interval columns" -- \
	awk '!/^#/ && NF >= 18 {ok = 1} END {exit !ok}' "$kept/perf-power/perf.dat"

# --- comparable rows (issue 31 item 4): the workload's options must match, size is
# normalised away (warned of only where the page cache holds one size and not the other),
# a size=auto size never; a row of another workload is not ranked, and the table says so.
python3 - "$G" "$T_TMP/alike" <<'PY'
import copy, json, os, sys
g, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
base = json.load(open(os.path.join(g, "sd-sandisk-ultra.json")))
def save(name, edit):
    d = copy.deepcopy(base)
    edit(d)
    json.dump(d, open(os.path.join(out, name), "w"))
def opt(k, v, job=0):
    return lambda d: d["jobs"][job]["options"].__setitem__(k, v)
def auto(size):
    def f(d):
        for j in d["jobs"]:
            j["options"]["size"] = size
            j["size_auto"] = {"requested_s": 30.0, "meter_s": 10.0, "target_s": 30.0,
                              "meter": None, "calibration_s": 1.0, "chose_bytes": size,
                              "reason": "30 s at the calibrated rate"}
    return f
save("ref.json", lambda d: None)
save("bs.json", opt("bs", 65536))
save("big.json", opt("size", 4 << 30))
save("auto1.json", auto(256 << 20))
save("auto2.json", auto(8 << 30))
def cached(size):
    def f(d):
        d["context"]["host"]["memory_bytes"] = 2 << 30
        d["jobs"][0]["options"]["direct"] = 0
        d["jobs"][0]["options"]["size"] = size
    return f
save("small_pc.json", cached(1 << 30))
save("big_pc.json", cached(4 << 30))
PY
A=$T_TMP/alike
$IOWATT compare "$A/ref.json" "$A/bs.json" >"$T_TMP/alike.txt" 2>"$T_TMP/alike.err"
grep -q "job 'SEQ1M-Q8T1-read' ran another workload in .*bs.json than in .*ref.json (bs): its row is not ranked" "$T_TMP/alike.err"
ok $? "a job run with another bs: warned, naming bs"
ranks=$(grep " SEQ1M-Q8T1-read " "$T_TMP/alike.txt" | awk '{print $1}' | tr '\n' ' ')
[ "$ranks" = "1 ≠ " ]
ok $? "and only the first's row is ranked, the other marked ≠ (ranks: $ranks)"
grep -q "^≠: ran another workload" "$T_TMP/alike.txt"
ok $? "the footer says what ≠ means"
ranks=$(grep " SEQ1M-Q8T1-write " "$T_TMP/alike.txt" | awk '{print $1}' | tr '\n' ' ')
[ "$ranks" = "1 2 " ]
ok $? "the jobs that match are ranked as before ($ranks)"
$IOWATT compare "$A/ref.json" "$A/big.json" >"$T_TMP/big.txt" 2>"$T_TMP/big.err"
! grep -q "SEQ1M-Q8T1-read" "$T_TMP/big.err" && [ "$(grep " SEQ1M-Q8T1-read " "$T_TMP/big.txt" | awk '{print $1}' | tr '\n' ' ')" = "1 2 " ]
ok $? "1 GiB and 4 GiB on direct I/O: per-GB figures, no warning, both ranked"
$IOWATT compare "$A/auto1.json" "$A/auto2.json" >/dev/null 2>"$T_TMP/auto.err"
! grep -q "ran \|size" "$T_TMP/auto.err"
ok $? "two size=auto results (256 MiB, 8 GiB): no warning about their sizes"
$IOWATT compare "$A/small_pc.json" "$A/big_pc.json" >"$T_TMP/pc.txt" 2>"$T_TMP/pc.err"
grep -q "job 'SEQ1M-Q8T1-read' in .*small_pc.json and .*big_pc.json: size 1 GiB and 4 GiB through the page cache" "$T_TMP/pc.err"
ok $? "1 GiB and 4 GiB through the page cache of a 2 GiB host: warned, one may read from RAM"

# --- a measured command: undefined figures are -, in the table as in measure's own summary
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/measure.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
j.pop("read", None); j.pop("write", None)
j["command"] = ["sleep", "2"]; j["options"] = {}
d["jobs"] = [j]
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare "$T_TMP/measure.json" >"$T_TMP/measure.txt" 2>/dev/null
grep -qE "  SEQ1M-Q8T1-read +- +- " "$T_TMP/measure.txt"
ok $? "a measure row without I/O figures: MB/s and IOPS are -, not 0.0 and 0"
$IOWATT compare --format csv "$T_TMP/measure.json" 2>/dev/null | python3 -c '
import csv, sys
r = next(csv.DictReader(sys.stdin))
assert r["bw_bytes"] == "" and r["iops"] == "" and r["rw"] == "" and r["bs"] == "", r'
ok $? "and in the CSV empty fields (rw, bs, bw_bytes, iops)"

# --- run --label: the device's name as its user knows it, kept in the result
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/labelled.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["label"] = "SanDisk Ultra 32 GB"
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT compare "$T_TMP/labelled.json" 2>/dev/null | grep -q "  SanDisk Ultra 32 GB  SEQ1M-Q8T1-read "
ok $? "compare shows a result's label as its device"
$IOWATT compare --label "labelled.json=Card A" "$T_TMP/labelled.json" 2>/dev/null | grep -q "  Card A  SEQ1M"
ok $? "compare --label still overrides it"
$IOWATT run --help 2>&1 | grep -q -- "--label"
ok $? "run --help lists --label"

done_testing
