#!/usr/bin/env bash
# size --records for one 4 KiB synced record a minute, beside the emulator's truth (issue 35.4).
# An EMULATED UM25C whose current is idle (90 mA) plus a known charge per completed block
# read, write and flush of the loop device (1000 uC each by default: iowatt emulate
# --uc-per-*), erring as its datasheet allows (--noise, seeded), polled at HZ, reads
# configs/iot-logger.ini's LOG-4K-2IOPS-sync (4 KiB records, each synced, 2/s, dithered)
# on an SD-speed throttled ext4 loop device. Then
#   iowatt size --battery 3000mAh@3.7V --records 4KiB@1/min RESULT
# is set beside the truth:
#   record: the truth log's energy over the job's active phase and tail above its quiet
#           idle (the lowest true power of the idle phase), per record written: what the
#           battery pays for a record, its journal writes and flush included;
#   days:   the same size command on a copy of the result whose record cost (every
#           energy_models entry and the job's power.energy_model: the record's truth as its
#           write, flush 0, U95 0) and idle power (the idle phase's mean true power) are the
#           truth's: the same battery formula with true inputs.
# Prints iowatt's figures with their U95, the truth, ratio and error in U95s per run.
#
#   bench/size-records.sh [-n RUNS] [-f SEED] [-z HZ] [-s RECORDS] [-u UC] [-b IOWATT] [-o DIR]
#
# RUNS (default 1) seeds from SEED (default 1); HZ 1, 2 (default) or 10; RECORDS (default
# 128, the shipped job's, about 64 s); UC the charge per block I/O (default 1000); -b sizes
# and runs with another iowatt binary (an older build: "before"; the emulator is always
# this tree's); -o keeps results and size outputs in DIR. About 2 min a run. Root.
set -u
BENCH=size-records
. "$(dirname "$0")/lib.sh"
RUNS=1 FIRST=1 HZ=2 RECS=128 UC=1000 RUN_BIN=$IOWATT OUT=""
usage() { sed -n '2,24p' "$0"; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-n | -f | -z | -s | -u | -b | -o)
		[ $# -ge 2 ] || usage
		case $1 in -n) RUNS=$2 ;; -f) FIRST=$2 ;; -z) HZ=$2 ;; -s) RECS=$2 ;; -u) UC=$2 ;; -b) RUN_BIN=$2 ;;
		-o) OUT=$2 ;; esac
		shift ;;
	*) usage ;;
	esac
	shift
done
case $HZ in 1) iv=1s ;; 2) iv=500ms ;; 10) iv=100ms ;; *) bench_die 2 "$HZ Hz: 1, 2 or 10" ;; esac
[ -x "$RUN_BIN" ] || bench_die 2 "$RUN_BIN: not an executable"
bench_sd_target 128 srec
trap 'stop_emu; t_cleanup; t_cgroup_cleanup' EXIT
[ -n "$OUT" ] && mkdir -p "$OUT"
SIZE=(size --battery 3000mAh@3.7V --records 4KiB@1/min)

# truth.py RESULT TRUTH DOCTORED: the record's and the idle's truth (printed "uJ W"), and
# the result with them in place of iowatt's figures written to DOCTORED
cat >"$T_TMP/truth.py" <<'PY'
import csv, json, sys
res, truth, out = sys.argv[1:4]
d = json.load(open(res))
j = next(j for j in d["jobs"] if (j.get("write") or {}).get("total_ios"))
upd = sorted((int(r["t_ns"]), float(r["w"])) for r in csv.DictReader(open(truth))
             if r["kind"] == "update")
ph = j["phases"]
a, b = ph["active"]["t_start_ns"], ph["active"]["t_end_ns"]
e = max(b, (ph.get("tail") or {}).get("t_end_ns") or b)
i0, i1 = ph["idle"]["t_start_ns"], ph["idle"]["t_end_ns"]
def integral(lo, hi):  # each update holds until the next
    return sum(w * max(0, min(hi, t1) - max(lo, t0)) / 1e9
               for (t0, w), (t1, _) in zip(upd, upd[1:]))
quiet = min(w for t, w in upd if i0 <= t < i1)
rec_uj = (integral(a, e) - quiet * (e - a) / 1e9) / j["write"]["total_ios"] * 1e6
idle_w = integral(i0, i1) / ((i1 - i0) / 1e9)
def priced(m):
    if not m:
        return
    m.update(write_uj_per_op=rec_uj, write_uj_per_op_u95=0, flush_uj_per_op=0,
             flush_uj_per_op_u95=0, sum_uj_per_op=None, sum_uj_per_op_u95=None, sum_of=None)
