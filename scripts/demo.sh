#!/usr/bin/env bash
# make demo: the quick profile on a scratch file, metered by iowatt's emulated UM25C
# unless METER=SPEC names a real meter. DEMO_DIR picks the filesystem under test.
set -eu
cd "$(dirname "$0")/.."
scratch=${DEMO_DIR:-/var/tmp/iowatt-demo}
mkdir -p "$scratch"
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

# A shorter idle baseline than the 10 s default keeps the demo near two minutes.
./iowatt run quick --target "$scratch" --meter "$meter" --idle 5s --output results "$@"
latest=$(ls -t results/*.json | head -n 1)
if ./iowatt plot "$latest" -o results/plots >/dev/null 2>&1; then
	echo "charts: results/plots/"
fi
