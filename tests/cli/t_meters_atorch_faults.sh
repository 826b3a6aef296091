#!/usr/bin/env bash
# ATORCH emulator with corrupt reports, a stall and a hang-up, in the order the probe sees them: no hang, counted, resumed.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# One report a second: more of them broken, so a few are among the ones the probe sees.
fault_one atorch "" "bad frames" --corrupt-pct 30
done_testing
