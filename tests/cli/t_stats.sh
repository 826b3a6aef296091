#!/usr/bin/env bash
# iowatt stats on a PPK2 emulator run: a phase against the result's own figures, a window
# inside a plateau and one over a spike against the emulator's truth, and the refusals.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# 12 mA with 300 mA plateaus; the run's phases land wherever they do, the truth says when.
start_emu ppk2 "$T/ppk" --step "0:12,2.0:12,2.5:300,2.52:12,3.0:300,3.3:12,3.5:300,3.52:12" \
	--truth "$T/truth.csv" --duration 60
ok $? "ppk2 emulator up"
timeout 60 "$IOWATT" measure --meter "ppk2:$T/ppk,vdd=3300" --idle 1s --idle-samples 2 \
	--tail-hold 0.5s --tail-max 1s --json-out "$T/r.json" -- sleep 3 >"$T/run.out" 2>&1
ok $? "measure with the PPK2 emulator exits 0"
stop_emu

"$IOWATT" stats "$T/r.json" --phase active >"$T/active.txt" 2>&1
ok $? "stats --phase active exits 0"
sed 's/^/#   /' "$T/active.txt"


python3 - "$T/r.json" "$T/active.txt" <<'PY'
import json, re, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["power"]
t = open(sys.argv[2]).read()
avg = float(re.search(r"current\s+avg (\S+) mA", t).group(1))
chg = float(re.search(r"charge\s+(\S+) uAh", t).group(1))
en = float(re.search(r"energy\s+(\S+) mJ", t).group(1))
mx = float(re.search(r"current.*max (\S+) mA", t).group(1))
bad = []
for name, got, want in (("avg mA", avg, p["active_ma"]), ("uAh", chg, p["charge_mah"] * 1e3),
                        ("mJ", en, p["energy_active_j"] * 1e3)):
    err = abs(got - want) / want
    print("# %s: stats %.6g, result %.6g (%.3f %%)" % (name, got, want, err * 100))
    if err > 0.002:
        bad.append(name)
if abs(mx - p["peak_ma"]) > 0.01:
    bad.append("max")
sys.exit(1 if bad else 0)
PY
ok $? "the active phase's average, charge and energy within 0.2 % of the result's (every sample integrated), max = peak_ma"

# A window well inside the long 300 mA plateau (0.3 s), found in the emulator's truth, in
# the run's seconds: the truth's t_ns against the result's t0.
read -r from to < <(python3 - "$T/r.json" "$T/truth.csv" <<'PY'
import csv, json, sys
t0 = json.load(open(sys.argv[1]))["t0_ns"]
ups = [(int(r["t_ns"]), float(r["a"])) for r in csv.DictReader(open(sys.argv[2]))
       if r["kind"] == "update"]
start = None
for (t, a), (t1, _) in zip(ups, ups[1:] + [(ups[-1][0], 0)]):
    if a > 0.25 and start is None:
        start = t
    if a < 0.25 and start is not None:
        if t - start > 0.25e9:
            break
        start = None
print("%.4f %.4f" % ((start + 0.05e9 - t0) / 1e9, (t - 0.05e9 - t0) / 1e9))
PY
)
"$IOWATT" stats "$T/r.json" --from "$from" --to "$to" >"$T/plateau.txt" 2>&1
ok $? "stats --from $from --to $to exits 0"
sed 's/^/#   /' "$T/plateau.txt"
python3 - "$T/plateau.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"current\s+avg (\S+) mA\s+min (\S+) mA\s+max (\S+) mA", t)
avg, lo, hi = (float(x) for x in m.groups())
sys.exit(0 if abs(avg - 300) < 1.5 and abs(lo - 300) < 1.5 and abs(hi - 300) < 1.5 else 1)
PY
ok $? "inside the plateau: average, min and max are 300 mA (within 0.5 %)"

"$IOWATT" stats "$T/r.json" --from 0.5 >"$T/all.txt" 2>&1 &&
	grep -Eq "max (299\.9|300)" "$T/all.txt" && grep -Eq "min (11\.99|12)" "$T/all.txt"
ok $? "from 0.5 s to the end: min 12 mA, max 300 mA"

"$IOWATT" stats "$T/r.json" --from 2 --phase active >/dev/null 2>"$T/err1"
[ $? -eq 2 ] && grep -q "one or the other" "$T/err1"
ok $? "--from with --phase is refused (exit 2)"
"$IOWATT" stats "$T/r.json" --job nosuch >/dev/null 2>"$T/err2"
[ $? -ne 0 ] && grep -q "no job 'nosuch'" "$T/err2"
ok $? "an unknown job is named"
"$IOWATT" stats "$T/r.json" --from 3 --to 2 >/dev/null 2>"$T/err3"
[ $? -ne 0 ] && grep -q "later than --from" "$T/err3"
ok $? "--to before --from is refused"

# with_samples NAME HEADER ROW...: the run's result as NAME.json with NAME.samples.csv
# holding the given rows, each with "T+<ns>" for its time from the run's t0.
with_samples() {
	python3 - "$T/r.json" "$T" "$@" <<'PY'
import json, sys
src, d_, name, header, rows = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
d = json.load(open(src))
d.setdefault("files", {})["samples"] = name + ".samples.csv"
json.dump(d, open(f"{d_}/{name}.json", "w"))
with open(f"{d_}/{name}.samples.csv", "w") as f:
    f.write(header + "\n")
    for r in rows:
        t, rest = r.split(",", 1)
        f.write("%d,%s\n" % (d["t0_ns"] + int(t[2:]), rest))
PY
}

# A window between two readings (a row a second, 100 then 300 mA): its average is their
# interpolation, and it has no min or max to give (it printed inf and -inf).
with_samples sparse "t_ns,meter,v,a,w,flags" "T+0,0,5.0,0.100,0.500," "T+1000000000,0,5.0,0.100,0.500," \
	"T+2000000000,0,5.0,0.300,1.500," "T+3000000000,0,5.0,0.300,1.500,"
"$IOWATT" stats "$T/sparse.json" --from 1.25 --to 1.75 >"$T/between.txt" 2>&1 &&
	grep -Eq "current +avg 200 mA +min - +max -" "$T/between.txt" && ! grep -q "inf" "$T/between.txt"
ok $? "a window between two readings: avg 200 mA interpolated, min and max '-' ($(grep current "$T/between.txt"))"

# Binned rows without a power column (a bin of 10 readings: 4.9-5.1 V, 100-300 mA): the
# power's min and max are the products of the voltage and current extremes, which need not
# be one reading's, so they are printed as bounds; a row per reading gives them exact.
bin_row=",0,5.0,0.2,,,10,4.9,5.1,0.1,0.3,,"
with_samples binned "t_ns,meter,v,a,w,flags,n,v_min,v_max,a_min,a_max,w_min,w_max" \
	"T+0$bin_row" "T+100000000$bin_row" "T+200000000$bin_row" "T+300000000$bin_row"
"$IOWATT" stats "$T/binned.json" >"$T/binned.txt" 2>&1 &&
	grep -Eq "power +avg 1000 mW +min >= 490 mW +max <= 1530 mW \(bounds" "$T/binned.txt" &&
	grep -Eq "current +avg 200 mA +min 100 mA +max 300 mA" "$T/binned.txt" &&
	"$IOWATT" stats "$T/sparse.json" >"$T/raw.txt" 2>&1 &&
	grep -Eq "power +avg [0-9.]+ mW +min 500 mW +max 1500 mW$" "$T/raw.txt"
ok $? "bins without W: power min/max printed as bounds; readings: exact ($(grep power "$T/binned.txt"))"

done_testing
