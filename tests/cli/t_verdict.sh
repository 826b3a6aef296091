#!/usr/bin/env bash
# One verdict vocabulary (issue 31 item 3): compare's table, markdown and CSV, the report
# page and the run's terminal show a word and its cause in a few words (never cut without
# "..."), and the whole text where there is room for it: a note under the table, the page's
# reasons column. Results made from a golden one: a job UNCERTAIN from a disturbed idle
# (its U95 small), one INVALID with too few samples, one whose reason no table knows.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1

python3 - tests/data/golden/sd-sandisk-ultra.json "$T_TMP/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
idle = ("idle baseline: no quiet reading in 12.0 s (the target did I/O throughout): its "
        "level is over all 151 readings; largest term: UM25C gain 0.11 % of reading")
j = d["jobs"]
j[0]["validity"].update(uncertain=True, uncertainty={"figure": "j_per_gb", "u95_rel": 0.0013,
                        "limit": 0.05, "dominant": idle})
j[1]["validity"].update(valid=False, reasons=[
    "active phase has 6 samples (< 20): at 2 Hz a job needs >= 10 s; try --size 256M"])
j[2]["validity"].update(valid=False, reasons=[
    "a reason no table of short causes knows, long enough that a narrow cell must cut "
    "it somewhere in its middle words"])
d["label"] = "SanDisk Ultra 32 GB"
json.dump(d, open(sys.argv[2], "w"))
PY
ok $? "results with an UNCERTAIN and two INVALID jobs made"

