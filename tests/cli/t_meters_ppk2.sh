#!/usr/bin/env bash
# PPK2: what each spec makes it switch on, from the emulator's command log (samples: t_meters_ppk2_samples.sh).
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# cmds TRUTH: the power commands the emulator received, in order, one per line ("kind v").
cmds() {
	awk -F, 'NR > 1 && ($5 ~ /^cmd_/ || $5 == "source_output_on") { print $5, $2 }' "$1"
}

# probe_spec NAME TAIL: a short probe with a fresh emulator; its command log in $T/NAME.cmds.
probe_spec() {
	local name=$1 tail=$2
	start_emu ppk2 "$T/$name" --constant-ma 40 --volts 3.0 --truth "$T/$name.truth" \
		--duration 60
	timeout 30 "$IOWATT" probe --meter "ppk2:$T/$name$tail" --seconds 1 >"$T/$name.probe" 2>&1
	ok $? "probe ppk2:$tail exits 0"
	stop_emu # the truth log is complete once the emulator has exited
	cmds "$T/$name.truth" >"$T/$name.cmds"
	sed 's/^/#   /' "$T/$name.cmds"
}

# 1. The defaults never power anything: ampere mode, then the regulator to the VDD the
# metadata reports (3300 mV from the emulator), as Nordic's software does on open; never
# source mode, never source output.
probe_spec amp ""
tr '\n' ';' <"$T/amp.cmds" | grep -q "^cmd_mode_ampere nan;cmd_regulator_set 3.300000;cmd_dut_on 3.300000;" &&
	! grep -q "cmd_mode_source\|source_output_on" "$T/amp.cmds"
ok $? "ppk2 (defaults): ampere mode, REGULATOR_SET to the metadata's 3300 mV, the PPK2 never sources power"
probe_spec ampv ",vdd=5000"
tr '\n' ';' <"$T/ampv.cmds" | grep -q "^cmd_mode_ampere nan;cmd_regulator_set 3.300000;cmd_dut_on 3.300000;" &&
	! grep -q "cmd_mode_source\|source_output_on\|cmd_regulator_set 5" "$T/ampv.cmds"
ok $? "ppk2,vdd=5000 (ampere mode): vdd= is the supply's voltage for W; the regulator gets the metadata's VDD, not vdd=; nothing sourced"

# 2. mode=source with vdd: source mode, the regulator to vdd, then DUT power on; off at close.
probe_spec src ",mode=source,vdd=3000"
# Order of the commands as sent: mode, regulator (3.000 V), DUT on ... DUT off.
tr '\n' ';' <"$T/src.cmds" | grep -q "^cmd_mode_source nan;cmd_regulator_set 3.000000;cmd_dut_on 3.000000;source_output_on 3.000000;.*cmd_dut_off 3.000000;$"
ok $? "ppk2,mode=source,vdd=3000: mode source, regulator 3000 mV, DUT on, in that order; DUT off at close"
[ "$(grep -c '^source_output_on' "$T/src.cmds")" = 1 ] && [ "$(grep -c '^cmd_dut_on' "$T/src.cmds")" = 1 ]
ok $? "source output switched on once"
"$IOWATT" probe --meter "ppk2:$T/none,mode=source" --seconds 1 >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "mode=source powers the device: give vdd" "$T/err"
ok $? "mode=source without vdd= is refused before any device is opened"

# The emulator's banner gives a spec to copy: with its default 5.1 V (a USB bus) the vdd= it
# prints must be one the driver takes (it printed vdd=5100, past the PPK2's 5000 mV).
start_emu ppk2 "$T/banner" --constant-ma 40 --duration 60
spec=$(grep -o "use --meter [^ ]*" "$T/banner.out" | sed 's/^use --meter //')
timeout 30 "$IOWATT" probe --meter "$spec" --seconds 1 >"$T/banner.probe" 2>&1
ok $? "the emulator's banner spec is taken as printed ($spec)" || sed 's/^/#   /' "$T/banner.probe"
stop_emu

done_testing
