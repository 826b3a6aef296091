#!/usr/bin/env bash
# Energy accuracy: iowatt's per-phase energy against the emulator's ground truth, per
# emulated meter at a constant load, and the UM25C at a stepped load, on the result's own
# phase windows.
#
# usage: bench/energy-accuracy.sh        (root: it makes a loop-device ext4 for the target)
# env:   IOWATT=path/to/iowatt  INTERVAL=100ms (the UM25C's and TC66C's poll)
#        METERS="um25c fnb58 tc66c atorch ppk2" (the constant-load rows)
#        KEEP=DIR (copy results and truth logs there)
#
# The truth is the emulator's internal state as it logged it ("update" rows of --truth):
# piecewise constant between updates, so it is integrated as a step function. iowatt only
# sees the meter's readings (its poll, its report rate: 100 S/s FNB58, 1 S/s ATORCH,
# 100 kS/s PPK2) and integrates trapezoids between them, with each meter's resolution;
# the error printed is what a user of that meter would get on a load that looks like this.
set -u
BENCH=energy-accuracy
. "$(dirname "$0")/lib.sh"
INTERVAL=${INTERVAL:-100ms}

bench_target 256 acc
keep() {
	[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$T_TMP"/*.json "$T_TMP"/*.csv "$KEEP"/ 2>/dev/null
	return 0
}
trap 'stop_emu; keep; t_cleanup' EXIT

cat >"$T_TMP/compare.py" <<'PY'
import csv, json, sys
res = json.load(open(sys.argv[1]))
label = sys.argv[3]
upd = []
with open(sys.argv[2]) as f:
    for row in csv.DictReader(f):
        if row["kind"] == "update":
            upd.append((int(row["t_ns"]), float(row["w"]), float(row["a"])))
upd.sort()

def integ(a, b, col):
    """Step-function integral of column col (1 = W, 2 = A) over [a, b] ns."""
    if not upd or a < upd[0][0] or b > upd[-1][0]:
        raise SystemExit("%s: the truth log does not span [%d, %d]" % (label, a, b))
    tot = 0.0
    for (t0, *v0), (t1, *_) in zip(upd, upd[1:]):
        lo, hi = max(a, t0), min(b, t1)
        if hi > lo:
            tot += v0[col - 1] * (hi - lo) / 1e9
    return tot

job = res["jobs"][0]
pw = job["power"]
ph = job["phases"]
span = {k: (ph[k]["t_start_ns"], ph[k]["t_end_ns"]) for k in ("idle", "active", "tail")}
secs = {k: (b - a) / 1e9 for k, (a, b) in span.items()}
truth = {k: integ(a, b, 1) for k, (a, b) in span.items()}
got = {"idle": pw["idle_w"] * secs["idle"], "active": pw["energy_active_j"],
       "tail": pw["energy_tail_j"]}
worst = 0.0
for k in ("idle", "active", "tail"):
    t, g = truth[k], got[k]
    err = (g - t) / t * 100 if t else float("nan")
    if k == "active":
        worst = abs(err)
    print("%-9s %-6s %6.2f s %10.4f J %10.4f J %+8.3f %%" % (label, k, secs[k], g, t, err))
tq = integ(*span["active"], 2) / 3.6
gq = pw["charge_mah"]
print("%-9s %-6s %6.2f s %10.4f mAh %8.4f mAh %+7.3f %%" % (label, "charge", secs["active"], gq, tq,
      (gq - tq) / tq * 100))
v = job["validity"]
print("%-9s valid=%s coverage=%.3f samples_active=%d" % (label, v["valid"], v["coverage"],
      v["samples_active"]))
sys.exit(0 if worst < float(sys.argv[4]) else 1)
PY

METERS=${METERS:-um25c fnb58 tc66c atorch ppk2}
rc=0
printf '%-9s %-6s %8s %12s %12s %10s\n' load phase length iowatt truth error

# one NAME METER RATE_IOPS MAX_ERROR_PCT EMULATOR_ARGS...: a 64 MiB write job, paced to
# RATE_IOPS, metered by the emulated METER, against its truth.
one() {
	local name=$1 m=$2 rate=$3 max=$4 tail="" idle_samples=20
	shift 4
	case $m in
	um25c | tc66c) tail=",interval=$INTERVAL" ;;
	ppk2) tail=",vdd=5000" ;; # the PPK2 reads current: W needs the supply, as given
	atorch) idle_samples=5 ;; # one report a second
	esac
	start_emu_as "$m" "$T_TMP/$m" "$@" --truth "$T_TMP/truth-$name.csv" || return 1
	"$IOWATT" run --rw write --bs 1M --iodepth 4 --size 64M --rate-iops "$rate" \
		--target "$mnt" --meter "$m:$T_TMP/$m$tail" --idle 3s --idle-samples "$idle_samples" \
		--tail-hold 1s --tail-max 5s --no-progress --json-out "$T_TMP/$name.json" \
		>"$T_TMP/$name.out" 2>&1 ||
		{ echo "$name: iowatt run failed:" >&2; tail -5 "$T_TMP/$name.out" >&2; }
	stop_emu
	[ -f "$T_TMP/$name.json" ] &&
		python3 "$T_TMP/compare.py" "$T_TMP/$name.json" "$T_TMP/truth-$name.csv" "$name" "$max"
}

# Constant 250 mA: only the window ends, the meter's lag and its resolution make an error.
# 10 IOPS of 1 MiB: a 6.4 s active phase; 2 IOPS (32 s) for the 1 Hz ATORCH's 20 samples.
for m in $METERS; do
	if ! "$IOWATT" emulate --help 2>&1 | grep -q "^  $m "; then
		echo "$m: no emulator in this build (skipped)"
		continue
	fi
	case $m in
	atorch) one "$m" "$m" 2 0.5 --constant-ma 250 || rc=1 ;;
	ppk2) one "$m" "$m" 10 0.5 --constant-ma 250 --volts 5.0 --cable-ohms 0 || rc=1 ;;
	*) one "$m" "$m" 10 0.5 --constant-ma 250 || rc=1 ;;
	esac
done
# Stepped (UM25C): 120 <-> 520 mA every 0.75 s, steps falling between the meter's samples.
steps=$(python3 -c 'print(",".join("%.2f:%d" % (i * 0.75, 520 if i % 2 else 120) for i in range(200)))')
one stepped um25c 8 3 --step "$steps" || rc=1
echo "(EMULATED meters; targets: constant active error < 0.5 %, stepped < 3 %)"
exit $rc
