#!/usr/bin/env bash
# Runs the same jobs with Debian's fio and with iowatt on one file, alternating, and prints
# IOPS and CPU time per I/O with their ratios against the targets, engine by engine:
# libaio against fio's libaio, io_uring against fio's io_uring with the same options
# (registered buffers and file, no SQ polling thread, the same iodepth and batches).
#
#   bench/vs-fio.sh [-r ROUNDS] [-d DIR] [-e ENGINES] [-k]
#
# ROUNDS (default 3) alternations per job; medians are compared, since the disk is shared.
# DIR (default /var/tmp) must support O_DIRECT; a 1 GiB scratch file is created there and
# removed at exit (-k keeps the per-run JSON/CSV outputs in the scratch directory).
# ENGINES (default "libaio io_uring", those iowatt was built with) to compare.
# CPU is user+system time of the whole child process (getrusage), for both tools; iowatt's
# CPU per I/O at 4k QD32 must stay at or under 0.8x fio's.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=3
DIR=/var/tmp
KEEP=0
ENGINES="libaio io_uring"
while getopts "r:d:e:kh" o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	d) DIR=$OPTARG ;;
	e) ENGINES=$OPTARG ;;
	k) KEEP=1 ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
command -v fio >/dev/null || { echo "vs-fio: fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x "$IOWATT" ] || { echo "vs-fio: $IOWATT not built (make)" >&2; exit 2; }

WORK=$(mktemp -d "$DIR/iowatt-vs-fio.XXXXXX")
FILE=$WORK/file
cleanup() { [ "$KEEP" = 1 ] && echo "kept $WORK" || rm -rf "$WORK"; }
trap cleanup EXIT

# Until `iowatt run` is in the build, drive the same engine through the test driver.
DRIVER=iowatt
if ! "$IOWATT" run --help >/dev/null 2>&1; then
	DRIVER=test_bench
	make -s build/tests/test_bench >/dev/null
	echo "note: 'iowatt run' is not in this build: iowatt's engine runs through build/tests/test_bench --bench"
fi

# Only the engines both tools have.
have=""
for e in $ENGINES; do
	if ! "$IOWATT" run --help 2>/dev/null | grep -qE "^ +$e "; then
		echo "note: iowatt was built without $e: not compared"
	elif ! fio --enghelp 2>/dev/null | grep -qx "[[:space:]]*$e"; then
		echo "note: this fio has no $e engine: not compared"
	else
		have="$have $e"
	fi
done
ENGINES=${have# }
[ -n "$ENGINES" ] || { echo "vs-fio: no engine to compare" >&2; exit 2; }

echo "laying out a 1 GiB file of random data in $WORK"
fio --name=layout --filename="$FILE" --rw=write --bs=1M --size=1G --direct=1 \
	--ioengine=libaio --iodepth=8 --refill_buffers --output=/dev/null
if ! dd if="$FILE" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null; then
	echo "vs-fio: $DIR has no O_DIRECT support; pick another -d" >&2
	exit 2
fi

# run_measured OUTFILE CMD...: runs CMD, prints "CPU_SECONDS" from the child's rusage.
run_measured() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
out = open(sys.argv[1], "w")
rc = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (r.ru_utime + r.ru_stime) if rc == 0 else "FAIL")
EOF
}

# One run: prints "IOPS IOS CPU_S" or fails with the tool's output.
run_fio() { # engine rw bs iodepth size [extra fio options]
	local eng=$1 rw=$2 bs=$3 qd=$4 size=$5 out=$WORK/fio.json cpu
	shift 5
	cpu=$(run_measured "$out" fio --name=job --filename="$FILE" --rw="$rw" --bs="$bs" \
		--iodepth="$qd" --size="$size" --ioengine="$eng" --direct=1 \
		--end_fsync=$([[ $rw == *write* ]] && echo 1 || echo 0) \
		--output-format=json "$@")
	[ "$cpu" != FAIL ] || { cat "$out" >&2; return 1; }
	python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["iops"]+j["write"]["iops"], j["read"]["total_ios"]+j["write"]["total_ios"], sys.argv[2])' "$out" "$cpu"
}

