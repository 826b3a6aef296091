/* SPDX-License-Identifier: MIT */
/* The monotonic clock every phase, interval and sample is stamped with, and sleeping on it. */
#include <errno.h>
#include <time.h>

#include "core/clock.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

void timespec_from_ns(uint64_t t_ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(t_ns / NS_PER_SEC);
	ts->tv_nsec = (long)(t_ns % NS_PER_SEC);
}

int sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts;
	int rc;

	timespec_from_ns(deadline_ns, &ts);
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	return rc ? -rc : 0;
}

void sleep_ns(uint64_t ns)
{
	sleep_until_ns(now_ns() + ns);
}
