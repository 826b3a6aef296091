#!/usr/bin/env bash
# Does the power model's headline hold? A seeded study of per-operation and job energy from
# a slow meter (issue 35): an EMULATED UM25C whose current is idle (90 mA) plus a known
# charge per completed read, write and flush of the loop device (40, 120, 60 uC: iowatt
# emulate --uc-per-read/--uc-per-write/--uc-per-flush, drawn over the 100 ms update that
# sees each one complete), erring as its datasheet allows (--noise, a gain and offset per
# run), polled at 1, 2 and 10 Hz, on an SD-speed throttled loop device (cgroup io.max),
# against six jobs: streaming (64 KiB writes, 100/s), bursty (256 KiB writes at 3/s,
# dithered), paced (4 KiB synced records at 2/s), dithered (the same, rate_dither=100%),
# randrw (4 KiB 70/30 reads/writes, 50/s, dithered) and logger (configs/iot-logger.ini's
# LOG-4K-2IOPS-sync, shortened to SECONDS).
# For each cell: per-operation figures (power.energy_model's read/write/flush, or a
# lock-step pair's sum) against the charges x the active phase's mean voltage, and the
# job's energy_net_j against the truth log (the active phase and tail less the quiet idle):
#   cover: share of the figures whose U95 holds the truth (goal >= 95 %);
#   width: mean U95 / RMS error (goal <= 3x); rms: RMS error relative to the truth;
#   flagged: runs not valid or uncertain; est: power.estimator of the first run;
#   mod: the same for power.energy_model's own energy_net_j over every run, whichever
#   estimator carried the headline.
# A "low-narrow" mark says a miss read low with a narrower interval than the cell's hits.
# The per-operation truth is what one iowatt operation of that kind costs the device, in
# energy above idle per charge above idle (the truth log's, over the job: the cable's drop
# lowers the idle draw's power while operations draw, 0.45 % below the mean voltage). In a
# job of synced records, every device charge of that kind (its diskstats over the job's
# active phase and tail, logged every 20 ms on iowatt's clock: not the prepare phase's
# layout, the idle phase's writeback or another job's) per iowatt operation: a synced 4 KiB
# record through ext4 is about 2.6 device operations, its journal writes waiting for its
# flush. In a job without syncs, the requests the operation itself makes (one, or a direct
# write longer than the queue's max_sectors_kb split in several): the filesystem's own I/O
# (bursty's direct writes dirty the mtime, and ext4 commits every 5 s, two journal writes
# and two flushes landing with whichever write waits for them, 1 in 15 at 3/s; writeback)
# is the job's, not an operation's: devops 1.23-1.33 there. It stays in the net energy's
# truth; a model that catches those commits (at 10 Hz) prices them into the write, up to
# +22 % over the write's own cost, and one that does not (2 Hz) gives the write's.
# Where the model gives a pair's
# sum (a synced record's write and flush, which the readings cannot tell apart), the truth
# is the record: every device charge of the pair's kinds per record; where it splits them
# in a job of synced records, the bench compares the record too (write + flush, U95 the
# two added: the result carries no covariance), since which of the two a record's journal
# writes belong to is a matter of where they land. devops prints the device's
# reads+writes+flushes per iowatt I/O (over the same span).
#
#   bench/model-coverage.sh [-n RUNS] [-s SECONDS] [-c CELLS] [-o CSV] [-b IOWATT]
#   bench/model-coverage.sh -L [-b IOWATT]
#
# RUNS (default 2) per cell, seeds 1..RUNS; SECONDS (default 20) of active phase; CELLS a
# subset of "HZ:JOB", default all eighteen; -b runs the jobs with another iowatt binary
# (an older build: "before"), the emulator is always this tree's. The full study:
# bench/model-coverage.sh -n 20 -s 30. MCOV_KEEP=DIR keeps each run's result, samples,
# emulator truth and device log in DIR. -L runs configs/iot-logger.ini as shipped (both
# jobs) at 2 Hz and prints each job's verdict, estimator and J/GB. Root.
set -u
BENCH=model-coverage
. "$(dirname "$0")/lib.sh"
EMU=$IOWATT
RUNS=2 SECS=20 CELLS="" CSV="" LOGGER=0 RUN_BIN=$IOWATT
while [ $# -gt 0 ]; do
	case $1 in
	-L) LOGGER=1 ;;
	-n | -s | -c | -o | -b)
		[ $# -ge 2 ] || { sed -n '2,51p' "$0"; exit 2; }
		case $1 in -n) RUNS=$2 ;; -s) SECS=$2 ;; -c) CELLS=$2 ;; -o) CSV=$2 ;; -b) RUN_BIN=$2 ;; esac
		shift ;;
	*) sed -n '2,51p' "$0"; exit 2 ;;
	esac
	shift
