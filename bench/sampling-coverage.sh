#!/usr/bin/env bash
# Does the sampling term hold? A seeded study of what a slow meter misses: an EMULATED
# UM25C whose current follows a loop device's activity (iowatt emulate --device: idle
# plus 1 mA per I/O per second, updated every 100 ms, so a synced 4 KiB record is a 100 ms
# pulse) and errs as its datasheet allows (--noise: a gain and an offset drawn per run,
# scatter per reading; -P turns that off), polled at 1, 2 and 10 Hz, against a paced job
# (a logger's 2 records/s, each synced) without and with rate_dither, a bursty one
# (256 KiB writes at random times, 3/s) and a streaming one (64 KiB writes, 400/s). With
# -d an idle disturbance: 256 KiB written and synced to another file of the same
# filesystem at a random moment of each run's idle phase, as a journal commit would.
# For each cell and run, energy_active_j +- its U95 and energy_net_j +- its U95 against
# the emulator's truth log (its updates, a step function over the result's own phases;
# the net truth takes the quiet idle, the least update of the idle phase):
#   cover: the share of runs whose interval holds the truth (goal >= 95 %);
#   width: the mean U95 over the RMS error (goal <= 3x);
#   flagged: runs not valid or uncertain. A run that is valid, not uncertain and whose
#   interval misses the truth is a covering failure: the script exits 1 when a cell has
#   more than a 95 % interval's 5 % miss rate gives 1 time in 20 (binomial, over its
#   valid and certain runs: 2 or more of 3, 3 or more of 10, 4 or more of 20), or a
#   paced (undithered, aliased) run has one. The table prints every cell's share.
#
#   bench/sampling-coverage.sh [-n RUNS] [-s SECONDS] [-c CELLS] [-o CSV] [-d] [-P]
#   bench/sampling-coverage.sh -L
#
# RUNS (default 3) per cell, seeds 1..RUNS (randseed, so the dither differs per run);
# SECONDS (default 24) of active phase; CELLS a space-separated subset of
# "HZ:JOB" (JOB: paced, dithered, bursty, streaming), default all twelve; CSV keeps a row
# per run. -L instead runs configs/iot-logger.ini's LOG-4K-2IOPS-sync (128 records, 64 s)
# under the same meter at 2 Hz without and with --rate-dither 100% (seed 1), one line
# each. Root (a loop-device ext4 target, as bench/energy-accuracy.sh).
set -u
BENCH=sampling-coverage
. "$(dirname "$0")/lib.sh"
# Defaults, then the flags as NAME=VALUE pairs read in one pass.
RUNS=3 SECS=24 CELLS="" CSV="" LOGGER=0 DISTURB=0 NOISE=1
while [ $# -gt 0 ]; do
	case $1 in
	-L) LOGGER=1 ;;
	-d) DISTURB=1 ;;
	-P) NOISE=0 ;;
	-n | -s | -c | -o)
		[ $# -ge 2 ] || { sed -n '2,30p' "$0"; exit 2; }
		case $1 in -n) RUNS=$2 ;; -s) SECS=$2 ;; -c) CELLS=$2 ;; -o) CSV=$2 ;; esac
		shift ;;
	*) sed -n '2,30p' "$0"; exit 2 ;;
	esac
	shift
done
if [ -z "$CELLS" ]; then
	for hz in 1 2 10; do
		for job in paced dithered bursty streaming; do CELLS="$CELLS $hz:$job"; done
	done
