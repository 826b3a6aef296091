#!/usr/bin/env bash
# Runs libFuzzer targets built by `make fuzz-bins`: run.sh O SECONDS [fuzz_NAME...] (all by
# default). Each target starts from its seed corpus in tests/data and keeps what it finds in
# O/fuzz/corpus/NAME; a crash leaves its input in O/fuzz/artifacts. Prints TAP.
set -u
cd "$(dirname "$0")/../.."
O=${1:?usage: run.sh O SECONDS [fuzz_NAME...]}
SECS=${2:?usage: run.sh O SECONDS [fuzz_NAME...]}
shift 2
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for b in "$O"/fuzz/fuzz_*; do
		[ -x "$b" ] && names+=("$(basename "$b")")
	done
fi

seeds() { # target -> seed files
	case "$1" in
	fuzz_profile) ls tests/data/profiles/*.ini configs/*.ini ;;
	fuzz_result) ls tests/data/golden/*.json ;;
	*) ls -d tests/data/fuzz/"${1#fuzz_}"/* 2>/dev/null ;;
	esac
}

# 32-bit ARM: clang 14's ASan runtime (bookworm) fails its own CHECK whenever it records
# where a block was allocated ("sanitizer_stacktrace.cpp:151 ((count)) < ((size))", every
# target, before the first input; llvm-project issue 59826). Without allocation stacks the
# targets run, and a crash still prints its own stack.
case $(uname -m) in
arm*) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=0"
	echo "# 32-bit ARM: ASAN_OPTIONS malloc_context_size=0 (llvm-project issue 59826)" ;;
esac

echo "1..${#names[@]}"
k=0
status=0
for n in "${names[@]}"; do
	k=$((k + 1))
	bin=$O/fuzz/$n
	corpus=$O/fuzz/corpus/$n
	log=$O/fuzz/$n.log
	mkdir -p "$corpus" "$O/fuzz/artifacts"
	seeds "$n" | while read -r f; do cp -n "$f" "$corpus/" 2>/dev/null; done
	if [ ! -x "$bin" ]; then
		echo "not ok $k - $n: not built ($bin)"
		status=1
		continue
	fi
	"$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$O/fuzz/artifacts/$n-" "$corpus" </dev/null >"$log" 2>&1
	rc=$?
	execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		echo "ok $k - $n: ${execs:-?} executions in ${SECS}s, 0 crashes"
	else
		echo "not ok $k - $n: exit $rc after ${execs:-?} executions (input in $O/fuzz/artifacts)"
		grep -vE '^#[0-9]+|^INFO:' "$log" | tail -n 40 | sed 's/^/#   /'
		status=1
	fi
done
exit $status
