#!/usr/bin/env bash
# size --records priced from the device's pooled model of two buffered jobs, beside the truth.
# An EMULATED UM25C (idle 90 mA + 40/120/60 uC per block read/write/flush of the loop
# device, no added noise: its register steps only) polled at 2 Hz reads bench/pool-two-jobs.ini
# (LOG: 4 KiB records at 2/s, each synced; MIXW: random 4 KiB writes at 20/s, a flush every
# 4th) on an SD-speed throttled ext4 loop device. Then
#   iowatt size --battery 3000mAh@3.7V --records 4KiB@1/min --power-off RESULT
# prices LOG's record; its truth is the truth log's energy over LOG's active phase and tail
# above its quiet idle, per record. Prints per seed the record with its U95, where it was
# priced from and the model's verdict, the truth, and the pooled/own models' verdicts.
#
#   bench/pool-records.sh [-b IOWATT] [-o DIR] SEED...
#
# -b runs and sizes with another iowatt binary (an older build: "before"; the emulator is
# always this tree's); -o keeps results and outputs in DIR. About 2 min a seed. Root.
set -u
BENCH=pool-records
. "$(dirname "$0")/lib.sh"
RUN_BIN=$IOWATT OUT=""
while getopts b:o: o; do
	case $o in b) RUN_BIN=$OPTARG ;; o) OUT=$OPTARG ;; *) sed -n '2,16p' "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,16p' "$0"; exit 2; }
[ -x "$RUN_BIN" ] || bench_die 2 "$RUN_BIN: not an executable"
bench_sd_target 128 pool
trap 'stop_emu; t_cleanup; t_cgroup_cleanup' EXIT
[ -n "$OUT" ] && mkdir -p "$OUT"

# truth.py RESULT TRUTH: LOG's record above the quiet idle (uJ), each job's own model
cat >"$T_TMP/truth.py" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
upd = sorted((int(r["t_ns"]), float(r["w"])) for r in csv.DictReader(open(sys.argv[2]))
             if r["kind"] == "update")
def integral(lo, hi):
    return sum(w * max(0, min(hi, t1) - max(lo, t0)) / 1e9
               for (t0, w), (t1, _) in zip(upd, upd[1:]))
for j in d["jobs"]:
    ph = j["phases"]
    a, b = ph["active"]["t_start_ns"], ph["active"]["t_end_ns"]
    e = max(b, (ph.get("tail") or {}).get("t_end_ns") or b)
    quiet = min(w for t, w in upd if ph["idle"]["t_start_ns"] <= t < ph["idle"]["t_end_ns"])
    rec = (integral(a, e) - quiet * (e - a) / 1e9) / j["write"]["total_ios"] * 1e6
    m = j["power"].get("energy_model") or {}
    f = lambda k: "%s+-%s" % tuple(("%.0f" % m[x]) if isinstance(m.get(x), (int, float))
                                   else "-" for x in (k, k + "_u95"))
    print("%s truth %.0f uJ/write; own: write %s flush %s sum %s (%s) %s" % (
        j["jobname"], rec, f("write_uj_per_op"), f("flush_uj_per_op"), f("sum_uj_per_op"),
        m.get("sum_of"), m.get("verdict")))
for m in d.get("energy_models") or []:
    f = lambda k: "%s+-%s" % tuple(("%.0f" % m[x]) if isinstance(m.get(x), (int, float))
                                   else "-" for x in (k, k + "_u95"))
    print("pool %s jobs %s: write %s flush %s sum %s %s (%s)" % (
        m.get("writes_per_flush", "?"), m["jobs"], f("write_uj_per_op"),
        f("flush_uj_per_op"), f("sum_uj_per_op"), m.get("verdict"), m.get("why")))
PY

for seed in "$@"; do
	rm -f "$mnt"/iowatt* "$T_TMP"/r.* 2>/dev/null
	start_emu_as um25c "$T_TMP/um" --device "$dev" --idle-ma 90 --ma-per-kiops 0 \
		--ma-per-mbps 0 --uc-per-read 40 --uc-per-write 120 --uc-per-flush 60 \
		--seed "$seed" --truth "$T_TMP/truth.csv" || exit 2
	t_in_cgroup "$cg" "$RUN_BIN" run "$REPO/bench/pool-two-jobs.ini" --randseed "$seed" \
		--target "$mnt" --meter "um25c:$T_TMP/um,interval=500ms" --no-progress \
		--json-out "$T_TMP/r.json" >"$T_TMP/run.log" 2>&1
	stop_emu
	[ -s "$T_TMP/r.json" ] || { cat "$T_TMP/run.log" >&2; exit 2; }
	"$RUN_BIN" size --battery 3000mAh@3.7V --records 4KiB@1/min --power-off "$T_TMP/r.json" \
		>"$T_TMP/size.out" 2>&1
	echo "== seed $seed"
	python3 "$T_TMP/truth.py" "$T_TMP/r.json" "$T_TMP/truth.csv"
	grep -E "records +job|record" "$T_TMP/size.out" | head -3
	if [ -n "$OUT" ]; then
		cp "$T_TMP/r.json" "$OUT/run-$seed.json"
		cp "$T_TMP/truth.csv" "$OUT/truth-$seed.csv"
		cp "$T_TMP/size.out" "$OUT/size-$seed.out"
	fi
done
