#!/usr/bin/env bash
# Event-locked kernels (issue 35.5): the PPK2 emulator at 100 kS/s follows a loop device
# (90 mA idle, 200 uC per read and 600 uC per write at 5 V: 1000 and 3000 uJ, each over the
# 1 ms update that sees it, under the emulator's 900 mA cap and so within a PPK2's 1 A), a
# paced 4 KiB direct randrw job at 10 IOPS and a stream at 300 IOPS whose ops overlap; in
# each the result's power.event_locked finds the meter's offset, recovers each kind's
# energy per op within 2 x its U95, agrees with the power model fitted to the same
# readings at 100 ms and draws one op's current above idle, and no reading was dropped as
# beyond the meter's range (a loaded emulator drew a write seen in 0.2 ms at 3 A: the
# meter dropped it, and the stream read 1258 +- 210 / 2504 +- 227 uJ).
# The paced job, and a third at 10 IOPS without dither, hold one op in most 100 ms windows
# (the slots start with the windows): the check's model cannot tell their costs from idle,
# says so, and compares none of them (an undithered run was made UNCERTAIN,
# "+-nan %", for read 492 +- 272 against event-locked 1164 +- 157 uJ); no job is made
# uncertain by the check; every job's ops' energy balances the trace's above idle (the
# check in-step jobs get, docs/energy.md); and each job's event-locked figures are in the summary, compare
# and the page.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

t_emu_loop 64 el
trap 'stop_emu; t_cleanup' EXIT
start_emu ppk2 "$T_TMP/p" --device "$dev" --idle-ma 90 --ma-per-mbps 0 --ma-per-kiops 0 \
	--uc-per-read 200 --uc-per-write 600 --update-ms 1 --volts 5 --cable-ohms 0
ok $? "the PPK2 emulator follows $dev"
cat >"$T_TMP/el.ini" <<'INI'
[global]
ioengine=psync
direct=1
rw=randrw
rwmixread=50
bs=4k
idle=3s
idle_samples=6
tail_max=3s

[PACED-4K]
size=400k
rate_iops=10
rate_dither=50%

[STREAM-4K]
size=4m
rate_iops=300

[INSTEP-4K]
size=400k
rate_iops=10
INI
timeout 300 "$IOWATT" run "$T_TMP/el.ini" --target "$mnt" --meter "ppk2:$T_TMP/p,vdd=5000" \
	--no-progress --json-out "$T_TMP/el.json" >"$T_TMP/el.out" 2>&1
ok $? "paced jobs measured by the PPK2 emulator"
stop_emu

python3 - "$T_TMP/el.json" >"$T_TMP/el.check" <<'PY'
import json, sys
truth = {"read": 200e-6 * 5 * 1e6, "write": 600e-6 * 5 * 1e6}  # uC at 5 V, in uJ
for j in json.load(open(sys.argv[1]))["jobs"]:
    n, p = j["jobname"], j["power"]
    e = p.get("event_locked") or {}
    for k in ("read", "write"):
        v, u = e.get(k + "_uj_per_op"), e.get(k + "_uj_per_op_u95")
        print("%s %s %s %s %s %d" % (n, k, v, u, truth[k],
              int(v is not None and u is not None and abs(v - truth[k]) <= 2 * u)))
    tr = e.get("trace") or []
    print("%s trace %d %s" % (n, len(tr), max((q["w"] for q in tr), default=0)))
    print("%s offset %d" % (n, int(isinstance(e.get("offset_s"), float) and (e.get("offset_u_s") or 0) > 0)))
    print("%s alignment %s %s" % (n, e.get("alignment"), e.get("alignment_note")))
    m = e.get("model") or {}
    d, c = e.get("difference_uj"), e.get("combined_u95_uj")
    print("%s model %s %s %s %s %s %s %s" % (n, int(d is not None and c is not None and abs(d) <= 2 * c),
          str(m.get("verdict")).replace(" ", "_"), m.get("read_uj_per_op"), m.get("write_uj_per_op"), e.get("check_kind"),
          e.get("difference_uj"), e.get("combined_u95_uj")))
    print("%s out_of_range %s" % (n, (p.get("out_of_range") or {}).get("active")))
    print("%s balance %d %s %s %s %s" % (n, int(e.get("agrees_with_trace") is True), e.get("ops_energy_uj"),
          e.get("ops_energy_uj_u95"), e.get("above_idle_uj"), e.get("above_idle_uj_u95")))
    print("%s in_step %d %s" % (n, int(m.get("verdict") == "not identifiable" and
                                       "in step" in (m.get("why") or "") and
                                       e.get("agrees_with_model") is None), m.get("why")))