# --- compare: the verdict cell, its note, markdown and CSV
$IOWATT compare "$T_TMP/v.json" >"$T_TMP/t.txt" 2>"$T_TMP/t.err"
ok $? "compare prints the table"
grep -E "SEQ1M-Q8T1-read .* UNCERTAIN: idle not quiet " "$T_TMP/t.txt" >/dev/null
ok $? "the UNCERTAIN row says why in a few words: idle not quiet"
grep -E "SEQ1M-Q8T1-write .* INVALID: 6 samples < 20 " "$T_TMP/t.txt" >/dev/null
ok $? "the INVALID row: 6 samples < 20"
grep -E "RND4K-Q32T1-read .* INVALID: a reason no table .*\.\.\. " "$T_TMP/t.txt" >/dev/null
ok $? "a reason no table knows is cut at a word with an ellipsis"
cell=$(grep -oE "INVALID: a reason no table [^.]*\.\.\." "$T_TMP/t.txt")
[ -n "$cell" ] && [ ${#cell} -le 72 ]
ok $? "and stays short (${#cell} characters: $cell)"
grep -qF "SEQ1M-Q8T1-read: UNCERTAIN: j_per_gb +-0.13 % (limit 5 %): idle baseline: no quiet reading in 12.0 s (the target did I/O throughout): its level is over all 151 readings" "$T_TMP/t.txt"
ok $? "the whole text is a note under the table, the interval and the limit with it"
grep -qF "SEQ1M-Q8T1-write: INVALID: active phase has 6 samples (< 20): at 2 Hz a job needs >= 10 s; try --size 256M" "$T_TMP/t.txt"
ok $? "the INVALID row's whole reason too"
head -1 "$T_TMP/t.txt" | grep -qw verdict
ok $? "the column is called verdict"
$IOWATT compare --format md "$T_TMP/v.json" >"$T_TMP/t.md" 2>/dev/null
grep -q "| UNCERTAIN: idle not quiet " "$T_TMP/t.md" && grep -q "^- .*SEQ1M-Q8T1-read: UNCERTAIN: j_per_gb" "$T_TMP/t.md"
ok $? "markdown: the short verdict in the cell, the whole text as a list under the table"
$IOWATT compare --format csv "$T_TMP/v.json" >"$T_TMP/t.csv" 2>/dev/null
python3 - "$T_TMP/t.csv" <<'PY'
import csv, sys
rows = {r["job"]: r for r in csv.DictReader(open(sys.argv[1]))}
r = rows["SEQ1M-Q8T1-read"]
assert r["uncertain"] == "true", r["uncertain"]
assert "no quiet reading" in r["reasons"] and "+-0.13 %" in r["reasons"], r["reasons"]
assert rows["SEQ1M-Q8T1-write"]["reasons"].endswith("try --size 256M"), rows["SEQ1M-Q8T1-write"]["reasons"]
PY
ok $? "CSV: the reasons column holds the whole text, the UNCERTAIN one's too"

# --- the report page's jobs table: the verdict short, the prose in reasons
mkdir -p "$T_TMP/page"
$IOWATT report -o "$T_TMP/page" "$T_TMP/v.json" >"$T_TMP/page.log" 2>&1
page=$T_TMP/page/report.html
[ -s "$page" ]
ok $? "report writes the page"
python3 - "$page" <<'PY'
import html, re, sys
s = open(sys.argv[1]).read()
sec = s[s.index('<section id="jobs">'):]
sec = sec[:sec.index("</section>")]
heads = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", sec)]
rows = re.findall(r"<tr><td>(.*?)</tr>", sec, re.S)
def cells(r):
    return [html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", "<td>" + r, re.S)]
bad = 0
for r in rows:
    c = dict(zip(heads, cells(r)))
    if len(c["verdict"]) > 72:
        print("# verdict cell of %s is %d characters: %s" % (c["job"], len(c["verdict"]), c["verdict"])); bad = 1
    if c["job"] == "SEQ1M-Q8T1-read":
        if c["verdict"] != "UNCERTAIN: idle not quiet":
            print("# verdict: %r" % c["verdict"]); bad = 1
        if "no quiet reading" not in c["reasons"]:
            print("# reasons: %r" % c["reasons"]); bad = 1
    if c["job"] == "SEQ1M-Q8T1-write" and (c["verdict"] != "INVALID: 6 samples < 20" or "try --size 256M" not in c["reasons"]):
        print("# %r %r" % (c["verdict"], c["reasons"])); bad = 1
sys.exit(bad)
PY
ok $? "the page's jobs table: a short verdict, the whole text in reasons"
python3 - "$page" <<'PY'
import html, re, sys
s = open(sys.argv[1]).read()
# the comparison table's verdict cell of the UNCERTAIN row says why
sys.exit(0 if re.search(r"UNCERTAIN: idle not quiet", s[:s.index('<section id="jobs">')]) else 1)
PY
ok $? "the page's comparison table says why the row is UNCERTAIN"
grep -q "<h3>SanDisk Ultra 32 GB <small>" "$page" && grep -q "<td>SanDisk Ultra 32 GB</td>" "$page"
ok $? "the page names the device by the result's label (run --label)"

# --- the run's terminal: a word and a cause in the row, the whole text under the table
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 200 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
timeout 60 "$IOWATT" measure --label "Card under test" --meter "um25c:$T_TMP/um,interval=100ms" --idle 1s \
	--idle-samples 5 --tail-hold 0.5s --tail-max 3s --no-progress \
	--json-out "$T_TMP/short.json" -- sleep 0.3 >"$T_TMP/short.out" 2>&1
n=$(jget "$T_TMP/short.json" 'd["jobs"][0]["validity"]["samples_active"]')
grep -E "^sleep .* INVALID: $n samples < 20$" "$T_TMP/short.out" >/dev/null
ok $? "the terminal's row ends with INVALID: $n samples < 20"
grep -qF "sleep loop 1: INVALID: active phase has $n samples (< 20)" "$T_TMP/short.out" &&
	grep -q "meter a command that runs longer" "$T_TMP/short.out"
ok $? "and the whole reason, remedy included, is under the table"
[ "$(jget "$T_TMP/short.json" 'd.get("label")')" = "Card under test" ] &&
	"$IOWATT" compare "$T_TMP/short.json" 2>/dev/null | grep -q "  Card under test  sleep "
ok $? "run --label is kept in the result as label, and compare names the device by it"
done_testing
