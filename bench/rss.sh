#!/usr/bin/env bash
# Peak RSS of iowatt for a 1 GiB and a 4 GiB job: memory must not grow with the job's size.
#
#   bench/rss.sh [-d DIR] [-e ENGINE]
#
# Runs 4k randread QD32 and 1M sequential write QD8 at both sizes on a scratch file in DIR
# (default /var/tmp, O_DIRECT capable; preallocated, removed at exit) and prints the peak
# RSS (VmHWM, from /usr/bin/time -v) of each run. Targets: <= 8 MiB for the whole process,
# and the 4 GiB run within 1 MiB of the 1 GiB run. ENGINE (default: iowatt's default, the
# best one built) is the ioengine of the runs.
set -eu
cd "$(dirname "$0")/.."
DIR=/var/tmp
ENGINE=
while getopts "d:e:h" o; do
	case $o in
	d) DIR=$OPTARG ;;
	e) ENGINE=$OPTARG ;;
	*) sed -n '2,10p' "$0"; exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
[ -x "$IOWATT" ] || { echo "rss: $IOWATT not built (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "rss: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

WORK=$(mktemp -d "$DIR/iowatt-rss.XXXXXX")
FILE=$WORK/file
trap 'rm -rf "$WORK"' EXIT
fallocate -l 4G "$FILE"

DRIVER=iowatt
if ! "$IOWATT" run --help >/dev/null 2>&1; then
	DRIVER=test_bench
	make -s build/tests/test_bench >/dev/null
	echo "note: 'iowatt run' is not in this build: the engine runs through build/tests/test_bench --bench"
fi

peak_kib() { # rw bs iodepth size
	local force=
	case $1 in *write*|randrw) force=--force ;; esac
	if [ $DRIVER = iowatt ]; then
		rm -f "$WORK"/r.*
		/usr/bin/time -v "$IOWATT" run --no-meter --no-progress -q $force --target "$FILE" \
			--rw "$1" --bs "$2" --iodepth "$3" --size "$4" ${ENGINE:+--ioengine "$ENGINE"} \
			--json-out "$WORK/r.json" >"$WORK/out" 2>&1 || { cat "$WORK/out" >&2; return 1; }
	else
		/usr/bin/time -v build/tests/test_bench --bench "$FILE" "$1" "$2" "$3" "$4" $ENGINE \
			>"$WORK/out" 2>&1 || { cat "$WORK/out" >&2; return 1; }
	fi
	sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/out"
}

FAILS=0
echo "peak RSS of iowatt (via $DRIVER, ioengine ${ENGINE:-default}), KiB"
printf '  %-22s %10s %10s %8s\n' job "1 GiB" "4 GiB" verdict
for spec in "randread 4k 32" "write 1M 8"; do
	set -- $spec
	a=$(peak_kib "$1" "$2" "$3" 1G)
	b=$(peak_kib "$1" "$2" "$3" 4G)
	if [ "$a" -le 8192 ] && [ "$b" -le 8192 ] && [ $((b - a)) -le 1024 ] && [ $((a - b)) -le 1024 ]; then
		v=meets
	else
		v=MISSES
		FAILS=$((FAILS + 1))
	fi
	printf '  %-22s %10s %10s %8s\n' "$1 $2 QD$3" "$a" "$b" "$v"
done
[ $FAILS -eq 0 ] && echo "all targets met (<= 8192 KiB, 4 GiB within 1024 KiB of 1 GiB)" ||
	echo "$FAILS job(s) miss the RSS targets"
