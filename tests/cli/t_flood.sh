#!/usr/bin/env bash
# A flood of events never stalls a run (issue 20): libsigrok's demo signal, read as a load's
# (sign=unsigned: its negative half is impossible), drops a reading every few samples and
# crosses the undervoltage threshold as often, at 200 kS/s per channel.
. "$(dirname "$0")/../lib/lib.sh"

if ! "$IOWATT" meters --help 2>&1 | grep -q "^  sigrok: "; then
	skip "built without libsigrok: no demo signal (tests/unit/test_flood.c floods a session without it)"
	done_testing
	exit
fi

# libsigrok's own leak under Debian 13's glib is let through as in t_meters_scan.sh.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
mkdir -p "$T_TMP/dir"
# The issue's run: a 3 s idle, 1024 writes at 400 IOPS (2.6 s), a tail of at most 5 s.
PLANNED_S=11
BOUND_S=$((PLANNED_S + 30))
RSS_MAX_KB=$((512 * 1024)) # ~40 MB under ASan; the old queue grew for as long as it ran
run_args=(run --rw write --bs 4k --size 4M --rate-iops 400 --target "$T_TMP/dir"
	--meter sigrok:demo,sign=unsigned --idle 3s --tail-max 5s --no-progress)

# run_watched NAME: the run in the background, its peak RSS (kB) sampled while it runs in
# $hwm, stopped (TERM, then KILL) past BOUND_S; its exit status in $rc, seconds in $took.
run_watched() {
	local pid start=$(date +%s) v
	"$IOWATT" "${run_args[@]}" --json-out "$T_TMP/$1.json" >"$T_TMP/$1.out" 2>&1 &
	pid=$!
	hwm=0
	while kill -0 $pid 2>/dev/null; do
		v=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		[ -n "$v" ] && hwm=$v
		took=$(($(date +%s) - start))
		[ $took -gt $BOUND_S ] && kill -TERM $pid
		[ $took -gt $((BOUND_S + 10)) ] && kill -KILL $pid
		sleep 0.2
	done
	wait $pid
	rc=$?
	took=$(($(date +%s) - start))
}

# 1. The whole run ends on time, in bounded memory, its events coalesced and counted.
run_watched flood
ok $rc "the sigrok demo run exits 0 (rc=$rc) in ${took} s (planned ${PLANNED_S} s, bound ${BOUND_S} s)"
[ $rc -eq 0 ] || tail -n 15 "$T_TMP/flood.out" | sed 's/^/#   /'
[ "$hwm" -gt 0 ] && [ "$hwm" -lt $RSS_MAX_KB ]
ok $? "its peak RSS stays bounded: ${hwm} kB (< $RSS_MAX_KB kB)"

if [ -f "$T_TMP/flood.json" ]; then
	python3 - "$T_TMP/flood.json" "$T_TMP/flood.out" >"$T_TMP/counts" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
summary = open(sys.argv[2]).read()
n = lambda e: e.get("count", 1)
run = {}
for e in d["events"]:
    run[(e["kind"], e["source"])] = run.get((e["kind"], e["source"]), 0) + n(e)
SRC = "sigrok:demo,sign=unsigned"  # the spec names the events
drops = run.get(("info", SRC), 0)
uv, uv_end = run.get(("undervoltage", SRC), 0), run.get(("undervoltage_end", SRC), 0)
entries = len(d["events"])
print("# %d entries; drops %d, undervoltages %d, ends %d; out_of_range %d" %
      (entries, drops, uv, uv_end, d["meters"][0]["out_of_range"]))
checks = [
    # a flood it was, in a handful of entries (one per kind and phase)
    drops > 10000 and uv > 1000 and entries <= 64,
    # every undervoltage has its end but perhaps the last
    uv_end in (uv, uv - 1),
    # episodes of one or more readings: never more episodes than readings dropped
    drops <= d["meters"][0]["out_of_range"],
    # each job's events are the run's, per phase: never more than the run counted
    all(sum(n(e) for e in j["events"] if e["kind"] == "undervoltage") <= uv for j in d["jobs"]),
    # the summary says the same numbers
    re.search(r"^events: %d x info from %s, " % (drops, re.escape(SRC)), summary, re.M) is not None and
    re.search(r"^events: %d x undervoltage from %s, " % (uv, re.escape(SRC)), summary, re.M) is not None,
]
print(" ".join("1" if c else "0" for c in checks))
PY
	cat "$T_TMP/counts" | grep "^#"
	read -r c_flood c_pairs c_drops c_jobs c_summary < <(grep -v "^#" "$T_TMP/counts")
	ok $((1 - ${c_flood:-0})) "the flood is a few coalesced entries with their counts"
	ok $((1 - ${c_pairs:-0})) "every undervoltage is counted with its end"
	ok $((1 - ${c_drops:-0})) "the drop events count no more episodes than readings dropped"
	ok $((1 - ${c_jobs:-0})) "the job's events count within the run's"
	ok $((1 - ${c_summary:-0})) "the summary gives the same counts"
else
	for w in flood pairs drops jobs summary; do ok 1 "result written ($w)"; done
fi

# 2. SIGTERM in the middle of the flood: honoured at once, the result says interrupted.
"$IOWATT" "${run_args[@]}" --json-out "$T_TMP/term.json" >"$T_TMP/term.out" 2>&1 &
pid=$!
for _ in $(seq 300); do # the plan is printed as the idle phase begins (or 30 s)
	grep -q "^job " "$T_TMP/term.out" 2>/dev/null && break
	sleep 0.1
done
sleep 4 # into the active phase; the flood runs from the first sample anyway
t0=$(date +%s%N)
kill -TERM $pid
for _ in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 143 ] && [ $ms -lt 10000 ]
ok $? "SIGTERM mid-flood ends the run in ${ms} ms with 143 (rc=$rc; bound 10 s, asked: 1 s)"
[ "$(jget "$T_TMP/term.json" 'd["status"]' 2>/dev/null)" = interrupted ]
ok $? "its result is written, marked interrupted"
[ -z "$(ls "$T_TMP/dir")" ]
ok $? "the test file is removed"

done_testing
