#!/usr/bin/env bash
# Units a sleep current is read in (issue 24.1): the PPK2 emulator at 5, 150 and 1500 uA through the summary, compare, CSV and the page.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# run_at UA: a short measure of `sleep 1` with the PPK2 emulator drawing UA at 3 V.
run_at() {
	local ua=$1 ma
	ma=$(awk -v u="$ua" 'BEGIN { printf "%.6f", u / 1000 }')
	start_emu ppk2 "$T/p$ua" --constant-ma "$ma" --volts 3.0 --duration 60
	ok $? "PPK2 emulator up at $ua uA"
	timeout 60 "$IOWATT" measure --meter "ppk2:$T/p$ua,vdd=3000" --idle 1s --idle-samples 2 \
		--tail-hold 0.2s --tail-max 0.5s --json-out "$T/p$ua.json" --no-progress "${@:2}" \
		-- sleep 1 >"$T/p$ua.run" 2>&1
	ok $? "measure at $ua uA exits 0"
	stop_emu
}

# power_cells FILE ANCHOR: the two columns after the head ANCHOR (W and current), head then
# each row's cells; cells and heads are right-aligned, so a cell ends where its head does.
power_cells() {
	python3 - "$1" "$2" <<'PY'
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
hi = next(i for i, l in enumerate(lines) if sys.argv[2] in l)
head = lines[hi]
at = head.index(sys.argv[2]) + len(sys.argv[2])
w_head, a_head = head[at:].split()[:2]
w_end = head.index(w_head, at) + len(w_head)
a_end = head.index(a_head, w_end) + len(a_head)
print(w_head, a_head)
def cell(l, end):  # the token ending nearest the head's end (a wide figure may overflow)
    return min(re.finditer(r"\S+", l), key=lambda m: abs(m.end() - end)).group(0)
for l in lines[hi + 1:]:
    cells = [cell(l, w_end), cell(l, a_end)] if l.strip() else []
    if not cells or not all(re.fullmatch(r"-?[0-9.]+|-", c) for c in cells):
        break
    print(*cells)
PY
}
summary_cells() { power_cells "$1" "p99 lat" | tr '\n' ' ' | sed 's/ $//'; }
table_cells() { power_cells "$1" "p99 lat ms"; }

run_at 5
run_at 150
run_at 1500
for ua in 5 150 1500; do
	echo "# $ua uA: $(summary_cells "$T/p$ua.run")"
	[ -n "$(summary_cells "$T/p$ua.run")" ] || sed 's/^/#   /' "$T/p$ua.run" | tail -8
done
# The emulator's ADC steps are 43 nA on its lowest range: 3 significant digits of a
# 5 uA current are 4.9x..5.0x; its mean is the current within 1 %.
summary_cells "$T/p5.run" | grep -Eq "^µW µA [0-9]{2}\.[0-9] [45]\.[0-9]{3}$"
ok $? "5 uA: the summary says µA and µW, 4 significant digits of the current (5.0xx), not 0.005 mA"
summary_cells "$T/p150.run" | grep -Eq "^µW µA [0-9]{3} 1[45][0-9]\.[0-9]$"
ok $? "150 uA: µA with 4 digits (15x.x), W as 3 digits of µW (450)"
summary_cells "$T/p1500.run" | grep -Eq "^mW mA [0-9]\.[0-9]{2} 1\.[45][0-9]{2}$"
ok $? "1500 uA: mA (1.5xx) and mW (4.50): the unit follows the figure"
grep -q "sleep loop 1: - is undefined, not hidden: IOPS/mA: no I/O counted; J/GB: no bytes moved" "$T/p5.run"
ok $? "a - in IOPS/mA and J/GB says why (no I/O), not hidden"
python3 - "$T/p5.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["power"]
print("# result: active_ma %r, active_w %r" % (p["active_ma"], p["active_w"]))
sys.exit(0 if 0.0045 < p["active_ma"] < 0.0055 and 1e-5 < p["active_w"] < 2e-5 else 1)
PY
ok $? "the result keeps its own units: active_ma 0.005 (mA), active_w 1.5e-05 (W)"

# --units fixes a unit whatever the figure; a wrong one is refused naming the option.
start_emu ppk2 "$T/pf" --constant-ma 0.150 --volts 3.0 --duration 60
timeout 60 "$IOWATT" measure --meter "ppk2:$T/pf,vdd=3000" --idle 1s --idle-samples 2 \
	--tail-hold 0.2s --tail-max 0.5s --json-out "$T/pf.json" --no-progress --units mA,W \
	-- sleep 1 >"$T/pf.run" 2>&1