fi
bench_target 256 samp
dev=$(findmnt -rn -o SOURCE "$mnt")
dev=${dev#/dev/}
trap 'stop_emu; t_cleanup' EXIT

cat >"$T_TMP/row.py" <<'PY'
import csv, json, sys
res, truth, cell, seed = sys.argv[1:5]
j = json.load(open(res))["jobs"][0]
upd = sorted((int(r["t_ns"]), float(r["w"])) for r in csv.DictReader(open(truth))
             if r["kind"] == "update")
a, b = j["phases"]["active"]["t_start_ns"], j["phases"]["active"]["t_end_ns"]
idle = j["phases"].get("idle") or {}
def integral(lo_ns, hi_ns):
    tot = 0.0
    for (t0, w0), (t1, _) in zip(upd, upd[1:]):
        lo, hi = max(lo_ns, t0), min(hi_ns, t1)
        if hi > lo:
            tot += w0 * (hi - lo) / 1e9
    return tot
tot = integral(a, b)
quiet = [w for t, w in upd if idle and idle["t_start_ns"] <= t < idle["t_end_ns"]]
quiet_w = min(quiet) if quiet else float("nan")
net_truth = tot - quiet_w * (b - a) / 1e9
busy_idle = integral(idle["t_start_ns"], idle["t_end_ns"]) - quiet_w * (idle["t_end_ns"] - idle["t_start_ns"]) / 1e9 if idle else 0
p, v = j["power"], j["validity"]
u = v.get("uncertainty") or {}
samp = (u.get("budget") or {}).get("sampling")
def f(x):
    return "" if x is None else "%.6f" % x
print("%s,%s,%.6f,%.6f,%s,%d,%d,%s,%s,%.6f,%s,%s,%.6f,%s" % (
    cell, seed, tot, p["energy_active_j"], f(p["energy_active_j_u95"]),
    v["valid"], v["uncertain"], "" if samp is None else "%.5f" % samp,
    (p["idle_w"] or 0) * (b - a) / 1e9, net_truth, f(p.get("energy_net_j")),
    f(p.get("energy_net_j_u95")), busy_idle,
    (u.get("dominant") or "").replace(",", ";")))
PY

# logger_job LABEL EXTRA...: the profile's paced job, one row on stdout
logger_job() {
	local label=$1
	shift
	rm -f "$mnt"/iowatt* "$T_TMP"/r.*
	start_emu --device "$dev" --idle-ma 90 --ma-per-kiops 1000 --ma-per-mbps 1.5 \
		--truth "$T_TMP/truth.csv" || exit 2
	"$IOWATT" run "$REPO/configs/iot-logger.ini" --jobs LOG-4K-2IOPS-sync --target "$mnt" \
		--meter "um25c:$T_TMP/um,interval=500ms" --no-progress --json-out "$T_TMP/r.json" \
		"$@" >"$T_TMP/run.log" 2>&1
	stop_emu
	[ -s "$T_TMP/r.json" ] || { cat "$T_TMP/run.log" >&2; exit 2; }
	python3 "$T_TMP/row.py" "$T_TMP/r.json" "$T_TMP/truth.csv" "$label" 1 | python3 -c '
import sys
c, s, truth, e, u, valid, unc, samp, idle, _nt, _ne, _nu, _bi, dom = sys.stdin.read().strip().split(",", 13)
t, e = float(truth), float(e)
print("%-22s energy_active_j %.4f J %s, truth %.4f J (error %+.2f %%, bursts %.2f %% of it): "
      "valid=%s uncertain=%s budget.sampling=%s; %s" % (c, e,
      "+- %.4f J" % float(u) if u else "+- null", t, (e - t) / t * 100,
      (t - float(idle)) / t * 100, valid, unc, samp or "null", dom))'
	grep -E "aliased|UNCERTAIN|valid" "$T_TMP/run.log" | sed 's/^/    /' | head -4
}

if [ "$LOGGER" = 1 ]; then
	# configs/iot-logger.ini ships dithered (rate_dither=100%): undithered is the override
	logger_job "iot-logger no dither" --rate-dither 0
	logger_job "iot-logger dither 100%" --rate-dither 100% --randseed 1
	echo "(EMULATED UM25C at 2 Hz following the loop device)"
	exit 0
fi

rows="$T_TMP/runs.csv"
echo "cell,seed,truth_j,energy_j,u95_j,valid,uncertain,sampling_rel,idle_j,net_truth_j,net_j,net_u95_j,idle_busy_j,dominant" >"$rows"
for cell in $CELLS; do
	hz=${cell%%:*}
	job=${cell#*:}
	case $hz in 1) iv=1s ;; 2) iv=500ms ;; 10) iv=100ms ;; *) bench_die 2 "$hz Hz: 1, 2 or 10" ;; esac
	case $job in
	paced) args=(--bs 4k --rate-iops 2 --fdatasync 1 --direct 0 --size $((2 * SECS * 4))k) ;;
	dithered) args=(--bs 4k --rate-iops 2 --rate-dither 100% --fdatasync 1 --direct 0
		--size $((2 * SECS * 4))k) ;;
	bursty) args=(--bs 256k --rate-iops 3 --rate-dither 100% --direct 1 --size $((3 * SECS * 256))k) ;;
	streaming) args=(--bs 64k --rate-iops 400 --direct 1 --size $((400 * SECS * 64))k --filesize 64m) ;;
	*) bench_die 2 "$job: paced, dithered, bursty or streaming" ;;
	esac
	idle_samples=$((hz * 4 < 4 ? 4 : hz * 4))
	for seed in $(seq 1 "$RUNS"); do
		rm -f "$mnt"/iowatt* "$T_TMP"/r.* 2>/dev/null
		noise=()
		[ "$NOISE" = 1 ] && noise=(--noise --seed "$seed")
		start_emu --device "$dev" --idle-ma 90 --ma-per-kiops 1000 --ma-per-mbps 1.5 \
			"${noise[@]}" --truth "$T_TMP/truth.csv" || exit 2
		disturb_pid=""
		if [ "$DISTURB" = 1 ]; then
			# somewhere in the 4 s idle phase, which starts about 1 s after iowatt does
			RANDOM=$seed
			( sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 1.5 + 3 * r / 32768 }')"
			  dd if=/dev/zero of="$mnt/disturb" bs=64k count=4 conv=fdatasync 2>/dev/null
			  rm -f "$mnt/disturb" ) &
			disturb_pid=$!
		fi
		if ! "$IOWATT" run --target "$mnt" --meter "um25c:$T_TMP/um,interval=$iv" --rw write \
			"${args[@]}" --randseed "$seed" --ioengine psync --idle 4s \
			--idle-samples "$idle_samples" --tail-max 0 --no-progress \
			--json-out "$T_TMP/r.json" >"$T_TMP/run.log" 2>&1 && [ ! -s "$T_TMP/r.json" ]; then
			:
		fi
		[ -n "$disturb_pid" ] && wait "$disturb_pid"
		if [ ! -s "$T_TMP/r.json" ]; then
			cat "$T_TMP/run.log" >&2
			exit 2
		fi
		stop_emu
		python3 "$T_TMP/row.py" "$T_TMP/r.json" "$T_TMP/truth.csv" "$cell" "$seed" >>"$rows" ||
			exit 2
	done
