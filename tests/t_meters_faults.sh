#!/usr/bin/env bash
# FNB58, TC66C and PPK2 emulators with corrupt frames, a stall and a hang-up: no hang, counted, resumed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/meters_lib.sh"

# 2. Faults: corrupt frames, a stall and a hang-up; no hang, counted, readings resume.
FAULTS="--stall 2@2 --hangup 2@5"
fault_one fnb58 "" "bad frames" 10 $FAULTS
if "$IOWATT" emulate --help 2>&1 | grep -q tc66c; then
	fault_one tc66c "" "bad frames" 10 $FAULTS
else
	skip "built without nettle: no tc66c"
fi
fault_one ppk2 ",vdd=5000" "overruns" 10 $FAULTS --volts 5.0

done_testing
