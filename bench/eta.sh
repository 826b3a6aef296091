#!/usr/bin/env bash
# Is the plan's ETA right? One profile on an SD-speed loop device (cgroup-throttled as
# scripts/two-devices.sh's SD: 14/23 MB/s, 600/2200 IOPS write/read) with an EMULATED
# UM25C that follows the device, polled at its real 2 Hz; prints the ETA lines the run
# printed and the run's wall time. Root.
#
#   bench/eta.sh [-b IOWATT] [-d OUTDIR] [-n RUNS] [-k sd|stick] PROFILE [run options...]
#   e.g. bench/eta.sh -d /var/tmp/eta-quick configs/quick.ini --size auto --repeat 3
#
# IOWATT: the binary to measure (default: this tree's); OUTDIR: the run's output
# directory (default a scratch one): earlier results of the same device there are the
# plan's basis. RUNS (default 1) runs back to back on the same device, so the second has
# the first's result as its basis. -k stick throttles like bench/idle-baseline.sh's USB
# stick instead (9/36 MB/s, 250/1400 IOPS write/read).
set -u
BENCH=eta
. "$(dirname "$0")/lib.sh"
OUT="" RUNS=1 KIND=sd
while getopts b:d:n:k: f; do
	case $f in
	b) IOWATT=$(realpath "$OPTARG") ;;
	d) OUT=$OPTARG ;;
	n) RUNS=$OPTARG ;;
	k) KIND=$OPTARG ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $KIND in sd | stick) ;; *) bench_die 2 "-k $KIND: sd or stick" ;; esac
[ $# -ge 1 ] || { sed -n '2,14p' "$0"; exit 2; }
profile=$1
shift
[ -n "$OUT" ] || OUT=$T_TMP/out
mkdir -p "$OUT"
bench_target 2048 eta
dev=$(findmnt -rn -o SOURCE "$mnt")
cg=$(bench_throttle "$KIND" "$dev") || bench_die 2 "no io throttle (cgroup io.max / blkio) here"
trap 'stop_emu; t_cleanup' EXIT
start_emu --device "${dev#/dev/}" || exit 2
echo "# $($IOWATT --version 2>&1 | head -n1); $profile $*; device ${dev#/dev/} throttled like $([ "$KIND" = sd ] && echo an SD card || echo a USB stick)"
for run in $(seq "$RUNS"); do
	t0=$(date +%s.%N)
	t_in_cgroup "$cg" nice "$IOWATT" run "$profile" --target "$mnt" --no-progress -o "$OUT" \
		--meter "um25c:$T_TMP/um,interval=500ms" "$@" >"$OUT/eta-run$run.log" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	grep -h "estimated duration\|^eta\|ETA" "$OUT/eta-run$run.log" | sed "s/^/run $run: /"
	awk -v a="$t0" -v b="$t1" -v r="$run" -v c="$rc" \
		'BEGIN { printf "run %s: wall %.0f s (%d min %02d s), exit %d\n", r, b - a, (b - a) / 60, (b - a) % 60, c }'
done
