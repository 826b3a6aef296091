#!/usr/bin/env bash
# scripts/two-devices.sh cleans up whatever ends it: SIGTERM (exit 143), Ctrl-C to its
# process group (exit 130) once both runs have started, and runs that fail (exit 1). After
# each, none of its loop devices, mounts, cgroups, emulators, runs or scratch files is left.
. "$(dirname "$0")/../lib/lib.sh"
t_need_loop
t_cgroup_root >/dev/null || { echo "1..0 # skip no io or blkio cgroup to throttle with"; exit 0; }

# The script runs ./iowatt in the repository: this build's, for the test (as t_demo).
if [ "$IOWATT" != "$REPO/iowatt" ]; then
	mkdir -p "$T_TMP/repo/scripts"
	cp "$REPO/scripts/two-devices.sh" "$T_TMP/repo/scripts/"
	ln -s "$IOWATT" "$T_TMP/repo/iowatt"
	ln -s "$REPO/configs" "$T_TMP/repo/configs"
	ln -s "$REPO/plots" "$T_TMP/repo/plots"
	script="$T_TMP/repo/scripts/two-devices.sh"
else
	script="$REPO/scripts/two-devices.sh"
fi
pid=""
cases=""
# What a broken script left, swept so that a failing test does not leave it to the next.
sweep() {
	local c scratch p
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"
	for c in $cases; do
		scratch=$(sed -n 's/^scratch: //p' "$T_TMP/$c.out")
		[ -n "$scratch" ] || continue
		for p in $(pgrep -f -- "$scratch/"); do kill "$p"; done
		while pgrep -f -- "$scratch/" >/dev/null; do sleep 0.1; done
		for p in $(findmnt -rn -o TARGET | grep -F "$scratch/"); do umount -l "$p"; done
		for p in $(losetup -nO NAME,BACK-FILE | awk -v d="$scratch/" 'index($2, d) == 1 {print $1}'); do
			losetup -d "$p"
		done
		rm -rf "$scratch"
		for p in /sys/fs/cgroup/iowatt-*$$"$c"* /sys/fs/cgroup/unified/iowatt-*$$"$c"* \
			/sys/fs/cgroup/blkio/iowatt-*$$"$c"*; do
			[ -d "$p" ] && rmdir "$p"
		done
	done 2>/dev/null
	t_cleanup
}
trap sweep EXIT

# start CASE RUN-OPTIONS...: the script in its own process group (job control: a
# background job of a script would otherwise ignore SIGINT), output in $T_TMP/CASE.out.
start() {
	local c=$1
	shift
	cases="$cases $c"
	set -m
	NAMES="a$$$c b$$$c" IMG_SIZE=64M INTERVAL=100ms \
		bash "$script" "$T_TMP/out-$c" quick --jobs SEQ1M-Q8T1-write --kmsg none "$@" \
		>"$T_TMP/$c.out" 2>&1 &
	pid=$!
	set +m
}

# both_started CASE: 0 once the script has said both runs started, 1 if it ended first.
both_started() {
	for _ in $(seq 600); do
		[ "$(grep -c ": /dev/loop[0-9]* on " "$T_TMP/$1.out")" -eq 2 ] && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# left CASE: what the script left behind, one line each; nothing when all is cleaned up.
left() {
	local scratch cg
	scratch=$(sed -n 's/^scratch: //p' "$T_TMP/$1.out")
	[ -n "$scratch" ] || { echo "no scratch line"; return; }
	[ -e "$scratch" ] && echo "scratch $scratch"
	findmnt -rn -o TARGET | grep -F "$scratch/" | sed 's/^/mount /'
	losetup -nO NAME,BACK-FILE | grep -F "$scratch/" | sed 's/^/loop /'
	pgrep -af -- "$scratch/" | sed 's/^/process /'
	for cg in /sys/fs/cgroup/iowatt-*$$"$1"* /sys/fs/cgroup/unified/iowatt-*$$"$1"* \
		/sys/fs/cgroup/blkio/iowatt-*$$"$1"*; do
		[ -d "$cg" ] && echo "cgroup $cg"
	done
}

# A run far longer than any test: 4 KiB records at 1 IOPS. The signal comes once the script
# has started both runs (its output says so), not after a time.
for sig in TERM INT; do
	start "$sig" --bs 4k --size 32M --rate-iops 1
	# Signalled also if the runs are slow to start (a loaded machine): then it lands during
	# the set-up, which must be cleaned up the same; it is never left to run on.
	both_started "$sig" || echo "# SIG$sig: both runs had not started after 60 s"
	if [ $sig = INT ]; then kill -INT -- "-$pid"; else kill -TERM "$pid"; fi
	wait "$pid"
	rc=$?
	pid=""
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ "$rc" -eq "$want" ]
	ok $? "SIG$sig once both runs started: the script exits $want (got $rc)"
	[ "$rc" -eq "$want" ] || sed 's/^/#   /' "$T_TMP/$sig.out" | tail -n 15
	left "$sig" >"$T_TMP/$sig.left"
	[ ! -s "$T_TMP/$sig.left" ]
	ok $? "after SIG$sig no loop device, mount, cgroup, process or scratch file is left"
	sed 's/^/#   /' "$T_TMP/$sig.left"
done

# Runs that fail at once (an option run does not know): exit 1, and the same clean-up.
start fail --no-such-option
wait "$pid"
rc=$?
pid=""
[ "$rc" -eq 1 ] && grep -q "no-such-option" "$T_TMP/out-fail/a$$fail.log"
ok $? "runs that fail: the script exits 1 (got $rc), the run's log says why"
left fail >"$T_TMP/fail.left"
[ ! -s "$T_TMP/fail.left" ]
ok $? "after the failed runs nothing of the script's is left"
sed 's/^/#   /' "$T_TMP/fail.left"

done_testing
