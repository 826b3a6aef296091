#!/usr/bin/env bash
# A paced job that cannot keep its rate (issue 35.6) says so in the result and the summary;
# one that keeps it says nothing. No meter: the pace is the job's own.
. "$(dirname "$0")/../lib/lib.sh"

mkdir -p "$T_TMP/t"
# 10 million synced 4 KiB writes a second: no psync loop reaches that
timeout 120 "$IOWATT" run --target "$T_TMP/t" --rw write --bs 4k --size 256k --fdatasync 1 \
	--rate-iops 10000000 --ioengine psync --no-progress --json-out "$T_TMP/a.json" \
	>"$T_TMP/a.out" 2>&1
ok $? "a paced job far beyond the device runs"
pace=$(jget "$T_TMP/a.json" 'd["jobs"][0].get("pace") or ""')
case $pace in
"kept "*" of 1e+07 IOPS ("*"%): the device could not keep the rate"*) ok 0 "the result says it: $pace" ;;
*) ok 1 "the result says it (got '$pace')" ;;
esac
grep -q "loop 1: pace: kept .* of 1e+07 IOPS" "$T_TMP/a.out"
ok $? "and the summary"

timeout 120 "$IOWATT" run --target "$T_TMP/t" --rw write --bs 4k --size 256k --ioengine psync \
	--no-progress --json-out "$T_TMP/b.json" >"$T_TMP/b.out" 2>&1
[ "$(jget "$T_TMP/b.json" 'd["jobs"][0].get("pace")')" = None ] && ! grep -q "pace:" "$T_TMP/b.out"
ok $? "an unpaced job has no pace"
done_testing
