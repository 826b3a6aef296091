#!/usr/bin/env bash
# The battery chart with plot --sleep-from: its lines are what size computes, its currents panel has the µA sleep beside the mA idle and writes, its caption the sleep figure's source.
. "$(dirname "$0")/../lib/lib.sh"
t_charts_or_skip_all
cd "$REPO" || exit 1
G=tests/data/golden
SD=$G/sd-sandisk-ultra.json
NV=$G/nvme-netac.json
SLEEP=tests/data/sleep/ppk2-sleep-5ua.json
mkdir -p "$T_TMP/keep"

TMPDIR=$T_TMP/keep $IOWATT plot --chart battery --keep-data -o "$T_TMP/png" --sleep-from "$SLEEP" \
	--mix-emulated $SD $NV >/dev/null 2>"$T_TMP/plot.err"
ok $? "plot --chart battery --sleep-from --mix-emulated"
D=$(sed -n 's/.*chart data and gnuplot meta files kept in \(.*\)$/\1/p' "$T_TMP/plot.err")/battery
[ -s "$T_TMP/png/battery.png" ] && [ -s "$D/currents.dat" ]
ok $? "the chart is drawn and its data kept ($D)"

# The first point of each line is size's answer for --write 1MiB/day with the same sleep.
for f in $SD $NV; do
	$IOWATT size --battery 3000mAh@3.7V --write 1MiB/day --sleep-from "$SLEEP" --mix-emulated "$f" \
		>"$T_TMP/size.out" 2>&1
	want=$(awk '/^  life/ { print $2; exit }' "$T_TMP/size.out")
	label=$(grep -F "  [$f]" "$T_TMP/size.out" | sed 's/  \[.*//')
	got=$(awk -v l="# $label:" 'index($0, l) == 1 { getline; printf "%.2f", $2; exit }' "$D/battery.dat")
	[ -n "$got" ] && [ "$got" = "$want" ]
	ok $? "$label: the line starts at $got days, size --write 1MiB/day --sleep-from says $want"
done

# The currents panel: the sleep bar is the sleep run's current, the others each device's
# idle (idle_w / active_v) and write current (active_ma), labelled in their own units.
python3 - "$D/currents.dat" "$SLEEP" "$SD" "$NV" <<'PY'
import json, shlex, sys
rows = [shlex.split(l) for l in open(sys.argv[1]) if not l.startswith("#")]
sleep = json.load(open(sys.argv[2]))["jobs"][0]["power"]["active_ma"] / 1e3
want = [(sleep, "µA")]
for f in sys.argv[3:]:
    j = next(j for j in json.load(open(f))["jobs"] if j["jobname"] == "SEQ1M-Q8T1-write")
    want += [(j["power"]["idle_w"] / j["power"]["active_v"], "mA"), (j["power"]["active_ma"] / 1e3, "mA")]
got = sorted((float(r[1]), r[2]) for r in rows)
want.sort()
print("# bars:", [r[2] for r in rows])
assert len(got) == len(want), (got, want)
for (g, label), (w, unit) in zip(got, want):
    assert abs(g - w) <= 1e-5 * w, (g, w)  # %.6g in the data file
    assert label.endswith(" " + unit), (label, unit)
    v = float(label.split()[0]) * {"µA": 1e-6, "mA": 1e-3}[unit]
    assert abs(v - w) <= 0.005 * w, (label, w)
PY
ok $? "currents panel: 5 µA asleep, each device's idle and write current in mA, as the results say"
grep -q "^HAVE_SLEEP = 1$" "$D/meta.gp" && grep -q "^CYLO = 1e-6$" "$D/meta.gp" &&
	grep -q "^CTL\[1\] = '1 µA'$" "$D/meta.gp"
ok $? "its log axis starts at the sleep's decade, 1 µA, labelled in µA"
grep -q "^SLEEP = 'asleep between bursts: 5.02 µA = 16.6 µW, $SLEEP, job '.APOS.'sleep'.APOS.', active phase: [0-9.]* s, [0-9]* samples every 10.0 µs (EMULATED)'$" "$D/meta.gp"
ok $? "the caption names the sleep figure's file, job, phase, extent and that it is emulated"

# Without --mix-emulated the emulated sleep is not drawn with measured results.
$IOWATT plot --chart battery -o "$T_TMP/no" --sleep-from "$SLEEP" $SD >/dev/null 2>"$T_TMP/no.err"
[ $? -eq 2 ] && grep -q "ppk2-sleep-5ua.json is EMULATED, $SD is measured" "$T_TMP/no.err" && [ ! -e "$T_TMP/no/battery.png" ]
ok $? "plot refuses the mix, naming both files, and draws nothing"

# No sleep figure: the panel has idle and writing only.
TMPDIR=$T_TMP/keep $IOWATT plot --chart battery --keep-data -o "$T_TMP/png2" $SD >/dev/null 2>"$T_TMP/plot2.err"
D2=$(sed -n 's/.*chart data and gnuplot meta files kept in \(.*\)$/\1/p' "$T_TMP/plot2.err")/battery
grep -q "^HAVE_SLEEP = 0$" "$D2/meta.gp" && grep -q '^SLEEP = ""$' "$D2/meta.gp" && [ "$(grep -vc '^#' "$D2/currents.dat")" -eq 2 ]
ok $? "without --sleep-from: no sleep bar, no caption, idle and write bars"

# report draws the same chart.
$IOWATT report -o "$T_TMP/page" --sleep-from "$SLEEP" --mix-emulated $SD >/dev/null 2>"$T_TMP/rep.err"
t_report_written $? "$T_TMP/rep.err" "$T_TMP/page" && grep -q "asleep between bursts: 5.02 µA" "$T_TMP/page/report.html"
ok $? "report --sleep-from: the page's battery chart has the sleep caption"

done_testing
