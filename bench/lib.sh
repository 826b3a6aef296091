#!/usr/bin/env bash
# Shared by bench scripts: a loop-device ext4 target and the emulated meter, cleaned at exit.
# Source after setting BENCH (the script's name, for messages).
. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib/lib.sh"

bench_die() { # code message
	echo "$BENCH: $2" >&2
	exit "$1"
}

# bench_target MB NAME: root check, iowatt present, a mounted loop ext4 in $mnt.
bench_target() {
	t_is_root || bench_die 2 "needs root (loop device for the target)"
	[ -x "$IOWATT" ] || bench_die 2 "build iowatt first ($IOWATT)"
	# Not in $(...): t_loop_ext4 records the mount for cleanup in this shell.
	t_loop_ext4 "$1" "$2" >"$T_TMP/mnt.path" || bench_die 2 "cannot make a loop ext4"
	mnt=$(cat "$T_TMP/mnt.path")
}

# bench_sd_target MB NAME: bench_target's loop ext4, throttled like an SD card; sets mnt,
# dev (the loop's name, "loop3") and cg (its cgroup, for t_in_cgroup).
bench_sd_target() {
	bench_target "$1" "$2"
	dev=$(findmnt -rn -o SOURCE "$mnt")
	dev=${dev#/dev/}
	cg=$(bench_throttle sd "/dev/$dev") || bench_die 2 "no io throttle (cgroup io.max / blkio) here"
}

# bench_throttle sd|stick DEV: the cgroup (on stdout) that throttles DEV like an SD card
# (14/23 MB/s, 600/2200 IOPS write/read) or a USB stick (9/36 MB/s, 250/1400 IOPS).
bench_throttle() {
	case $1 in
	sd) t_throttle "$2" 23000000 14000000 2200 600 ;;
	stick) t_throttle "$2" 36000000 9000000 1400 250 ;;
	*) bench_die 2 "$1: sd or stick" ;;
	esac
}

emu_pid=""
stop_emu() {
	[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null && wait "$emu_pid" 2>/dev/null
	emu_pid=""
}

# start_emu ARGS...: the EMULATED UM25C on a pty linked at $T_TMP/um.
start_emu() {
	start_emu_as um25c "$T_TMP/um" "$@"
}

# start_emu_as NAME LINK ARGS...: any of iowatt's emulated meters on a pty linked at LINK.
start_emu_as() {
	local name=$1 link=$2
	shift 2
	rm -f "$link"
	"$IOWATT" emulate "$name" --link "$link" "$@" >"$T_TMP/emu.log" 2>&1 &
	emu_pid=$!
	for _ in $(seq 50); do [ -e "$link" ] && return 0; sleep 0.1; done
	echo "$BENCH: emulator did not start:" >&2
	cat "$T_TMP/emu.log" >&2
	return 1
}
