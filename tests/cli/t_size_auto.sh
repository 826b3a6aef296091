#!/usr/bin/env bash
# --size auto on a fast loop device and on one throttled like a slow card (cgroup io.max):
# the size is bs x 2^k, the smallest that lasts the meter's 20 samples at the calibrated
# rate, so both jobs are valid; auto:SECONDS asks for longer; --same-size keeps one size over
# every round; --same-size-as never goes below another run's size for the same job.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
# Not in $(...): t_loop_ext4 records the mount for cleanup in this shell.
t_loop_ext4 384 fast >"$T_TMP/fast.path" || { ok 1 "loop ext4"; done_testing; exit 1; }
t_loop_ext4 64 slow >"$T_TMP/slow.path" || { ok 1 "loop ext4"; done_testing; exit 1; }
fast=$(cat "$T_TMP/fast.path")
slow=$(cat "$T_TMP/slow.path")
slow_dev=$(findmnt -no SOURCE "$slow")
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cgroup_cleanup; t_cleanup' EXIT

"$IOWATT" emulate um25c --link "$T_TMP/um" --constant-ma 300 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done

metered() { # TARGET JSON [ARGS...]
	local target=$1 json=$2
	shift 2
	"$@" "$IOWATT" run --target "$target" --meter "um25c:$T_TMP/um,interval=100ms" \
		--rw randread --bs 4k --iodepth 4 --size auto --filesize 16m --idle 1s \
		--idle-samples 5 --tail-max 0 --tail-hold 0 --no-progress --json-out "$json" \
		>"$json.out" 2>&1
}

# what every size=auto result must satisfy, given its job and figures
cat >"$T_TMP/check.py" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
a = j["size_auto"]
bs = j["options"]["bs"]
size = a["size"]
k = 0
while (bs << k) < size:
    k += 1
assert size == bs << k, ("not bs x 2^k", size, bs)
want = a["rate_bytes_per_s"] * a["target_s"]
if a.get("retake"):
    # run again longer from its first run (a loaded machine moved the rate): larger
    print("# retaken:", a["retake"])
    assert size >= want, ("retaken smaller", size, want)
else:
    assert size >= want and (size == bs or size / 2 < want), ("not the smallest", size, want)
assert j["options"]["size"] == size and j["options"]["filesize"] == a["extent"], j["options"]
assert a["calibration_s"] > 0 and a["calibration_bytes"] > 0, a
if len(sys.argv) > 2:
    assert abs(a["target_s"] - float(sys.argv[2])) < 1e-6, a
print("size %d = 2^%d x %d at %.3g MB/s for %.3g s" % (size, k, bs, a["rate_bytes_per_s"] / 1e6, a["target_s"]))
EOF

metered "$fast" "$T_TMP/fast.json"
ok $? "--size auto on a fast loop device"
check "fast: bs x 2^k, the smallest lasting 20 samples of 100 ms (x2 to spare): 4 s" -- \
	python3 "$T_TMP/check.py" "$T_TMP/fast.json" 4
# Enough samples is what size=auto promises; coverage (gaps of a loaded machine's pty) is not.
check "fast: the active phase has the 20 samples a valid result needs" -- \
	python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["jobs"][0]["validity"]; assert v["samples_active"] >= 20, v' "$T_TMP/fast.json"
check "the summary says the size and why" -- \
	grep -E "^size=auto randread-4k-q4t1: .* = 2\^[0-9]+ x 4 KiB: [0-9.]+ s at .* MB/s \(.* calibration\), at least 4.0 s for 20 samples of um25c" \
	"$T_TMP/fast.json.out"

if cg=$(t_throttle "$slow_dev" 2000000 2000000 300 300); then
	metered "$slow" "$T_TMP/slow.json" t_in_cgroup "$cg"
	ok $? "--size auto on the same kind of device throttled to 300 IOPS (io.max)"
	check "slow: bs x 2^k for its own rate" -- python3 "$T_TMP/check.py" "$T_TMP/slow.json" 4
	check "slow: 20 samples too, with a smaller size than the fast device" -- python3 - \
		"$T_TMP/slow.json" "$T_TMP/fast.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["jobs"][0]
