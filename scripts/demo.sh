#!/usr/bin/env bash
# make demo: the quick profile on a scratch file, metered by one of iowatt's emulated meters
# (METER=um25c, the default, or fnb58, tc66c, ppk2, atorch) or by a real one (METER=SPEC);
# then its charts (DEMO_OUT/plots/) and its report page (DEMO_OUT/report.html).
# DEMO_DIR picks the filesystem under test, DEMO_OUT where results, charts and the page go
# (default results/).
set -eu
cd "$(dirname "$0")/.."
scratch=${DEMO_DIR:-/var/tmp/iowatt-demo}
out=${DEMO_OUT:-results}
mkdir -p "$scratch" "$out"
# Two demos on one filesystem would measure each other: the second says so and stops.
exec 9>"$scratch/.demo.lock"
if ! flock -n 9; then
	echo "demo: another make demo is running on $scratch: wait for it to finish, or give" \
		"this one a directory of its own (make demo DEMO_DIR=DIR)" >&2
	exit 3
fi
emu_pid=""
emu_link=""
cleanup() {
	if [ -n "$emu_pid" ]; then kill "$emu_pid" 2>/dev/null; wait "$emu_pid" 2>/dev/null || true; fi
	[ -n "$emu_link" ] && rm -f "$emu_link"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

name=${METER:-um25c}
extra=()
emu_args=()
# An emulated meter's current follows the device's I/O counters reading by reading: no
# write-back, no garbage collection after the last I/O, nothing for a tail to wait for
# beyond a second of readings. The default tail (settled for 3 s, else up to 60 s) would
# only measure other programs' I/O on a shared disk: 60 s a job, counted as the job's.
emu_tail=(--tail-hold 1s --tail-max 3s)
case $name in
*:*) meter=$name ;; # a spec: a real meter
um25c) tail=",interval=100ms" ;;
fnb58) tail="" ;;
tc66c) tail=",interval=100ms" ;;
atorch)
	tail=""
	# One report a second: fewer idle samples, or each job idles for 20 s; a tail of
	# two readings.
	extra=(--idle-samples 5)
	emu_tail=(--tail-hold 2s --tail-max 5s)
	;;
ppk2)
	# The PPK2 measures current; W needs the supply's voltage, which the emulator is given.
	tail=",vdd=5000"
	emu_args=(--volts 5.0)
	;;
*)
	echo "demo: METER=$name: give um25c, fnb58, tc66c, ppk2, atorch (emulated) or a meter spec" >&2
	exit 2
	;;
esac

if [ -z "${meter:-}" ]; then
	echo "demo: starting iowatt's EMULATED $name (figures are not real; METER=SPEC for a real meter)"
	emu_link="$scratch/$name"
	# The emulator's current follows the activity of the device under $scratch.
	(cd "$scratch" && exec "$OLDPWD/iowatt" emulate "$name" --link "$emu_link" ${emu_args[@]+"${emu_args[@]}"}) &
	emu_pid=$!
	for _ in $(seq 50); do
		[ -e "$emu_link" ] && break
		sleep 0.1
	done
	meter="$name:$emu_link$tail"
	extra+=("${emu_tail[@]}")
fi

# A shorter idle baseline than the 10 s default (3 s: 30 readings of a UM25C, 10 of them
# quiet at least) keeps the demo near two minutes, and it waits no longer for quiet
# readings (--idle-max): on a busy disk the verdicts say "idle not quiet" instead of
# 8 x 10 s more of waiting. Sizes are
# chosen for the disk (--size auto, once per job before anything is measured): each job's
# active phase lasts the meter's 20 samples, so the demo is valid on a fast NVMe as on an
# SD card. Length, not size: --size-max caps the file at 128 MiB (or an eighth of the free
# space, if less); reads wrap around it for as long as the meter needs, and a write job that
# would write more than that is paced to write it over its length instead (its MB/s is
# then the pace, which the summary says). The demo writes at most 4 write jobs x (4
# calibration tries + the job + a size=auto retake's first run) x the cap + the file's
# layout: 3.1 GiB at 128 MiB, about 1.1 GiB when each calibration is taken at its first
# try; the summary prints it.
free_kib=$(df -Pk "$scratch" | awk 'NR == 2 { print $4 }')
cap_mib=$((free_kib / 8 / 1024))
[ "$cap_mib" -gt 128 ] && cap_mib=128
if [ "$cap_mib" -lt 4 ]; then
	echo "demo: $scratch has $((free_kib / 1024)) MiB free: the demo needs at least 32 MiB" >&2
	exit 2
fi
# A job that fails (io_setup refused, the disk full) or a Ctrl-C still leaves a result
# with the jobs that ran: chart those, then exit as the run did. During the run
# Ctrl-C is the run's to handle (it writes what it has); the script only waits for it.
result="$out/iowatt-$(date +%Y%m%d-%H%M%S)-quick.json"
trap ':' INT
set +e
./iowatt run quick --target "$scratch" --meter "$meter" --idle 3s --idle-max 3s --size auto --same-size \
	--size-max "${cap_mib}m" \
	--json-out "$result" ${extra[@]+"${extra[@]}"} "$@"
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
	if ./iowatt report "$result" -o "$out" >"$out/report.log" 2>&1; then
		echo "report: $out/report.html"
		rm -f "$out/report.log"
	elif grep -q "wrote $out/report.html" "$out/report.log"; then
		# report exits 1 when a chart fails but still writes the page without it.
		echo "report: $out/report.html (without its charts, see $out/report.log)" >&2
	else
		echo "demo: could not write the report page, see $out/report.log" >&2
	fi
fi
# SECONDS: since the script started (the build before it is make's)
echo "demo: $((SECONDS / 60)) min $((SECONDS % 60)) s (run, charts and page)"
exit "$rc"
