#!/usr/bin/env bash
# Shared helpers for shell tests: TAP output, temp dirs, loop devices cleaned at exit.
set -u
T_N=0
T_FAILED=0
IOWATT=${IOWATT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/${O:-build}/iowatt}
[ -x "$IOWATT" ] || IOWATT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/iowatt
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
T_TMP=$(mktemp -d /var/tmp/iowatt-test.XXXXXX)
T_LOOPS=()
T_MOUNTS=()

t_cleanup() {
	local m l
	# Found again from the tree, not only from the arrays: t_loop_ext4 often runs in $(...),
	# whose array updates are lost with the subshell.
	for m in "${T_MOUNTS[@]:-}" $(findmnt -rn -o TARGET 2>/dev/null | grep "^$T_TMP/" | sort -r); do
		[ -n "$m" ] && umount -l "$m" 2>/dev/null
	done
	for l in "${T_LOOPS[@]:-}" $(losetup -nO NAME,BACK-FILE 2>/dev/null | awk -v d="$T_TMP/" 'index($2, d) == 1 {print $1}'); do
		[ -n "$l" ] && losetup -d "$l" 2>/dev/null
	done
	rm -rf "$T_TMP"
	declare -F t_cgroup_cleanup >/dev/null && t_cgroup_cleanup
}
trap t_cleanup EXIT

ok() { # ok COND_STATUS DESCRIPTION
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		T_FAILED=$((T_FAILED + 1))
		echo "not ok $T_N - $2"
	fi
}

# check DESCRIPTION -- COMMAND...: passes when the command succeeds.
check() {
	local desc=$1
	shift
	[ "$1" = "--" ] && shift
	"$@" >"$T_TMP/last.out" 2>&1
	local rc=$?
	ok $rc "$desc"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T_TMP/last.out" | head -n 20
	return $rc
}

skip() {
	T_N=$((T_N + 1))
	echo "ok $T_N # skip $1"
}

done_testing() {
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}

# For a script whose every case needs a loop device: skips the whole script, with the
# reason, where none can be set up (not root; a chroot or qemu-user without loop support).
t_need_loop() {
	local img=$T_TMP/probe.img dev err
	t_is_root || { echo "1..0 # skip loop devices need root"; exit 0; }
	truncate -s 1M "$img"
	if ! dev=$(losetup --find --show "$img" 2>"$T_TMP/probe.err"); then
		err=$(head -n 1 "$T_TMP/probe.err")
		echo "1..0 # skip cannot set up a loop device here (${err:-losetup failed})"
		exit 0
	fi
	losetup -d "$dev"
	rm -f "$img"
}

# Under qemu-user: uname says the guest CPU, the kernel's own arch file the host's (as
# tests/lib/emulation.h; 32-bit user space on its 64-bit kernel is native).
t_emulated() {
	local fam k m
	fam() { case $1 in x86_64 | i?86) echo x86 ;; aarch64* | arm*) echo arm ;; *) echo "$1" ;; esac; }
	k=$(cat /proc/sys/kernel/arch 2>/dev/null) || return 1
	m=$(uname -m)
	[ "$(fam "$k")" != "$(fam "$m")" ]
}

# No chart can be drawn under qemu-user: iowatt runs gnuplot only under a seccomp filter
# (src/core/sandbox.c), which qemu-user cannot install (prctl: EINVAL). There report
# writes its page without charts and exits 1.
T_NO_CHARTS="under qemu-user no chart can be drawn (gnuplot runs only under seccomp)"
t_skip_charts() { # [N]: skip N chart checks with that reason
	local i
	for ((i = 0; i < ${1:-1}; i++)); do skip "$T_NO_CHARTS"; done
}
t_charts_or_skip_all() { # for a script that only draws charts
	t_emulated || return 0
	echo "1..0 # skip $T_NO_CHARTS"
	exit 0
}
# For a script whose rest needs gnuplot: where it is missing, one skip with the reason (and
# WHAT is left unchecked), the plan, and exit with the cases run so far.
t_need_gnuplot() { # [WHAT]
	command -v gnuplot >/dev/null && return 0
	skip "gnuplot not installed (tests/deps.sh installs gnuplot-nox)${1:+: $1}"
	done_testing
	exit
}
t_report_written() { # RC STDERR DIR: report's exit for a page written in DIR
	if t_emulated; then [ "$1" -eq 1 ] && grep -q "wrote $3/report.html" "$2"; else [ "$1" -eq 0 ]; fi
}

