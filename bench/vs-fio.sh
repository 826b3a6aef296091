#!/usr/bin/env bash
# Runs the same jobs with Debian's fio and with iowatt on one file, alternating, and prints
# IOPS and CPU time per I/O with their ratios against the targets, engine by engine, each
# against fio's engine of that name with the same options: psync at depth 1; libaio as
# both tools default and with fio-style batches (16 submitted, 8 reaped: the -b rows);
# io_uring with registered buffers and file, no SQ polling thread and iowatt's batches.
#
#   bench/vs-fio.sh [-r ROUNDS] [-d DIR] [-e ENGINES] [-k]
#
# ROUNDS (default 5) alternations per job; medians are compared, since the disk is shared.
# DIR (default /var/tmp) must support O_DIRECT; a 1 GiB scratch file is created there and
# removed at exit (-k keeps the per-run JSON/CSV outputs in the scratch directory).
# ENGINES (default "psync libaio io_uring", those iowatt was built with) to compare.
# CPU is user+system time of the whole child process (getrusage), for both tools; "sys" is
# its kernel part (the split is the scheduler tick's estimate). Targets, per job and
# engine: IOPS >= 1.00x fio's, CPU per I/O <= 0.70x fio's. A CPU miss also prints iowatt's
# kernel time alone against fio's CPU: the floor no change in user space can go under.
# "run" is CPU per I/O without each tool's start-up (the CPU of a one-I/O job, measured
# first), which weighs on fio's figures for the smaller jobs.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=5
DIR=/var/tmp
KEEP=0
ENGINES="psync libaio io_uring"
IOPS_MIN=1.00
CPU_MAX=0.70
while getopts "r:d:e:kh" o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	d) DIR=$OPTARG ;;
	e) ENGINES=$OPTARG ;;
	k) KEEP=1 ;;
	*) sed -n '2,19p' "$0"; exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
command -v fio >/dev/null || { echo "vs-fio: fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x "$IOWATT" ] || { echo "vs-fio: $IOWATT not built (make)" >&2; exit 2; }

WORK=$(mktemp -d "$DIR/iowatt-vs-fio.XXXXXX")
FILE=$WORK/file
cleanup() { [ "$KEEP" = 1 ] && echo "kept $WORK" || rm -rf "$WORK"; }
trap cleanup EXIT

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

# run_measured OUTFILE CMD...: runs CMD, prints "CPU_S SYS_S" from the child's rusage.
# Counted from what python3 already holds of its children: a wrapper that starts it (as
# pyenv's shim does, about 50 ms of CPU) hands that on through exec.
run_measured() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
out = open(sys.argv[1], "w")
rc = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = r.ru_utime + r.ru_stime - r0.ru_utime - r0.ru_stime
print("%.6f %.6f" % (cpu, r.ru_stime - r0.ru_stime) if rc == 0 else "FAIL")
EOF
}

# iops_of JSON CPU_S SYS_S: prints "IOPS IOS CPU_S SYS_S" from a fio or iowatt JSON result.
iops_of() {
	python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["iops"]+j["write"]["iops"], j["read"]["total_ios"]+j["write"]["total_ios"], sys.argv[2], sys.argv[3])' "$@"
}

# One run: prints "IOPS IOS CPU_S SYS_S" or fails with the tool's output.
run_fio() { # engine rw bs iodepth size [extra fio options]
	local eng=$1 rw=$2 bs=$3 qd=$4 size=$5 out=$WORK/fio.json cpu
	shift 5
	cpu=$(run_measured "$out" fio --name=job --filename="$FILE" --rw="$rw" --bs="$bs" \
		--iodepth="$qd" --size="$size" --ioengine="$eng" --direct=1 \
		--end_fsync=$([[ $rw == *write* ]] && echo 1 || echo 0) \
		--output-format=json "$@")
	[ "$cpu" != FAIL ] || { cat "$out" >&2; return 1; }
	iops_of "$out" $cpu
}

