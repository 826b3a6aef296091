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

# A hang (a sanitizer report that deadlocks, a device that never answers) fails that
# test, not the whole suite: a test that prints nothing for TEST_IDLE seconds is stopped
# (every test prints a TAP line per check, so a live one keeps talking however loaded the
# machine is), and none runs longer than TEST_TIMEOUT in all. A fixed per-test limit of
# under a minute failed seven slow-but-working tests on a 2-core machine at load 9.
TEST_IDLE=${TEST_IDLE:-45}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}

run_one() { # name command...
	run_for "$TEST_TIMEOUT" "$@"
}

run_for() { # seconds name command...
	local limit=$1 name=$2 out rc t0 secs plan
	shift 2
	out=$(mktemp)
	t0=$(date +%s)
	# Its own process group, so that a hung test goes with every child it started.
	setsid timeout -k 5 "$limit" "$@" >"$out" 2>&1 &
	local pid=$! size last=-1 quiet=0 hung=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.2
		size=$(stat -c %s "$out" 2>/dev/null || echo 0)
		if [ "$size" != "$last" ]; then
			last=$size
			quiet=0
		elif [ $((++quiet)) -ge $((TEST_IDLE * 5)) ]; then
			hung=1
			kill -TERM -- -"$pid" 2>/dev/null
			sleep 2
			kill -KILL -- -"$pid" 2>/dev/null
			break
		fi
	done
	wait "$pid"
	rc=$?
	secs=$(($(date +%s) - t0))
	local p f s n
	p=$(grep -cE '^ok [0-9]+' "$out" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# skip' "$out" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$out" | tr -d ' ')
	n=$((p + f))
	p=$((p - s))
	plan=$(sed -nE 's/^1\.\.([0-9]+).*/\1/p' "$out" | tail -n 1)
	if [ "$hung" -eq 1 ]; then
		f=$((f + 1))
		echo "# $name printed nothing for ${TEST_IDLE}s: stopped as hung" >>"$out"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		f=$((f + 1))
		echo "# $name timed out after ${limit}s" >>"$out"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed or exited non-zero without a failing line
		echo "# $name exited with status $rc" >>"$out"
	elif [ -z "$plan" ]; then
		f=$((f + 1))
		echo "# $name printed no TAP plan: it stopped early" >>"$out"
	elif [ "$plan" -ne "$n" ]; then
		f=$((f + 1))
		echo "# $name planned $plan tests but ran $n" >>"$out"
	fi
	if [ -n "$plan" ] && [ "$plan" -eq 0 ] && [ "$f" -eq 0 ]; then
		# A whole binary skipped ("1..0 # skip why") counts once, with its reason.
		s=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	if [ "$f" -gt 0 ]; then
		failed_names+=("$name")
		echo "FAIL $name ($p passed, $f failed, ${secs}s)"
		grep -vE '^ok [0-9]+' "$out" | sed 's/^/    /' | tail -n 60
	elif [ "$s" -gt 0 ]; then
		echo "ok   $name ($p passed, $s skipped, ${secs}s)"
		grep -E '^ok [0-9]+.*# skip|^1\.\.0' "$out" | sed -E 's/^(ok [0-9]+ )?/    /'
	else
		echo "ok   $name ($p passed, ${secs}s)"
	fi
	# What a passing test wants known about how it ran (which emulation, which library).
	[ "$f" -gt 0 ] || grep -E '^# note: ' "$out" | sed 's/^# note: /    note: /'
	rm -f "$out"
}

# Leaks inside libraries iowatt cannot fix (tests/lsan.supp says which and why).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Races inside umockdev and glib that TSan cannot see ordered (tests/tsan.supp).
export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp:print_suppressions=0${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

case ${ASAN_OPTIONS:-} in
*detect_leaks=0*) echo "note: LeakSanitizer is off here (ASAN_OPTIONS=$ASAN_OPTIONS): leaks are not checked" ;;
esac

for t in "$O"/tests/test_* "$O"/tests/umock_*; do
	[ -x "$t" ] || continue
	case "$t" in *.d|*.o) continue ;; esac
	if [[ "$(basename "$t")" == umock_* ]]; then
		run_one "$(basename "$t")" umockdev-wrapper "$t"
	else
		run_one "$(basename "$t")" "$t"
	fi
done

# libFuzzer targets (make check builds them into FUZZ_O where clang is): FUZZ_SECONDS each.
if [ "$mode" != "--unit" ] && [ -n "${FUZZ_O:-}" ]; then
	for t in "$FUZZ_O"/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		# libFuzzer bounds its own run (FUZZ_SECONDS, its per-input timeout); loading the
		# seed corpus under ASan comes on top.
		TEST_IDLE=$((TEST_IDLE + ${FUZZ_SECONDS:-10})) run_for "$TEST_TIMEOUT" "$(basename "$t")" \
			tests/fuzz/run.sh "$FUZZ_O" "${FUZZ_SECONDS:-10}" "$(basename "$t")"
	done
fi

if [ "$mode" != "--unit" ]; then
	for t in tests/cli/t_*.sh; do
		[ -f "$t" ] || continue
		run_one "$(basename "$t")" bash "$t"
	done
fi

[ ${#failed_names[@]} -eq 0 ] || echo "failed: ${failed_names[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
