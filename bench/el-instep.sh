#!/usr/bin/env bash
# Event-locked energies on the PPK2 emulator, paced jobs in step with the check's 100 ms windows or not (issue 35.5): the check's verdicts against the emulator's truth.
# usage: bench/el-instep.sh [-n ROUNDS] [IOWATT] [OUTDIR]; about 100 s a round. Per job: the
# share of windows in step, the 100 ms model's verdict and check, the energy balance
# (the ops' energy event-locked against the readings' above idle) and each kind's energy
# against the emulator's 1000 / 3000 uJ per read / write.
set -u
ROUNDS=1
[ "${1:-}" = -n ] && { ROUNDS=$2; shift 2; }
IOWATT=${1:-${IOWATT:-./iowatt}}
OUT=${2:-$(mktemp -d)}
BENCH=el-instep
. "$(dirname "$0")/lib.sh"
trap 'stop_emu; t_cleanup' EXIT
bench_target 64 el
dev=$(findmnt -rn -o SOURCE "$mnt")
dev=${dev#/dev/}
mkdir -p "$OUT"
{
	printf '[global]\nioengine=psync\ndirect=1\nrw=randrw\nrwmixread=50\nbs=4k\n'
	printf 'idle=3s\nidle_samples=6\ntail_max=3s\n'
	for r in 10 15 20 30; do
		printf '\n[R%s]\nsize=%sk\nrate_iops=%s\n' $r $((r * 40)) $r
		printf '\n[R%sD]\nsize=%sk\nrate_iops=%s\nrate_dither=50%%\n' $r $((r * 40)) $r
	done
} >"$OUT/el.ini"
for n in $(seq "$ROUNDS"); do
	start_emu_as ppk2 "$OUT/p" --device "$dev" --idle-ma 90 --ma-per-mbps 0 \
		--ma-per-kiops 0 --uc-per-read 200 --uc-per-write 600 --update-ms 1 --volts 5 \
		--cable-ohms 0 || exit 1
	timeout 900 "$IOWATT" run "$OUT/el.ini" --target "$mnt" --meter "ppk2:$OUT/p,vdd=5000" \
		--no-progress --json-out "$OUT/el-$n.json" >"$OUT/el-$n.out" 2>&1
	stop_emu
done
python3 - "$OUT"/el-*.json <<'PY'
import json, sys
def f(x, d=0):
    return "-" if x is None else "%.*f" % (d, x)
print("%-4s %5s %-17s %-5s %-22s %-5s %-25s %-13s %s" % ("job", "step", "model", "agree", "worst kind (uJ, U95)",
      "trace", "ops vs above idle (mJ)", "read (1000)", "write (3000)"))
for path in sys.argv[1:]:
    for j in json.load(open(path))["jobs"]:
        e = j["power"].get("event_locked") or {}
        m = e.get("model") or {}
        print("%-4s %5s %-17s %-5s %-22s %-5s %-25s %-13s %s%s" % (
            j["jobname"], f(e.get("in_step_share"), 2), m.get("verdict"),
            {True: "yes", False: "NO", None: "-"}[e.get("agrees_with_model")],
            "%s %s/%s" % (e.get("check_kind"), f(e.get("difference_uj")), f(e.get("combined_u95_uj"))),
            {True: "yes", False: "NO", None: "-"}[e.get("agrees_with_trace")],
            "%s+-%s / %s+-%s" % (f((e.get("ops_energy_uj") or 0) / 1e3, 1), f((e.get("ops_energy_uj_u95") or 0) / 1e3, 1),
                                 f((e.get("above_idle_uj") or 0) / 1e3, 1), f((e.get("above_idle_uj_u95") or 0) / 1e3, 1)),
            "%s+-%s" % (f(e.get("read_uj_per_op")), f(e.get("read_uj_per_op_u95"))),
            "%s+-%s" % (f(e.get("write_uj_per_op")), f(e.get("write_uj_per_op_u95"))),
            " UNCERTAIN" if j["validity"].get("uncertain") else ""))
PY
echo "(results in $OUT)"