run_iowatt() { # engine rw bs iodepth size
	local eng=$1 rw=$2 bs=$3 qd=$4 size=$5 out=$WORK/iowatt.out cpu force=
	case $rw in *write*|randrw) force=--force ;; esac
	if [ $DRIVER = iowatt ]; then
		rm -f "$WORK"/iowatt.*
		cpu=$(run_measured "$out" "$IOWATT" run --no-meter --no-progress -q $force \
			--target "$FILE" --rw "$rw" --bs "$bs" --iodepth "$qd" --size "$size" \
			--ioengine "$eng" --json-out "$WORK/iowatt.json")
		[ "$cpu" != FAIL ] || { cat "$out" >&2; return 1; }
		python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["iops"]+j["write"]["iops"], j["read"]["total_ios"]+j["write"]["total_ios"], sys.argv[2])' "$WORK/iowatt.json" "$cpu"
	else
		cpu=$(run_measured "$out" build/tests/test_bench --bench "$FILE" "$rw" "$bs" "$qd" "$size" "$eng")
		[ "$cpu" != FAIL ] || { cat "$out" >&2; return 1; }
		sed -n "s/^iops=\([0-9.]*\) ios=\([0-9]*\).*/\1 \2 $cpu/p" "$out"
	fi
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# iowatt's batches when the job gives none (bench_worker.c): submit a quarter of the queue,
# wait for an eighth. fio's io_uring runs get the same, so both enter the kernel as often.
batch_submit() { echo $(($1 >= 4 ? $1 / 4 : 1)); }
batch_complete() { echo $(($1 >= 8 ? $1 / 8 : 1)); }

# One contestant's run: prints "IOPS IOS CPU_S".
contest() { # contestant rw bs qd size
	local c=$1 rw=$2 bs=$3 qd=$4 size=$5
	case $c in
	fio-libaio) run_fio libaio "$rw" "$bs" "$qd" "$size" ;;
	fio-libaio-b) run_fio libaio "$rw" "$bs" "$qd" "$size" --iodepth_batch_submit=16 \
		--iodepth_batch_complete_min=8 ;;
	fio-io_uring) run_fio io_uring "$rw" "$bs" "$qd" "$size" --fixedbufs --registerfiles \
		--iodepth_batch_submit="$(batch_submit "$qd")" \
		--iodepth_batch_complete_min="$(batch_complete "$qd")" ;;
	iowatt-*) run_iowatt "${c#iowatt-}" "$rw" "$bs" "$qd" "$size" ;;
	esac
}

