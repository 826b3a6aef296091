#!/usr/bin/env bash
# Idle baselines against the emulator's truth on throttled loop devices (issue 21 item 3).
# Per device (SD-like 14/23 MB/s 600/2200 IOPS, USB-stick-like 9/36 MB/s 250/1400 IOPS,
# cgroup io.max through t_throttle): an EMULATED UM25C at 2 Hz following the loop device
# (90 mA idle), LOOPS loops of a paced 4 KiB write job with a 5 s idle of 10 samples, and
# a journal-like disturbance: another process appends 4 KiB to a file on the target and
# fsyncs it (ext4 writes the block and commits its journal) every 2-4 s, at random.
# Per loop it compares with the emulator's true idle (its lowest update in the idle phase):
#   before  the mean of the meter's readings over the first `idle` seconds of the phase,
#           what iowatt's idle_w was before robust baselines (a time-weighted mean)
#   after   idle_w now (Huber over the quiet readings) and whether idle_w_u95 covers it
# and prints per device: loops, how many were > 2 % above the truth before and after, the
# worst error of each, how many intervals covered the truth, readings excluded.
# Usage: sudo bench/idle-baseline.sh [LOOPS] (default 8). EMULATED figures; root.
BENCH=idle-baseline
. "$(dirname "$0")/lib.sh"

loops=${1:-8}
bench_target 256 idlebench
dev=$(findmnt -rn -o SOURCE "$mnt")
command -v python3 >/dev/null || bench_die 2 "needs python3"

dist_pid=""
stop_all() {
	[ -n "$dist_pid" ] && kill "$dist_pid" 2>/dev/null && wait "$dist_pid" 2>/dev/null
	dist_pid=""
	stop_emu
}
trap 'stop_all; t_cleanup' EXIT

# journal-like disturbance: a 4 KiB append + fsync every 2-4 s
disturb() {
	while :; do
		sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", 2 + 2 * r / 32767 }')"
		dd if=/dev/urandom of="$mnt/journal-like.log" bs=4k count=1 oflag=append \
			conv=notrunc,fsync 2>/dev/null
	done
}

# device sd|stick: bench_throttle's device of that name
device() {
	local name=$1 cg
	cg=$(bench_throttle "$name" "$dev") || bench_die 2 "cannot throttle $dev (cgroup io)"
	start_emu --device "${dev#/dev/}" --idle-ma 90 --ma-per-mbps 20 --ma-per-kiops 1000 \
		--truth "$T_TMP/$name.truth" || bench_die 2 "emulator"
	t_in_cgroup "$cg" bash -c "$(declare -f disturb); mnt='$mnt'; disturb" &
	dist_pid=$!
	echo "$BENCH: $name: $loops loops (about $((loops * 20)) s)" >&2
	t_in_cgroup "$cg" "$IOWATT" run --target "$mnt" --meter "um25c:$T_TMP/um,interval=500ms" \
		--rw write --bs 4k --size 440k --rate-iops 10 --rate-dither 100% --randseed 5 \
		--direct 1 --loops "$loops" --idle 5s --idle-samples 10 --tail-max 0 --no-progress \
		--json-out "$T_TMP/$name.json" >"$T_TMP/$name.out" 2>&1 || true
	stop_all
	python3 - "$T_TMP/$name" "$name" <<'PY'
import csv, json, statistics, sys
base, name = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(base + ".truth")))
jobs = json.load(open(base + ".json"))["jobs"]
n = bad_before = bad_after = covered = excl = quiet = 0
worst_b = worst_a = 0.0
ext = []
for j in jobs:
    ph, p = j.get("phases", {}), j.get("power") or {}
    if not ph.get("idle") or p.get("idle_w") is None:
        continue
    a, b = ph["idle"]["t_start_ns"], ph["idle"]["t_end_ns"]
    idle_ns = j["options"]["idle_ns"]
    upd = [float(r["w"]) for r in rows if r["kind"] == "update" and a <= int(r["t_ns"]) < b]
    rep = [float(r["w"]) for r in rows if r["kind"] == "reply" and a <= int(r["t_ns"]) < a + idle_ns]
    if not upd or not rep:
        continue
    true = min(upd)
    before = statistics.fmean(rep)
    after, u95 = p["idle_w"], p["idle_w_u95"]
    eb, ea = before / true - 1, after / true - 1
    n += 1
    bad_before += eb > 0.02
    bad_after += ea > 0.02
    covered += abs(after - true) <= u95
    worst_b, worst_a = max(worst_b, eb), max(worst_a, abs(ea))
    ib = p.get("idle_baseline") or {}
    excl += ib.get("excluded", 0)
    quiet += ib.get("quiet", 0)
    ext.append(ib.get("extended_s", 0))
print(f"{name:6s} loops {n:2d}  >2% above truth: before {bad_before:2d}, after {bad_after:2d}  "
      f"worst: before +{worst_b*100:.1f} %, after {worst_a*100:.2f} %  "
      f"U95 covers truth {covered}/{n}  readings quiet {quiet}, excluded {excl}  "
      f"extended median {statistics.median(ext) if ext else 0:.1f} s (EMULATED)")
PY
}

device sd
device stick
