#!/usr/bin/env bash
# A 100 kS/s meter beside a benchmark: IOPS with an emulated PPK2 attached vs none, the
# meter threads' CPU share, samples lost over a long run, and iowatt's peak RSS.
#
# usage: bench/meter-highrate.sh [-d DIR] [-t SECONDS] [-r ROUNDS] [-l LONG_SECONDS]
#   -d DIR   scratch directory for the test file (default /var/tmp/iowatt-highrate)
#   -t       seconds of each IOPS job (default 20); -r rounds of each kind (default 3)
#   -l       length of the loss/RSS run (default 300: the issue's five minutes)
#
# Both kinds of round run while the emulator streams 100 kS/s: without a meter, a stub
# host (dd) starts the stream and drains it, so the emulator's own CPU is there either way
# and the difference is iowatt's reading. The job is 4 KiB random reads, O_DIRECT, QD16,
# on one 1 GiB file made once. The meter threads (iowatt-meter, iowatt-pump) are found by
# name in /proc/PID/task.
# EMULATED: the PPK2 is iowatt's emulator on a pty, not a real device.
set -u
cd "$(dirname "$0")/.."
DIR=/var/tmp/iowatt-highrate
SECS=20
ROUNDS=3
LONG=300
while getopts "d:t:r:l:" o; do
	case $o in
	d) DIR=$OPTARG ;;
	t) SECS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	l) LONG=$OPTARG ;;
	*) exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
mkdir -p "$DIR"
T=$(mktemp -d /var/tmp/iowatt-hr.XXXXXX)
emu=""
cleanup() {
	[ -n "$emu" ] && kill "$emu" 2>/dev/null && wait "$emu" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

"$IOWATT" emulate ppk2 --link "$T/ppk2" --constant-ma 120 --volts 5.0 --cable-ohms 0 \
	>"$T/emu.out" 2>&1 &
emu=$!
for _ in $(seq 100); do [ -L "$T/ppk2" ] && break; sleep 0.05; done
METER="ppk2:$T/ppk2,vdd=5000"
DATA="$DIR/highrate.dat"
if [ ! -s "$DATA" ]; then
	dd if=/dev/urandom of="$DATA" bs=1M count=1024 status=none || exit 1
fi
# filesize: the file as made; size: more than any run moves, so --runtime ends each job.
JOB=(--target "$DATA" --rw randread --bs 4k --iodepth 16 --direct 1 --filesize 1g --size 1t --idle 2s
	--idle-samples 2 --tail-hold 0.5s --tail-max 1s --force)

# thread_cpu PID OUT: CPU seconds of the meter threads and of the whole process, sampled
# until the process ends (the threads' counters vanish with them).
thread_cpu() {
	local pid=$1 out=$2 hz tid comm sum all best=0
	hz=$(getconf CLK_TCK)
	while kill -0 "$pid" 2>/dev/null; do
		sum=0
		for tid in /proc/"$pid"/task/*; do
			comm=$(cat "$tid/comm" 2>/dev/null) || continue
			case $comm in
			iowatt-meter | iowatt-pump)
				sum=$((sum + $(awk '{ print $14 + $15 }' "$tid/stat" 2>/dev/null || echo 0)))
				;;
			esac
		done
		all=$(awk '{ print $14 + $15 }' /proc/"$pid"/stat 2>/dev/null) || break
		# The meter threads end before the process does: keep their last total.
		[ "$sum" -gt "$best" ] && best=$sum
		echo "$best $all $hz" >"$out"
		sleep 0.5
	done
}

# stub_host: AVERAGE_START (0x06) to the emulator, then its stream read and dropped.
stub=""
stub_host() {
	(exec 3<>"$T/ppk2"; stty -F "$T/ppk2" raw -echo; printf '\006' >&3; exec dd bs=64k <&3 \
		of=/dev/null status=none) &
	stub=$!
}

# one KIND N: a run of SECS seconds; prints IOPS (and the meter threads' CPU share).
one() {
	local kind=$1 n=$2 json="$T/$1-$2.json" pid iops
	if [ "$kind" = meter ]; then
		"$IOWATT" run "${JOB[@]}" --runtime "$SECS" --meter "$METER" --json-out "$json" \
			>"$T/$kind-$n.out" 2>&1 &
	else
		stub_host
		"$IOWATT" run "${JOB[@]}" --runtime "$SECS" --no-meter --json-out "$json" \
			>"$T/$kind-$n.out" 2>&1 &
	fi
	pid=$!
	thread_cpu "$pid" "$T/$kind-$n.cpu" &
	wait "$pid"
	[ -n "$stub" ] && kill "$stub" 2>/dev/null
	wait
	stub=""
	iops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' "$json")
	echo "$iops"
}

echo "EMULATED PPK2 at 100 kS/s (iowatt's emulator), 4k randread QD16 O_DIRECT on $DIR, ${SECS} s jobs"
declare -a with without
for r in $(seq "$ROUNDS"); do
	without+=("$(one none "$r")")
	with+=("$(one meter "$r")")
	printf 'round %d: no meter %.0f IOPS, PPK2 attached %.0f IOPS\n' "$r" "${without[-1]}" "${with[-1]}"
done
python3 - "$T" "${without[*]}" "${with[*]}" <<'PY'
import statistics, sys, glob
t, wo, wi = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
m0, m1 = statistics.median(wo), statistics.median(wi)
print("IOPS median: no meter %.0f, PPK2 attached %.0f: ratio %.3f (goal >= 0.98)" % (m0, m1, m1 / m0))
shares = []
for f in sorted(glob.glob(t + "/meter-*.cpu")):
    meter, allp, hz = (float(x) for x in open(f).read().split())
    shares.append(meter / hz)
print("meter threads' CPU: %s s per run" % ", ".join("%.2f" % s for s in shares))
PY
# The share is of one core over the whole run (idle, job, tail).
for f in "$T"/meter-*.cpu; do
	read -r m a hz <"$f"
	secs=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); j=d["jobs"][0]["phases"]; print((j["tail"]["t_end_ns"]-j["idle"]["t_start_ns"])/1e9)' "${f%.cpu}.json")
	python3 -c "import sys; print('meter threads: %.1f %% of one core over %.1f s (goal < 10 %%)' % (100 * $m / $hz / $secs, $secs))"
done

echo "long run: ${LONG} s with the PPK2, samples lost and peak RSS"
/usr/bin/time -f "%M" -o "$T/rss" "$IOWATT" run "${JOB[@]}" --runtime "$LONG" --meter "$METER" \
	--json-out "$T/long.json" >"$T/long.out" 2>&1
python3 - "$T/long.json" "$T/rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["meters"][0]
j = d["jobs"][0]
span = (j["phases"]["tail"]["t_end_ns"] - j["phases"]["idle"]["t_start_ns"]) / 1e9
rss = int(open(sys.argv[2]).read().split()[-1])
print("samples %d over %.1f s (%.0f S/s), lost (overruns) %d (goal 0), bad %d, gaps %d" %
      (m["samples"], span, m["samples"] / span, m["overruns"], m["frames_bad"], m["gaps"]))
print("job valid: %s %s" % (j["validity"]["valid"], j["validity"]["reasons"]))
print("peak RSS %.1f MiB (goal <= 16 MiB)" % (rss / 1024))
PY
