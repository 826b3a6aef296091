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
grep -E " SEQ1M-Q8T1-write " compare.txt | grep "SanDisk SC64G" | grep -q " UNCERTAIN "
ok $? "compare's table: the uncertain job's valid column says UNCERTAIN, not yes"
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
grep -q '<td class="unc">valid, UNCERTAIN: j_per_gb +-12.0 % (INA219 resolution 1 mW at 60 mW mean)</td>' "$html"
ok $? "page: the uncertain job's verdict is the run summary's (UNCERTAIN, +-12 %, what dominates), not plain valid"
grep -q '<td class="unc">UNCERTAIN</td>' "$html"
ok $? "page: the comparison table marks the uncertain row"
grep -q '<td class="ok">valid (EMULATED)</td>' "$html" && grep -q '<td class="bad">INVALID: ' "$html"
ok $? "page: emulated and invalid verdicts as the terminal prints them"
while read -r want; do
	grep -qF "<li class=\"warning\">warning: $want" "$html" || { echo "# missing: $want"; false; } || break
done <<'EOF'
job &#39;SEQ1M-Q8T1-read&#39; ran with different options in fx/uncertain.json and fx/bigger.json (size): its rows are not comparable
results were metered with different meters (ina219 in fx/uncertain.json, um25c in fx/bigger.json)
fx/emulated.json: power figures come from an EMULATED meter, not a measurement
EOF
ok $? "page: compare's warnings are listed, 'not comparable (size)' among them"
grep -c "^iowatt: warning: compare: " <($IOWATT compare fx/uncertain.json fx/bigger.json fx/emulated.json \
	"$G/usbssd-samsung-t7.json" 2>&1 >/dev/null) >nwarn
[ "$(cat nwarn)" -ge 3 ] && [ "$(grep -c '<li class="warning">' "$html")" -eq "$(cat nwarn)" ]
ok $? "page: as many warnings as compare prints ($(cat nwarn))"
grep -q '<th>size</th>' "$html" && grep -q '<td class="num">4 GiB</td>' "$html" &&
	grep -q '<td class="num">1 GiB</td>' "$html"
ok $? "page: the job tables give each job's size (1 GiB, the resized 4 GiB)"
[ "$(grep -o '<div class="wide"><table class="grid' "$html" | wc -l)" -eq 5 ]
ok $? "page: the comparison and each job table scroll in their own box (no column cut off)"

# --- compare --matrix: invalid and uncertain cells marked, in text, markdown and CSV
$IOWATT compare --matrix --by j_per_gb fx/sweep.json >matrix.txt 2>/dev/null
ok $? "compare --matrix --by j_per_gb of a 30-job sweep"
sed 's/^/# /' matrix.txt
grep -qE "^16 KiB +9\.40! " matrix.txt && grep -qE "^64 KiB +22\.6 +22\.6 +20\.6\? " matrix.txt
ok $? "matrix: the invalid 9.4 J/GB is marked '!', the uncertain cell '?'"
grep -q "^! 16 KiB write: INVALID: undervoltage during the job$" matrix.txt &&
	grep -q "^? 64 KiB read: valid, UNCERTAIN: j_per_gb +-9.0 % (INA219 offset)$" matrix.txt
ok $? "matrix: each marked cell explained under the table"
[ "$(grep -cE '[0-9][!?]' matrix.txt)" -eq 2 ]
ok $? "matrix: no other cell marked"
$IOWATT compare --matrix --format md --by j_per_gb fx/sweep.json 2>/dev/null | grep -qE "^\| 16 KiB +\| +9\.40! \|"
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

done_testing
