#!/usr/bin/env bash
# Does the sampling term hold? A seeded study of what a slow meter misses: an EMULATED
# UM25C whose current follows a loop device's activity (iowatt emulate --device: idle
# plus 1 mA per I/O per second, updated every 100 ms, so a synced 4 KiB record is a 100 ms
# pulse), polled at 1, 2 and 10 Hz, against a paced job (a logger's 2 records/s, each
# synced) without and with rate_dither, a bursty one (256 KiB writes at random times,
# 3/s) and a streaming one (64 KiB writes, 400/s). For each cell and run, energy_active_j
# +- its U95 against the emulator's truth log (its updates, a step function over the
# result's own active phase):
#   cover: the share of runs whose interval holds the truth (goal >= 95 %);
#   width: the mean U95 over the RMS error (goal <= 3x);
#   flagged: runs not valid or uncertain. A run that is valid, not uncertain and whose
#   interval misses the truth is a covering failure: the script exits 1 on any.
#
#   bench/sampling-coverage.sh [-n RUNS] [-s SECONDS] [-c CELLS] [-o CSV]
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
RUNS=3 SECS=24 CELLS="" CSV="" LOGGER=0
while [ $# -gt 0 ]; do
	case $1 in
	-L) LOGGER=1 ;;
	-n | -s | -c | -o)
		[ $# -ge 2 ] || { sed -n '2,25p' "$0"; exit 2; }
		case $1 in -n) RUNS=$2 ;; -s) SECS=$2 ;; -c) CELLS=$2 ;; -o) CSV=$2 ;; esac
		shift ;;
	*) sed -n '2,25p' "$0"; exit 2 ;;
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
tot = 0.0
for (t0, w0), (t1, _) in zip(upd, upd[1:]):
    lo, hi = max(a, t0), min(b, t1)
    if hi > lo:
        tot += w0 * (hi - lo) / 1e9
p, v = j["power"], j["validity"]
u = v.get("uncertainty") or {}
samp = (u.get("budget") or {}).get("sampling")
print("%s,%s,%.6f,%.6f,%s,%d,%d,%s,%s,%s" % (
    cell, seed, tot, p["energy_active_j"],
    "" if p["energy_active_j_u95"] is None else "%.6f" % p["energy_active_j_u95"],
    v["valid"], v["uncertain"], "" if samp is None else "%.5f" % samp,
    (p["idle_w"] or 0) * (b - a) / 1e9,
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
c, s, truth, e, u, valid, unc, samp, idle, dom = sys.stdin.read().strip().split(",", 9)
t, e = float(truth), float(e)
print("%-22s energy_active_j %.4f J %s, truth %.4f J (error %+.2f %%, bursts %.2f %% of it): "
      "valid=%s uncertain=%s budget.sampling=%s; %s" % (c, e,
      "+- %.4f J" % float(u) if u else "+- null", t, (e - t) / t * 100,
      (t - float(idle)) / t * 100, valid, unc, samp or "null", dom))'
	grep -E "aliased|UNCERTAIN|valid" "$T_TMP/run.log" | sed 's/^/    /' | head -4
}

if [ "$LOGGER" = 1 ]; then
	logger_job "iot-logger no dither"
	logger_job "iot-logger dither 100%" --rate-dither 100% --randseed 1
	echo "(EMULATED UM25C at 2 Hz following the loop device)"
	exit 0
fi

rows="$T_TMP/runs.csv"
echo "cell,seed,truth_j,energy_j,u95_j,valid,uncertain,sampling_rel,idle_j,dominant" >"$rows"
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
		start_emu --device "$dev" --idle-ma 90 --ma-per-kiops 1000 --ma-per-mbps 1.5 \
			--truth "$T_TMP/truth.csv" || exit 2
		if ! "$IOWATT" run --target "$mnt" --meter "um25c:$T_TMP/um,interval=$iv" --rw write \
			"${args[@]}" --randseed "$seed" --ioengine psync --idle 4s \
			--idle-samples "$idle_samples" --tail-max 0 --no-progress \
			--json-out "$T_TMP/r.json" >"$T_TMP/run.log" 2>&1 && [ ! -s "$T_TMP/r.json" ]; then
			:
		fi
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
python3 - "$rows" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cells = []
for r in rows:
    if r["cell"] not in cells:
        cells.append(r["cell"])
print("%-13s %4s %7s %8s %8s %9s %10s  %s" % ("cell", "runs", "cover", "width", "flagged",
      "burst_%", "samp_rel", "dominant (first run)"))
bad = 0
for c in cells:
    rs = [r for r in rows if r["cell"] == c]
    known = [r for r in rs if r["u95_j"]]
    err = [float(r["energy_j"]) - float(r["truth_j"]) for r in rs]
    inside = sum(1 for r, e in zip(rs, err) if r["u95_j"] and abs(e) <= float(r["u95_j"]))
    flagged = sum(1 for r in rs if r["valid"] == "0" or r["uncertain"] == "1")
    miss = sum(1 for r, e in zip(rs, err) if r["valid"] == "1" and r["uncertain"] == "0"
               and not (r["u95_j"] and abs(e) <= float(r["u95_j"])))
    bad += miss
    rms = math.sqrt(sum(e * e for e in err) / len(err))
    mu = sum(float(r["u95_j"]) for r in known) / len(known) if known else float("nan")
    burst = sum((float(r["truth_j"]) - float(r["idle_j"])) / float(r["truth_j"]) for r in rs) / len(rs)
    samp = [r["sampling_rel"] for r in rs]
    print("%-13s %4d %6.0f%% %7.2fx %4d/%-3d %8.2f%% %10s  %s%s" % (
        c, len(rs), 100.0 * inside / len(rs), mu / rms if rms > 0 else float("inf"), flagged,
        len(rs), burst * 100, samp[0] or "null", rs[0]["dominant"][:60],
        "  COVERING FAILURE x%d" % miss if miss else ""))
print("(EMULATED UM25C; cover: truth inside energy_active_j +- U95; width: mean U95 / RMS "
      "error; flagged: not valid or uncertain; burst_%: the truth's share above idle)")
sys.exit(1 if bad else 0)
PY
