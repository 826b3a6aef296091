#!/usr/bin/env bash
# `iowatt run` against real targets: raw-device refusals, tmpfs, ENOSPC, user files, SIGINT,
# byte counts from the kernel's own disk statistics, and every shipped profile.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
if "$IOWATT" run --help 2>&1 | grep -q "not available in this build"; then
	skip "iowatt run is not in this build yet"
	done_testing
	exit
fi

run() { # run LOGNAME ARGS... : iowatt run with a time limit, output kept in $T_TMP/LOGNAME
	local log=$1
	shift
	timeout 120 "$IOWATT" run --no-progress "$@" >"$T_TMP/$log" 2>&1
}
show() { sed 's/^/#   /' "$T_TMP/$1" | tail -n 8; }
# refused LOG DESC REGEX ARGS...: the run fails and says something matching REGEX.
refused() {
	local log=$1 desc=$2 re=$3 rc
	shift 3
	run "$log" "$@"
	rc=$?
	ok $((rc == 0)) "$desc is refused (rc=$rc)"
	grep -qE -- "$re" "$T_TMP/$log" || { show "$log"; false; }
	ok $? "$desc: the message matches /$re/"
}
# Sectors the kernel has read (field 3) or written (field 7) on a disk, from /sys/block/X/stat.
sectors() { awk -v f="$2" '{print $f}' "/sys/block/$1/stat"; }
# new_loop NAME MB: an unmounted loop device over a new image, in $loopdev. Called without
# $(...) so that the cleanup list is kept (as t_loop_ext4 below).
new_loop() {
	local img="$T_TMP/$1.img"
	loopdev=""
	truncate -s "$2M" "$img" || return 1
	loopdev=$(losetup --find --show --direct-io=on "$img" 2>/dev/null ||
		losetup --find --show "$img") || return 1
	T_LOOPS+=("$loopdev")
}

t_loop_ext4 64 fs >/dev/null || { ok 1 "loop ext4"; done_testing; exit 1; }
mnt=$T_TMP/fs
mdev=$(findmnt -no SOURCE "$mnt")

# 1. A mounted device: refused without --allow-raw-device, and still refused with it.
# Read-only for the comparison: a mounted ext4 writes its own superblock and journal now
# and then, which made the checksum below change without iowatt (seen under load).
sync
mount -o remount,ro "$mnt"
sum_before=$(sha256sum "$mdev" | cut -d' ' -f1)
refused raw1.log "a raw device without --allow-raw-device" "--allow-raw-device" \
	--rw write --bs 1M --size 4M --target "$mdev"
refused raw2.log "a mounted device, even with --allow-raw-device" "is mounted" \
	--rw write --bs 1M --size 4M --target "$mdev" --allow-raw-device
[ "$(sha256sum "$mdev" | cut -d' ' -f1)" = "$sum_before" ]
ok $? "the mounted device was not written"
mount -o remount,rw "$mnt"

# 2. An unmounted device holding ext4: refused for its signature unless --force.
new_loop sig 32 && mkfs.ext4 -q -F "$loopdev" >/dev/null 2>&1
ldev=$loopdev
refused sig.log "a device holding ext4" "ext4 filesystem signature.*--force" \
	--rw write --bs 1M --size 4M --target "$ldev" --allow-raw-device

# 2b. A disk whose partition is mounted: refused, naming the partition.
#     The MBR is written by hand: Debian's sfdisk is in a package of its own.
truncate -s 48M "$T_TMP/part.img"
python3 - "$T_TMP/part.img" <<'PY'
import struct, sys
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", 0x83, b"\xfe\xff\xff", 2048,
                           48 * 2048 - 2048)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
PY
loopdev=$(losetup --find --show --partscan "$T_TMP/part.img") && T_LOOPS+=("$loopdev")
refused ptable.log "a disk holding only a partition table" "dos partition table signature" \
	--rw write --bs 1M --size 1M --target "$loopdev" --allow-raw-device
# Without udev the kernel lists the partition in sysfs but nobody makes its node.
p1sys=/sys/block/$(basename "${loopdev:-none}")/$(basename "${loopdev:-none}")p1
p1=$T_TMP/part1.node
if [ -n "$loopdev" ] && [ -r "$p1sys/dev" ] &&
	mknod "$p1" b "$(cut -d: -f1 "$p1sys/dev")" "$(cut -d: -f2 "$p1sys/dev")" &&
	mkfs.ext4 -q -F "$p1" >/dev/null 2>&1 && mkdir -p "$T_TMP/part" &&
	mount "$p1" "$T_TMP/part"; then
	T_MOUNTS=("$T_TMP/part" "${T_MOUNTS[@]:-}")
	refused part.log "a disk with a mounted partition" "has a partition mounted \($(basename "$loopdev")p1" \
		--rw read --bs 4k --size 1M --target "$loopdev" --allow-raw-device
else
	skip "cannot build a partitioned loop device here"
fi

