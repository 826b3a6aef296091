#!/usr/bin/env bash
# The sampling term against a known truth (issue 21): an EMULATED UM25C whose current
# follows a loop device (a synced 4 KiB record is a 100 ms pulse of +20 mA on 90 mA),
# polled at 2 Hz, on a logger writing 2 records/s. Without dither every record falls at
# the same phase of the readings: the job is flagged (not valid, "aliased"), never valid
# with a tight interval. With rate_dither=100% (seeded) the readings see the records at
# every phase: valid, the burst energy seen, the truth inside a generous bound of the
# stated interval, and the dither recorded in the result's options.
. "$(dirname "$0")/../lib/lib.sh"

t_emu_loop 64 samp
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT

# logger NAME RECORDS EXTRA...: the emulator, one paced job, its truth; result in NAME.json
logger() {
	local name=$1 records=$2
	shift 2
	rm -f "$T_TMP/um"
	"$IOWATT" emulate um25c --link "$T_TMP/um" --device "$dev" --idle-ma 90 \
		--ma-per-kiops 1000 --truth "$T_TMP/$name.truth" >"$T_TMP/emu.log" 2>&1 &
	emu_pid=$!
	for _ in $(seq 50); do [ -e "$T_TMP/um" ] && break; sleep 0.1; done
	"$IOWATT" run --target "$mnt" --meter "um25c:$T_TMP/um,interval=500ms" --rw write \
		--bs 4k --rate-iops 2 --fdatasync 1 --direct 0 --ioengine psync \
		--size $((records * 4))k --idle 3s --idle-samples 6 --tail-max 0 --no-progress \
		--json-out "$T_TMP/$name.json" "$@" >"$T_TMP/$name.out" 2>&1
	local rc=$?
	kill "$emu_pid" 2>/dev/null
	wait "$emu_pid" 2>/dev/null
	emu_pid=""
	return $rc
}

# truth NAME: the emulator's energy over the result's active phase, and the figures
cat >"$T_TMP/truth.py" <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1] + ".json"))["jobs"][0]
upd = sorted((int(r["t_ns"]), float(r["w"])) for r in csv.DictReader(open(sys.argv[1] + ".truth"))
             if r["kind"] == "update")
a, b = j["phases"]["active"]["t_start_ns"], j["phases"]["active"]["t_end_ns"]
truth = sum(w0 * (min(b, t1) - max(a, t0)) / 1e9
            for (t0, w0), (t1, _) in zip(upd, upd[1:]) if min(b, t1) > max(a, t0))
p, v = j["power"], j["validity"]
idle = p["idle_w"] * (b - a) / 1e9
print(json.dumps({"truth": truth, "idle": idle, "energy": p["energy_active_j"],
                  "u95": p["energy_active_j_u95"], "valid": v["valid"],
                  "uncertain": v["uncertain"], "reasons": v["reasons"],
                  "budget": v["uncertainty"]["budget"], "dominant": v["uncertainty"]["dominant"],
                  "options": j["options"]}))
PY

logger plain 24
ok $? "a 2 records/s logger under a 2 Hz meter, no dither"
python3 "$T_TMP/truth.py" "$T_TMP/plain" >"$T_TMP/plain.sum" || true
sed 's/^/# /' "$T_TMP/plain.sum"
check "it is flagged: not valid, the reason says aliased, the budget's term unknown" -- \
	python3 - "$T_TMP/plain.sum" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["valid"] is False and s["uncertain"] is True, s
assert any("Hz: aliased" in r and "cannot be known" in r for r in s["reasons"]), s["reasons"]
assert s["budget"]["sampling"] is None and s["u95"] is None, s
assert "meter at 2 Hz: aliased" in s["dominant"], s
PY
check "the summary says why" -- grep -E "activity at [0-9.]+ Hz, meter at 2 Hz: aliased" \
	"$T_TMP/plain.out"

logger dither 40 --rate-dither 100% --randseed 7
ok $? "the same logger with --rate-dither 100% --randseed 7"
python3 "$T_TMP/truth.py" "$T_TMP/dither" >"$T_TMP/dither.sum" || true
sed 's/^/# /' "$T_TMP/dither.sum"
check "the dither and its seed are recorded in the result's options" -- \
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["options"]; assert o["rate_dither"] == 1.0 and o["randseed"] == 7, o' \
	"$T_TMP/dither.sum"
check "valid, with the sampling term in the budget" -- python3 - "$T_TMP/dither.sum" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["valid"] is True, s["reasons"]
assert s["budget"]["sampling"] > 0, s["budget"]
PY
# Bounds generous enough never to fail on a correct estimate (the interval is k = 2;
# bench/sampling-coverage.sh measures its coverage), tight enough that a meter blind to
# the records (it would read idle: an error of the whole burst energy) fails both.
check "the bursts are seen and the truth is within twice the stated U95" -- \
	python3 - "$T_TMP/dither.sum" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
burst = s["truth"] - s["idle"]
assert burst > 0.02 * s["truth"], ("the emulator saw no bursts", s)
assert s["energy"] - s["idle"] > 0.25 * burst, ("the readings missed the bursts", s)
err = abs(s["energy"] - s["truth"])
assert err <= 2 * s["u95"], ("truth outside 2 x U95", err, s)
assert s["u95"] < burst, ("an interval wider than the whole burst energy says nothing", s)
PY

"$IOWATT" run --target "$mnt" --no-meter --rw write --bs 4k --size 8k --rate-iops 2 \
	--rate-dither 150% >"$T_TMP/bad.out" 2>&1
rc=$?
check "--rate-dither above 100% is refused, naming the option" -- \
	sh -c "[ $rc -ne 0 ] && grep -q 'rate.dither' '$T_TMP/bad.out'"

done_testing
