#!/usr/bin/env bash
# size_max= caps what size=auto makes of a job: the file region holds at most size_max (a
# reader wraps around it to last its length), a writer writes at most size_max, paced to
# last its length, calibration included; the run's summary says what it wrote; a device
# busy with others' I/O is said once, and later calibrations do not wait for it.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
t_loop_ext4 256 fast >"$T_TMP/fast.path" || { ok 1 "loop ext4"; done_testing; exit 1; }
fast=$(cat "$T_TMP/fast.path")
emu_pid="" busy_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; [ -n "$busy_pid" ] && kill "$busy_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 300 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done

cap=$((2 * 1024 * 1024))
capped() { # NAME RW
	"$IOWATT" run --target "$fast/$1.dat" --meter "um25c:$T_TMP/um,interval=100ms" \
		--rw "$2" --bs 4k --iodepth 4 --size auto --size-max 2m --idle 1s \
		--idle-samples 5 --tail-max 0 --tail-hold 0 --no-progress --keep \
		--json-out "$T_TMP/$1.json" >"$T_TMP/$1.out" 2>&1
}

# what a capped result must satisfy: FILE JSON RW CAP
cat >"$T_TMP/check.py" <<'EOF'
import json, os, sys
path, res, rw, cap = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
j = json.load(open(res))["jobs"][0]
a, o = j["size_auto"], j["options"]
assert os.path.getsize(path) <= cap, ("file over size_max", os.path.getsize(path), cap)
assert o["size_max"] == cap and o["filesize"] <= cap and a["extent"] <= cap, (o, a)
assert j["validity"]["samples_active"] >= 20, j["validity"]
wanted = a["rate_bytes_per_s"] * a["target_s"]
if rw == "randwrite":
    assert j["write"]["io_bytes"] <= cap, ("wrote more than size_max", j["write"])
    assert all(t["bytes"] <= cap for t in a["tries"]), ("a calibration over size_max", a["tries"])
    if wanted > cap:
        assert o["rate_iops"] > 0 and "paced" in a["reason"], (o["rate_iops"], a["reason"])
    print("# wrote %d of at most %d; %s" % (j["write"]["io_bytes"], cap, a["reason"]))
else:
    if wanted > cap:
        assert j["read"]["io_bytes"] > cap and o["rate_iops"] == 0, ("not looped", j["read"], o)
    print("# read %d over a %d-byte file" % (j["read"]["io_bytes"], os.path.getsize(path)))
EOF

capped w randwrite
ok $? "size=auto size_max=2m, randwrite on a loop device"
check "the file, the job's writes and each calibration stay within size_max; 20 samples" -- \
	python3 "$T_TMP/check.py" "$fast/w.dat" "$T_TMP/w.json" randwrite "$cap"

capped r randread
ok $? "size=auto size_max=2m, randread"
check "a reader's file stays within size_max; it wraps around it for its 20 samples" -- \
	python3 "$T_TMP/check.py" "$fast/r.dat" "$T_TMP/r.json" randread "$cap"

# the summary's line against the result: the jobs' writes plus every calibration try's
check "the summary's 'written:' is the result's writes and calibrations" -- python3 - \
	"$T_TMP/w.json" "$T_TMP/w.json.out" "$T_TMP/w.out" <<'EOF'
import json, re, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
want = j["write"]["io_bytes"] + sum(t["bytes"] for t in j["size_auto"]["tries"])
line = [l for l in open(sys.argv[3]) if l.startswith("written: ")]
assert len(line) == 1, line
m = re.match(r"written: ([0-9.]+) (B|KiB|MiB|GiB) ", line[0])
got = float(m.group(1)) * 1024 ** ["B", "KiB", "MiB", "GiB"].index(m.group(2))
assert abs(got - want) <= 0.05 * want, (got, want, line)
print("# " + line[0].strip())
EOF

# a device busy with others' I/O: a writer beside the run on the same loop device
cat >"$T_TMP/two.ini" <<'EOF'
[a]
rw=randread
bs=4k
size=auto:300ms
filesize=4m
[b]
rw=randread
bs=4k
size=auto:300ms
filesize=4m
EOF
(while :; do dd if=/dev/zero of="$fast/busy" bs=256k count=32 oflag=direct conv=notrunc 2>/dev/null; done) &
busy_pid=$!
"$IOWATT" run "$T_TMP/two.ini" --target "$fast/b.dat" --no-meter --no-progress \
	--json-out "$T_TMP/busy.json" >"$T_TMP/busy.out" 2>&1
ok $? "two size=auto jobs beside another writer"
kill "$busy_pid" 2>/dev/null
wait "$busy_pid" 2>/dev/null
busy_pid=""
check "the busy device is said once, with what it does to the figures" -- \
	test "$(grep -c "is busy with I/O that is not iowatt's.*will not wait for it again.*idle not quiet.*shared" "$T_TMP/busy.out")" -eq 1
check "no calibration is rejected (or waited for again) for others' I/O" -- python3 - \
	"$T_TMP/busy.json" "$T_TMP/busy.out" <<'EOF'
import json, sys
out = open(sys.argv[2]).read()
assert "rejected: the device was busy" not in out, out
jobs = json.load(open(sys.argv[1]))["jobs"]
tries = [t for j in jobs for t in j["size_auto"]["tries"]]
assert not any((t["rejected"] or "").startswith("the device was busy") for t in tries), tries
# the second job's calibration did not wait
assert jobs[1]["size_auto"]["tries"][0]["wait_s"] == 0, jobs[1]["size_auto"]["tries"]
EOF

done_testing
