#!/usr/bin/env bash
# The plan's est. I/O time of a paced job of fixed size (issue 35.6): its I/Os over its rate
# (or its runtime, when that ends it sooner), known before any run of the device.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
mkdir -p "$T_TMP/target" "$T_TMP/out"

plan() { # plan ARGS...: a dry-run plan with no earlier result in the output directory
	$IOWATT run --target "$T_TMP/target" --output "$T_TMP/out" --dry-run --no-meter "$@" 2>&1
}
# io_s FILE: the job row's est. I/O time in seconds ("1 min 04 s, paced" -> 64); nan if none
io_s() {
	python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"^\S+ .*  (?:(\d+) min )?([\d.]+) s, paced$", t, re.M)
print(int(m.group(1) or 0) * 60 + float(m.group(2)) if m else "nan")
PY
}
near() { python3 -c 'import sys; a,b=map(float,sys.argv[1:]); sys.exit(not abs(a-b) <= 0.01*b)' "$@"; }

plan --rw write --bs 4k --size 512k --rate-iops 2 >"$T_TMP/a.out"
ok $? "--dry-run of a paced writer"
sed 's/^/# /' "$T_TMP/a.out"
s=$(io_s "$T_TMP/a.out")
near "$s" $((128 / 2))
ok $? "128 I/Os at 2 IOPS: est. I/O time $s s (128 / 2)"
! grep -q "I/O time unknown\|  ?$" "$T_TMP/a.out" && grep -q "1 paced job at its rate" "$T_TMP/a.out"
ok $? "not '?' nor 'at least': the plan says it is the job's rate"

plan --rw randrw --rwmixread 50 --bs 4k --size 1200k --rate-iops 10 >"$T_TMP/b.out"
s=$(io_s "$T_TMP/b.out")
near "$s" $((300 / 10))
ok $? "300 I/Os at 10 IOPS: $s s"

plan --rw write --bs 4k --size 512k --rate-iops 2 --runtime 10s >"$T_TMP/c.out"
s=$(io_s "$T_TMP/c.out")
near "$s" 10
ok $? "a runtime shorter than its I/Os at its rate ends it: $s s"

plan --rw write --bs 4k --size 512k --rate-iops 2 --runtime 5min >"$T_TMP/d.out"
s=$(io_s "$T_TMP/d.out")
near "$s" 64
ok $? "a runtime longer than its I/Os at its rate does not: $s s"

done_testing
