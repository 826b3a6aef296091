#!/usr/bin/env bash
# Meter overhead: IOPS of one job with and without a 10 Hz meter, runs alternated so drift
# on this shared machine hits both sides alike. Prints the median ratio (target >= 0.98x).
#
# usage: bench/meter-overhead.sh [RUNS]     (root: loop-device ext4 target; default 7 pairs)
# env:   IOWATT=path/to/iowatt  JOB="--rw randread --bs 4k ..."  RUNTIME=5s
#
# The meter is the EMULATED UM25C on a pty: its process shares the CPUs with the job,
# which a real Bluetooth tester would not, so the figure is if anything pessimistic.
set -u
BENCH=meter-overhead
. "$(dirname "$0")/lib.sh"
RUNS=${1:-7}
RUNTIME=${RUNTIME:-3s}
JOB=${JOB:---rw randread --bs 4k --iodepth 16 --size 640M}

bench_target 1024 ovh
trap 'stop_emu; t_cleanup' EXIT
# One file written once and reused by every run, so no run pays for laying it out.
target="$mnt/ovh.bin"
dd if=/dev/urandom of="$target" bs=1M count=640 oflag=direct status=none ||
	bench_die 2 "cannot write $target"
start_emu --constant-ma 300 || exit 1

iops() { # json -> read+write IOPS of the first job
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["read"]["iops"] + j["write"]["iops"])' "$1"
}

one() { # name extra-args...
	local name=$1 out
	shift
	out="$T_TMP/$name.json"
	# shellcheck disable=SC2086
	if ! "$IOWATT" run $JOB --runtime "$RUNTIME" --target "$target" --no-progress \
		--json-out "$out" "$@" >"$T_TMP/$name.out" 2>&1; then
		echo "meter-overhead: run $name failed:" >&2
		tail -5 "$T_TMP/$name.out" >&2
		return 1
	fi
	iops "$out"
}

# A warm-up run settles the caches before anything is counted.
one warmup >/dev/null || exit 1
bare=()
metered=()
printf '%-4s %12s %12s %8s\n' run bare_iops meter_iops ratio
for i in $(seq "$RUNS"); do
	# Alternate which goes first, so a trend in the machine's load cancels out.
	if [ $((i % 2)) -eq 1 ]; then
		b=$(one "bare$i") || exit 1
		m=$(one "meter$i" --meter "um25c:$T_TMP/um,interval=100ms" --idle 1s \
			--idle-samples 5 --tail-hold 200ms --tail-max 1s) || exit 1
	else
		m=$(one "meter$i" --meter "um25c:$T_TMP/um,interval=100ms" --idle 1s \
			--idle-samples 5 --tail-hold 200ms --tail-max 1s) || exit 1
		b=$(one "bare$i") || exit 1
	fi
	bare+=("$b")
	metered+=("$m")
	printf '%-4s %12.1f %12.1f %8.3f\n' "$i" "$b" "$m" "$(python3 -c "print($m / $b)")"
done
python3 - "${bare[*]}" "${metered[*]}" <<'PY'
import statistics, sys
b = [float(x) for x in sys.argv[1].split()]
m = [float(x) for x in sys.argv[2].split()]
# Each pair ran back to back: the median of their ratios shrugs off the machine's drift
# better than a ratio of medians; both are printed.
pair = statistics.median(x / y for x, y in zip(m, b))
med = statistics.median(m) / statistics.median(b)
print("median: bare %.1f IOPS, with 10 Hz meter %.1f IOPS; ratio of medians %.3fx, "
      "median pair ratio %.3fx (target >= 0.98x) %s"
      % (statistics.median(b), statistics.median(m), med, pair,
         "OK" if pair >= 0.98 else "BELOW TARGET"))
spread = (max(b) - min(b)) / statistics.median(b)
if spread > 0.1:
    print("note: bare runs spread %.0f %% of their median; the machine is noisy, "
          "raise RUNS or RUNTIME" % (spread * 100))
sys.exit(0 if pair >= 0.98 else 1)
PY