stop_emu
echo "# --units mA,W: $(summary_cells "$T/pf.run")"
summary_cells "$T/pf.run" | grep -Eq "^W mA 0\.000[0-9]{3} 0\.1[45][0-9]{2}$"
ok $? "--units mA,W: 150 uA in mA (0.15xx), 450 uW in W, same digits"
"$IOWATT" measure --no-meter --units volts=mV -- true >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "units" "$T/err" && grep -q "unknown quantity 'volts'" "$T/err"
ok $? "--units volts=mV is refused with exit 2, naming the option and why"
sed 's/^/#   /' "$T/err" | head -2

# compare: one unit per column from its rows; the CSV's key names it and its numbers are in it.
# head_cells FILE: the table's head and the rows' W and current cells, as "head: mW mA".
"$IOWATT" compare "$T/p5.json" "$T/p150.json" >"$T/c2.txt" 2>/dev/null
"$IOWATT" compare "$T/p5.json" "$T/p150.json" "$T/p1500.json" >"$T/c3.txt" 2>/dev/null
sed 's/^/# /' "$T/c3.txt" | head -4
table_cells "$T/c2.txt" | head -1 | grep -qx "µW µA"
ok $? "compare of 5 and 150 uA: µW and µA columns"
table_cells "$T/c3.txt" | tr '\n' ' ' | sed 's/ $//' >"$T/c3.cells"
echo "# compare of all three: $(cat "$T/c3.cells")"
grep -Eq "^mW mA 0\.01[45][0-9] 0\.00[45][0-9]{2} 0\.4[45][0-9] 0\.1[45][0-9] 4\.[45][0-9] 1\.[45][0-9]$" "$T/c3.cells"
ok $? "compare of 5, 150 and 1500 uA: one unit per column (mW, mA), 3 significant digits in every row"
"$IOWATT" compare --format csv "$T/p5.json" "$T/p150.json" >"$T/c2.csv" 2>/dev/null
python3 - "$T/c2.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = rows[0].keys()
print("# CSV keys: %s; active_ua %s" % ([k for k in keys if k.startswith(("active_", "idle_")) and not k.endswith("_u95")],
                                      [r.get("active_ua") for r in rows]))
ok = ("active_ua" in keys and "active_uw" in keys and "active_ma" not in keys and
      4.5 < float(rows[0]["active_ua"]) < 5.5 and 140 < float(rows[1]["active_ua"]) < 160)
sys.exit(0 if ok else 1)
PY
ok $? "compare --format csv: the header says active_ua and active_uw, the numbers are in them"
"$IOWATT" compare --format md "$T/p5.json" "$T/p150.json" 2>/dev/null | head -1 | grep -q "| µW *| µA *|"
ok $? "compare --format md: the heads are the table's, in the chosen units"
"$IOWATT" compare --units mA "$T/p5.json" "$T/p150.json" >"$T/cu.txt" 2>/dev/null
table_cells "$T/cu.txt" | tr '\n' ' ' | grep -Eq "^µW mA 15\.[0-9] 0\.00[45][0-9]{2} 4[45][0-9] 0\.1[45][0-9] $"
ok $? "compare --units mA: the column in mA, 3 digits kept"

# The report page: the comparison table's heads and cells as compare's.
"$IOWATT" report "$T/p5.json" "$T/p150.json" "$T/p1500.json" -o "$T/page" >/dev/null 2>&1
python3 - "$T/page/report.html" <<'PY'
import html, re, sys
t = open(sys.argv[1]).read()
tab = re.search(r"<table[^>]*>.*?</table>", t, re.S).group(0)
rows = [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)]
        for r in re.findall(r"<tr>(.*?)</tr>", tab, re.S)]
i = rows[0].index("IOPS/mA")
cells = [(r[i - 2], r[i - 1]) for r in rows]
print("# page: %s" % cells)
ok = (cells[0] == ("mW", "mA") and re.fullmatch(r"0\.00[45]\d\d", cells[1][1]) and
      re.fullmatch(r"1\.[45]\d", cells[3][1]))
sys.exit(0 if ok else 1)
PY
ok $? "report page: the comparison's mW and mA columns with 3 digits at 5 uA (0.00502) and 1500 uA"