done
[ -x "$RUN_BIN" ] || bench_die 2 "$RUN_BIN: not an executable"
if [ -z "$CELLS" ]; then
	for hz in 1 2 10; do
		for job in streaming bursty paced dithered randrw logger; do CELLS="$CELLS $hz:$job"; done
	done
fi
UC_R=40 UC_W=120 UC_F=60
bench_sd_target 256 mcov
trap 'stop_devlog; stop_emu; t_cleanup; t_cgroup_cleanup' EXIT

start_model_emu() { # ARGS...
	rm -f "$T_TMP/um"
	"$EMU" emulate um25c --link "$T_TMP/um" --device "$dev" --idle-ma 90 --ma-per-kiops 0 \
		--ma-per-mbps 0 --uc-per-read $UC_R --uc-per-write $UC_W --uc-per-flush $UC_F \
		--truth "$T_TMP/truth.csv" "$@" >"$T_TMP/emu.log" 2>&1 &
	emu_pid=$!
	for _ in $(seq 50); do [ -e "$T_TMP/um" ] && return 0; sleep 0.1; done
	cat "$T_TMP/emu.log" >&2
	return 1
}

# devlog.py NAME FILE: the device's completed reads, writes and flushes every 20 ms, each
# line "t_ns reads writes flushes" on CLOCK_MONOTONIC (the clock of iowatt's phases)
cat >"$T_TMP/devlog.py" <<'PY'
import sys, time
name, out = sys.argv[1:3]
with open(out, "w", buffering=1) as f:
    while True:
        t = time.monotonic_ns()
        with open("/proc/diskstats") as ds:
            for x in (line.split() for line in ds):
                if x[2] == name:
                    f.write("%d %s %s %s\n" % (t, x[3], x[7], x[-2]))
        time.sleep(0.02)
PY
log_pid=""
stop_devlog() {
	[ -n "$log_pid" ] && kill "$log_pid" 2>/dev/null && wait "$log_pid" 2>/dev/null
	log_pid=""
}

cat >"$T_TMP/row.py" <<'PY'
import csv, json, sys
res, truth, cell, seed, ucr, ucw, ucf, devlog, maxkb = sys.argv[1:10]
log = [list(map(int, x.split())) for x in open(devlog)]
def dev_at(t_ns):
    # the device's counts at the last snapshot by t_ns
    return next((x[1:] for x in reversed(log) if x[0] <= t_ns), log[0][1:])
