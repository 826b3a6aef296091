#!/usr/bin/env bash
# PPK2 sample counter: the emulator's lost runs are counted as raw jumps and, by Nordic's rule, as lost samples.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# --corrupt-pct: now and then a push loses its first 1..50 samples; the counter skips them.
start_emu ppk2 "$T/c" --constant-ma 40 --volts 3.3 --cable-ohms 0 --corrupt-pct 20 \
	--truth "$T/c.truth" --duration 60
timeout 60 "$IOWATT" measure --meter "ppk2:$T/c,vdd=3300" --idle 1s --idle-samples 2 \
	--tail-hold 0.2s --tail-max 0.5s --json-out "$T/c.json" -- sleep 2 >"$T/c.run" 2>&1
ok $? "measure with the PPK2 emulator losing samples exits 0"
stop_emu
python3 - "$T/c.json" "$T/c.truth" <<'PY'
import csv, json, sys
m = json.load(open(sys.argv[1]))["meters"][0]
rows = list(csv.DictReader(open(sys.argv[2])))
lost_runs = sum(1 for r in rows if r["kind"] == "lost")
overflow = sum(1 for r in rows if r["kind"] == "overflow")
print("# emulator: %d lost runs of 1-50 samples, %d overflows; result: counter_jumps %d, "
      "counter_lost %d, overruns %d" % (lost_runs, overflow, m["counter_jumps"],
                                        m["counter_lost"], m["overruns"]))
# Each run the emulator loses is one raw jump; the loss is confirmed (Nordic's rule: more
# than 4 samples in a row out of sequence) and counted in samples, also in overruns. Runs
# after the reader stopped reading are in the truth log but not in the result. A host too
# busy to keep up makes the emulator overflow (its buffer full: more jumps, longer runs);
# the last jump may come too close to the stop to be confirmed.
bound = 50 * m["counter_jumps"] if overflow == 0 else m["counter_lost"]
ok = (lost_runs >= 3 and 1 <= m["counter_jumps"] <= lost_runs + overflow and
      m["counter_jumps"] - 1 <= m["counter_lost"] <= bound and
      m["overruns"] >= m["counter_lost"])
sys.exit(0 if ok else 1)
PY
ok $? "every lost run is one raw counter jump; the lost samples (1-50 each) are counted apart and in overruns"
done_testing