# The page's job tables (one per result): each power column's unit from its figures, or the
# one --units fixes; the meters table's period in the unit it calls for (a PPK2's 10 us).
"$IOWATT" report --units mA,W "$T/p5.json" "$T/p150.json" "$T/p1500.json" -o "$T/pagefix" >/dev/null 2>&1
# jobs_cells PAGE: per result the heads and the cells of the job row's power columns
jobs_cells() {
	python3 - "$1" <<'PY'
import html, re, sys
t = open(sys.argv[1]).read()
sec = re.search(r'<section id="jobs">(.*?)</section>', t, re.S).group(1)
cell = lambda c: html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
for tab in re.findall(r"<table.*?</table>", sec, re.S):
    rows = [[cell(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)]
            for r in re.findall(r"<tr>(.*?)</tr>", tab, re.S)]
    i = rows[0].index("coverage") + 1
    print(" ".join(rows[0][i:i + 5]), "|", " ".join(rows[1][i:i + 5]))
meters = re.search(r'<section id="meters">(.*?)</section>', t, re.S).group(1)
print("period", cell(re.findall(r"<td[^>]*>(.*?)</td>", meters, re.S)[3]))
PY
}
jobs_cells "$T/page/report.html" >"$T/jobs.cells"
sed 's/^/# page job table: /' "$T/jobs.cells"
python3 - "$T/jobs.cells" <<'PY'
import re, sys
l = open(sys.argv[1]).read().splitlines()
pat = [r"µW µA peak µA idle µW nAh \| 1[45]\.\d [45]\.\d\d [45]\.\d\d 1[45]\.\d [\d.]+",
       r"µW µA peak µA idle µW nAh \| 4[45]\d 1[45]\d 1[45]\d 4[45]\d [\d.]+",
       r"mW mA peak mA idle mW [nµ]Ah \| 4\.[45]\d 1\.[45]\d 1\.[45]\d 4\.[45]\d [\d.]+",
       r"period 10 us"]
sys.exit(0 if len(l) == 4 and all(re.fullmatch(p, x) for p, x in zip(pat, l)) else 1)
PY
ok $? "report page: each result's job table in µA/µW at 5 and 150 uA, mA/mW at 1500 uA, 3 digits; the PPK2's period 10 us (was 0 ms)"
jobs_cells "$T/pagefix/report.html" | head -1 | sed 's/^/# report --units mA,W: /'
jobs_cells "$T/pagefix/report.html" | head -1 |
	grep -Eq "^W mA peak mA idle W nAh \| 0\.00001[45][0-9] 0\.00[45][0-9][0-9] 0\.00[45][0-9][0-9] 0\.00001[45][0-9] [0-9.]+$"
ok $? "report --units mA,W: the job table's columns in the fixed units, 3 digits kept"

# probe --csv keeps the meter's resolution: 5 uA with its nA digits, not 0.0000050 (%.7f).
start_emu ppk2 "$T/pc" --constant-ma 0.005 --volts 3.0 --duration 60
timeout 30 "$IOWATT" probe --meter "ppk2:$T/pc,vdd=3000" --seconds 1 --csv "$T/pc.csv" >"$T/pc.out" 2>&1
timeout 30 "$IOWATT" probe --meter "ppk2:$T/pc,vdd=3000" --seconds 1 --units mA,W >"$T/pu.out" 2>&1
stop_emu
python3 - "$T/pc.csv" <<'PY'
import csv, sys
a = [r["a"] for r in csv.DictReader(open(sys.argv[1]))]
print("# probe --csv: %d samples, a = %s ..." % (len(a), a[:2]))
sys.exit(0 if a and all(4e-6 < float(x) < 6e-6 and len(x.replace("e-06", "").strip("0.")) >= 4 for x in a[:100]) else 1)
PY
ok $? "probe --csv at 5 uA: amps with at least 4 significant digits (nA steps kept)"
# probe's per-second line: the unit from the figure (was 0.0 mA, 0.0000 W, 0.0000 mWh).
grep " S/s " "$T/pc.out" | head -1 | sed 's/^/# probe: /'
grep " S/s " "$T/pc.out" | head -1 | grep -Eq " [45]\.[0-9]{3} µA +1[45]\.[0-9]{2} µW +[0-9.]+ nWh "
ok $? "probe at 5 uA: its line reads 5.0xx µA, 15.xx µW and the running energy in nWh"
grep -q "^probe: [0-9]* samples, [0-9.]* nWh," "$T/pc.out"
ok $? "probe's totals line: the energy in nWh too"
grep " S/s " "$T/pu.out" | head -1 | sed 's/^/# probe --units mA,W: /'
grep " S/s " "$T/pu.out" | head -1 | grep -Eq " 0\.00[45][0-9]{3} mA +0\.00001[45][0-9]{2} W "
ok $? "probe --units mA,W: the fixed units, 4 significant digits kept (0.0050xx mA)"

done_testing
