/* SPDX-License-Identifier: MIT */
/* One event queue per test program, standing in for the run's. */
#ifndef IOWATT_TEST_EVENTS_UTIL_H
#define IOWATT_TEST_EVENTS_UTIL_H

#include "core/events.h"

static inline struct event_queue *test_queue(void)
{
	static struct event_queue *q;

	if (!q)
		q = event_queue_new();
	return q;
}

static inline size_t test_events_pop(struct run_event *out, size_t max)
{
	return event_pop(test_queue(), out, max);
}

static inline void test_events_drain(void)
{
	struct run_event ev;

	while (event_pop(test_queue(), &ev, 1))
		;
}

#endif
