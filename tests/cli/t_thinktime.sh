#!/usr/bin/env bash
# thinktime (issue 21.2-5): fio's pause after every thinktime_blocks I/Os have completed,
# with their fdatasync, so a job is bursts with idle between them; thinktime_dither draws
# each pause from thinktime x (1 +- D/2). The pauses are sleeps, so the active phase lasts
# at least their sum on any machine (no upper bound is asserted); the options are recorded
# in the result; a bare number is microseconds, as in fio; a bad value names its line.
. "$(dirname "$0")/../lib/lib.sh"

cat >"$T_TMP/burst.ini" <<'INI'
[global]
rw=write
direct=0
bs=64k
size=512k
fdatasync=1
idle=0

; 8 synced 64 KiB writes in 4 bursts of 2, 1 s apart
[BURST]
thinktime=1s
thinktime_blocks=2
INI

# field FILE PYEXPR: a value of the first job of a result (j = the job)
field() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
a = j["phases"]["active"]
active_s = (a["t_end_ns"] - a["t_start_ns"]) / 1e9
print(eval(sys.argv[2]))' "$1" "$2"
}

"$IOWATT" run "$T_TMP/burst.ini" --target "$T_TMP/f" --no-meter --no-progress -q \
	--json-out "$T_TMP/a.json" >"$T_TMP/a.out" 2>&1
ok $? "a profile's thinktime job runs"
ok "$([ "$(field "$T_TMP/a.json" 'j["options"]["thinktime_ns"], j["options"]["thinktime_blocks"]')" = "(1000000000, 2)" ]; echo $?)" \
	"thinktime and thinktime_blocks recorded in the result's options"
ok "$([ "$(field "$T_TMP/a.json" 'j["sync"]["total_ios"] >= 8 and j["write"]["total_ios"] == 8')" = True ]; echo $?)" \
	"8 writes, each synced"
s=$(field "$T_TMP/a.json" 'active_s')
ok "$(python3 -c "import sys; sys.exit(0 if $s >= 3.0 else 1)"; echo $?)" \
	"three 1 s pauses between four bursts: active phase $s s >= 3 s"

"$IOWATT" run "$T_TMP/burst.ini" --target "$T_TMP/f" --no-meter --no-progress -q \
	--thinktime 250000 --thinktime-dither 100% --randseed 5 \
	--json-out "$T_TMP/b.json" >"$T_TMP/b.out" 2>&1
ok $? "flags override the profile"
ok "$([ "$(field "$T_TMP/b.json" 'j["options"]["thinktime_ns"], j["options"]["thinktime_dither"], j["options"]["randseed"]')" = "(250000000, 1.0, 5)" ]; echo $?)" \
	"a bare 250000 is 250 ms (microseconds, as in fio); the dither and its seed recorded"
s=$(field "$T_TMP/b.json" 'active_s')
ok "$(python3 -c "import sys; sys.exit(0 if $s >= 3 * 0.125 else 1)"; echo $?)" \
	"dithered pauses of 125-375 ms: active phase $s s >= 0.375 s"

printf '[BAD]\nrw=write\nsize=64k\nthinktime=1x\n' >"$T_TMP/bad.ini"
"$IOWATT" run "$T_TMP/bad.ini" --target "$T_TMP/f" --no-meter --dry-run >"$T_TMP/bad.out" 2>&1
rc=$?
ok "$([ $rc -ne 0 ] && grep -q "bad.ini:4" "$T_TMP/bad.out" && grep -q "thinktime" "$T_TMP/bad.out"; echo $?)" \
	"thinktime=1x refused, naming the file, line 4 and the option (exit $rc)"
sed 's/^/#   /' "$T_TMP/bad.out" | head -3

"$IOWATT" run --help >"$T_TMP/help.out" 2>&1
ok "$(grep -q -- "--thinktime_dither" "$T_TMP/help.out" && grep -q "a bare number is microseconds" "$T_TMP/help.out"; echo $?)" \
	"--help lists thinktime, its unit and its dither"
done_testing
