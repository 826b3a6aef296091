#!/usr/bin/env bash
# rw=trim and trim_before=1 (issue 32 item 4) on a raw loop device, which passes discards on
# to its backing file as punched holes: what the backing file still holds shows what was
# discarded. Energy per GB trimmed from an EMULATED meter, recomputed from the result; a
# file iowatt did not create is never discarded; compare warns when one result trimmed and
# another did not.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
truncate -s 64M "$T_TMP/card.img"
loopdev=$(losetup --find --show "$T_TMP/card.img") && T_LOOPS+=("$loopdev") ||
	{ echo "1..0 # skip cannot set up a loop device here"; exit 0; }
if [ "$(cat "/sys/block/${loopdev#/dev/}/queue/discard_max_bytes" 2>/dev/null || echo 0)" = 0 ]; then
	echo "1..0 # skip this kernel's loop devices do not discard"
	exit 0
fi
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 300 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done

kib() { du -k "$T_TMP/card.img" | cut -f1; } # what the backing file still holds

profile() { # NAME: [global] and a 16 MiB fill; the caller appends its jobs
	cat >"$T_TMP/$1.ini" <<'EOF'
[global]
direct=1
filesize=16m
size=16m
bs=1m
idle=1s
idle_samples=4
tail_max=0
tail_hold=0
[fill]
rw=write
EOF
}
run() { # NAME [ARGS...]
	local name=$1
	shift
	"$IOWATT" run "$T_TMP/$name.ini" --target "$loopdev" --allow-raw-device --no-progress \
		--meter "um25c:$T_TMP/um,interval=100ms" --json-out "$T_TMP/$name.json" "$@" \
		>"$T_TMP/$name.out" 2>&1
}

# --- rw=trim: a fill, then its 16 MiB discarded in 1 MiB pieces
profile trim
printf '[trim]\nrw=trim\n' >>"$T_TMP/trim.ini"
run trim
ok $? "a fill then rw=trim on the loop device"
held=$(kib)
echo "# backing file after fill + trim: $held KiB"
[ "$held" -lt 1024 ]
ok $? "the trim reached the device: the backing file holds under 1 MiB of the 16 MiB written"
grep -q "cannot discard" "$T_TMP/trim.out"
ok $((!$?)) "no ioengine given: the one that discards is taken without a warning"
check "energy per GB trimmed: the trim job's bytes, IOPS, and j_per_gb_net = energy_net_j / GB" -- \
	python3 - "$T_TMP/trim.json" <<'EOF'
import json, sys
j = [j for j in json.load(open(sys.argv[1]))["jobs"] if j["jobname"] == "trim"][0]
assert j["status"] == "ok" and j["options"]["rw"] == "trim", j["status"]
assert j["options"]["ioengine"] == "psync", j["options"]["ioengine"]
w = j["write"]
assert w["io_bytes"] == 16 << 20 and w["total_ios"] == 16, w
gb = w["io_bytes"] / 1e9
e, p = j["efficiency"], j["power"]
assert abs(e["j_per_gb_net"] - p["energy_net_j"] / gb) <= 1e-6 * abs(e["j_per_gb_net"]) + 1e-9, (e, p)
assert e["j_per_gb"] > 0, e
print("# trim: %.1f MB/s, %.1f J/GB trimmed (net %.1f)" % (w["bw_bytes"] / 1e6, e["j_per_gb"], e["j_per_gb_net"]))
EOF

# --- trim_before=1: the region discarded before the job, outside its measurement
profile before
printf '[read-after-trim]\nrw=read\nsize=1m\ntrim_before=1\n' >>"$T_TMP/before.ini"
run before
ok $? "a fill then a read job with trim_before=1"
check "trim_before says what it discarded, outside any measurement" -- \
	grep -q "discarding 16 MiB of $loopdev for job 'read-after-trim' (trim_before, outside any measurement)" \
	"$T_TMP/before.out"
held=$(kib)
echo "# backing file after fill + trim_before: $held KiB"
[ "$held" -lt 1024 ]
ok $? "trim_before discarded the job's whole extent, not only what it read"
check "the result keeps trim_before=1 in the job's options" -- python3 -c '
import json, sys
js = json.load(open(sys.argv[1]))["jobs"]
assert [j["options"]["trim_before"] for j in js] == [0, 1], js' "$T_TMP/before.json"

# --- never what iowatt did not create: an existing file, a device without --allow-raw-device
head -c 1048576 /dev/urandom >"$T_TMP/mine.bin"
sum=$(md5sum <"$T_TMP/mine.bin")
"$IOWATT" run --target "$T_TMP/mine.bin" --rw trim --bs 64k --size 1m --no-meter \
	--no-progress --idle 0 --json-out "$T_TMP/mine.json" >"$T_TMP/mine.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "never writes to a file it did not create" "$T_TMP/mine.out" &&
	[ "$(md5sum <"$T_TMP/mine.bin")" = "$sum" ]
ok $? "rw=trim on an existing file is refused and the file is untouched (exit $rc)"
"$IOWATT" run --target "$T_TMP/mine.bin" --rw read --trim-before 1 --bs 64k --size 1m \
	--no-meter --no-progress --idle 0 --json-out "$T_TMP/mine2.json" >"$T_TMP/mine2.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ "$(md5sum <"$T_TMP/mine.bin")" = "$sum" ]
ok $? "a read job with trim_before=1 on it too (exit $rc)"
"$IOWATT" run --target "$loopdev" --rw trim --bs 1m --size 1m --no-meter --no-progress \
	--idle 0 --json-out "$T_TMP/raw.json" >"$T_TMP/raw.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "needs --allow-raw-device" "$T_TMP/raw.out"
ok $? "rw=trim on a block device without --allow-raw-device is refused (exit $rc)"

# --- compare: one result trimmed, the other did not
profile plain
run plain
ok $? "the same fill without a trim"
"$IOWATT" compare "$T_TMP/plain.json" "$T_TMP/trim.json" >"$T_TMP/cmp.out" 2>&1
grep -q "trim.json discarded blocks (rw=trim or trim_before=1) and .*plain.json did not" "$T_TMP/cmp.out"
ok $? "compare warns that one result trimmed and the other did not"
"$IOWATT" compare "$T_TMP/trim.json" "$T_TMP/before.json" >"$T_TMP/cmp2.out" 2>&1
grep -q "discarded blocks" "$T_TMP/cmp2.out"
ok $((!$?)) "and not when both did"
done_testing