# 3. Bytes moved equal `size`, counted by the kernel on the raw loop device (not by iowatt).
w0=$(sectors "$(basename "$ldev")" 7)
run bytes.log --rw write --bs 1M --iodepth 4 --size 8M --target "$ldev" --allow-raw-device \
	--force --json-out "$T_TMP/bytes.json"
rc=$?
ok $rc "a forced write job on the raw loop device runs (rc=$rc)"
[ $rc -eq 0 ] || show bytes.log
w1=$(sectors "$(basename "$ldev")" 7)
ok $(((w1 - w0) * 512 == 8 * 1048576 ? 0 : 1)) \
	"the device saw exactly 8 MiB written: $(((w1 - w0) * 512)) bytes from /sys/block stat"
r0=$(sectors "$(basename "$ldev")" 3)
run bytes2.log --rw randread --bs 4k --iodepth 8 --size 2M --target "$ldev" --allow-raw-device \
	--force --json-out "$T_TMP/bytes2.json"
rc=$?
r1=$(sectors "$(basename "$ldev")" 3)
ok $(((rc == 0 && (r1 - r0) * 512 >= 2 * 1048576) ? 0 : 1)) \
	"a random read job read at least its 2 MiB: $(((r1 - r0) * 512)) bytes (rc=$rc)"
[ "$(jget "$T_TMP/bytes2.json" 'd["jobs"][0]["read"]["io_bytes"]')" = $((2 * 1048576)) ]
ok $? "and reports io_bytes = size"

