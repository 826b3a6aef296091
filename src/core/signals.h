/* SPDX-License-Identifier: MIT */
/* Signals: one handler, or SIG_IGN, set for a list of them at once; threads that take none. */
#ifndef IOWATT_SIGNALS_H
#define IOWATT_SIGNALS_H

#include <pthread.h>
#include <stddef.h>

/* sigaction() with handler (a function, SIG_IGN or SIG_DFL), no flags and an empty mask,
 * for each of sigs[0..n). */
void signals_set(void (*handler)(int), const int *sigs, size_t n);
/* pthread_create() of a thread that inherits a mask blocking every signal, so that they all
 * go to the calling thread (whose loops check for them) and no syscall of the new one sees
 * EINTR; the caller's mask is restored. 0 or -errno (not logged: the caller names it). */
int signals_blocked_thread(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
