#!/usr/bin/env bash
# The PPK2 emulator at 5, 150 and 1500 uA: the terminal summary, the compare table and the report page's power cells of each (issue 24 s.1).
# usage: bench/units-ppk2.sh [IOWATT] [OUTDIR]; runs about 30 s. Figures are EMULATED.
set -u
IOWATT=${1:-${IOWATT:-./iowatt}}
OUT=${2:-$(mktemp -d)}
BENCH=units-ppk2
. "$(dirname "$0")/lib.sh"
trap 'stop_emu; t_cleanup' EXIT
mkdir -p "$OUT"
for ua in 5 150 1500; do
	link="$OUT/ppk2-$ua"
	ma=$(awk -v u="$ua" 'BEGIN { printf "%.6f", u / 1000 }')
	start_emu_as ppk2 "$link" --constant-ma "$ma" --volts 3.0 --duration 60 || exit 1
	echo "== PPK2 emulator at $ua uA: iowatt measure --meter ppk2:$link,vdd=3000 --idle 1s -- sleep 2"
	"$IOWATT" measure --meter "ppk2:$link,vdd=3000" --idle 1s --idle-samples 2 --tail-hold 0.2s \
		--tail-max 0.5s --json-out "$OUT/ppk2-$ua.json" --force --no-progress -- sleep 2 2>&1 |
		sed -n '/^job /,$p' | grep -v '^[a-z]*: results/\|^result: \|^series: \|^samples: '
	stop_emu
done
echo "== iowatt compare (the three results)"
"$IOWATT" compare "$OUT"/ppk2-{5,150,1500}.json --label "$OUT/ppk2-5.json=5uA" \
	--label "$OUT/ppk2-150.json=150uA" --label "$OUT/ppk2-1500.json=1500uA" 2>/dev/null
"$IOWATT" compare --format csv "$OUT"/ppk2-{5,150,1500}.json 2>/dev/null | head -1 | tr ',' '\n' |
	grep -n "active_\|idle_w" | tr '\n' ' '
echo
"$IOWATT" report "$OUT"/ppk2-{5,150,1500}.json -o "$OUT/page" >/dev/null 2>&1
echo "== report page ($OUT/page/report.html): the comparison table's power cells"
python3 - "$OUT/page/report.html" <<'PY'
import re, sys, html
t = open(sys.argv[1]).read()
m = re.search(r"<table[^>]*>.*?</table>", t, re.S)
for row in re.findall(r"<tr>(.*?)</tr>", m.group(0) if m else "", re.S)[:4]:
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
    print(" | ".join(cells[:9]))
PY
echo "(results in $OUT)"
