#!/usr/bin/env bash
# Two throttled loop devices, like an SD card and a USB stick, each with ext4 and an
# EMULATED UM25C polled at its real 2 Hz, running one profile; then plot, compare, report.
# Root only (loop devices, mounts, the io/blkio cgroup). Usage:
#   scripts/two-devices.sh OUTDIR [PROFILE] [extra run options...]
# The speeds are those of the field notes: SD 14/23 MB/s and 600/2200 IOPS, stick 9/36 MB/s
# and 250/1400 IOPS (write/read). NAMES="A B" names the two results (default "sd stick"),
# INTERVAL the meters' poll period (default 500ms, the testers' real rate), IMG_SIZE each
# loop device's size (default 2G).
# Whatever ends it (the runs' end, a failure, Ctrl-C: exit 130, SIGTERM: exit 143), it stops
# the runs and the emulators, unmounts, detaches the loop devices and removes its cgroups
# and scratch directory.
set -eu
cd "$(dirname "$0")/.."
out=${1:?usage: two-devices.sh OUTDIR [PROFILE] [run options]}
profile=${2:-quick}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$out"
out=$(cd "$out" && pwd)
pids=() runs=() devs=() loops=() mnts=() cgs=() work=""

cleanup() {
	local p
	# Once: a second Ctrl-C must not leave half of it undone.
	trap '' INT TERM
	set +e
	# The runs first: their files keep the mounts busy and their pids the cgroups.
	for p in "${runs[@]}" "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${runs[@]}" "${pids[@]}"; do wait "$p" 2>/dev/null; done
	for p in "${mnts[@]}"; do umount "$p" 2>/dev/null || umount -l "$p"; done
	for p in "${loops[@]}"; do losetup -d "$p"; done
	for p in "${cgs[@]}"; do rmdir "$p"; done
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
work=$(mktemp -d /var/tmp/iowatt-two.XXXXXX)
echo "scratch: $work"

# throttle CGROUP_NAME MAJ:MIN wbps rbps wiops riops: a cgroup (v2 io.max where the io
# controller is on the unified hierarchy, else v1 blkio); sets procs to its procs file.
throttle() {
	local cg root
	for root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		grep -qw io "$root/cgroup.controllers" 2>/dev/null && break
		root=""
	done
	if [ -n "$root" ]; then
		grep -qw io "$root/cgroup.subtree_control" || echo +io >"$root/cgroup.subtree_control"
		cg=$root/$1
		mkdir "$cg"
		cgs+=("$cg")
		echo "$2 wbps=$3 rbps=$4 wiops=$5 riops=$6" >"$cg/io.max"
	else
		cg=/sys/fs/cgroup/blkio/$1
		mkdir "$cg"
		cgs+=("$cg")
		echo "$2 $3" >"$cg/blkio.throttle.write_bps_device"
		echo "$2 $4" >"$cg/blkio.throttle.read_bps_device"
		echo "$2 $5" >"$cg/blkio.throttle.write_iops_device"
		echo "$2 $6" >"$cg/blkio.throttle.read_iops_device"
	fi
	procs=$cg/cgroup.procs
}

# device NAME wbps rbps wiops riops: loop + ext4 + emulator + throttled run, in the background.
device() {
	local name=$1 img dev mnt
	shift
	img=$work/$name.img
	mnt=$work/$name
	truncate -s "${IMG_SIZE:-2G}" "$img"
	dev=$(losetup --find --show --direct-io=on "$img")
	loops+=("$dev")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
	mkdir -p "$mnt"
	mount "$dev" "$mnt"
	mnts+=("$mnt")
	throttle "iowatt-$name-$$" "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')" "$1" "$2" "$3" "$4"
	shift 4
	./iowatt emulate um25c --link "$work/$name.um25c" --device "$(basename "$dev")" &
	pids+=($!)
	for _ in $(seq 50); do [ -e "$work/$name.um25c" ] && break; sleep 0.1; done
	( echo $BASHPID >"$procs"
	  exec ./iowatt run "$profile" --target "$mnt" --no-progress \
		--meter "um25c:$work/$name.um25c,interval=${INTERVAL:-500ms}" --json-out "$out/$name.json" "$@" \
		>"$out/$name.log" 2>&1 ) &
	runs+=($!)
	devs+=("$(basename "$dev")")
	echo "$name: $dev on $mnt, log $out/$name.log"
}

read -r sd stick <<<"${NAMES:-sd stick}"
device "$sd" 14000000 23000000 600 2200 "$@"
device "$stick" 9000000 36000000 250 1400 "$@"
rc=0
for p in "${runs[@]}"; do wait "$p" || rc=1; done
runs=()
labels=(--label "$out/$sd.json=SD-like (${devs[0]})" --label "$out/$stick.json=USB-stick-like (${devs[1]})")
./iowatt plot "${labels[@]}" -o "$out/plots" "$out/$sd.json" "$out/$stick.json" || rc=1
./iowatt compare "${labels[@]}" "$out/$sd.json" "$out/$stick.json" >"$out/compare.txt" || rc=1
./iowatt report "${labels[@]}" -o "$out" "$out/$sd.json" "$out/$stick.json" || rc=1
exit $rc
