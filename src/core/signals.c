/* SPDX-License-Identifier: MIT */
/* Signal dispositions: one handler, or SIG_IGN, set for a list of signals at once. */
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
