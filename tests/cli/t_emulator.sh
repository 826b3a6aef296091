#!/usr/bin/env bash
# The UM25C emulator end to end: probe reads it as EMULATED, faults give bad frames and reconnects.
. "$(dirname "$0")/../lib/lib.sh"

T=$T_TMP
EMU_PIDS=()
emu_cleanup() {
	local p
	for p in "${EMU_PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done
	for p in "${EMU_PIDS[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done
	t_cleanup
}
trap emu_cleanup EXIT

# start_emu LINK ARGS...: runs the emulator in the background, waits for its link.
start_emu() {
	local link=$1 i
	shift
	"$IOWATT" emulate um25c --link "$link" "$@" >"$T/emu.out" 2>"$T/emu.err" &
	EMU_PID=$!
	EMU_PIDS+=("$EMU_PID")
	for i in $(seq 1 100); do
		[ -L "$link" ] && return 0
		sleep 0.05
	done
	return 1
}

# 1. Constant current, read by probe.
start_emu "$T/um" --constant-ma 250 --truth "$T/truth.csv" --duration 30
ok $? "emulator comes up and links $T/um"
grep -q "EMULATED UM25C" "$T/emu.out"
ok $? "emulator says it is an emulator and where it listens"
"$IOWATT" meters >"$T/meters.out" 2>&1
grep -q "spec: um25c:$T/um" "$T/meters.out"
ok $? "iowatt meters lists the live emulator with a spec"
# A heading ends with ':' at the margin; what it heads is indented under it.
awk 'h && !/^ / { print "# empty heading: " h; bad = 1 } { h = (/^[^ ].*:$/) ? $0 : "" }
	END { if (h) { print "# empty heading: " h; bad = 1 } exit bad }' "$T/meters.out"
ok $? "iowatt meters prints no heading without something under it"
"$IOWATT" meters --sysfs-root "$T/nothing" >"$T/meters-none.out" 2>&1
grep -q "^Found nothing here: .*ina219.*hwmon" "$T/meters-none.out"
ok $? "drivers that found nothing are named on one line"

timeout 20 "$IOWATT" probe --meter "um25c:$T/um" --seconds 3 --csv "$T/samples.csv" \
	>"$T/probe.out" 2>"$T/probe.err"
ok $? "probe of the emulator exits 0"
grep -q "UM25C (emulated)" "$T/probe.out"
ok $? "probe names the model as emulated"
lines=$(grep -c ' mA ' "$T/probe.out")
[ "$lines" -ge 2 ]
ok $? "probe prints a line per second ($lines)"
! grep ' mA ' "$T/probe.out" | grep -vq EMULATED
ok $? "every reading line says EMULATED"
awk '/ mA /{ for (i = 1; i < NF; i++) if ($(i+1) == "mA") { n++; if ($i < 249.5 || $i > 250.5) bad++ } }
	END { exit !(n >= 2 && !bad) }' "$T/probe.out"
ok $? "probe shows 250 mA"
awk '/ V /{ for (i = 1; i < NF; i++) if ($(i+1) == "V") { n++; if ($i < 5.03 || $i > 5.05) bad++ } }
	END { exit !(n >= 2 && !bad) }' "$T/probe.out"
ok $? "volts sag by I*R on the cable (5.10 - 0.25 * 0.25 = 5.0375)"
grep -q "0 bad frames" "$T/probe.out"
ok $? "no bad frames from a clean emulator"
sed 's/^/# /' "$T/probe.out" | head -n 6

kill -TERM "$EMU_PID"
wait "$EMU_PID"
[ $? -eq 143 ]
ok $? "emulator ends on SIGTERM with 143"
[ ! -e "$T/um" ]
ok $? "emulator removes its link on exit"
head -n 1 "$T/truth.csv" | grep -q '^t_ns,v,a,w,kind$'
ok $? "truth CSV has its header"
awk -F, 'NR > 1 && $5 == "reply" { n++; if ($3 != "0.2500000") bad++ } END { exit !(n >= 5 && !bad) }' \
	"$T/truth.csv"
