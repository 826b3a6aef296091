/* SPDX-License-Identifier: MIT */
/* signals_set: every listed signal gets the handler, and only those. */
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

int main(void)
{
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
	return done_testing();
}
