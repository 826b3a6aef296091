#!/usr/bin/env bash
# Reading a stranger's padded result: wall time and peak RSS of `compare` against its size.
#
#   bench/result-parse.sh [-d DIR] [-b BEFORE_IOWATT]
#
# Writes a golden result padded under a key iowatt does not know with 16 M and 131 M zeros
# (32 MB and 262 MB, under the 256 MiB cap) in DIR (default /var/tmp, removed at exit) and
# prints, per file, the wall time (s) and peak RSS (MiB, VmHWM from /usr/bin/time -v) of
# `iowatt compare FILE` and the RSS as a multiple of the file. With -b, the same for
# another build (say the commit before) side by side, with the ratios before/after.
# Target: peak RSS that of a plain result (the file is read in pieces and jansson builds
# only what the key tables know, at most RESULT_MAX_VALUES values), whatever the padding.
set -eu
cd "$(dirname "$0")/.."
DIR=/var/tmp
BEFORE=
while getopts "d:b:h" o; do
	case $o in
	d) DIR=$OPTARG ;;
	b) BEFORE=$OPTARG ;;
	*) sed -n '2,12p' "$0"; exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
[ -x "$IOWATT" ] || { echo "result-parse: $IOWATT not built (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "result-parse: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

WORK=$(mktemp -d "$DIR/iowatt-parse.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# pad ZEROS OUT: the golden result with "padding": [0, 0, ...] written in 1 MiB pieces.
pad() {
	python3 - tests/data/golden/sd-sandisk-ultra.json "$1" "$2" <<'PY'
import json, sys
src, zeros, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
doc = json.load(open(src))
doc["files"] = {}
text = json.dumps(doc)
with open(out, "w") as f:
    f.write(text[:-1] + ', "padding": [0')
    chunk = ",0" * (1 << 19)
    left = zeros - 1
    while left > 0:
        n = min(left, 1 << 19)
        f.write(chunk[:2 * n])
        left -= n
    f.write("]}\n")
PY
}

# run BINARY FILE: "wall_s rss_mib exit"
run() {
	/usr/bin/time -v "$1" compare "$2" >/dev/null 2>"$WORK/time.txt"
	local rc=$?
	awk -v rc=$rc '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0;
			for (i = 1; i <= n; i++) s = s * 60 + t[i] }
		/Maximum resident set size/ { kb = $NF }
		END { printf "%.2f %.0f %d\n", s, kb / 1024, rc }' "$WORK/time.txt"
}

printf "%-8s %9s | %8s %9s %7s %4s" file MiB wall_s rss_MiB rss/file rc
[ -n "$BEFORE" ] && printf " | %8s %9s %7s %4s | %9s %8s" before_s before_MiB rss/file rc \
	"time b/a" "rss b/a"
echo
for zeros in 16000000 131000000; do
	f=$WORK/padded-$zeros.json
	pad "$zeros" "$f"
	mib=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
	read -r ws wr wrc < <(run "$IOWATT" "$f")
	printf "%-8s %9s | %8s %9s %7.2f %4s" "$((zeros / 1000000))M" "$mib" "$ws" "$wr" \
		"$(awk -v r="$wr" -v m="$mib" 'BEGIN { print r / m }')" "$wrc"
	if [ -n "$BEFORE" ]; then
		read -r bs br brc < <(run "$BEFORE" "$f")
		printf " | %8s %9s %7.2f %4s | %9.1f %8.1f" "$bs" "$br" \
			"$(awk -v r="$br" -v m="$mib" 'BEGIN { print r / m }')" "$brc" \
			"$(awk -v a="$ws" -v b="$bs" 'BEGIN { print (a > 0 ? b / a : 0) }')" \
			"$(awk -v a="$wr" -v b="$br" 'BEGIN { print (a > 0 ? b / a : 0) }')"
	fi
	echo
	rm -f "$f"
done
