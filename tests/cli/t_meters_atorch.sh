#!/usr/bin/env bash
# ATORCH USB and DC emulators: energy against truth, the 1 Hz validity message (faults: t_meters_atorch_faults.sh).
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

measure_one atorch "" 3
jget "$T/atorch.json" "d['jobs'][0]['validity']['reasons'][0]" | grep -q "at 1 Hz a job needs >= 20 s"
ok $? "atorch: a short job is invalid and says how long a job must run"
# The DC layout has 100 mV steps: a 12 V supply without sag is read exactly.
measure_one atorch-dc "" 3 --volts 12 --cable-ohms 0
jget "$T/atorch-dc.json" "d['meters'][0]['model']" | grep -q "ATORCH DC"
ok $? "atorch-dc: read as a DC meter"
done_testing