uc = {"read": float(ucr), "write": float(ucw), "flush": float(ucf)}
for j in json.load(open(res))["jobs"]:
    upd = sorted((int(r["t_ns"]), float(r["w"]), float(r["a"])) for r in csv.DictReader(open(truth))
                 if r["kind"] == "update")
    ph = j["phases"]
    a, b = ph["active"]["t_start_ns"], ph["active"]["t_end_ns"]
    e = max(b, (ph.get("tail") or {}).get("t_end_ns") or b)
    idle = ph.get("idle") or {}
    dev = dict(zip(("read", "write", "flush"), (y - x for x, y in zip(dev_at(a), dev_at(e)))))
    def integral(lo_ns, hi_ns, k=1):
        # the truth is a step function: each update holds until the next
        return sum(x[k - 1] * max(0, min(hi_ns, t1) - max(lo_ns, t0)) / 1e9
                   for (t0, *x), (t1, *_) in zip(upd, upd[1:]))
    quiet = [(w, amps) for t, w, amps in upd if idle and idle["t_start_ns"] <= t < idle["t_end_ns"]]
    quiet_w, quiet_a = min(quiet) if quiet else (float("nan"), float("nan"))
    net_truth = integral(a, e) - quiet_w * (e - a) / 1e9
    # the energy above idle per charge above idle: the cable's drop lowers the idle part's
    # power while the operations draw (about 0.45 % below the active phase's mean voltage)
    volts = net_truth / (integral(a, e, 2) - quiet_a * (e - a) / 1e9)
    p, v, eff = j["power"], j["validity"], j["efficiency"]
    m = p.get("energy_model") or {}
    # iowatt's operations per kind, and the device's charge per one of them (a synced
    # record's journal writes count with its write)
    n = {"read": (j.get("read") or {}).get("total_ios", 0),
         "write": (j.get("write") or {}).get("total_ios", 0),
         "flush": (j.get("sync") or {}).get("total_ios", 0)}
    # a job of synced records: every device charge of the record's kinds per record (its
    # journal writes wait for its flush); without syncs: the device requests an operation
    # itself makes (a direct write longer than the queue's max_sectors_kb split in several),
    # the filesystem's own I/O (a journal commit every 5 s for the mtime, writeback) being
    # the job's, not an operation's: it stays in the net energy's truth
    synced = n["flush"] >= 0.9 * n["write"] > 0
    bs = (j.get("options") or {}).get("bs") or 0
    reqs = max(1, -(-bs // (int(maxkb) * 1024))) if bs and int(maxkb) > 0 else 1
    per = {k: uc[k] * (dev[k] / n[k] if synced or k == "flush" else reqs) * volts if n[k] else 0
           for k in uc}
    ops = []
    for k in ("read", "write", "flush"):
        x = m.get(k + "_uj_per_op")
        if x is not None:
            ops.append((k, x, m.get(k + "_uj_per_op_u95"), per[k]))
    # synced records (a flush per write): the record is the unit a battery pays, the split
    # is where the readings put the journal's writes; U95 the two added, as the result
    # carries no covariance (an upper bound)
    split = {k: (x, u, t) for k, x, u, t in ops}
    if "write" in split and "flush" in split and n["write"] and n["flush"] >= 0.9 * n["write"]:
        (xw, uw, tw), (xf, uf, tf) = split["write"], split["flush"]
        r = n["flush"] / n["write"]
        ops = [o for o in ops if o[0] not in ("write", "flush")]
        ops.append(("record", xw + xf * r, uw + uf * r if uw is not None and uf is not None
                    else None, tw + tf * r))
    if m.get("sum_of"):
        base, other = m["sum_of"].split("+")
        ops.append((m["sum_of"], m["sum_uj_per_op"], m.get("sum_uj_per_op_u95"),
                    per[base] + per[other] * n[other] / n[base]))
    ios = sum(n.values()) or 1
    f = lambda x: "" if x is None else "%.6g" % x
    print(",".join([cell, seed, str(int(v["valid"])), str(int(v["uncertain"])),
                    p.get("estimator") or "integration", m.get("verdict") or "",
                    "%.6g" % net_truth, f(p.get("energy_net_j")), f(p.get("energy_net_j_u95")),
                    f(eff.get("j_per_gb")), f(eff.get("j_per_gb_u95")),
                    "%.3g" % (sum(dev.values()) / ios),
                    ";".join("%s:%s:%s:%.6g" % (k, f(x), f(u), t) for k, x, u, t in ops),
                    j["jobname"].replace(",", ";"),
                    f(m.get("energy_net_j")), f(m.get("energy_net_j_u95")),
                    "%s/%s/%s" % tuple(f(m.get(k)) for k in ("lag_s", "window_s", "hold_s")),
                    ((v.get("uncertainty") or {}).get("dominant") or "").replace(",", ";")]))
PY

# one_run ROWS CELL SEED RUNARGS...: a run under the emulator, its rows appended to ROWS
one_run() {
	local rows=$1 cell=$2 seed=$3
	shift 3
	rm -f "$mnt"/iowatt* "$T_TMP"/r.* 2>/dev/null
	start_model_emu --noise --seed "$seed" || exit 2
	python3 "$T_TMP/devlog.py" "$dev" "$T_TMP/devlog" &
	log_pid=$!
	t_in_cgroup "$cg" "$RUN_BIN" run "$@" --target "$mnt" --meter "um25c:$T_TMP/um,interval=$iv" \
		--no-progress --json-out "$T_TMP/r.json" >"$T_TMP/run.log" 2>&1
	stop_emu
	stop_devlog
	[ -s "$T_TMP/r.json" ] || { cat "$T_TMP/run.log" >&2; exit 2; }
	if [ -n "${MCOV_KEEP:-}" ]; then
		mkdir -p "$MCOV_KEEP" && for f in "$T_TMP"/r.*; do cp "$f" "$MCOV_KEEP/${cell/:/-}-$seed.${f##*/r.}"; done &&
			cp "$T_TMP/truth.csv" "$MCOV_KEEP/${cell/:/-}-$seed.truth.csv" &&
			cp "$T_TMP/devlog" "$MCOV_KEEP/${cell/:/-}-$seed.devlog"
	fi
	python3 "$T_TMP/row.py" "$T_TMP/r.json" "$T_TMP/truth.csv" "$cell" "$seed" $UC_R $UC_W $UC_F \
		"$T_TMP/devlog" "$(cat "/sys/block/$dev/queue/max_sectors_kb" 2>/dev/null || echo 0)" \
		>>"$rows" || exit 2
}

rows="$T_TMP/runs.csv"
echo "cell,seed,valid,uncertain,estimator,fit,net_truth_j,net_j,net_u95_j,j_per_gb,j_per_gb_u95,devops,ops,job,model_net_j,model_net_u95_j,lag_win_hold,dominant" >"$rows"
if [ "$LOGGER" = 1 ]; then
	iv=500ms
	one_run "$rows" 2:iot-logger 1 "$REPO/configs/iot-logger.ini"
	python3 - "$rows" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    rel = lambda x, u: "%.1f %%" % (100 * float(u) / abs(float(x))) if x and u else "null"
    print("%-20s valid=%s uncertain=%s estimator=%s fit=%s j_per_gb %s +- %s; net %s J "
          "(truth %.4f J, +- %s); per-op %s; dominant: %s" % (
          r["job"], r["valid"], r["uncertain"], r["estimator"], r["fit"] or "-",
          r["j_per_gb"] or "-", rel(r["j_per_gb"], r["j_per_gb_u95"]), r["net_j"] or "-",
          float(r["net_truth_j"]), rel(r["net_j"], r["net_u95_j"]), r["ops"] or "-",
          r["dominant"]))
print("(EMULATED UM25C at 2 Hz, idle 90 mA + 40/120/60 uC per read/write/flush, SD-speed loop)")
PY
	exit 0
fi
for cell in $CELLS; do
	hz=${cell%%:*}
	job=${cell#*:}
	case $hz in 1) iv=1s ;; 2) iv=500ms ;; 10) iv=100ms ;; *) bench_die 2 "$hz Hz: 1, 2 or 10" ;; esac
	common=(--ioengine psync --idle 4s --idle-samples $((hz * 4 < 8 ? 8 : hz * 4)) --tail-max 0)
	case $job in
	streaming) args=(--rw write --bs 64k --rate-iops 100 --direct 1 --size $((100 * SECS * 64))k) ;;
	bursty) args=(--rw write --bs 256k --rate-iops 3 --rate-dither 100% --direct 1
		--size $((3 * SECS * 256))k) ;;
	paced) args=(--rw write --bs 4k --rate-iops 2 --fdatasync 1 --direct 0 --size $((2 * SECS * 4))k) ;;
	dithered) args=(--rw write --bs 4k --rate-iops 2 --rate-dither 100% --fdatasync 1 --direct 0
		--size $((2 * SECS * 4))k) ;;
	randrw) args=(--rw randrw --rwmixread 70 --bs 4k --rate-iops 50 --rate-dither 100% --direct 1
		--size $((50 * SECS * 4))k --filesize 16m) ;;
	logger) args=("$REPO/configs/iot-logger.ini" --jobs LOG-4K-2IOPS-sync --size $((2 * SECS * 4))k) ;;
	*) bench_die 2 "$job: streaming, bursty, paced, dithered, randrw or logger" ;;
	esac
	for seed in $(seq 1 "$RUNS"); do
		one_run "$rows" "$cell" "$seed" "${args[@]}" "${common[@]}" --randseed "$seed"
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

