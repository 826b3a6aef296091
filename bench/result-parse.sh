#!/usr/bin/env bash
# Reading a stranger's result: wall time and peak RSS of `compare` for every shape a hostile file can take.
#
#   bench/result-parse.sh [-d DIR] [-b BEFORE_IOWATT] [-s "SHAPE ..."]
#
# Writes a golden result grown in one way per SHAPE, each just under the 256 MiB cap, in
# DIR (default /var/tmp, removed at exit), and prints per file the wall time (s), peak
# RSS (MiB, VmHWM from /usr/bin/time -v) and exit status of `iowatt compare FILE`. With -b,
# the same for another build (say the commit before) side by side, with the ratios
# before/after. Shapes (default: all):
#   pad       131 M zeros in an array under an unknown key (262 MB)
#   members   23 M unknown top-level members "HEX": 0 (253 MB)
#   context   5 M unknown keys inside context (about 75 MB)
#   newlines  250 M line breaks between two members (250 MB)
#   string    a 250 MB string under a key iowatt reads (jobs[0].error)
#   numbers   1.9 M zeros under a key iowatt reads (jobs[0].events), under the value bound
#   objects   470 k small objects under it, under the value bound
#   options   1.9 M keys in a job's options (an object without a key table)
#   longkey   a 250 MB key in a job's options
# Target (docs/results.md): every shape read or refused within about 100 MiB of peak RSS.
set -eu
cd "$(dirname "$0")/.."
DIR=/var/tmp
BEFORE=
SHAPES="pad members context newlines string numbers objects options longkey"
while getopts "d:b:s:h" o; do
	case $o in
	d) DIR=$OPTARG ;;
	b) BEFORE=$OPTARG ;;
	s) SHAPES=$OPTARG ;;
	*) sed -n '2,21p' "$0"; exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
[ -x "$IOWATT" ] || { echo "result-parse: $IOWATT not built (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "result-parse: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

WORK=$(mktemp -d "$DIR/iowatt-parse.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# grow SHAPE OUT: the golden result with SHAPE written into it in 1 MiB pieces.
grow() {
	python3 - tests/data/golden/sd-sandisk-ultra.json "$1" "$2" <<'PY'
import json, sys
src, shape, out = sys.argv[1:4]
doc = json.load(open(src))
doc["files"] = {}
M = 1 << 20

def keys(f, fmt, n):
    """fmt % i for i < n, written a batch at a time."""
    for start in range(0, n, 1 << 17):
        f.write("".join(fmt % i for i in range(start, min(n, start + (1 << 17)))))

def repeat(f, piece, n, sep=","):
    chunk = (piece + sep) * (M // (len(piece) + len(sep)) or 1)
    per = chunk.count(sep)
    while n > 0:
        k = min(n, per)
        f.write(chunk[: k * (len(piece) + len(sep))])
        n -= k

with open(out, "w") as f:
    if shape in ("numbers", "objects", "options", "longkey", "string", "context"):
        job = doc["jobs"][0]
        marker = "@@GROW@@"
        if shape == "context":
            doc["context"] = marker
        elif shape == "numbers":
            job["events"] = marker
        elif shape == "objects":
            job["events"] = marker
        elif shape == "string":
            job["error"] = marker
        else:
            job["options"] = marker
        head, tail = json.dumps(doc).split('"' + marker + '"')
        f.write(head)
        if shape == "numbers":
            f.write("[0,")
            repeat(f, "0", 1900000 - 2)
            f.write("0]")
        elif shape == "objects":
            f.write("[")
            repeat(f, '{"kind":"x"}', 470000 - 1)
            f.write('{"kind":"x"}]')
        elif shape == "string":
            f.write('"')
            repeat(f, "x" * 1023, 250 * 1024, sep="y")
            f.write('"')
        elif shape == "context":
            f.write("{")
            keys(f, '"c%07d":0,', 5000000 - 1)
            f.write('"c":0}')
        elif shape == "options":
            f.write("{")
            keys(f, '"k%d":0,', 1900000 - 1)
            f.write('"last":0}')
        else:
            f.write('{"')
            repeat(f, "k" * 1023, 250 * 1024, sep="y")
            f.write('":0}')
        f.write(tail)
    else:
        text = json.dumps(doc)
        f.write(text[:-1])
        if shape == "pad":
            f.write(', "padding": [0,')
            repeat(f, "0", 131000000 - 2)
            f.write("0]")
        elif shape == "members":
            f.write(",")
            keys(f, '"%x":0,', 23000000 - 1)
            f.write('"k":0')
        elif shape == "newlines":
            f.write(",")
            left = 250 * M
            while left > 0:
                f.write("\n" * min(left, M))
                left -= M
            f.write('"after": 0')
        f.write("}\n")
PY
}

# run BINARY FILE: "wall_s rss_mib exit"
run() {
	local rc=0
	/usr/bin/time -v "$1" compare "$2" >/dev/null 2>"$WORK/time.txt" || rc=$?
	awk -v rc=$rc '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0;
			for (i = 1; i <= n; i++) s = s * 60 + t[i] }
		/Maximum resident set size/ { kb = $NF }
		END { printf "%.2f %.0f %d\n", s, kb / 1024, rc }' "$WORK/time.txt"
}

printf "%-9s %7s | %7s %8s %4s" shape MiB wall_s rss_MiB rc
[ -n "$BEFORE" ] && printf " | %8s %10s %4s | %8s %7s" before_s before_MiB rc "time b/a" "rss b/a"
echo
for shape in $SHAPES; do
	f=$WORK/$shape.json
	grow "$shape" "$f"
	mib=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
	read -r ws wr wrc < <(run "$IOWATT" "$f")
	printf "%-9s %7s | %7s %8s %4s" "$shape" "$mib" "$ws" "$wr" "$wrc"
	if [ -n "$BEFORE" ]; then
		read -r bs br brc < <(run "$BEFORE" "$f")
		printf " | %8s %10s %4s | %8.1f %7.1f" "$bs" "$br" "$brc" \
			"$(awk -v a="$ws" -v b="$bs" 'BEGIN { print (a > 0 ? b / a : 0) }')" \
			"$(awk -v a="$wr" -v b="$br" 'BEGIN { print (a > 0 ? b / a : 0) }')"
	fi
	echo
	rm -f "$f"
done
