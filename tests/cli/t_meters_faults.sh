#!/usr/bin/env bash
# FNB58, TC66C and PPK2 emulators with corrupt frames, a stall and a hang-up: no hang, counted, resumed.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# 2. Faults: corrupt frames, a stall and a hang-up, in the order the probe sees them (see
# fault_one); no hang, counted, readings resume.
fault_one fnb58 "" "bad frames"
if "$IOWATT" emulate --help 2>&1 | grep -q tc66c; then
	fault_one tc66c "" "bad frames"
else
	skip "built without nettle: no tc66c"
fi
fault_one ppk2 ",vdd=5000" "overruns" --volts 5.0

done_testing