ok $? "truth CSV records the replies at 0.25 A"
awk -F, 'NR > 1 && $5 == "update" { n++ } END { exit !(n >= 20) }' "$T/truth.csv"
ok $? "truth CSV records every internal update"

# Energy over the samples' span against the emulator's own updates: the timestamps the
# core gives samples must make a constant load integrate to the truth within 0.5 %.
python3 - "$T/samples.csv" "$T/truth.csv" <<'PY'
import csv, sys
s = [r for r in csv.DictReader(open(sys.argv[1]))]
u = [r for r in csv.DictReader(open(sys.argv[2])) if r["kind"] == "update"]
t = [int(r["t_ns"]) for r in s]
flags = [int(r["flags"]) for r in s]
assert len(s) >= 5 and all(f & 4 for f in flags), "samples flagged SAMPLE_EMULATED"
assert t == sorted(t), "timestamps ordered"
meas = sum((float(s[i]["w"]) + float(s[i + 1]["w"])) / 2 * (t[i + 1] - t[i]) / 1e9
           for i in range(len(s) - 1))
lo, hi = t[0], t[-1]
true = 0.0
for i in range(len(u)):  # each update holds until the next (the last one: until hi)
    end = int(u[i + 1]["t_ns"]) if i + 1 < len(u) else hi
    a, b = max(int(u[i]["t_ns"]), lo), min(end, hi)
    if b > a:
        true += float(u[i]["w"]) * (b - a) / 1e9
err = abs(meas - true) / true
print("# energy %.6f J measured, %.6f J true, error %.3f %%" % (meas, true, err * 100))
sys.exit(0 if err < 0.005 else 1)
PY
ok $? "constant load: sample energy within 0.5 % of the emulator's truth"

# 2. Links: never overwrite what is not ours; replace our own stale link.
echo keep >"$T/file"
"$IOWATT" emulate um25c --link "$T/file" --constant-ma 1 --duration 1 >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "refusing to overwrite" "$T/err" && [ "$(cat "$T/file")" = keep ]
ok $? "refuses to overwrite a regular file at --link"
ln -s /dev/pts/98765 "$T/stale"
"$IOWATT" emulate um25c --link "$T/stale" --constant-ma 1 --duration 0.3 >/dev/null 2>"$T/err"
ok $? "replaces a stale emulator link"
[ ! -e "$T/stale" ] && [ ! -L "$T/stale" ]
ok $? "and removes it again on exit"

# 3. Bad options are usage errors naming the option.
"$IOWATT" emulate um25c --link "$T/x" --step "5:100,2:300" 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--step" "$T/err"
ok $? "--step with decreasing times is refused"
"$IOWATT" emulate um25c --constant-ma 5 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--link" "$T/err"
ok $? "--link is required"
"$IOWATT" emulate um99 --link "$T/x" 2>"$T/err"
[ $? -eq 2 ]
ok $? "unknown model refused"
"$IOWATT" emulate um25c --link "$T/x" --stall 5 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--stall" "$T/err"
ok $? "--stall without @AT refused"
"$IOWATT" probe --meter "um25c:$T/nothing-here" --seconds 1 >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "nothing-here" "$T/err"
ok $? "probe of a missing port fails naming it (exit 2: a wrong command line)"

