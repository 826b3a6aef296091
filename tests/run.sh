#!/usr/bin/env bash
# Runs every test binary and shell test, totals their TAP lines, ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
export O
mode=${1:-all}
passed=0
failed=0
skipped=0
failed_names=()

run_one() { # name command...
	local name=$1 out rc
	shift
	out=$(mktemp)
	timeout 600 "$@" >"$out" 2>&1
	rc=$?
	local p f s
	p=$(grep -cE '^ok [0-9]+' "$out" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# skip' "$out" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$out" | tr -d ' ')
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed, timed out or exited non-zero without a failing line
		echo "# $name exited with status $rc" >>"$out"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	if [ "$f" -gt 0 ]; then
		failed_names+=("$name")
		echo "FAIL $name ($p passed, $f failed)"
		grep -vE '^ok [0-9]+' "$out" | sed 's/^/    /' | tail -n 60
	else
		if [ "$s" -gt 0 ]; then echo "ok   $name ($p passed, $s skipped)"; else echo "ok   $name ($p passed)"; fi
	fi
	rm -f "$out"
}

for t in "$O"/tests/test_* "$O"/tests/umock_*; do
	[ -x "$t" ] || continue
	case "$t" in *.d|*.o) continue ;; esac
	if [[ "$(basename "$t")" == umock_* ]]; then
		run_one "$(basename "$t")" umockdev-wrapper "$t"
	else
		run_one "$(basename "$t")" "$t"
	fi
done

if [ "$mode" != "--unit" ]; then
	for t in tests/t_*.sh; do
		[ -f "$t" ] || continue
		run_one "$(basename "$t")" bash "$t"
	done
fi

[ ${#failed_names[@]} -eq 0 ] || echo "failed: ${failed_names[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