def judge(pts):
    """(cover, width, rms %, low-narrow) over (value, u95, truth) triples"""
    if not pts:
        return "-", "-", "-", ""
    inside = [x is not None and u is not None and abs(x - t) <= u for x, u, t in pts]
    errs = [(x - t) / t for x, u, t in pts if x is not None]
    rms = math.sqrt(sum(e * e for e in errs) / len(errs)) if errs else float("nan")
    widths = [u / abs(t) for x, u, t in pts if u is not None]
    wid = (sum(widths) / len(widths)) / rms if widths and rms > 0 else float("nan")
    hit_u = [u for (x, u, t), ok in zip(pts, inside) if ok]
    low = any(x is not None and u is not None and not ok and x < t and hit_u and u < min(hit_u)
              for (x, u, t), ok in zip(pts, inside))
    return ("%d/%d" % (sum(inside), len(pts)), "%.2fx" % wid, "%.1f%%" % (100 * rms),
            " low-narrow" if low else "")

num = lambda s: float(s) if s else None
print("%-13s %4s %8s | %7s %7s %7s | %7s %7s %7s | %7s %7s %7s | %s" % ("cell", "runs", "flagged",
      "op_cov", "op_wid", "op_rms", "net_cov", "net_wid", "net_rms", "mod_cov", "mod_wid",
      "mod_rms", "est / fit / devops"))
