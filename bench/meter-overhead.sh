#!/usr/bin/env bash
# Meter overhead: IOPS of one job with and without a 10 Hz meter, runs alternated so drift
# on this shared machine hits both sides alike. Prints the median ratio (target >= 0.98x).
#
# usage: bench/meter-overhead.sh [RUNS]     (root: loop-device ext4 target; default 5 pairs)
# env:   IOWATT=path/to/iowatt  JOB="--rw randread --bs 4k ..."  RUNTIME=5s
#
# The meter is the EMULATED UM25C on a pty: its process shares the CPUs with the job,
# which a real Bluetooth tester would not, so the figure is if anything pessimistic.
set -u
. "$(dirname "$0")/../tests/lib.sh"
RUNS=${1:-5}
RUNTIME=${RUNTIME:-3s}
JOB=${JOB:---rw randread --bs 4k --iodepth 16 --size 640M}

if ! t_is_root; then
	echo "meter-overhead: needs root (loop device for the target)" >&2
	exit 2
fi
[ -x "$IOWATT" ] || { echo "meter-overhead: build iowatt first ($IOWATT)" >&2; exit 2; }
# Not in $(...): t_loop_ext4 records the mount for cleanup in this shell.
t_loop_ext4 1024 ovh >"$T_TMP/mnt.path" || { echo "meter-overhead: cannot make a loop ext4" >&2; exit 2; }
mnt=$(cat "$T_TMP/mnt.path")
# One file written once and reused by every run, so no run pays for laying it out.
target="$mnt/ovh.bin"
dd if=/dev/urandom of="$target" bs=1M count=640 oflag=direct status=none ||
	{ echo "meter-overhead: cannot write $target" >&2; exit 2; }
emu_pid=""
stop_emu() {
	[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null && wait "$emu_pid" 2>/dev/null
	emu_pid=""
}
trap 'stop_emu; t_cleanup' EXIT

rm -f "$T_TMP/um"
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 300 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
[ -e "$T_TMP/um" ] || { echo "meter-overhead: emulator did not start" >&2; cat "$T_TMP/emu.log" >&2; exit 1; }

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
r = statistics.median(m) / statistics.median(b)
print("median: bare %.1f IOPS, with 10 Hz meter %.1f IOPS, ratio %.3fx (target >= 0.98x) %s"
      % (statistics.median(b), statistics.median(m), r, "OK" if r >= 0.98 else "BELOW TARGET"))
sys.exit(0 if r >= 0.98 else 1)
PY
