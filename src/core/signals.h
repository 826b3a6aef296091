/* SPDX-License-Identifier: MIT */
/* Signal dispositions: one handler, or SIG_IGN, set for a list of signals at once. */
#ifndef IOWATT_SIGNALS_H
#define IOWATT_SIGNALS_H

#include <stddef.h>

/* sigaction() with handler (a function, SIG_IGN or SIG_DFL), no flags and an empty mask,
 * for each of sigs[0..n). */
void signals_set(void (*handler)(int), const int *sigs, size_t n);

#endif
