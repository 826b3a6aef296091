/* SPDX-License-Identifier: MIT */
/* Signals: one handler, or SIG_IGN, set for a list of them at once; threads that take none. */
#include <signal.h>
#include <string.h>

#include "core/signals.h"

void signals_set(void (*handler)(int), const int *sigs, size_t n)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	for (i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

int signals_blocked_thread(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -rc;
}