# 3b. A spec's keys are checked before the meter is touched: the emulator answers nothing.
start_emu "$T/keys" --constant-ma 100 --truth "$T/keys.csv" --duration 20
ok $? "emulator for the key checks up"
"$IOWATT" probe --meter "um25c:$T/keys,intervall=1s" --seconds 1 >/dev/null 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && grep -q "'intervall'" "$T/err" && grep -q "interval, timeout, baud" "$T/err"
ok $? "a misspelt key fails naming it and the keys um25c takes (rc=$rc)"
"$IOWATT" probe --meter "um25c:$T/keys,interval=50ms" --seconds 1 >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "interval=50ms" "$T/err" && grep -q "100ms" "$T/err"
ok $? "an interval under the meter's 100 ms is refused with the bound"
kill "$EMU_PID"; wait "$EMU_PID" 2>/dev/null
! grep -q ',reply$' "$T/keys.csv"
ok $? "neither probe sent the meter a request"
"$IOWATT" meters --help >"$T/help.out" 2>&1
grep -q "interval=DURATION" "$T/help.out" && grep -q "UM25C .*0-5 A" "$T/help.out" &&
	grep -q "shunt=X" "$T/help.out"
ok $? "iowatt meters --help lists every driver's keys and the models' ranges"

# 4. Steps: the current follows the schedule. The schedule runs from the emulator's start,
# not the probe's: under qemu-user (or a loaded machine) the probe takes a second or more to
# reach the meter, so the step comes at 3 s, the probe outlasts it by 2 s, and every sample
# (--csv), not only the last of each second, is looked at.
start_emu "$T/step" --step "0:100,3:400" --duration 20
ok $? "step emulator up"
timeout 20 "$IOWATT" probe --meter "um25c:$T/step,interval=200ms" --seconds 5 \
	--csv "$T/step.csv" >"$T/probe.out" 2>&1
python3 -c 'import csv, sys
a = [round(float(r["a"]) * 1000, 1) for r in csv.DictReader(open(sys.argv[1]))]
print("# currents seen (mA): %s" % sorted(set(a)))
sys.exit(0 if 100.0 in a and 400.0 in a and a.index(100.0) < a.index(400.0) else 1)' "$T/step.csv"
ok $? "probe follows a 100 -> 400 mA step"
kill "$EMU_PID"; wait "$EMU_PID" 2>/dev/null

# 5. A pty that is not a registered emulator (a socat bridge) is labelled as such.
if command -v socat >/dev/null; then
	start_emu "$T/um2" --constant-ma 120 --duration 20
	socat "PTY,link=$T/bridge,raw,echo=0" "FILE:$T/um2,raw,echo=0" 2>/dev/null &
	SOCAT=$!
	EMU_PIDS+=("$SOCAT")
	for i in $(seq 1 100); do [ -L "$T/bridge" ] && break; sleep 0.05; done
	timeout 20 "$IOWATT" probe --meter "um:$T/bridge" --seconds 2 >"$T/probe.out" 2>&1
	grep -q "UM25C via pty bridge" "$T/probe.out" && grep -q ' 120.0 mA' "$T/probe.out"
	ok $? "a socat pty bridge is read and labelled 'via pty bridge'"
	kill "$SOCAT" "$EMU_PID" 2>/dev/null
	wait "$SOCAT" "$EMU_PID" 2>/dev/null
else
	skip "socat not installed"
fi

# 6. Faults (corrupt replies, a stall, a hang-up): t_emulator_faults.sh, in event order.

# 7. Ctrl-C ends a probe promptly, with 130.
start_emu "$T/um3" --constant-ma 50 --duration 30
timeout -s KILL 10 "$IOWATT" probe --meter "um25c:$T/um3" >"$T/probe.out" 2>&1 &
PROBE=$!
# The second reader must come while the first holds the port: after its first line.
for _ in $(seq 100); do grep -q '^probe ' "$T/probe.out" 2>/dev/null && break; sleep 0.1; done
"$IOWATT" probe --meter "um25c:$T/um3" --seconds 1 >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q "in use by another iowatt" "$T/err"
ok $? "a second reader of the same meter is refused (exit 3: the system refused)"
kill -INT "$PROBE"
wait "$PROBE"
[ $? -eq 130 ]
ok $? "SIGINT ends probe with 130 (not killed by the timeout)"
grep -q '^probe:' "$T/probe.out"
ok $? "and it prints its summary"
kill "$EMU_PID"; wait "$EMU_PID" 2>/dev/null

done_testing