f = json.load(open(sys.argv[2]))["jobs"][0]
assert s["validity"]["samples_active"] >= 20, s["validity"]
assert s["size_auto"]["size"] < f["size_auto"]["size"], (s["size_auto"], f["size_auto"])
assert s["size_auto"]["rate_bytes_per_s"] < 2e6, s["size_auto"]
EOF
else
	skip "no cgroup io controller to throttle a device with"
	skip "no cgroup io controller"
	skip "no cgroup io controller"
fi

quick() { # JSON ARGS...
	local json=$1
	shift
	"$IOWATT" run --target "$fast" --no-meter --rw read --bs 64k --filesize 8m --direct 0 \
		--ioengine psync --no-progress --json-out "$json" "$@" >"$json.out" 2>&1
}
quick "$T_TMP/s1.json" --size auto:500ms
ok $? "--size auto:500ms without a meter"
check "auto:SECONDS sets the time to last" -- python3 "$T_TMP/check.py" "$T_TMP/s1.json" 0.5
size=$(jget "$T_TMP/s1.json" 'd["jobs"][0]["size_auto"]["size"]')
quick "$T_TMP/rep.json" --size auto:100ms --same-size --repeat 3
ok $? "--size auto --same-size --repeat 3"
check "one calibration before the rounds: the same size in every round" -- python3 - \
	"$T_TMP/rep.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
a = [j["size_auto"] for j in d["jobs"]]
assert [j["round"] for j in d["jobs"]] == [1, 2, 3], d["jobs"]
assert len({x["size"] for x in a}) == 1 and len({x["calibration_bytes"] for x in a}) == 1, a
assert all(j["options"]["size"] == a[0]["size"] for j in d["jobs"]), a
EOF
python3 - "$T_TMP/s1.json" "$T_TMP/other.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["size_auto"]["size"] *= 4
json.dump(d, open(sys.argv[2], "w"))
EOF
# The rule, not the loaded machine's rate: the size is the larger of this run's own choice
# (bs x 2^k for its calibrated rate) and the other run's; at auto:100ms against four times
# a 500 ms size, the other run's wins unless this calibration ran 20 times faster.
quick "$T_TMP/s2.json" --size auto:100ms --same-size --same-size-as "$T_TMP/other.json"
ok $? "--same-size --same-size-as another run with a larger size"
check "the larger of the two sizes wins, and the result says where it came from" -- python3 - \
	"$T_TMP/s2.json" "$size" "$T_TMP/other.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
a, bs, other = j["size_auto"], j["options"]["bs"], 4 * int(sys.argv[2])
own = bs
while own < a["rate_bytes_per_s"] * a["target_s"]:
    own <<= 1
want, frm = (other, sys.argv[3]) if other > own else (own, "calibration")
assert a["size"] == want and a["from"] == frm and j["options"]["size"] == want, (a, own, other)
print("# own size %d, the other run's %d: %s won" % (own, other, frm))
EOF
# A size from another file is checked as one given here: one that is not a multiple of bs
# is refused before any I/O, naming the file (the job moved less than it claimed before).
python3 - "$T_TMP/s1.json" "$T_TMP/odd.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["size_auto"]["size"] = d["jobs"][0]["size_auto"]["size"] * 64 + 4096
json.dump(d, open(sys.argv[2], "w"))
EOF
! quick "$T_TMP/s4.json" --size auto:100ms --same-size-as "$T_TMP/odd.json" &&
	grep -q "taken from $T_TMP/odd.json does not fit" "$T_TMP/s4.json.out" &&
	grep -q "not a multiple of bs" "$T_TMP/s4.json.out"
ok $? "--same-size-as a size that is not a multiple of bs is refused, naming the file"
"$IOWATT" run --target "$fast" --no-meter --rw read --size auto:0.5us --json-out \
	"$T_TMP/bad.json" >"$T_TMP/bad.out" 2>&1
[ $? -eq 2 ] && grep -q "expected auto or auto:SECONDS" "$T_TMP/bad.out"
ok $? "--size auto:0.5us is refused with what to write instead"

for f in fast slow; do [ -f "$T_TMP/$f.json" ] && echo "# $f: $(jget "$T_TMP/$f.json" "d[\"jobs\"][0][\"validity\"][\"samples_active\"]") samples"; done
done_testing
