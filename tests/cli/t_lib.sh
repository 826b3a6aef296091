#!/usr/bin/env bash
# The shared shell-test helpers (tests/lib/lib.sh) do what the tests rely on: t_need_gnuplot skips the rest with its reason.
. "$(dirname "$0")/../lib/lib.sh"

# A PATH with what lib.sh itself calls and no gnuplot, as on a machine without it.
bin=$T_TMP/bin
mkdir -p "$bin"
for t in bash mktemp dirname rm findmnt losetup awk grep sort id cat; do
	p=$(command -v "$t") && ln -s "$p" "$bin/$t"
done
cat >"$T_TMP/needs.sh" <<SH
. "$REPO/tests/lib/lib.sh"
ok 0 "before"
t_need_gnuplot "charts not checked"
ok 1 "after: must not run"
done_testing
SH
PATH=$bin bash "$T_TMP/needs.sh" >"$T_TMP/needs.out" 2>&1
rc=$?
sed 's/^/#   /' "$T_TMP/needs.out"
[ $rc -eq 0 ] && [ "$(cat "$T_TMP/needs.out")" = "ok 1 - before
ok 2 # skip gnuplot not installed (tests/deps.sh installs gnuplot-nox): charts not checked
1..2" ]
ok $? "t_need_gnuplot without gnuplot: one skip naming it and what is left, the plan, exit 0, nothing after"

if command -v gnuplot >/dev/null; then
	bash "$T_TMP/needs.sh" >"$T_TMP/has.out" 2>&1
	[ $? -ne 0 ] && grep -q "^not ok 2 - after" "$T_TMP/has.out"
	ok $? "t_need_gnuplot with gnuplot returns and the script goes on"
else
	skip "gnuplot not installed: the path that goes on is not checked"
fi
done_testing
