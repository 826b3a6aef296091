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

# An NVMe device from the kernel's nvmet loop target: health.source nvme, SMART by ioctl.
if ! command -v modprobe >/dev/null 2>&1; then
	skip "nvme-loop: no modprobe on this machine"
elif ! modprobe -q nvme-loop 2>/dev/null && [ ! -d /sys/module/nvme_loop ]; then
	skip "nvme-loop: no nvme-loop module for kernel $(uname -r)"
elif ! command -v nvme >/dev/null 2>&1; then
	skip "nvme-loop: no nvme-cli to connect the loop target"
else
	skip "nvme-loop: the module loads, but setting up an nvmet subsystem is not scripted yet"
fi
done_testing
