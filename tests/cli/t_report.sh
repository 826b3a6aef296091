#!/usr/bin/env bash
# iowatt report: one self-contained HTML page, checked in headless Chromium (every chart and
# table there, no console error, no request, no script) and against hostile result strings.
. "$(dirname "$0")/../lib/lib.sh"
G=$REPO/tests/data/golden
FILES="$G/sd-sandisk-ultra.json $G/usbstick-sandisk-ultra.json $G/usbssd-samsung-t7.json $G/nvme-netac.json"

t_need_gnuplot

# Under qemu-user the chart checks skip (tests/lib/lib.sh), and Chromium's GPU and zygote
# processes do not start (it aborts, "GPU process isn't usable"), so it runs them in its
# own process, and answers slower.
EMU=0
if t_emulated; then
	EMU=1
	export CHROMIUM_FLAGS="--in-process-gpu --no-zygote" REPORT_CHECK_TIMEOUT=300
fi

# jq-like look-ups in report_check.py's JSON: val FILE EXPR (python on `d`).
val() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# --- the page
mkdir -p "$T_TMP/tmp"
TMPDIR=$T_TMP/tmp $IOWATT report -o "$T_TMP/out" $FILES >"$T_TMP/out.log" 2>&1
t_report_written $? "$T_TMP/out.log" "$T_TMP/out"
ok $? "report writes a page from four results"
page=$T_TMP/out/report.html
[ -s "$page" ] && [ "$(ls -A "$T_TMP/out")" = "report.html" ] && [ -z "$(ls -A "$T_TMP/tmp")" ]
ok $? "one file, report.html, and no temporary directory left behind"
grep -q "http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'" "$page"
ok $? "a content security policy forbids scripts and requests"
! grep -qiE '<script|<link|<iframe|<img|<object|@import|src=' "$page"
ok $? "no script, stylesheet link, frame, image or object to load"
! grep -oE "url\([^#)][^)]*\)" "$page" | grep -q . && ! grep -oE "href=['\"][^#'\"][^'\"]*" "$page" | grep -q .
ok $? "every url() and href points inside the page"
sizek=$(( $(stat -c %s "$page") / 1024 ))
echo "# report.html: $sizek KiB"

# --- in Chromium
if ! command -v chromium >/dev/null; then
	skip "chromium not installed (tests/deps.sh installs it): page not rendered"
	done_testing
	exit
fi
check "the page loads in headless Chromium and is captured" -- \
	sh -c "python3 '$REPO/tests/lib/report_check.py' '$page' '$T_TMP/page.png' '$T_TMP/udd' >'$T_TMP/page.json'"
j=$T_TMP/page.json
if [ $EMU -eq 1 ]; then
	t_skip_charts 2
else
	[ "$(val "$j" 'd["figures"]')" = 8 ] && [ "$(val "$j" 'd["svgs_drawn"]')" = 8 ]
	ok $? "eight charts drawn as inline SVG (efficiency, perf-power, latency, battery, 4 timelines)"
	val "$j" '"\n".join(d["chart_titles"])' >"$T_TMP/titles.txt"
	grep -q "Storage efficiency per job" "$T_TMP/titles.txt" && grep -q "Timeline: Netac NVMe SSD 128GB" "$T_TMP/titles.txt"
	ok $? "the charts' own text is in the page (titles searchable)"
fi
[ "$(val "$j" 'd["compare_rows"]')" = 16 ] && [ "$(val "$j" 'd["job_rows"]')" = 16 ]
ok $? "comparison table and job tables: a row per device and job (16 each)"
[ "$(val "$j" 'd["device_cards"]')" = 4 ] && [ "$(val "$j" 'd["meter_rows"]')" = 4 ]
ok $? "a card per device, a row per meter"
[ "$(val "$j" '",".join(d["sections"])')" = "compare,charts,devices,meters,jobs,methods" ]
ok $? "every section: comparison, charts, devices, meters, jobs, methods"
[ "$(val "$j" 'len(d["console"]) + len(d["exceptions"]) + len(d["log"]) + d["scripts"]')" = 0 ]
ok $? "no console message, exception, log entry (CSP refusal) or script"
val "$j" '"\n".join(d["console"] + d["exceptions"] + d["log"])' | grep . | sed 's/^/#   /' | head -n 5
[ "$(val "$j" 'len([u for u in d["requests"] if not u.endswith("/report.html")])')" = 0 ]
ok $? "no request but the page itself"
val "$j" 'd["body_text"]' >"$T_TMP/body.txt"
grep -q "5.0 GT/s PCIe x1" "$T_TMP/body.txt" && grep -q "5000 Mbit/s" "$T_TMP/body.txt" &&
	grep -q "mount options" "$T_TMP/body.txt"