# job LABEL RW BS QD SIZE: alternates the contestants ROUNDS times, rotating the order.
declare -A IOPS CPU
CONTESTANTS=()
job() {
	local label=$1 rw=$2 bs=$3 qd=$4 size=$5 r i c res e
	local -a order
	CONTESTANTS=()
	for e in $ENGINES; do
		CONTESTANTS+=("fio-$e")
		[ "$e" = libaio ] && [ "$qd" -gt 1 ] && [ "$rw" = randread ] && CONTESTANTS+=("fio-libaio-b")
		CONTESTANTS+=("iowatt-$e")
	done
	for ((r = 0; r < ROUNDS; r++)); do
		order=()
		for ((i = 0; i < ${#CONTESTANTS[@]}; i++)); do
			order+=("${CONTESTANTS[$(((i + r) % ${#CONTESTANTS[@]}))]}")
		done
		for c in "${order[@]}"; do
			res=$(contest "$c" "$rw" "$bs" "$qd" "$size")
			read -r iops ios cpu <<<"$res"
			IOPS[$label/$c]+="$iops "
			CPU[$label/$c]+="$(awk -v c="$cpu" -v n="$ios" 'BEGIN {printf "%.3f", c * 1e6 / n}') "
		done
	done
	printf '\n%s (%s rounds; medians)\n' "$label" "$ROUNDS"
	printf '  %-14s %10s %12s   %s\n' tool IOPS "CPU us/IO" "all rounds (IOPS)"
	for c in "${CONTESTANTS[@]}"; do
		printf '  %-14s %10.0f %12.2f   %s\n' "$c" "$(median <<<"${IOPS[$label/$c]}")" \
			"$(median <<<"${CPU[$label/$c]}")" "${IOPS[$label/$c]}"
	done
}

# ratio LABEL WHO REF IOPS_MIN|-: WHO against REF (- = no target); the IOPS ratio must reach
# IOPS_MIN and CPU per I/O must not exceed the reference's.
FAILS=0
ratio() {
	local label=$1 who=$2 ref=$3 min=$4 ri rc verdict
	[ -n "${IOPS[$label/$who]:-}" ] && [ -n "${IOPS[$label/$ref]:-}" ] || return 0
	ri=$(awk -v a="$(median <<<"${IOPS[$label/$who]}")" -v b="$(median <<<"${IOPS[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	rc=$(awk -v a="$(median <<<"${CPU[$label/$who]}")" -v b="$(median <<<"${CPU[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	if [ "$min" = - ]; then
		printf '  %-15s / %-13s IOPS %.2fx, CPU per I/O %.2fx (for information)\n' "$who" "$ref" "$ri" "$rc"
		return
	fi
	verdict=$(awk -v ri="$ri" -v rc="$rc" -v m="$min" 'BEGIN {print (ri >= m && rc <= 1.0) ? "meets" : "MISSES"}')
	[ "$verdict" = meets ] || FAILS=$((FAILS + 1))
	printf '  %-15s / %-13s IOPS %.2fx (target >= %.2fx), CPU per I/O %.2fx (target <= 1.00x): %s\n' \
		"$who" "$ref" "$ri" "$min" "$rc" "$verdict"
}

# cpu_target LABEL WHO REF MAX: WHO's CPU per I/O must be at most MAX x REF's (issue 11:
# iowatt's own cost, which a board-level meter adds to the drive's, stays well under fio's).
cpu_target() {
	local label=$1 who=$2 ref=$3 max=$4 rc verdict
	[ -n "${CPU[$label/$who]:-}" ] && [ -n "${CPU[$label/$ref]:-}" ] || return 0
	rc=$(awk -v a="$(median <<<"${CPU[$label/$who]}")" -v b="$(median <<<"${CPU[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	verdict=$(awk -v rc="$rc" -v m="$max" 'BEGIN {print (rc <= m) ? "meets" : "MISSES"}')
	[ "$verdict" = meets ] || FAILS=$((FAILS + 1))
	printf '  %-15s / %-13s CPU per I/O %.2fx (target <= %.2fx): %s\n' "$who" "$ref" "$rc" "$max" "$verdict"
}

echo "fio $(fio --version | sed 's/^fio-//'), iowatt engine via $DRIVER, $(nproc) CPUs, $(findmnt -no SOURCE,FSTYPE -T "$DIR")"
job "randread 4k QD32" randread 4k 32 1G
ratio "randread 4k QD32" iowatt-libaio fio-libaio-b 0.95
ratio "randread 4k QD32" iowatt-libaio fio-libaio -
cpu_target "randread 4k QD32" iowatt-libaio fio-libaio 0.80
ratio "randread 4k QD32" iowatt-io_uring fio-io_uring 0.95
cpu_target "randread 4k QD32" iowatt-io_uring fio-io_uring 0.80
ratio "randread 4k QD32" iowatt-io_uring iowatt-libaio -
job "randwrite 4k QD1" randwrite 4k 1 64M
ratio "randwrite 4k QD1" iowatt-libaio fio-libaio 1.00
ratio "randwrite 4k QD1" iowatt-io_uring fio-io_uring 1.00
ratio "randwrite 4k QD1" iowatt-io_uring iowatt-libaio -
job "write 1M QD8" write 1M 8 1G
ratio "write 1M QD8" iowatt-libaio fio-libaio 1.00
ratio "write 1M QD8" iowatt-io_uring fio-io_uring 1.00
ratio "write 1M QD8" iowatt-io_uring iowatt-libaio -
echo
[ $FAILS -eq 0 ] && echo "all targets met" || echo "$FAILS target(s) missed (a shared disk is noisy: rerun with -r 5)"
