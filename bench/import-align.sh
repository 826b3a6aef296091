#!/usr/bin/env bash
# How `import` placing a long recording on a run's clock scales with the recording's length:
# the search for the offset against the plain read of the file (`import --offset`, no search)
# as the reference, for recordings of 1, 10 and 60 minutes at 10 kS/s (a sigrok session of
# a current: 50 mA, 300 mA in each active phase, 1 mA noise) holding a 12 s run of an
# EMULATED UM25C at a known place (half way).
#
#   bench/import-align.sh [-m "MINUTES..."] [-b IOWATT]
#
# Prints for each length: seconds and peak RSS to read it, to read and place it (the search),
# their ratio, and the offset found against the truth. -b also times another build
# ("before") on the same files. Root not needed; python3 writes the recordings.
set -u
BENCH=import-align
. "$(dirname "$0")/lib.sh"
MINUTES="1 10 60" BEFORE=""
while [ $# -gt 0 ]; do
	case $1 in
	-m | -b)
		[ $# -ge 2 ] || { sed -n '2,12p' "$0"; exit 2; }
		case $1 in -m) MINUTES=$2 ;; -b) BEFORE=$2 ;; esac
		shift ;;
	*) sed -n '2,12p' "$0"; exit 2 ;;
	esac
	shift
done
[ -x "$IOWATT" ] || bench_die 2 "build iowatt first ($IOWATT)"
[ -z "$BEFORE" ] || [ -x "$BEFORE" ] || bench_die 2 "$BEFORE: not an executable"
[ -x /usr/bin/time ] || bench_die 2 "/usr/bin/time is missing (apt-get install time)"
trap "stop_emu; [ -n \"${KEEP:-}\" ] && cp \"\$T_TMP\"/r.json \"\$T_TMP\"/rec.sr \"\$KEEP\"/; t_cleanup" EXIT

start_emu --step "0:100,3:400" || exit 2
mkdir -p "$T_TMP/t"
"$IOWATT" run --target "$T_TMP/t" --meter "um25c:$T_TMP/um,interval=100ms" --rw write \
	--bs 64k --size 4m --rate-iops 20 --direct 0 --ioengine psync --idle 1s \
	--idle-samples 5 --tail-max 5s --tail-hold 500ms --no-progress \
	--json-out "$T_TMP/r.json" >"$T_TMP/r.out" 2>&1 || {
	tail -n 5 "$T_TMP/r.out" >&2
	bench_die 1 "the run failed"
}
stop_emu

# timed BIN ARGS...: "seconds rss_kib" of one import, its output kept in $T_TMP/imp.out.
timed() {
	local bin=$1
	shift
	/usr/bin/time -f "%e %M" -o "$T_TMP/time" "$bin" import "$T_TMP/r.json" "$@" \
		--json-out "$T_TMP/imp.json" --force >"$T_TMP/imp.out" 2>&1 || {
		echo "fail fail"
		return
	}
	cat "$T_TMP/time"
}

printf '%-8s %-7s %10s %10s %10s %8s %12s\n' minutes build read_s place_s place/read rss_mib err/U95_ms
for m in $MINUTES; do
	python3 - "$T_TMP/r.json" "$T_TMP/rec.sr" "$m" <<'PY' || bench_die 1 "cannot write the recording"
import array, json, random, sys, zipfile
r = json.load(open(sys.argv[1]))
t0, rate, minutes = r["t0_ns"], 10000, float(sys.argv[3])
act = [((j["phases"]["active"]["t_start_ns"] - t0) / 1e9, (j["phases"]["active"]["t_end_ns"] - t0) / 1e9)
       for j in r["jobs"]]
n = int(minutes * 60 * rate)
start = -minutes * 30.0  # the run's t0 half way through the recording
random.seed(3)
ma = array.array("f", (50.0 + random.uniform(-1, 1) for _ in range(n)))
for a, b in act:
    for i in range(max(0, int((a - start) * rate)), min(n, int((b - start) * rate))):
        ma[i] += 250.0
meta = ("[global]\nsigrok version=0.5.2\n\n[device 1]\nsamplerate=10 kHz\n"
        "total analog=1\nanalog1=dut_mA\n")
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("version", "2")
    z.writestr("metadata", meta)
    z.writestr("analog-1-1-1", ma.tobytes())
open(sys.argv[2] + ".start", "w").write(repr(start))
PY
	truth=$(cat "$T_TMP/rec.sr.start")
	for bin in "$IOWATT" $BEFORE; do
		tag=after
		[ "$bin" = "$IOWATT" ] || tag=before
		read -r rs _ < <(timed "$bin" --recording "$T_TMP/rec.sr" --volts 5 --offset "$truth")
		read -r ps pk < <(timed "$bin" --recording "$T_TMP/rec.sr" --volts 5)
		err=$(python3 -c 'import json, sys
try:
    a = json.load(open(sys.argv[1]))["alignment"]
    e = (a["offset_s"] - float(sys.argv[2])) * 1e3
    print("%+.3f/%.3f" % (e, a["u95_s"] * 1e3))
except Exception:
    print("none")' "$T_TMP/imp.json" "$truth")
		ratio=$(awk -v a="$ps" -v b="$rs" 'BEGIN { if (b + 0 > 0 && a != "fail") printf "%.2f", a / b; else print "-" }')
		rss=$(awk -v k="$pk" 'BEGIN { if (k != "fail") printf "%.0f", k / 1024; else print "-" }')
		printf '%-8s %-7s %10s %10s %10s %8s %12s\n' "$m" "$tag" "$rs" "$ps" "$ratio" "$rss" "$err"
	done
done
