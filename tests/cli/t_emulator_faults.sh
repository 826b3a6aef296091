#!/usr/bin/env bash
# The UM25C emulator with corrupt replies, a stall and a hang-up, in the order the probe sees them: counted, reported, resumed.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/meters_lib.sh"

# A 4 s stall, as long as before this test put its faults in event order.
fault_one um25c ",interval=200ms" "bad frames" --seed 7 --stall 4@signal
p="$T/fum25c.probe"
gaps=$(sed -n 's/^probe: .* \([0-9]*\) gaps.*/\1/p' "$p")
[ "${gaps:-0}" -ge 2 ]
ok $? "stall and hang-up are gaps ($gaps)"
grep -q "event: meter_gap .*link lost" "$p" && grep -q "event: meter_reconnect" "$p"
ok $? "gap and reconnect events are reported"
done_testing
