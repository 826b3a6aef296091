#!/usr/bin/env bash
# --strict: a gate CI can use, exit 4 for an INVALID job and 5 for an UNCERTAIN one, the result written either way.
. "$(dirname "$0")/../lib/lib.sh"

t_um25c_constant 200
phases="--idle 1s --idle-samples 5 --tail-hold 0.5s --tail-max 3s --no-progress"

# measure NAME ARGS... -- CMD...: exit status in $rc, the result in $T_TMP/NAME.json
measure() {
	local name=$1
	shift
	timeout 60 "$IOWATT" measure --meter "$meter" $phases --json-out "$T_TMP/$name.json" \
		"$@" >"$T_TMP/$name.out" 2>&1
	rc=$?
}
verdict() { # NAME: "valid uncertain" of its job as the result says
	jget "$T_TMP/$1.json" 'str(d["jobs"][0]["validity"]["valid"]) + " " + str(d["jobs"][0]["validity"]["uncertain"])'
}

# A 0.3 s command at 10 Hz: 3 samples, fewer than the 20 a valid job needs.
measure short -- sleep 0.3
ok $((rc == 0 ? 0 : 1)) "without --strict an INVALID job exits 0 as before (rc=$rc)"
measure short_strict --strict -- sleep 0.3
ok $((rc == 4 ? 0 : 1)) "with --strict an INVALID job exits 4 (rc=$rc)"
[ "$(verdict short_strict)" = "False False" ]
ok $? "and its result is written, the job INVALID ($(verdict short_strict))"

# Long enough to be valid; a limit no meter meets makes it UNCERTAIN.
measure tight --strict --max_uncertainty 0.01% -- sleep 2.5
ok $((rc == 5 ? 0 : 1)) "with --strict a valid but UNCERTAIN job exits 5 (rc=$rc)"
[ "$(verdict tight)" = "True True" ]
ok $? "its result says valid and uncertain ($(verdict tight))"
measure loose --strict --max_uncertainty 1000% -- sleep 2.5
ok $((rc == 0 ? 0 : 1)) "with --strict a valid job within its limit exits 0 (rc=$rc): --strict judges validity and uncertainty, the figures stay labelled EMULATED"

# A failed command is a failure first: 1, not 4.
measure failed --strict -- sh -c 'sleep 0.3; exit 3'
ok $((rc == 1 ? 0 : 1)) "a failed job beats --strict's verdicts: exit 1 (rc=$rc)"
done_testing
