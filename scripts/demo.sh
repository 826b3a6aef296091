#!/usr/bin/env bash
# make demo: the quick profile on a scratch file, metered by iowatt's emulated UM25C
# unless METER=SPEC names a real meter. DEMO_DIR picks the filesystem under test, DEMO_OUT
# where results and charts go (default results/).
set -eu
cd "$(dirname "$0")/.."
scratch=${DEMO_DIR:-/var/tmp/iowatt-demo}
out=${DEMO_OUT:-results}
mkdir -p "$scratch" "$out"
emu_pid=""
cleanup() {
	if [ -n "$emu_pid" ]; then kill "$emu_pid" 2>/dev/null; wait "$emu_pid" 2>/dev/null || true; fi
	rm -f "$scratch/um25c"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "${METER:-}" ]; then
	meter=$METER
else
	echo "demo: no METER given: starting iowatt's EMULATED UM25C (figures are not real)"
	# The emulator's current follows the activity of the device under $scratch.
	(cd "$scratch" && exec "$OLDPWD/iowatt" emulate um25c --link "$scratch/um25c") &
	emu_pid=$!
	for _ in $(seq 50); do
		[ -e "$scratch/um25c" ] && break
		sleep 0.1
	done
	meter="um25c:$scratch/um25c,interval=100ms"
fi

# A shorter idle baseline than the 10 s default keeps the demo near two minutes. A job
# that fails (io_setup refused, the disk full) or a Ctrl-C still leaves a result with the
# jobs that ran: chart those, then exit as the run did. During the run Ctrl-C is the
# run's to handle (it writes what it has); the script only waits for it.
result="$out/iowatt-$(date +%Y%m%d-%H%M%S)-quick.json"
trap ':' INT
set +e
./iowatt run quick --target "$scratch" --meter "$meter" --idle 5s --json-out "$result" "$@"
rc=$?
set -e
trap 'exit 130' INT
if [ -f "$result" ]; then
	if ./iowatt plot "$result" -o "$out/plots" >"$out/plots.log" 2>&1; then
		if [ "$rc" -eq 0 ]; then
			echo "charts: $out/plots/"
		else
			echo "charts: $out/plots/ (of the jobs that ran; the run exited $rc)"
		fi
		rm -f "$out/plots.log"
	else
		echo "demo: could not draw the charts, see $out/plots.log" >&2
	fi
fi
exit "$rc"
