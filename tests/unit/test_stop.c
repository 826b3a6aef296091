/* SPDX-License-Identifier: MIT */
/* The stop-signal watcher: a signal is recorded once; unwatching wakes and ends it cleanly. */
#include <signal.h>
#include <unistd.h>

#include "core/clock.h"
#include "run/stop.h"
#include "tap.h"

static int blocked(int sig)
{
	sigset_t cur;

	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	return sigismember(&cur, sig);
}

/* Waits for the watcher to record a signal, by its flag, up to 30 s (a loaded machine). */
static int wait_signal(const struct run_stop *st)
{
	int i;

	for (i = 0; i < 3000 && !st->signal; i++)
		sleep_ns(10 * NS_PER_MS);
	return st->signal;
}

/*
 * Unwatching wakes the watcher with SIGINT and tells it to end (a cancelled thread left
 * frames AddressSanitizer then reported on armhf): that wake-up is not the user's Ctrl-C.
 */
static void test_unwatch_quiet(void)
{
	struct run_stop st = { 0 };
	int round;

	for (round = 1; round <= 3; round++) {
		if (!ok(!run_stop_watch(&st, NULL), "round %d: watching", round))
			return;
		ok(blocked(SIGINT) && blocked(SIGTERM), "round %d: stop signals blocked here",
		   round);
		run_stop_unwatch(&st);
		is_int(st.signal, 0, "round %d: the wake-up is not taken for a signal", round);
		ok(!run_stop_requested(&st), "round %d: no stop requested", round);
		ok(!blocked(SIGINT) && !blocked(SIGTERM), "round %d: the mask is restored", round);
	}
}

static void test_signal_recorded(void)
{
	struct run_stop st = { 0 };

	if (!ok(!run_stop_watch(&st, NULL), "watching"))
		return;
	kill(getpid(), SIGTERM);
	is_int(wait_signal(&st), SIGTERM, "SIGTERM to the process is recorded");
	ok(run_stop_requested(&st), "and asks for a stop");
	run_stop_unwatch(&st);
	is_int(st.signal, SIGTERM, "unwatching keeps the signal that came");
	ok(!blocked(SIGTERM), "the mask is restored");
}

int main(void)
{
	test_unwatch_quiet();
	test_signal_recorded();
	return done_testing();
}
