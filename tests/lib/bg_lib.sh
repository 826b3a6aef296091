# iowatt in the background with a bound on its end: bg, finish, stop_with (sourced after lib.sh).

# The most any end is waited for: it keeps a hung iowatt from hanging the suite; tests say
# how long it took and assert nothing about it. A test may set it higher.
BOUND_S=${BOUND_S:-10}

# bg NAME ARGS...: iowatt ARGS in the background ($pid), pinned by ${PIN[@]} where a test
# sets it (taskset), its output in $T/NAME.out.
bg() {
	local name=$1
	shift
	${PIN+"${PIN[@]}"} "$IOWATT" "$@" >"$T/$name.out" 2>&1 &
	pid=$!
}

# finish: waits for $pid at most BOUND_S (then KILL); $rc, and $ms since $t0 (ns).
finish() {
	local i
	for i in $(seq 1 $((BOUND_S * 50))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
	wait "$pid"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}

# stop_with SIG: the signal now; $rc and $ms (how long iowatt took to end).
stop_with() {
	t0=$(date +%s%N)
	kill "-$1" "$pid"
	finish
}
