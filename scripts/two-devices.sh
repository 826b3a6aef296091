#!/usr/bin/env bash
# Two throttled loop devices, like an SD card and a USB stick, each with ext4 and an
# EMULATED UM25C polled at its real 2 Hz, running one profile; then plot, compare, report.
# Root only (loop devices, mounts, the blkio/io cgroup). Usage:
#   scripts/two-devices.sh OUTDIR [PROFILE] [extra run options...]
# The speeds are those of the field notes: SD 14/23 MB/s and 600/2200 IOPS, stick 9/36 MB/s
# and 250/1400 IOPS (write/read). NAMES="A B" names the two results (default "sd stick"),
# INTERVAL the meters' poll period (default 500ms, the testers' real rate).
set -eu
cd "$(dirname "$0")/.."
out=${1:?usage: two-devices.sh OUTDIR [PROFILE] [run options]}
profile=${2:-quick}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /var/tmp/iowatt-two.XXXXXX)
pids=() loops=() mnts=() cgs=()
cleanup() {
	local p
	for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	for p in "${mnts[@]:-}"; do [ -n "$p" ] && umount -l "$p" 2>/dev/null; done
	for p in "${loops[@]:-}"; do [ -n "$p" ] && losetup -d "$p" 2>/dev/null; done
	for p in "${cgs[@]:-}"; do [ -n "$p" ] && rmdir "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT

# throttle CGROUP_NAME MAJ:MIN wbps rbps wiops riops: a cgroup (v2 io.max or v1 blkio);
# sets procs to its procs file.
throttle() {
	local cg
	if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw io /sys/fs/cgroup/cgroup.controllers; then
		cg=/sys/fs/cgroup/$1
		mkdir -p "$cg"
		echo "$2 wbps=$3 rbps=$4 wiops=$5 riops=$6" >"$cg/io.max"
	else
		cg=/sys/fs/cgroup/blkio/$1
		mkdir -p "$cg"
		echo "$2 $3" >"$cg/blkio.throttle.write_bps_device"
		echo "$2 $4" >"$cg/blkio.throttle.read_bps_device"
		echo "$2 $5" >"$cg/blkio.throttle.write_iops_device"
		echo "$2 $6" >"$cg/blkio.throttle.read_iops_device"
	fi
	cgs+=("$cg")
	procs=$cg/cgroup.procs
}

# device NAME wbps rbps wiops riops: loop + ext4 + emulator + throttled run, in the background.
device() {
	local name=$1 img dev mnt
	shift
	img=$work/$name.img
	mnt=$work/$name
	truncate -s 2G "$img"
	dev=$(losetup --find --show --direct-io=on "$img")
	loops+=("$dev")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
	mkdir -p "$mnt"
	mount "$dev" "$mnt"
	mnts+=("$mnt")
	throttle "iowatt-$name" "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')" "$1" "$2" "$3" "$4"
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

runs=() devs=()
read -r sd stick <<<"${NAMES:-sd stick}"
device "$sd" 14000000 23000000 600 2200 "$@"
device "$stick" 9000000 36000000 250 1400 "$@"
rc=0
for p in "${runs[@]}"; do wait "$p" || rc=1; done
labels=(--label "$out/$sd.json=SD-like (${devs[0]})" --label "$out/$stick.json=USB-stick-like (${devs[1]})")
./iowatt plot "${labels[@]}" -o "$out/plots" "$out/$sd.json" "$out/$stick.json" || rc=1
./iowatt compare "${labels[@]}" "$out/$sd.json" "$out/$stick.json" >"$out/compare.txt" || rc=1
./iowatt report "${labels[@]}" -o "$out" "$out/$sd.json" "$out/$stick.json" || rc=1
exit $rc
