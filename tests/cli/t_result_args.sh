#!/usr/bin/env bash
# The options every command that reads results shares (src/cli/result_args.c): --label,
# --battery, --help, unknown options and the result files, the same in compare, plot, size
# and report.
. "$(dirname "$0")/../lib/lib.sh"
cd "$REPO" || exit 1
G=tests/data/golden
F=$G/sd-sandisk-ultra.json

# Each command with what it needs besides the shared options.
extra() {
	case $1 in
	size) echo "--battery 3000mAh@3.7V" ;;
	report) echo "-o $T_TMP/page-$1" ;;
	plot) echo "-o $T_TMP/charts-$1 --format svg" ;;
	esac
}

for cmd in compare plot size report; do
	# shellcheck disable=SC2046 # extra's words are separate options
	$IOWATT $cmd $(extra $cmd) >"$T_TMP/none.out" 2>"$T_TMP/none.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$cmd: no result files given" "$T_TMP/none.err" &&
		grep -q "^usage: iowatt $cmd" "$T_TMP/none.err"
	ok $? "$cmd without result files: exit 2 (got $rc), says so, usage on stderr"

	$IOWATT $cmd --help >"$T_TMP/help.out" 2>"$T_TMP/help.err"
	rc=$?
	[ $rc -eq 0 ] && grep -q "^usage: iowatt $cmd" "$T_TMP/help.out" && [ ! -s "$T_TMP/help.err" ]
	ok $? "$cmd --help: usage on stdout, exit 0 (got $rc)"

	# shellcheck disable=SC2046
	$IOWATT $cmd --no-such-option $(extra $cmd) $F >"$T_TMP/bad.out" 2>"$T_TMP/bad.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "^usage: iowatt $cmd" "$T_TMP/bad.err" && [ ! -s "$T_TMP/bad.out" ]
	ok $? "$cmd --no-such-option: exit 2 (got $rc), usage on stderr"

	# shellcheck disable=SC2046
	$IOWATT $cmd --label nameless $(extra $cmd) $F >/dev/null 2>"$T_TMP/label.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "nameless" "$T_TMP/label.err"
	ok $? "$cmd --label without FILE=: exit 2 (got $rc), names the label"

	# shellcheck disable=SC2046
	$IOWATT $cmd $(extra $cmd) $F "$T_TMP/missing.json" >/dev/null 2>"$T_TMP/missing.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$T_TMP/missing.json" "$T_TMP/missing.err"
	ok $? "$cmd with a missing result file: exit 2 (got $rc), names the file"
done

# --battery is shared by the commands that model a battery.
for cmd in plot size report; do
	# shellcheck disable=SC2046
	$IOWATT $cmd $(extra $cmd) --battery big $F >/dev/null 2>"$T_TMP/bat.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$cmd: --battery 'big': expected e.g. 3000mAh@3.7V" "$T_TMP/bat.err"
	ok $? "$cmd --battery big: exit 2 (got $rc), names the option and an example"
done

# A label reaches the output of each command alike.
$IOWATT compare --label "$F=Shared label" $F >"$T_TMP/lab.out" 2>/dev/null
grep -q "Shared label" "$T_TMP/lab.out"
ok $? "compare --label FILE=NAME names the device"
$IOWATT size --battery 3000mAh@3.7V --write 50MB/day --label "$F=Shared label" $F \
	>"$T_TMP/lab.out" 2>/dev/null
grep -q "Shared label" "$T_TMP/lab.out"
ok $? "size --label FILE=NAME names the device"

done_testing
