#!/usr/bin/env bash
# Do iowatt's uncertainty intervals hold? Runs an emulated meter that errs as its datasheet
# allows (iowatt emulate --noise: a gain and an offset drawn per run within the declared
# bounds, scatter per reading) on a constant load, one seed per run, and checks each run's
# active_w and energy_active_j against the emulator's truth log:
#   coverage: the share of runs whose interval (figure +- _u95) holds the truth, >= 95 %;
#   width: the mean U95 over the root mean square of the errors seen, <= 3.
#
#   bench/uncertainty-coverage.sh [-n RUNS] [-s SECONDS] [-m MA] [-M METER] [-o CSV]
#
# RUNS (default 100) seeds 1..RUNS; SECONDS (default 2) of measured command per run; MA
# (default 300) the constant current; METER (default um25c) the emulated model; CSV keeps
# one row per run. Exits 1 when a target is missed.
set -eu
cd "$(dirname "$0")/.."
RUNS=100
SECS=2
MA=300
METER=um25c
CSV=""
while getopts "n:s:m:M:o:h" o; do
	case $o in
	n) RUNS=$OPTARG ;;
	s) SECS=$OPTARG ;;
	m) MA=$OPTARG ;;
	M) METER=$OPTARG ;;
	o) CSV=$OPTARG ;;
	*) sed -n '2,15p' "$0"; exit 2 ;;
	esac
done
IOWATT=${IOWATT:-./iowatt}
[ -x "$IOWATT" ] || { echo "uncertainty-coverage: build iowatt first ($IOWATT)" >&2; exit 2; }
WORK=$(mktemp -d /var/tmp/iowatt-coverage.XXXXXX)
emu_pid=""
cleanup() {
	[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null && wait "$emu_pid" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

rows="$WORK/runs.csv"
echo "seed,active_s,truth_w,active_w,active_w_u95,energy_j,energy_j_u95,samples,dominant" >"$rows"
for seed in $(seq 1 "$RUNS"); do
	rm -f "$WORK/um" "$WORK/truth.csv" "$WORK"/m.*
	"$IOWATT" emulate "$METER" --link "$WORK/um" --constant-ma "$MA" --noise --seed "$seed" \
		--truth "$WORK/truth.csv" >"$WORK/emu.log" 2>&1 &
	emu_pid=$!
	for _ in $(seq 50); do [ -e "$WORK/um" ] && break; sleep 0.1; done
	if ! "$IOWATT" measure --meter "$METER:$WORK/um,interval=100ms" --idle 500ms --idle-samples 3 \
		--tail-max 0 --no-progress -q --json-out "$WORK/m.json" -- sleep "$SECS" \
		>"$WORK/run.log" 2>&1; then
		cat "$WORK/run.log" "$WORK/emu.log" >&2
		exit 2
	fi
	kill "$emu_pid" 2>/dev/null
	wait "$emu_pid" 2>/dev/null || true
	emu_pid=""
	python3 - "$WORK/m.json" "$WORK/truth.csv" "$seed" >>"$rows" <<'EOF'
import csv, json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
a = j["phases"]["active"]
t0, t1 = a["t_start_ns"], a["t_end_ns"]
# The load is constant: the truth is the model's power at its updates in the phase.
w = [float(r["w"]) for r in csv.DictReader(open(sys.argv[2]))
     if r["kind"] == "update" and t0 - 2e8 <= int(r["t_ns"]) <= t1]
truth = sum(w) / len(w)
p = j["power"]
dom = j["validity"]["uncertainty"]["dominant"].replace(",", ";")
print("%s,%.6f,%.9f,%.9f,%.9f,%.9f,%.9f,%d,%s" % (
    sys.argv[3], (t1 - t0) / 1e9, truth, p["active_w"], p["active_w_u95"],
    p["energy_active_j"], p["energy_active_j_u95"], j["validity"]["samples_active"], dom))
EOF
done
[ -n "$CSV" ] && cp "$rows" "$CSV"
python3 - "$rows" <<'EOF'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fails = 0
for fig, u, truth in (("active_w", "active_w_u95", lambda r: float(r["truth_w"])),
                      ("energy_j", "energy_j_u95",
                       lambda r: float(r["truth_w"]) * float(r["active_s"]))):
    err = [float(r[fig]) - truth(r) for r in rows]
    u95 = [float(r[u]) for r in rows]
    inside = sum(abs(e) <= w for e, w in zip(err, u95))
    rms = math.sqrt(sum(e * e for e in err) / len(err))
    p95 = sorted(abs(e) for e in err)[int(0.95 * (len(err) - 1))]
    mean_u = sum(u95) / len(u95)
    cov = inside / len(rows)
    width = mean_u / rms if rms > 0 else float("inf")
    ok = cov >= 0.95 and width <= 3
    fails += not ok
    print("%-9s %d runs: truth inside the interval in %d (%.1f %%, target >= 95 %%); "
          "mean U95 %.3g = %.2fx the RMS error %.3g (target <= 3x), %.2fx its 95th "
          "percentile %.3g: %s" % (fig, len(rows), inside, cov * 100, mean_u, width, rms,
                                   mean_u / p95 if p95 > 0 else float("inf"), p95,
                                   "meets" if ok else "MISSES"))
doms = {}
for r in rows:
    k = r["dominant"].split(" at ")[0]
    doms[k] = doms.get(k, 0) + 1
print("dominant term:", ", ".join("%s (%d runs)" % kv for kv in sorted(doms.items(), key=lambda x: -x[1])))
print("samples per run: %s" % sorted(set(r["samples"] for r in rows)))
sys.exit(1 if fails else 0)
EOF
