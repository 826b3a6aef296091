/* SPDX-License-Identifier: MIT */
/* signals_set: every listed signal gets the handler, and only those; signals_blocked_thread's
 * thread starts with every signal blocked, and the caller's mask is left as it was. */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "core/signals.h"
#include "tap.h"

static volatile sig_atomic_t got;

static void on_signal(int sig)
{
	got = sig;
}

static void (*handler_of(int sig))(int)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigaction(sig, NULL, &sa);
	return sa.sa_handler;
}

/* The thread's own mask: how many of the listed signals it blocks. */
static void *mask_of_thread(void *arg)
{
	int *blocked = arg;
	sigset_t m;

	pthread_sigmask(SIG_BLOCK, NULL, &m);
	*blocked = sigismember(&m, SIGINT) + sigismember(&m, SIGTERM) + sigismember(&m, SIGUSR1);
	return NULL;
}

int main(void)
{
	sigset_t before, after;
	pthread_t t;
	int blocked = -1;

	static const int sigs[] = { SIGUSR1, SIGUSR2 };

	signals_set(on_signal, sigs, 2);
	ok(handler_of(SIGUSR1) == on_signal && handler_of(SIGUSR2) == on_signal,
	   "both listed signals have the handler");
	ok(handler_of(SIGHUP) != on_signal, "an unlisted signal is left as it was");
	raise(SIGUSR2);
	ok(got == SIGUSR2, "a raised signal reaches the handler (%d)", (int)got);
	signals_set(SIG_IGN, sigs, 1);
	ok(handler_of(SIGUSR1) == SIG_IGN && handler_of(SIGUSR2) == on_signal,
	   "SIG_IGN for the first n only");
	raise(SIGUSR1);
	ok(got == SIGUSR2, "an ignored signal does not reach the handler");
	pthread_sigmask(SIG_BLOCK, NULL, &before);
	ok(!signals_blocked_thread(&t, mask_of_thread, &blocked), "the thread starts");
	pthread_join(t, NULL);
	ok(blocked == 3, "it blocks SIGINT, SIGTERM and SIGUSR1 (%d of 3)", blocked);
	pthread_sigmask(SIG_BLOCK, NULL, &after);
	ok(!sigismember(&after, SIGINT) && sigismember(&before, SIGINT) == sigismember(&after, SIGINT),
	   "the caller's mask is as it was: SIGINT not blocked");
	return done_testing();
}