for m in d.get("energy_models") or []:
    priced(m)
priced(j["power"].get("energy_model"))
j["power"].update(idle_w=idle_w, idle_w_u95=0)
json.dump(d, open(out, "w"))
print("%.6g %.6g" % (rec_uj, idle_w))
PY

# figures SIZE-OUT: "record_uj record_u95_uj days days_u95 from" from size's text
cat >"$T_TMP/figures.py" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
k = {"k": 1e9, "": 1e6, "m": 1e3, "µ": 1}
rec = re.search(r"records +job .*?: (-?[0-9.]+)(?: \+-([0-9.]+))? ([kmµ]?)J/IO[^\n]*", t)
src = re.search(r"\(write \+ flush, ([^,]+),", rec.group(0)) if rec else None
days = re.search(r"life +([0-9.]+) days", t)
du = re.search(r"interval \+-([0-9.]+) days", t)
f = lambda i: float(rec.group(i)) * k[rec.group(3)] if rec and rec.group(i) else float("nan")
print("%.6g %.6g %s %s %s" % (f(1), f(2), days.group(1) if days else "nan",
      du.group(1) if du else "nan", (src.group(1) if src else "J/IO net").replace(" ", "_")))
PY

printf "%-4s %12s %12s %8s %7s | %9s %9s %8s %6s | %s\n" seed "rec_mJ" "truth_mJ" ratio "err/U95" \
	days "truth_d" ratio "+-d" "priced from"
for seed in $(seq "$FIRST" $((FIRST + RUNS - 1))); do
	rm -f "$mnt"/iowatt* "$T_TMP"/r.* 2>/dev/null
	start_emu_as um25c "$T_TMP/um" --device "$dev" --idle-ma 90 --ma-per-kiops 0 \
		--ma-per-mbps 0 --uc-per-read "$UC" --uc-per-write "$UC" --uc-per-flush "$UC" \
		--noise --seed "$seed" --truth "$T_TMP/truth.csv" || exit 2
	t_in_cgroup "$cg" "$RUN_BIN" run "$REPO/configs/iot-logger.ini" --jobs LOG-4K-2IOPS-sync \
		--size $((RECS * 4))k --randseed "$seed" --target "$mnt" \
		--meter "um25c:$T_TMP/um,interval=$iv" --no-progress --json-out "$T_TMP/r.json" \
		>"$T_TMP/run.log" 2>&1
	stop_emu
	[ -s "$T_TMP/r.json" ] || { cat "$T_TMP/run.log" >&2; exit 2; }
	read -r truth_uj idle_w < <(python3 "$T_TMP/truth.py" "$T_TMP/r.json" "$T_TMP/truth.csv" \
		"$T_TMP/t.json") || exit 2
	"$RUN_BIN" "${SIZE[@]}" "$T_TMP/r.json" >"$T_TMP/size.out" 2>&1
	"$IOWATT" "${SIZE[@]}" "$T_TMP/t.json" >"$T_TMP/size-truth.out" 2>&1
	read -r uj u95 days du from < <(python3 "$T_TMP/figures.py" "$T_TMP/size.out")
	read -r _ _ tdays _ _ < <(python3 "$T_TMP/figures.py" "$T_TMP/size-truth.out")
	if [ -n "$OUT" ]; then
		cp "$T_TMP/r.json" "$OUT/run-$seed.json"
		cp "$T_TMP/truth.csv" "$OUT/truth-$seed.csv"
		cp "$T_TMP/size.out" "$OUT/size-$seed.out"
		cp "$T_TMP/size-truth.out" "$OUT/size-truth-$seed.out"
	fi
	awk -v s="$seed" -v x="$uj" -v u="$u95" -v t="$truth_uj" -v d="$days" -v td="$tdays" \
		-v du="$du" -v f="$from" 'BEGIN {
		printf "%-4s %5.2f +-%5.2f %12.2f %8.3f %7s | %9.2f %9.2f %8.3f %6.2f | %s\n", s,
			x / 1e3, u / 1e3, t / 1e3, x / t, (u > 0 ? sprintf("%.2f", (x - t) / u) : "-"),
			d, td, d / td, du, f }'
done
echo "(EMULATED UM25C at $HZ Hz, noise as its datasheet allows; idle 90 mA + $UC uC per block" \
	"read/write/flush on an SD-speed loop ext4; true idle $idle_w W in the last run)"