for c in cells:
    rs = [r for r in rows if r["cell"] == c]
    valid = [r for r in rs if r["valid"] == "1"]
    ops = []
    for r in valid:
        for o in filter(None, r["ops"].split(";")):
            k, x, u, t = o.split(":")
            ops.append((num(x), num(u), float(t)))
    net = [(num(r["net_j"]), num(r["net_u95_j"]), float(r["net_truth_j"])) for r in valid]
    # the model's own energy above idle, whichever estimator carried the headline, over
    # every run (an aliased job is not valid by the integral, yet the model may know it)
    mnet = [(num(r["model_net_j"]), num(r["model_net_u95_j"]), float(r["net_truth_j"]))
            for r in rs if r["model_net_j"]]
    flagged = sum(1 for r in rs if r["valid"] == "0" or r["uncertain"] == "1")
    oc, ow, orm, ol = judge(ops)
    nc, nw, nr, nl = judge(net)
    mc, mw, mr, ml = judge(mnet)
    print("%-13s %4d %4d/%-3d | %7s %7s %7s | %7s %7s %7s | %7s %7s %7s | %s / %s / %s%s%s%s" % (
        c, len(rs), flagged, len(rs), oc, ow, orm, nc, nw, nr, mc, mw, mr, rs[0]["estimator"],
        rs[0]["fit"] or "-", rs[0]["devops"], ol, nl, ml))
print("(EMULATED UM25C erring as its datasheet allows; idle 90 mA + 40/120/60 uC per "
      "read/write/flush; cover/width/rms over valid runs; op: power.energy_model's per-op "
      "figures; net: energy_net_j against the truth log less the quiet idle; mod: "
      "power.energy_model's energy_net_j, every run)")
PY