ok $? "device context: PCIe link, USB speed, filesystem"
grep -q "INVALID" "$T_TMP/body.txt" && grep -q "undervoltage" "$T_TMP/body.txt"
ok $? "job validity and its reason (the T7's undervoltage)"
grep -q "INA226 on i2c-1@0x45" "$T_TMP/body.txt"
ok $? "the meters by model and port"
n=0
missing=""
while IFS= read -r h; do
	n=$((n + 1))
	grep -qF "$h" "$T_TMP/body.txt" || missing="$missing [$h]"
done < <(sed -n 's/^#\{1,3\} //p' "$REPO/docs/energy.md" | tr -d '`')
[ "$n" -ge 4 ] && [ -z "$missing" ]
ok $? "methods: every heading of docs/energy.md is on the page ($n)${missing:+, missing$missing}"
[ "$(val "$j" 'd["methods_tables"]')" -ge 2 ] || ! grep -q "define HAVE_CMARK" "$REPO/${O:-build}/config.h"
ok $? "methods: the docs' tables are tables (cmark-gfm)"
[ -s "$T_TMP/page.png" ] && [ "$(head -c 8 "$T_TMP/page.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
ok $? "a full-page screenshot was taken (PNG)"

# --- at 800 px: the page does not scroll sideways, and the charts' text stays readable (a
# chart narrower than its readable width scrolls in its own figure instead of shrinking)
if [ $EMU -eq 1 ]; then
	t_skip_charts 2
else
	REPORT_WIDTH=800 python3 "$REPO/tests/lib/report_check.py" "$page" "$T_TMP/page800.png" "$T_TMP/udd800" >"$T_TMP/page800.json"
	[ "$(val "$T_TMP/page800.json" 'd["scroll_width"]')" -le 800 ] && [ "$(val "$T_TMP/page800.json" 'd["svgs_drawn"]')" = 8 ]
	ok $? "800 px: eight charts drawn, the page $(val "$T_TMP/page800.json" 'd["scroll_width"]') px wide (no sideways scroll)"
	[ "$(val "$T_TMP/page800.json" 'int(d["chart_font_px_min"] >= 6.5)')" = 1 ] &&
		[ "$(val "$j" 'int(d["chart_font_px_min"] >= 7)')" = 1 ]
	ok $? "the charts' 9 pt labels at least 6.5 px at 800 px ($(val "$T_TMP/page800.json" '"%.1f" % d["chart_font_px_min"]')) and 7 px at 1280"
fi

# --- EMULATED and MANUAL meters are labelled
python3 - "$G/usbstick-sandisk-ultra.json" "$T_TMP/emu.json" "$G/sd-sandisk-ultra.json" "$T_TMP/man.json" <<'PY'
import json, os, shutil, sys
for src, dst, key in ((sys.argv[1], sys.argv[2], "emulated"), (sys.argv[3], sys.argv[4], "manual")):
    d = json.load(open(src))
    # A result reads only CSVs beside it: they are copied there.
    for v in d["files"].values():
        shutil.copy(os.path.join(os.path.dirname(src), v), os.path.dirname(dst))
    for m in d["meters"]:
        m[key] = True
    if key == "emulated":
        d["emulated"] = True
    json.dump(d, open(dst, "w"))
PY
$IOWATT report -o "$T_TMP/labels" "$T_TMP/emu.json" "$T_TMP/man.json" 2>"$T_TMP/labels.log"
t_report_written $? "$T_TMP/labels.log" "$T_TMP/labels"
ok $? "a page of an emulated and a manual meter"
python3 "$REPO/tests/lib/report_check.py" "$T_TMP/labels/report.html" "$T_TMP/labels.png" "$T_TMP/udd2" >"$T_TMP/labels.json"
val "$T_TMP/labels.json" 'd["body_text"]' >"$T_TMP/labels.txt"
[ "$(val "$T_TMP/labels.json" '",".join(sorted(set(d["badges"])))')" = "EMULATED,MANUAL" ] &&
	grep -q "power figures from an EMULATED meter" "$T_TMP/labels.txt"
ok $? "the meters carry EMULATED and MANUAL badges, and the page says so at the top"

# --- hostile strings in every field the page prints
python3 - "$G/usbssd-samsung-t7.json" "$T_TMP/hostile.json" <<'PY'
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
H = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&amp;</td></table>"
d = json.load(open(src))
# A result reads only CSVs beside it: they are copied there.
for v in d["files"].values():
    shutil.copy(os.path.join(os.path.dirname(src), v), os.path.dirname(dst))
d["command"] = d["profile"] = H
dev = d["context"]["device"]
dev["model"] = dev["vendor"] = H
dev["usb"]["speed"] = dev["usb"]["product"] = H
d["context"]["filesystem"]["mount_options"] = d["context"]["filesystem"]["type"] = H
d["context"]["host"]["hostname"] = d["context"]["host"]["kernel"] = H
for m in d["meters"]:
    m["spec"] = "um25c:" + H
    m["model"] = H
for j in d["jobs"]:
    j["jobname"] = H + j["jobname"]
    j["validity"]["reasons"] = [H]
    j["status"] = "failed"
    j["error"] = H
    for e in j["events"]:
        e["text"] = H
json.dump(d, open(dst, "w"))
PY
$IOWATT report -o "$T_TMP/hostile" "$T_TMP/hostile.json" >/dev/null 2>"$T_TMP/hostile.log"
t_report_written $? "$T_TMP/hostile.log" "$T_TMP/hostile"
ok $? "a page of a result whose every string is markup"
python3 "$REPO/tests/lib/report_check.py" "$T_TMP/hostile/report.html" "$T_TMP/hostile.png" "$T_TMP/udd3" >"$T_TMP/hostile.out"
hj=$T_TMP/hostile.out
[ "$(val "$hj" 'd["scripts"] + len(d["console"]) + len(d["exceptions"]) + len(d["log"])')" = 0 ] &&
	[ "$(val "$hj" 'len([u for u in d["requests"] if not u.endswith("/report.html")])')" = 0 ]
ok $? "no script element, console message, log entry or request came of it"
n=$(val "$hj" 'd["body_text"].count("<script>alert(1)</script><img src=x onerror=alert(2)>")')
[ "$n" -ge 10 ]
ok $? "the strings are shown as text ($n times), not parsed as markup"
if [ $EMU -eq 1 ]; then
	t_skip_charts
else
	[ "$(val "$hj" 'd["figures"]')" -ge 4 ] && [ "$(val "$hj" 'd["svgs_drawn"]')" = "$(val "$hj" 'd["figures"]')" ]
	ok $? "the charts of hostile labels are still inlined and drawn"
fi

# --- --redact: a page to publish carries no paths, scratch directories or host name
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP/private.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["command"] = "iowatt run quick --target /home/alice/scratch --meter um25c:/home/alice/dev/um,interval=100ms"
d["context"]["host"]["hostname"] = "alice-laptop"
d["context"]["target"]["path"] = "/home/alice/scratch/iowatt-1.tmp"
d["meters"][0]["spec"] = "um25c:/home/alice/dev/um,interval=100ms"
json.dump(d, open(sys.argv[2], "w"))
PY
$IOWATT report -o "$T_TMP/open" "$T_TMP/private.json" >/dev/null 2>&1
$IOWATT report -o "$T_TMP/redacted" --redact "$T_TMP/private.json" >/dev/null 2>"$T_TMP/redact.log"
rc=$?
grep -q "/home/alice" "$T_TMP/open/report.html" && grep -q "alice-laptop" "$T_TMP/open/report.html"
ok $? "without --redact the page shows the paths and the host name, as the result has them"
[ $rc -eq 0 ] && ! grep -q "/home/alice" "$T_TMP/redacted/report.html" &&
	! grep -q "alice-laptop" "$T_TMP/redacted/report.html" &&
	grep -q -- "--target scratch --meter um25c:um,interval=100ms" "$T_TMP/redacted/report.html" &&
	grep -q "iowatt-1.tmp" "$T_TMP/redacted/report.html"
ok $? "with --redact: no /home/alice, no host name; paths cut to their last parts (rc=$rc)"
grep -q "alice-laptop" "$T_TMP/private.json"
ok $? "the result file is left as it was"

# Paths with spaces and quotes: the user's folder "Alice Smith" must not survive in any
# form, whether the command is shell-quoted (as run records it) or unquoted (results from
# before); each path is cut to its last part, whole.
python3 - "$G/sd-sandisk-ultra.json" "$T_TMP" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
home = "/home/Alice Smith/it's \"my\" disk"
d["context"]["target"]["path"] = home + "/scratch (2)/iowatt-1.tmp"
d["meters"][0]["spec"] = "um25c:/home/Alice Smith/dev/my um,interval=100ms"
d["command"] = ("iowatt run quick --target " + home + "/scratch (2) --meter um25c:/home/Alice Smith/"
                "dev/my um,interval=100ms")
json.dump(d, open(sys.argv[2] + "/spaces-old.json", "w"))
d["command"] = ("iowatt run quick --target '/home/Alice Smith/it'\\''s \"my\" disk/scratch (2)' "
                "--meter 'um25c:/home/Alice Smith/dev/my um,interval=100ms'")
json.dump(d, open(sys.argv[2] + "/spaces-quoted.json", "w"))
PY
for kind in old quoted; do
	$IOWATT report -o "$T_TMP/sp-$kind" --redact "$T_TMP/spaces-$kind.json" >/dev/null 2>&1
	rc=$?
	python3 - "$T_TMP/sp-$kind/report.html" "$kind" <<'PY'
import html, re, sys
raw = open(sys.argv[1]).read()
page = html.unescape(raw)
leaks = [w for w in ("Alice", "Smith", "/home", "\"my\" disk") if w in page]
assert not leaks, leaks
rows = {k: html.unescape(v) for k, v in re.findall(r"<tr><th>([^<]*)</th><td>([^<]*)</td></tr>", raw)}
want = {"old": "iowatt run quick --target scratch (2) --meter um25c:my um,interval=100ms",
        "quoted": "iowatt run quick --target 'scratch (2)' --meter 'um25c:my um,interval=100ms'"}
assert rows["command"] == want[sys.argv[2]], rows["command"]
assert rows["target"] == "iowatt-1.tmp", rows["target"]
assert "um25c:my um,interval=100ms</code>" in raw, "the meter's spec"
PY
	ok $? "--redact, $kind command: paths with spaces and quotes cut whole, no 'Alice Smith' (rc=$rc)"
done

# --- bad inputs
$IOWATT report $FILES 2>"$T_TMP/e1"
[ $? -eq 2 ] && grep -q -- "-o DIR is required" "$T_TMP/e1"
ok $? "no -o: exit 2, says what is missing"
$IOWATT report -o "$T_TMP/x" --by nonsense $FILES 2>"$T_TMP/e2"
[ $? -eq 2 ] && grep -q -- "--by 'nonsense'" "$T_TMP/e2" && [ ! -e "$T_TMP/x/report.html" ]
ok $? "an unknown --by: exit 2 before anything is written"
$IOWATT report -o "$T_TMP/x" "$T_TMP/missing.json" 2>"$T_TMP/e3"
[ $? -eq 2 ] && grep -q "missing.json" "$T_TMP/e3"
ok $? "a missing result: exit 2, named"

done_testing
