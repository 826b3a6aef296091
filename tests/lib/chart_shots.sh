#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Screenshots of the charts and the report page, as a reader sees them, for a before/after
# review: the fixtures of page_fixtures.py (a 30-job sweep, an uncertain, an emulated
# result, four devices x 34 jobs) drawn as PNG, and the report page of the four devices
# shot in headless Chromium at 1280 px.
# Usage: tests/lib/chart_shots.sh IOWATT OUTDIR PREFIX   (PNG files OUTDIR/PREFIX-*.png)
set -u
iowatt=$1 out=$2 pre=$3
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
python3 "$repo/tests/lib/page_fixtures.py" "$repo/tests/data/golden" "$tmp/fx" || exit 1
cd "$tmp" || exit 1
"$iowatt" plot -o mixed fx/sweep.json fx/emulated.json fx/uncertain.json >mixed.log 2>&1
"$iowatt" plot -o fleet fx/fleet/*.json >fleet.log 2>&1
"$iowatt" report -o page fx/fleet/*.json >page.log 2>&1
for f in mixed/*.png; do cp "$f" "$out/$pre-mixed-$(basename "$f")"; done
for f in fleet/efficiency.png fleet/perf-power.png fleet/latency.png fleet/sweep.png; do
	[ -e "$f" ] && cp "$f" "$out/$pre-fleet-$(basename "$f")"
done
for f in "$out/$pre"-*.png; do
	python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%s %dx%d" % ((sys.argv[1].rsplit("/",1)[1],) + struct.unpack(">II", d[16:24])))' "$f"
done
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,900 \
	--screenshot="$out/$pre-page-1280.png" "file://$tmp/page/report.html" >/dev/null 2>&1
# the comparison table: scrolled to it, as a reader at 1280 px meets it
chromium --headless --no-sandbox --disable-gpu --window-size=1280,2400 \
	--screenshot="$out/$pre-page-1280-tall.png" "file://$tmp/page/report.html" >/dev/null 2>&1
grep -h "gnuplot\|warning" mixed.log fleet.log page.log | sort | uniq -c | head -n 20
