/* SPDX-License-Identifier: MIT */
/* The monotonic clock in ns and sleeping on it. */
#ifndef IOWATT_CLOCK_H
#define IOWATT_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_SEC 1000000000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_US 1000ULL

/* CLOCK_MONOTONIC in ns: the one clock for I/O phases, intervals and meter samples. */
uint64_t now_ns(void);
/* Sleep until the monotonic deadline; returns early with -EINTR on a signal. */
int sleep_until_ns(uint64_t deadline_ns);
void sleep_ns(uint64_t ns);
/* A time on that clock in ns as a timespec (clock_nanosleep, pthread_cond_timedwait). */
void timespec_from_ns(uint64_t t_ns, struct timespec *ts);

#endif