# A loop device with ext4 of SIZE_MB, mounted; prints the mount point.
t_loop_ext4() {
	local mb=$1 name=${2:-fs} img dev mnt
	img="$T_TMP/$name.img"
	mnt="$T_TMP/$name"
	truncate -s "${mb}M" "$img" || return 1
	dev=$(losetup --find --show --direct-io=on "$img" 2>/dev/null || losetup --find --show "$img") || return 1
	T_LOOPS+=("$dev")
	# No lazy init: ext4 would otherwise write its inode tables in the background after
	# mount, and a test that checks a device was not written would see those writes.
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null 2>&1 || return 1
	mkdir -p "$mnt"
	mount "$dev" "$mnt" || return 1
	T_MOUNTS=("$mnt" "${T_MOUNTS[@]:-}")
	echo "$mnt"
}

t_is_root() { [ "$(id -u)" -eq 0 ]; }

# t_um25c_constant MA: an EMULATED UM25C drawing MA mA on the pty linked at $T_TMP/um, its
# pid in $emu_pid (stopped at exit with the temporary files), its spec at 10 Hz in $meter.
t_um25c_constant() {
	trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
	"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma "$1" >"$T_TMP/emu.log" 2>&1 &
	emu_pid=$!
	for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
	meter="um25c:$T_TMP/um,interval=100ms"
}

# t_emu_loop MB NAME: a mounted loop ext4 an emulated meter can follow, in $mnt, its device
# name ("loop3") in $dev; skips the test (exit 0) without loop devices or `emulate --device`.
t_emu_loop() {
	t_need_loop
	if ! "$IOWATT" emulate --help 2>&1 | grep -q -- "--device"; then
		echo "1..0 # skip iowatt emulate cannot follow a device"
		exit 0
	fi
	# Not in $(...): t_loop_ext4 records the mount for cleanup in this shell.
	t_loop_ext4 "$1" "$2" >"$T_TMP/mnt.path" || { ok 1 "loop ext4"; done_testing; exit 1; }
	mnt=$(cat "$T_TMP/mnt.path")
	dev=$(findmnt -rn -o SOURCE "$mnt")
	dev=${dev#/dev/}
}

# make demo's script, running this build's iowatt: the script runs ./iowatt of the tree
# it is in, so for another build (build-san) a copy beside links to it. Prints its path.
t_demo_script() {
	if [ "$IOWATT" = "$REPO/iowatt" ]; then
		echo "$REPO/scripts/demo.sh"
		return
	fi
	mkdir -p "$T_TMP/repo/scripts"
	cp "$REPO/scripts/demo.sh" "$T_TMP/repo/scripts/"
	ln -sf "$IOWATT" "$T_TMP/repo/iowatt"
	ln -sfn "$REPO/configs" "$T_TMP/repo/configs"
	ln -sfn "$REPO/plots" "$T_TMP/repo/plots"
	echo "$T_TMP/repo/scripts/demo.sh"
}

# JSON field with jq-like python: jget FILE EXPR (python expression on `d`).
jget() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# Throttle a block device like a slow card: t_throttle DEV RBPS WBPS RIOPS WIOPS prints a
# cgroup directory; t_in_cgroup CG COMMAND... runs COMMAND in it. cgroup v2's io.max where
# the io controller is on the unified hierarchy, else v1's blkio.throttle.* (hybrid setups).
t_cgroup_root() {
	local u
	for u in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		if grep -qw io "$u/cgroup.controllers" 2>/dev/null; then
			echo "v2 $u"
			return 0
		fi
	done
	[ -d /sys/fs/cgroup/blkio ] && { echo "v1 /sys/fs/cgroup/blkio"; return 0; }
	return 1
}

t_throttle() {
	local dev=$1 rbps=$2 wbps=$3 riops=$4 wiops=$5 kind root cg mm
	read -r kind root < <(t_cgroup_root) || return 1
	mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ') || return 1
	cg="$root/iowatt-test-$$-$RANDOM"
	mkdir "$cg" || return 1
	if [ "$kind" = v2 ]; then
		grep -qw io "$root/cgroup.subtree_control" || echo +io >"$root/cgroup.subtree_control" || return 1
		echo "$mm rbps=$rbps wbps=$wbps riops=$riops wiops=$wiops" >"$cg/io.max" || return 1
	else
		echo "$mm $rbps" >"$cg/blkio.throttle.read_bps_device" &&
		echo "$mm $wbps" >"$cg/blkio.throttle.write_bps_device" &&
		echo "$mm $riops" >"$cg/blkio.throttle.read_iops_device" &&
		echo "$mm $wiops" >"$cg/blkio.throttle.write_iops_device" || return 1
	fi
	echo "$cg"
}

t_in_cgroup() { # CG COMMAND...
	local cg=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}

# Cgroups of this test's throttles, found again from the tree like the loops above.
t_cgroup_cleanup() {
	local cg
	for cg in /sys/fs/cgroup/iowatt-test-$$-* /sys/fs/cgroup/unified/iowatt-test-$$-* \
		/sys/fs/cgroup/blkio/iowatt-test-$$-*; do
		[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	done
}
