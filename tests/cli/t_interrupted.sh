#!/usr/bin/env bash
# A job stopped by SIGINT is interrupted, never valid: in the result, the run's summary and
# compare's ranking, even when its samples alone would pass (and whatever a file claims).
. "$(dirname "$0")/../lib/lib.sh"

T=$T_TMP
G=$REPO/tests/data/golden
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# 1. A result file that claims an interrupted job is valid: compare does not rank it.
cp "$G"/nvme-netac.* "$G"/sd-sandisk-ultra.* "$T/"
python3 - "$T/nvme-netac.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for j in r["jobs"]:
    if j["jobname"] == "RND4K-Q32T1-read":
        j["status"] = "interrupted"
        assert j["validity"]["valid"] is True
json.dump(r, open(sys.argv[1], "w"))
PY
"$IOWATT" compare "$T/nvme-netac.json" "$T/sd-sandisk-ultra.json" >"$T/cmp.txt" 2>"$T/cmp.err"
ok $? "compare reads a result with an interrupted job"
row=$(grep 'Netac.*RND4K-Q32T1-read' "$T/cmp.txt")
other=$(grep 'SanDisk.*RND4K-Q32T1-read' "$T/cmp.txt")
[[ "$row" =~ \ INVALID:\ interrupted\  ]] && [[ ! "$row" =~ ^\ *1\  ]] && [[ "$other" =~ ^\ *1\  ]]
ok $? "the interrupted job is not valid and not ranked; the finished one ranks first" ||
	sed 's/^/#   /' "$T/cmp.txt"
"$IOWATT" compare --format csv "$T/nvme-netac.json" "$T/sd-sandisk-ultra.json" >"$T/cmp.csv" 2>/dev/null
grep 'Netac' "$T/cmp.csv" | grep 'RND4K-Q32T1-read' | grep -q ',false,'
ok $? "and its CSV row says valid false"

# 2. A live run with an emulated meter at 10 Hz, stopped once three one-second intervals of
#    the job are written (event order, not a time window): 30 samples and full coverage
#    would pass on their own.
emu_pid=""
trap '[ -n "$emu_pid" ] && kill "$emu_pid" 2>/dev/null; wait 2>/dev/null; t_cleanup' EXIT
"$IOWATT" emulate um25c --link "$T/um" --constant-ma 250 >"$T/emu.log" 2>&1 &
emu_pid=$!
for _ in $(seq 100); do [ -e "$T/um" ] && break; sleep 0.1; done
mkdir -p "$T/tgt"
timeout --foreground 150 "$IOWATT" run --no-progress --rw write --bs 64k --size 64M \
	--rate-iops 20 --direct 0 --target "$T/tgt" --meter "um25c:$T/um,interval=100ms" \
	--idle 1s --idle_samples 5 --tail_hold 1s --tail_max 2s --json-out "$T/int.json" >"$T/int.out" 2>&1 &
pid=$!
for _ in $(seq 1200); do
	n=$(grep -c '^write' "$T/int.intervals.csv" 2>/dev/null)
	[ "${n:-0}" -ge 3 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
ok $((rc == 130 ? 0 : 1)) "SIGINT mid-job exits 130 (rc=$rc)" || sed 's/^/#   /' "$T/int.out" | tail -n 5
[ "$(jget "$T/int.json" 'd["jobs"][0]["status"]')" = interrupted ]
ok $? "the job is interrupted in the result"
[ "$(jget "$T/int.json" 'd["jobs"][0]["validity"]["valid"] or d["jobs"][0]["meters"][0]["validity"]["valid"]')" = False ]
ok $? "and not valid"
jget "$T/int.json" 'd["jobs"][0]["validity"]["reasons"]' >"$T/reasons.txt"
grep -q "the job was interrupted" "$T/reasons.txt"
ok $? "its reasons say it was interrupted" || jget "$T/int.json" 'd["jobs"][0]["validity"]' | sed 's/^/#   /'
jget "$T/int.json" 'd["jobs"][0]["validity"]["reasons"]' | grep -q "raise size or loops"
ok $((! $?)) "and do not ask for a larger size"
sed 's/^/# reasons: /' "$T/reasons.txt"
grep -E '^write' "$T/int.out" | grep 'interrupted' | grep -q 'INVALID'
ok $? "the summary line says interrupted and INVALID" || sed 's/^/#   /' "$T/int.out" | tail -n 8

done_testing