PY
# A 95 % interval misses one run in twenty by design: two kinds and the model check judged
# at 1 x U95 would fail about one run in seven on a sound estimate (the Debian 13 chroot's
# write: 3277 +- 251 against 3000). Judged at 2 x U95, a miss says the interval is wrong.
cat "$T_TMP/el.check" | sed 's/^/# /'
for job in PACED-4K STREAM-4K INSTEP-4K; do
	grep -q "^$job offset 1$" "$T_TMP/el.check"
	ok $? "$job: the meter's offset and its uncertainty are given"
	grep -q "^$job alignment correlation None$" "$T_TMP/el.check"
	ok $? "$job: no marker: aligned by cross-correlation, nothing to say why"
	grep -q "^$job out_of_range 0$" "$T_TMP/el.check"
	ok $? "$job: no reading dropped as beyond the PPK2's range ($(awk -v j=$job '$1 == j && $2 == "out_of_range" { print $3 }' "$T_TMP/el.check"))"
	for k in read write; do
		awk -v j=$job -v k=$k '$1 == j && $2 == k && $6 == 1 { f = 1 } END { exit !f }' "$T_TMP/el.check"
		ok $? "$job $k: the emulator's charge per op within 2 x the event-locked U95 ($(awk -v j=$job -v k=$k '$1 == j && $2 == k { print $3 " +- " $4 " uJ against " $5 }' "$T_TMP/el.check"))"
	done
	grep -q "^$job model 1 \|^$job in_step 1 " "$T_TMP/el.check"
	ok $? "$job: in step with the 100 ms windows (said, not compared), or the power model fitted to the same readings at 100 ms agrees within 2 x the combined U95 ($(awk -v j=$job '$1 == j && $2 == "model" { print $7 ": " $8 " uJ apart, U95 " $9 }' "$T_TMP/el.check"))"
	grep -q "^$job balance 1 " "$T_TMP/el.check"
	ok $? "$job: the ops' energy event-locked balances the trace's above idle ($(awk -v j=$job '$1 == j && $2 == "balance" { printf "%.1f +- %.1f against %.1f +- %.1f mJ", $4 / 1e3, $5 / 1e3, $6 / 1e3, $7 / 1e3 }' "$T_TMP/el.check"))"
	awk -v j=$job '$1 == j && $2 == "trace" && $3 == 51 && $4 > 0.02 { f = 1 } END { exit !f }' "$T_TMP/el.check"
	ok $? "$job: one op's current: 51 points a ms apart, above idle at its peak"
done
# Whether a job's ops show in step depends on their completions' spread against the
# windows' edges (a loaded loop device's p99 of 20-40 ms moves them across): said, not
# judged here (tests/unit/test_event_locked.c holds the case); no disagreement either way.
awk '$2 == "in_step" { print "# " $1 " in step with the 100 ms windows: " $3 }' "$T_TMP/el.check"
! grep -q "event-locked and model disagree" "$T_TMP/el.out" "$T_TMP/el.json"
ok $? "no job made uncertain by the check"
! grep -qi "nan *%" "$T_TMP/el.out"
ok $? "no verdict with a nan interval"
grep -q "INSTEP-4K loop 1, event-locked on the meter's trace: read " "$T_TMP/el.out"
ok $? "the summary gives the event-locked figures per op"
"$IOWATT" compare "$T_TMP/el.json" >"$T_TMP/cmp.out" 2>&1
grep -E "[0-9] +±[0-9]+ .*event-locked, job INSTEP-4K, EMULATED" "$T_TMP/cmp.out" | sed 's/^/# /' | grep -q .
ok $? "compare's energy per operation: a row per job event-locked, its source and EMULATED said"
"$IOWATT" report "$T_TMP/el.json" -o "$T_TMP/rep" >/dev/null 2>&1 &&
	grep -q "event-locked, job INSTEP-4K, EMULATED" "$T_TMP/rep/report.html"
ok $? "and the page's"
done_testing
