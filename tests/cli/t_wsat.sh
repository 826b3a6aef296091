#!/usr/bin/env bash
# configs/wsat.ini (issue 32 item 3) on a raw loop device throttled like a slow card (cgroup
# io.max or blkio) with a small bound on GB written, an EMULATED UM25C following the device:
# the plan states the bound, the rounds stop once SNIA PTS's window holds (the verdict
# recomputed here from the rounds' IOPS), and the wsat chart puts each round at the bytes the
# run had written by its end.
. "$(dirname "$0")/../lib/lib.sh"

t_need_loop
if ! "$IOWATT" emulate --help 2>&1 | grep -q -- "--device"; then
	echo "1..0 # skip iowatt emulate cannot follow a device"
	exit 0
fi
truncate -s 64M "$T_TMP/card.img"
loopdev=$(losetup --find --show "$T_TMP/card.img") && T_LOOPS+=("$loopdev") ||
	{ echo "1..0 # skip cannot set up a loop device here"; exit 0; }
# 4 MB/s and 1000 IOPS: each 12 MiB round lasts about 3 s, 30 readings at 10 Hz
if ! cg=$(t_throttle "$loopdev" 0 4000000 0 1000 2>/dev/null); then
	echo "1..0 # skip no io throttle here (cgroup v2 io.max or v1 blkio): an unthrottled loop device has no rate a round could settle at"
	exit 0
fi
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

"$IOWATT" emulate um25c --link "$T_TMP/um" --device "${loopdev#/dev/}" --idle-ma 90 \
	--ma-per-mbps 20 --ma-per-kiops 100 >"$T_TMP/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done

# The profile as shipped, its sizes made small: a 16 MiB fill, 12 MiB rounds, at most 8.
sed -e 's/^filesize=1g/filesize=16m/' -e 's/^size=1g/size=16m/' -e 's/^size=256m/size=12m/' \
	-e 's/^repeat_until_steady=24/repeat_until_steady=8/' "$REPO/configs/wsat.ini" >"$T_TMP/wsat.ini"
[ "$(grep -c -E "^(filesize=16m|size=16m|size=12m|repeat_until_steady=8)$" "$T_TMP/wsat.ini")" -eq 4 ]
ok $? "four lines of the shipped profile rewritten (its keys are where the test expects)"

t_in_cgroup "$cg" "$IOWATT" run "$T_TMP/wsat.ini" --target "$loopdev" --allow-raw-device \
	--meter "um25c:$T_TMP/um,interval=100ms" --idle 1s --idle-samples 4 --tail-max 0 \
	--tail-hold 0 --no-progress --json-out "$T_TMP/wsat.json" >"$T_TMP/wsat.out" 2>&1
ok $? "wsat on the throttled loop device"
sed -n '/^wear:/p;/steady on/p;/^wsat .*steady/p' "$T_TMP/wsat.out" | sed 's/^/# /'

# the bound, from the profile's numbers: 16 MiB + 8 x 12 MiB, and its share of 64 MiB
check "the plan states the bound on bytes written and its share of the device" -- \
	grep -E "^wear: writes at most 112 MiB to ${loopdev#/dev/}, 175 % of its 64 MiB \(1.75 device writes\)" \
	"$T_TMP/wsat.out"
check "the plan has its ETA" -- grep -q "^estimated duration" "$T_TMP/wsat.out"

# The verdict recomputed: the first window of 5 counted rounds whose IOPS range is within
# 20 % of their mean and whose least-squares line moves within 10 % of it over the window.
cat >"$T_TMP/steady.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rounds = [j for j in d["jobs"] if j["jobname"] == "wsat"]
st = [s for s in d["summary"] if s["jobname"] == "wsat"][0]["steady"]
ok = [j for j in rounds if j["status"] == "ok" and j["validity"]["valid"]]
iops = [j["write"]["iops"] for j in ok]
found = None
for i in range(len(iops) - 4):
    w = iops[i:i + 5]
    m = sum(w) / 5
    slope = sum((k - 2) * (y - m) for k, y in enumerate(w)) / 10
    if (max(w) - min(w)) / m <= 0.20 and abs(slope) * 4 / m <= 0.10:
        found = (ok[i]["round"], ok[i + 4]["round"], (max(w) - min(w)) / m, abs(slope) * 4 / m)
        break
print("# rounds run %d, verdict %s, recomputed %s" % (len(rounds), st, found))
assert st["metric"] == "iops" and st["reached"] and found, st
assert (st["first_round"], st["last_round"]) == found[:2], (st, found)
assert abs(st["range_rel"] - found[2]) < 1e-9 and abs(st["slope_rel"] - found[3]) < 1e-9, st
# steady ends the rounds: no round after the window, and fewer than the bound of 8
assert rounds[-1]["round"] == st["last_round"] and len(rounds) < 8, [j["round"] for j in rounds]
EOF
check "the steady verdict in the result is SNIA's window over the rounds' IOPS, and ended the rounds" -- \
	python3 "$T_TMP/steady.py" "$T_TMP/wsat.json"

t_need_gnuplot "the wsat chart"
if t_emulated; then
	t_skip_charts 2
else
	"$IOWATT" plot "$T_TMP/wsat.json" --chart wsat -o "$T_TMP/charts" --keep-data \
		>"$T_TMP/plot.out" 2>&1
	ok $? "plot --chart wsat"
	data=$(sed -n 's/.*chart data and gnuplot meta files kept in //p' "$T_TMP/plot.out")
	check "each round at the bytes written by its end (the fill's included), with its MB/s, IOPS, W and J/GB" -- \
		python3 - "$T_TMP/wsat.json" "$data/wsat/wsat.dat" "$T_TMP/charts/wsat.png" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
rows = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert os.path.getsize(sys.argv[3]) > 0
written, want = 0, []
for j in d["jobs"]:
    written += j["write"]["io_bytes"]
    if j["jobname"] == "wsat":
        want.append((written / 1e9, j["write"]["bw_bytes"] / 1e6, j["write"]["iops"],
                     j["power"]["active_w"], j["efficiency"]["j_per_gb"]))
assert len(rows) == len(want) >= 5, (rows, want)
for r, w in zip(rows, want):
    for a, b in zip(r[:5], w):
        assert abs(float(a) - b) <= 1e-3 * abs(b), (r, w)
    assert r[5] == "1" and r[6] == "1", r
print("# first round at %.4f GB, last at %.4f GB" % (want[0][0], want[-1][0]))
EOF
	rm -rf "$data"
fi
done_testing