run_iowatt() { # engine rw bs iodepth size [extra iowatt options]
	local eng=$1 rw=$2 bs=$3 qd=$4 size=$5 out=$WORK/iowatt.out cpu force=
	shift 5
	case $rw in *write*|randrw) force=--force ;; esac
	rm -f "$WORK"/iowatt.*
	cpu=$(run_measured "$out" "$IOWATT" run --no-meter --no-progress -q $force \
		--target "$FILE" --rw "$rw" --bs "$bs" --iodepth "$qd" --size "$size" \
		--ioengine "$eng" --json-out "$WORK/iowatt.json" "$@")
	[ "$cpu" != FAIL ] || { cat "$out" >&2; return 1; }
	iops_of "$WORK/iowatt.json" $cpu
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# iowatt's batches when the job gives none (bench_worker.c): submit a quarter of the queue,
# wait for an eighth. fio's io_uring runs get the same, so both enter the kernel as often.
batch_submit() { echo $(($1 >= 4 ? $1 / 4 : 1)); }
batch_complete() { echo $(($1 >= 8 ? $1 / 8 : 1)); }

# One contestant's run: prints "IOPS IOS CPU_S SYS_S". psync runs at depth 1, on PSIZE.
contest() { # contestant rw bs qd size psize
	local c=$1 rw=$2 bs=$3 qd=$4 size=$5 psize=$6
	case $c in
	fio-psync) run_fio psync "$rw" "$bs" 1 "$psize" ;;
	iowatt-psync) run_iowatt psync "$rw" "$bs" 1 "$psize" ;;
	fio-libaio) run_fio libaio "$rw" "$bs" "$qd" "$size" ;;
	fio-libaio-b) run_fio libaio "$rw" "$bs" "$qd" "$size" --iodepth_batch_submit=16 \
		--iodepth_batch_complete_min=8 ;;
	iowatt-libaio-b) run_iowatt libaio "$rw" "$bs" "$qd" "$size" --iodepth_batch_submit 16 \
		--iodepth_batch_complete 8 ;;
	fio-io_uring) run_fio io_uring "$rw" "$bs" "$qd" "$size" --fixedbufs --registerfiles \
		--iodepth_batch_submit="$(batch_submit "$qd")" \
		--iodepth_batch_complete_min="$(batch_complete "$qd")" ;;
	iowatt-*) run_iowatt "${c#iowatt-}" "$rw" "$bs" "$qd" "$size" ;;
	esac
}

# startup TOOL: the median CPU seconds of three one-I/O jobs of TOOL (fio or iowatt).
declare -A STARTUP
startup() {
	local t=$1 i res cpus=""
	for i in 1 2 3; do
		res=$(run_"$t" psync read 4k 1 4k)
		cpus+="$(awk '{print $3}' <<<"$res") "
	done
	STARTUP[$t]=$(median <<<"$cpus")
}

