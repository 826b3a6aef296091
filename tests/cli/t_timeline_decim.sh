#!/usr/bin/env bash
# The timeline of a fast meter: its 1 ms bins cut to the chart's 1400 columns, each drawn by
# its min and max, so a spike shorter than a bin (planted in one bin's w_max, as a PPK2
# capture records one) still reaches its height; the power.dat rows stay bounded.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"
t_charts_or_skip_all
t_need_gnuplot

start_emu ppk2 "$T/ppk" --constant-ma 12 --truth "$T/truth.csv" --duration 60
ok $? "ppk2 emulator up"
timeout 60 "$IOWATT" measure --meter "ppk2:$T/ppk,vdd=3300" --idle 1s --idle-samples 2 \
	--tail-hold 0.5s --tail-max 1s --json-out "$T/r.json" -- sleep 3 >"$T/run.out" 2>&1
ok $? "measure with the PPK2 emulator exits 0"
stop_emu

# One bin in the middle of the active phase gets a 5 mW..2 W spread: its mean stays.
python3 - "$T/r.json" "$T/r.samples.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
ph = d["jobs"][0]["phases"]["active"]
mid = (ph["t_start_ns"] + ph["t_end_ns"]) // 2
rows = list(csv.reader(open(sys.argv[2])))
hdr, body = rows[0], rows[1:]
i = min(range(len(body)), key=lambda k: abs(int(body[k][0]) - mid))
body[i][hdr.index("w_max")] = "2.0"
body[i][hdr.index("w_min")] = "0.005"
w = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
w.writerow(hdr)
w.writerows(body)
print("# %d rows, spike planted at %.4f s" % (len(body), (int(body[i][0]) - d["t0_ns"]) / 1e9))
PY
rows=$(($(wc -l <"$T/r.samples.csv") - 1))
[ "$rows" -gt 2800 ]
ok $? "the run has more bins ($rows) than twice the chart's columns"

TMPDIR=$T "$IOWATT" plot --keep-data --format dumb --chart timeline -o "$T/pl" "$T/r.json" \
	>/dev/null 2>"$T/plot.err"
ok $? "plot timeline exits 0"
kept=$(sed -n 's/.*kept in //p' "$T/plot.err")
pd=$(ls "$kept"/timeline-*/power.dat 2>/dev/null | head -1)
[ -s "$pd" ]
ok $? "power.dat kept"
n=$(grep -c '^[0-9]' "$pd")
[ "$n" -le 2800 ] && [ "$n" -ge 1400 ]
ok $? "power.dat holds $n rows: at most 2 per column of 1400, down from $rows"
awk '$2 >= 1.99 && $2 <= 2.01 { hi = 1 } $2 >= 0.0049 && $2 <= 0.0051 { lo = 1 }
	END { exit !(hi && lo) }' "$pd"
ok $? "the bin's 2 W spike and its 5 mW dip are both drawn, though its mean is 40 mW"
awk '/^[0-9]/ { if (seen && $1 < prev) bad = 1; prev = $1; seen = 1 } END { exit bad }' "$pd"
ok $? "times never go back (each column's min and max in their order)"

done_testing