# 4. tmpfs: direct=1 is refused with a direct=0 hint; direct=0 runs on the default engine
#    and on psync; no test file is left behind.
if [ -d /dev/shm ]; then
	before=$(ls /dev/shm | grep '^iowatt-' | sort)
	refused shm.log "direct=1 on tmpfs" "tmpfs at /dev/shm has no O_DIRECT.*--direct=0" \
		--rw read --bs 4k --size 1M --target /dev/shm --json-out "$T_TMP/shm.json"
	run shm2.log --rw read --bs 4k --size 1M --direct 0 --ioengine psync --target /dev/shm \
		--json-out "$T_TMP/shm2.json"
	ok $? "--direct=0 --ioengine=psync on tmpfs runs"
	run shm3.log --rw randrw --bs 4k --size 1M --iodepth 8 --direct 0 --target /dev/shm \
		--json-out "$T_TMP/shm3.json"
	ok $? "--direct=0 with the default engine on tmpfs runs"
	[ "$(jget "$T_TMP/shm3.json" 'd["jobs"][0]["read"]["io_bytes"] + d["jobs"][0]["write"]["io_bytes"]')" = 1048576 ]
	ok $? "and moves exactly its size ($(jget "$T_TMP/shm3.json" 'd["jobs"][0]["options"]["ioengine"]'))"
	# Other runs may use /dev/shm at the same time: look for this run's own file only.
	[ ! -e "$T_TMP/shm.json" ]
	ok $? "the refusal comes before any job: no result file"
	f2=$(jget "$T_TMP/shm2.json" 'd["context"]["target"]["path"]')
	[ -n "$f2" ] && [ ! -e "$f2" ]
	ok $? "the psync run's test file is gone from /dev/shm ($f2)"
	# Other runs may use /dev/shm at the same time: a leftover would be a name not seen
	# before whose pid is not alive.
	left=""
	for f in $(comm -13 <(echo "$before") <(ls /dev/shm | grep '^iowatt-' | sort)); do
		pid=${f#iowatt-}
		pid=${pid%.tmp}
		kill -0 "$pid" 2>/dev/null || left="$left $f"
	done
	[ -z "$left" ]
	ok $? "the refused run left no file in /dev/shm ($left)"
else
	skip "no /dev/shm"
fi

# 5. Free space: a job larger than the filesystem is refused before anything is written.
t_loop_ext4 16 small >/dev/null
small=$T_TMP/small
refused nospace.log "a 64 MiB job on a 16 MiB filesystem" "needs 64 MiB.*free on $small \(ext4\)" \
	--rw write --bs 1M --size 64M --target "$small"
[ -z "$(ls "$small" | grep '^iowatt-')" ]
ok $? "no test file is left on the small filesystem"

# 6. ENOSPC in the middle of a job: the image under the filesystem lives on a tmpfs smaller
#    than the filesystem claims, so the writes run out of space after the free-space check.
mkdir -p "$T_TMP/tm" "$T_TMP/thin"
if mount -t tmpfs -o size=20M iowatt-test "$T_TMP/tm"; then
	T_MOUNTS=("$T_TMP/tm" "${T_MOUNTS[@]:-}")
	truncate -s 64M "$T_TMP/tm/thin.img"
	tdev=$(losetup --find --show "$T_TMP/tm/thin.img") && T_LOOPS+=("$tdev")
	mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$tdev" >/dev/null 2>&1 &&
		mount -o errors=continue "$tdev" "$T_TMP/thin" &&
		T_MOUNTS=("$T_TMP/thin" "${T_MOUNTS[@]:-}")
	cat >"$T_TMP/two.ini" <<-EOF
		[global]
		bs=1M
		iodepth=4
		[first]
		rw=write
		size=2M
		[second]
		rw=write
		size=40M
	EOF
	run enospc.log "$T_TMP/two.ini" --target "$T_TMP/thin" --json-out "$T_TMP/enospc.json"
	rc=$?
	ok $((rc == 0)) "a job that runs out of space mid-way makes the run fail (rc=$rc)"
	[ "$(jget "$T_TMP/enospc.json" '[j["status"] for j in d["jobs"]]')" = "['ok', 'failed']" ]
	ok $? "the completed job is kept ok, the second is failed" ||
		jget "$T_TMP/enospc.json" '[(j["status"], j.get("error")) for j in d["jobs"]]' | sed 's/^/#   /'
	[ -z "$(ls "$T_TMP/thin" | grep '^iowatt-')" ]
	ok $? "no test file is left after the failure"
else
	skip "cannot mount a tmpfs for the mid-job ENOSPC test"
fi

# 7. An existing user file is never written without --force.
head -c 8M /dev/urandom >"$mnt/user.dat"
sum=$(sha256sum "$mnt/user.dat" | cut -d' ' -f1)
refused user1.log "a write job on an existing file" "never writes.*--force" \
	--rw randwrite --bs 4k --size 8M --target "$mnt/user.dat"
run user2.log --rw read --bs 64k --size 8M --target "$mnt/user.dat" --json-out "$T_TMP/user.json"
ok $? "a read job reads the existing file as it is"
[ "$(sha256sum "$mnt/user.dat" | cut -d' ' -f1)" = "$sum" ] && [ -f "$mnt/user.dat" ]
ok $? "the user's file is unchanged (sha256) and still there"

# 8. SIGINT mid-job: partial result marked interrupted, no test file left, exit 130.
rm -f "$mnt/user.dat"
# timeout --foreground: without it timeout(1) passes the signal to its child and then to the
# whole process group, and a second SIGINT means "exit now" to iowatt.
timeout --foreground 120 "$IOWATT" run --no-progress --rw write --bs 1M --size 16M \
	--rate-iops 2 --target "$mnt" --json-out "$T_TMP/int.json" >"$T_TMP/int.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -n "$(ls "$mnt" | grep '^iowatt-.*\.tmp$')" ] && break
	sleep 0.1
done
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
ok $((rc == 130 ? 0 : 1)) "SIGINT mid-job exits 130 (rc=$rc)"
[ "$(jget "$T_TMP/int.json" 'd["jobs"][0]["status"] + " " + d["status"]')" = "interrupted interrupted" ]
ok $? "the partial result says interrupted" || show int.log
[ -z "$(ls "$mnt" | grep '^iowatt-')" ]
ok $? "no test file is left after the interrupt"

# 9. Every shipped profile runs, shrunk: size and filesize the smallest multiple of every bs
#    of the profile that is at least 4 MiB, no pacing and no thinktime pauses (iot-logger's
#    8 s pauses would make 64 bursts take 9 minutes), one loop.
cat >"$T_TMP/shrink.py" <<'PY'
import math, re, sys
mult = {"": 1, "k": 1024, "m": 1 << 20, "g": 1 << 30}
l = 4096
for line in open(sys.argv[1]):
    m = re.match(r"\s*bs\s*=\s*(\d+)\s*([kmg]?)", line, re.I)
    if m:
        l = math.lcm(l, int(m.group(1)) * mult[m.group(2).lower()])
print(l * max(1, -(-(4 << 20) // l)))
PY
t_loop_ext4 256 prof >/dev/null
for p in "$REPO"/configs/*.ini; do
	[ -f "$p" ] || { skip "no profiles in configs/"; break; }
	name=$(basename "$p" .ini)
	sz=$(python3 "$T_TMP/shrink.py" "$p")
	run "prof-$name.log" "$p" --size "$sz" --filesize "$sz" --rate-iops 0 --thinktime 0 --loops 1 \
		--target "$T_TMP/prof" --json-out "$T_TMP/prof-$name.json"
	rc=$?
	# A profile may pin an engine a minimal build lacks (sbc-fio: libaio).
	if [ $rc -ne 0 ] && grep -q "for 'ioengine': expected one of" "$T_TMP/prof-$name.log"; then
		skip "profile $name: $(grep -o "bad value.*" "$T_TMP/prof-$name.log")"
		continue
	fi
	# Or one this kernel refuses (qemu-user: libaio answers ENOSYS).
	if [ $rc -ne 0 ] && grep -q "is not available here" "$T_TMP/prof-$name.log"; then
		skip "profile $name: $(grep -o "ioengine=[a-z_]*: [^;]*" "$T_TMP/prof-$name.log" | head -n 1)"
		continue
	fi
	ok $rc "profile $name runs with --size $sz (rc=$rc)"
	[ $rc -eq 0 ] || show "prof-$name.log"
done
[ -z "$(ls "$T_TMP/prof" | grep '^iowatt-')" ]
ok $? "no test file is left after the profiles"

done_testing