# job LABEL RW BS QD SIZE PSIZE: alternates the contestants ROUNDS times, rotating the
# order; psync (depth 1) moves PSIZE.
declare -A IOPS CPU SYS RUN
CONTESTANTS=()
job() {
	local label=$1 rw=$2 bs=$3 qd=$4 size=$5 psize=$6 r i c res e iops ios cpu sys
	local -a order
	CONTESTANTS=()
	for e in $ENGINES; do
		CONTESTANTS+=("fio-$e" "iowatt-$e")
		[ "$e" = libaio ] && [ "$qd" -ge 16 ] && CONTESTANTS+=("fio-libaio-b" "iowatt-libaio-b")
	done
	for ((r = 0; r < ROUNDS; r++)); do
		order=()
		for ((i = 0; i < ${#CONTESTANTS[@]}; i++)); do
			order+=("${CONTESTANTS[$(((i + r) % ${#CONTESTANTS[@]}))]}")
		done
		for c in "${order[@]}"; do
			res=$(contest "$c" "$rw" "$bs" "$qd" "$size" "$psize")
			read -r iops ios cpu sys <<<"$res"
			IOPS[$label/$c]+="$iops "
			CPU[$label/$c]+="$(awk -v c="$cpu" -v n="$ios" 'BEGIN {printf "%.3f", c * 1e6 / n}') "
			SYS[$label/$c]+="$(awk -v c="$sys" -v n="$ios" 'BEGIN {printf "%.3f", c * 1e6 / n}') "
			RUN[$label/$c]+="$(awk -v c="$cpu" -v s="${STARTUP[${c%%-*}]}" -v n="$ios" 'BEGIN {printf "%.3f", (c - s) * 1e6 / n}') "
		done
	done
	printf '\n%s (%s rounds; medians; psync at QD1 on %s)\n' "$label" "$ROUNDS" "$psize"
	printf '  %-16s %10s %10s %10s %10s   %s\n' tool IOPS "CPU us/IO" "sys us/IO" "run us/IO" \
		"all rounds (IOPS)"
	for c in "${CONTESTANTS[@]}"; do
		printf '  %-16s %10.0f %10.2f %10.2f %10.2f   %s\n' "$c" "$(median <<<"${IOPS[$label/$c]}")" \
			"$(median <<<"${CPU[$label/$c]}")" "$(median <<<"${SYS[$label/$c]}")" \
			"$(median <<<"${RUN[$label/$c]}")" "${IOPS[$label/$c]}"
	done
	for c in "${CONTESTANTS[@]}"; do
		if [[ $c == iowatt-* ]]; then
			ratio "$label" "$c" "fio-${c#iowatt-}"
		fi
	done
}

# ratio LABEL WHO REF: WHO's IOPS must reach IOPS_MIN x REF's and its CPU per I/O stay at
# or under CPU_MAX x REF's; a CPU miss prints WHO's kernel time over REF's CPU, the floor.
FAILS=0
ratio() {
	local label=$1 who=$2 ref=$3 ri rc rr floor verdict
	ri=$(awk -v a="$(median <<<"${IOPS[$label/$who]}")" -v b="$(median <<<"${IOPS[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	rc=$(awk -v a="$(median <<<"${CPU[$label/$who]}")" -v b="$(median <<<"${CPU[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	rr=$(awk -v a="$(median <<<"${RUN[$label/$who]}")" -v b="$(median <<<"${RUN[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	floor=$(awk -v a="$(median <<<"${SYS[$label/$who]}")" -v b="$(median <<<"${CPU[$label/$ref]}")" 'BEGIN {printf "%.3f", a / b}')
	verdict=$(awk -v ri="$ri" -v rc="$rc" -v m="$IOPS_MIN" -v x="$CPU_MAX" 'BEGIN {print (ri >= m && rc <= x) ? "meets" : "MISSES"}')
	[ "$verdict" = meets ] || FAILS=$((FAILS + 1))
	printf '  %-16s / %-13s IOPS %.3fx (>= %.2fx), CPU per I/O %.3fx (<= %.2fx; run %.2fx): %s' \
		"$who" "$ref" "$ri" "$IOPS_MIN" "$rc" "$CPU_MAX" "$rr" "$verdict"
	awk -v rc="$rc" -v x="$CPU_MAX" 'BEGIN {exit !(rc > x)}' &&
		printf '; its kernel time alone is %.2fx' "$floor"
	printf '\n'
}

echo "fio $(fio --version | sed 's/^fio-//'), $("$IOWATT" --version), $(nproc) CPUs, $(findmnt -no SOURCE,FSTYPE -T "$DIR")"
startup fio
startup iowatt
printf 'start-up (CPU of a one-I/O job): fio %.1f ms, iowatt %.1f ms\n' \
	"$(awk -v s="${STARTUP[fio]}" 'BEGIN {print s * 1e3}')" "$(awk -v s="${STARTUP[iowatt]}" 'BEGIN {print s * 1e3}')"
job "randread 4k QD32" randread 4k 32 1G 64M
job "randwrite 4k QD1" randwrite 4k 1 64M 64M
job "write 1M QD8" write 1M 8 1G 256M
echo
[ $FAILS -eq 0 ] && echo "all targets met" || echo "$FAILS target(s) missed (a shared disk is noisy: rerun with -r 7)"
