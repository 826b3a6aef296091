#!/usr/bin/env bash
# Total latency (issue 31.2): every engine records lat_ns (from before the submit call, as
# fio's lat) beside clat_ns; the summary, compare and the latency chart call only that
# "lat", and show an older result's clat labelled clat. lat >= clat holds per I/O whatever
# the machine's load, and a direct 4 KiB write through a syscall takes more than 1 us.
. "$(dirname "$0")/../lib/lib.sh"

GOLD=$(cd "$(dirname "$0")/../data/golden" && pwd)

# lat_check JSON: "ok" when the write direction has lat_ns and clat_ns p50/p99 with
# lat >= clat, else what is wrong.
lat_check() {
	python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["jobs"][0]["write"]
lat, clat = w.get("lat_ns", {}).get("percentile", {}), w["clat_ns"]["percentile"]
bad = [p for p in ("50.000000", "99.000000") if p not in lat or p not in clat or lat[p] < clat[p]]
print("ok" if not bad else "lat %s clat %s" % (lat, clat))' "$1"
}

# p50_cell OUT: the summary's first job row's p50 cell ("103 us"), after MB/s and IOPS.
p50_cell() {
	awk '$3 == "ok" { print $6, $7; exit }' "$1"
}

skip_n() { # N REASON
	local i
	for ((i = 0; i < $1; i++)); do skip "$2"; done
}

dd if=/dev/zero of="$T_TMP/probe" bs=4k count=1 oflag=direct status=none 2>/dev/null
direct=$?
for eng in psync libaio io_uring; do
	if ! "$IOWATT" run --help 2>&1 | grep -q "$eng"; then
		skip_n 4 "$eng: not built in"
		continue
	fi
	if [ $direct -ne 0 ]; then
		skip_n 4 "$T_TMP: no O_DIRECT"
		continue
	fi
	"$IOWATT" run --no-meter --no-progress --force --target "$T_TMP/f" --rw randwrite \
		--bs 4k --iodepth 1 --size 2M --direct 1 --ioengine "$eng" \
		--json-out "$T_TMP/$eng.json" >"$T_TMP/$eng.out" 2>&1
	ok $? "$eng: a QD1 4 KiB direct randwrite runs"
	r=$(lat_check "$T_TMP/$eng.json")
	ok "$([ "$r" = ok ]; echo $?)" "$eng: the result has lat_ns percentiles, p50/p99 >= clat's ($r)"
	ok "$(grep -q 'p50 lat   p99 lat' "$T_TMP/$eng.out" && grep -q 'lat: total latency' "$T_TMP/$eng.out"; echo $?)" \
		"$eng: the summary's columns are total latency"
	cell=$(p50_cell "$T_TMP/$eng.out")
	ok "$(case $cell in *" us" | *" ms" | *" s") echo 0 ;; *) echo 1 ;; esac)" \
		"$eng: the summary's p50 lat of a device I/O is at least 1 us ($cell)"
done

# An older result (the golden ones have no lat_ns): its clat is shown as clat, never as lat.
"$IOWATT" compare "$GOLD/sd-sandisk-ultra.json" >"$T_TMP/old.txt" 2>&1
ok $? "compare loads a result written before lat_ns"
ok "$(head -1 "$T_TMP/old.txt" | grep -q 'p99 clat ms'; echo $?)" "its p99 is in a 'p99 clat ms' column"
ok "$(awk -v c="$(head -1 "$T_TMP/old.txt" | awk '{ print index($0, "p99 lat ms") }')" \
	'/^ *[0-9]+  / && c > 0 { cell = substr($0, c, 10); gsub(/ /, "", cell); if (cell != "-") bad = 1 }
	 END { exit bad }' "$T_TMP/old.txt"; echo $?)" "its 'p99 lat ms' cells are '-'"
"$IOWATT" compare --format csv "$GOLD/sd-sandisk-ultra.json" "$T_TMP/libaio.json" \
	>"$T_TMP/both.csv" 2>/dev/null
ok "$(python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
old = [r for r in rows if r["file"].endswith("sd-sandisk-ultra.json")]
new = [r for r in rows if r["file"].endswith("libaio.json")]
sys.exit(0 if old and new and all(r["lat_p99_ns"] in ("", "-") and r["clat_p99_ns"] not in ("", "-") for r in old)
         and all(r["lat_p99_ns"] not in ("", "-") for r in new) else 1)' "$T_TMP/both.csv" 2>&1; echo $?)" \
	"csv: lat_p99_ns only for the new result, clat_p99_ns for the old one"

# The latency chart's title says which latency it draws.
if command -v gnuplot >/dev/null && [ -s "$T_TMP/libaio.json" ]; then
	"$IOWATT" plot --format dumb --chart latency -o "$T_TMP/new" "$T_TMP/libaio.json" 2>/dev/null
	ok "$(grep -q 'Total latency, submit to completion' "$T_TMP/new/latency.txt"; echo $?)" \
		"latency chart of a new result: total latency"
	"$IOWATT" plot --format dumb --chart latency -o "$T_TMP/old" "$GOLD/sd-sandisk-ultra.json" 2>/dev/null
	ok "$(grep -q 'Completion latency (clat' "$T_TMP/old/latency.txt" &&
		! grep -q 'Total latency' "$T_TMP/old/latency.txt"; echo $?)" \
		"latency chart of an older result: clat, never total"
else
	skip_n 2 "no gnuplot or no libaio result"
fi

done_testing
