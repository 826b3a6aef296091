#!/usr/bin/env bash
# jobs[].wear on loop devices: 4 KiB synced records through ext4 (journal) cost the device more than O_DIRECT on the raw device; NVMe from nvmet's loop target where it exists.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
t_need_loop

# wa RESULT: the first job's write_amplification, device_bytes, job_bytes and device.
wear() { jget "$1" "' '.join(str(d['jobs'][0]['wear'][k]) for k in ('write_amplification', 'device_bytes', 'job_bytes', 'device'))"; }

mnt=$(t_loop_ext4 64 fs) || { ok 1 "loop ext4"; done_testing; exit 1; }
fsdev=$(basename "$(findmnt -no SOURCE "$mnt")")
$IOWATT run --target "$mnt" --rw write --bs 4k --size 4m --direct 0 --fdatasync 1 --no-meter \
	--idle 0 -o "$T_TMP/fs-res" >"$T_TMP/fs.log" 2>&1
ok $? "4 KiB synced appends through ext4 on $fsdev"
read -r wa_fs dev_fs job_fs disk_fs < <(wear "$T_TMP"/fs-res/*.json)
echo "# ext4 + fdatasync: write_amplification $wa_fs ($dev_fs device bytes / $job_fs job bytes)"
[ "$disk_fs" = "$fsdev" ]
ok $? "a file's writes count on the disk under its filesystem ($disk_fs)"
[ "$job_fs" -eq 4194304 ]
ok $? "job_bytes is what the job wrote"
# Each fdatasync of a growing file commits the journal: data + journal blocks + a commit.
python3 -c "import sys; sys.exit(0 if float('$wa_fs') > 1.2 else 1)"
ok $? "the journal shows: amplification above 1.2 through ext4 ($wa_fs)"

new_loop() {
	local img="$T_TMP/$1.img"
	truncate -s "$2M" "$img" || return 1
	loopdev=$(losetup --find --show "$img") || return 1
	T_LOOPS+=("$loopdev")
}
new_loop raw 64 || { ok 1 "raw loop"; done_testing; exit 1; }
$IOWATT run --target "$loopdev" --allow-raw-device --rw write --bs 4k --size 4m --direct 1 \
	--fdatasync 1 --no-meter --idle 0 -o "$T_TMP/raw-res" >"$T_TMP/raw.log" 2>&1
ok $? "4 KiB synced O_DIRECT writes on the raw $(basename "$loopdev")"
read -r wa_raw dev_raw job_raw disk_raw < <(wear "$T_TMP"/raw-res/*.json)
echo "# raw O_DIRECT: write_amplification $wa_raw ($dev_raw / $job_raw)"
[ "$dev_raw" -eq "$job_raw" ]
ok $? "on the raw device what the job wrote is what reached it ($dev_raw = $job_raw)"
python3 -c "import sys; sys.exit(0 if float('$wa_fs') > float('$wa_raw') else 1)"
ok $? "ext4's records cost the device more than raw ones ($wa_fs > $wa_raw)"

# An NVMe device from the kernel's nvmet loop target (Documentation/nvme/nvme-target):
# a subsystem over a loop device, a port of trtype loop, connected through /dev/nvme-fabrics.
# Each step that cannot be taken here skips with its reason; only a device that appeared
# is checked.
NVMET=/sys/kernel/config/nvmet
nq=iowatt-wear-$$
nvmet_down() {
	[ -n "${nvme_ctrl:-}" ] && echo 1 >"/sys/class/nvme/$nvme_ctrl/delete_controller" 2>/dev/null
	[ -n "${nvme_port:-}" ] && rm -f "$nvme_port/subsystems/$nq" 2>/dev/null && rmdir "$nvme_port" 2>/dev/null
	if [ -d "$NVMET/subsystems/$nq" ]; then
		echo 0 >"$NVMET/subsystems/$nq/namespaces/1/enable" 2>/dev/null
		rmdir "$NVMET/subsystems/$nq/namespaces/1" "$NVMET/subsystems/$nq" 2>/dev/null
	fi
	t_cleanup
}
nvmet_up() {
	local sub=$NVMET/subsystems/$nq before after b
	command -v modprobe >/dev/null 2>&1 || { why="no modprobe on this machine"; return 1; }
	modprobe -q nvme-loop 2>/dev/null || [ -d /sys/module/nvme_loop ] ||
		{ why="no nvme-loop module for kernel $(uname -r)"; return 1; }
	[ -d "$NVMET" ] || mount -t configfs none /sys/kernel/config 2>/dev/null
	[ -d "$NVMET" ] || { why="no nvmet in configfs"; return 1; }
	[ -w /dev/nvme-fabrics ] || { why="no /dev/nvme-fabrics"; return 1; }
	new_loop nvme 64 || { why="no loop device to back the namespace"; return 1; }
	trap nvmet_down EXIT
	mkdir "$sub" && echo 1 >"$sub/attr_allow_any_host" && mkdir "$sub/namespaces/1" &&
		echo -n "$loopdev" >"$sub/namespaces/1/device_path" &&
		echo 1 >"$sub/namespaces/1/enable" || { why="nvmet refused the subsystem"; return 1; }
	nvme_port=$NVMET/ports/$((4000 + $$ % 1000))
	mkdir "$nvme_port" && echo loop >"$nvme_port/addr_trtype" &&
		ln -s "$sub" "$nvme_port/subsystems/$nq" || { why="nvmet refused the loop port"; return 1; }
	before=$(ls /sys/class/nvme 2>/dev/null)
	echo "transport=loop,nqn=$nq" >/dev/nvme-fabrics 2>"$T_TMP/fabrics.err" ||
		{ why="connect failed: $(head -n 1 "$T_TMP/fabrics.err")"; return 1; }
	for b in $(ls /sys/class/nvme); do
		echo "$before" | grep -qx "$b" || nvme_ctrl=$b
	done
	for _ in $(seq 50); do
		nvme_ns=$(ls /sys/block | grep -E "^nvme[0-9]+n1$" | while read -r b; do
			[ "$(cat "/sys/block/$b/device/subsysnqn" 2>/dev/null || cat "/sys/block/$b/device/device/subsysnqn" 2>/dev/null)" = "$nq" ] && echo "$b"
		done | head -n 1)
		[ -n "$nvme_ns" ] && [ -b "/dev/$nvme_ns" ] && return 0
		sleep 0.1
	done
	why="the namespace of controller ${nvme_ctrl:-?} did not appear"
	return 1
}
why=""
if ! nvmet_up; then
	skip "nvme-loop: $why"
else
	$IOWATT run --target "/dev/$nvme_ns" --allow-raw-device --rw write --bs 4k --size 4m \
		--direct 1 --no-meter --idle 0 -o "$T_TMP/nvme-res" >"$T_TMP/nvme.log" 2>&1
	ok $? "writes to the nvmet loop namespace $nvme_ns"
	f=$(ls "$T_TMP"/nvme-res/*.json)
	[ "$(jget "$f" "d['context']['device']['health']['source']")" = nvme ]
	ok $? "its health is read as NVMe"
	jget "$f" "d['context']['device']['health']['data_units_written']" | grep -qE "^[0-9]+$"
	ok $? "the SMART log came through the admin ioctl (data units written)"
	jget "$f" "d['jobs'][0]['wear']['smart_bytes']" | grep -qE "^-?[0-9]+$"
	ok $? "wear has the drive's own count over the job"
fi
done_testing