done
[ -n "$CSV" ] && cp "$rows" "$CSV"
python3 - "$rows" "$NOISE" "$DISTURB" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cells = []
for r in rows:
    if r["cell"] not in cells:
        cells.append(r["cell"])

def tail(n, k, p=0.05):
    """P(X >= k) for X ~ Binomial(n, p)"""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))

def judge(rs, fig, truth, u95):
    """(cover share, width, covering failures) of one figure over a cell's runs"""
    err = [float(r[fig]) - float(r[truth]) for r in rs if r[fig]]
    inside = sum(1 for r in rs if r[fig] and r[u95] and
                 abs(float(r[fig]) - float(r[truth])) <= float(r[u95]))
    miss = sum(1 for r in rs if r["valid"] == "1" and r["uncertain"] == "0" and not (
        r[fig] and r[u95] and abs(float(r[fig]) - float(r[truth])) <= float(r[u95])))
    known = [float(r[u95]) for r in rs if r[u95]]
    rms = math.sqrt(sum(e * e for e in err) / len(err)) if err else float("nan")
    mu = sum(known) / len(known) if known else float("nan")
    return inside / len(rs), (mu / rms if rms > 0 else float("inf")), miss

print("%-13s %4s %7s %7s %7s %7s %8s %8s %10s  %s" % ("cell", "runs", "cover", "width",
      "net_cov", "net_wid", "flagged", "burst_%", "samp_rel", "dominant (first run)"))
bad = 0
for c in cells:
    rs = [r for r in rows if r["cell"] == c]
    cov, wid, miss = judge(rs, "energy_j", "truth_j", "u95_j")
    ncov, nwid, nmiss = judge(rs, "net_j", "net_truth_j", "net_u95_j")
    # a 95 % interval misses 1 run in 20: a cell fails when its covering failures (valid,
    # certain, truth outside) are more than a 5 % miss rate gives 1 time in 20 among its
    # valid, certain runs, or an aliased (paced) run has one
    judged = sum(1 for r in rs if r["valid"] == "1" and r["uncertain"] == "0")
    bad += (tail(judged, max(miss, nmiss)) < 0.05 or
            (c.endswith(":paced") and miss + nmiss > 0))
    flagged = sum(1 for r in rs if r["valid"] == "0" or r["uncertain"] == "1")
    burst = sum((float(r["truth_j"]) - float(r["idle_j"])) / float(r["truth_j"]) for r in rs) / len(rs)
    samp = [r["sampling_rel"] for r in rs]
    print("%-13s %4d %6.0f%% %6.2fx %6.0f%% %6.2fx %4d/%-3d %7.2f%% %10s  %s%s" % (
        c, len(rs), 100.0 * cov, wid, 100.0 * ncov, nwid, flagged, len(rs), burst * 100,
        samp[0] or "null", rs[0]["dominant"][:60],
        "  COVERING FAILURE: %d active, %d net" % (miss, nmiss) if miss + nmiss else ""))
print("(EMULATED UM25C%s%s; cover: truth inside energy_active_j +- U95; width: mean U95 / RMS "
      "error; net_: the same for energy_net_j against the active truth less the quiet idle; "
      "flagged: not valid or uncertain; burst_%%: the truth's share above idle)" % (
      ", erring as its datasheet allows (--noise)" if sys.argv[2] == "1" else ", exact readings",
      ", an idle disturbance per run" if sys.argv[3] == "1" else ""))
sys.exit(1 if bad else 0)
PY
