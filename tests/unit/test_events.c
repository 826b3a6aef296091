/* SPDX-License-Identifier: MIT */
/* The event queue's one drop policy: informational events may go, validity never does. */
#include <pthread.h>
#include <stdlib.h>

#include "core/events.h"
#include "tap.h"

static void test_order_and_null(void)
{
	struct event_queue *q = event_queue_new();
	struct run_event ev[4];

	event_pushf(q, EV_INFO, 10, "a", "first %d", 1);
	event_pushf(q, EV_THROTTLED, 20, "b", "second");
	is_int(event_pop(q, ev, 4), 2, "two events pushed, two popped");
	is_int(ev[0].t_ns, 10, "in push order");
	is_str(ev[0].text, "first 1", "text formatted");
	is_str(ev[1].source, "b", "source kept");
	is_int(event_pop(q, ev, 4), 0, "empty after popping");
	event_pushf(NULL, EV_UNDERVOLTAGE, 1, "x", "nowhere");
	is_int(event_pop(NULL, ev, 4), 0, "a NULL queue discards");
	event_queue_free(q);
}

static void test_drop_policy(void)
{
	struct event_queue *q = event_queue_new();
	struct run_event ev;
	size_t i, n = 0, uv = 0, uv_end = 0, info = 0;
	uint64_t last_t = 0;
	int ordered = 1;

	event_pushf(q, EV_UNDERVOLTAGE, 1, "kmsg", "Under-voltage detected!");
	for (i = 0; i < 5000; i++)
		event_pushf(q, EV_INFO, 2 + i, "flappy", "info %zu", i);
	event_pushf(q, EV_UNDERVOLTAGE_END, 6000, "kmsg", "Voltage normalised");
	ok(event_queue_dropped(q) > 0, "a flood of informational events drops some (%llu)",
	   (unsigned long long)event_queue_dropped(q));
	while (event_pop(q, &ev, 1)) {
		n++;
		uv += ev.kind == EV_UNDERVOLTAGE;
		uv_end += ev.kind == EV_UNDERVOLTAGE_END;
		info += ev.kind == EV_INFO;
		if (ev.t_ns < last_t)
			ordered = 0;
		last_t = ev.t_ns;
	}
	is_int(uv, 1, "the undervoltage at the start survives the flood");
	is_int(uv_end, 1, "its end survives too");
	is_int(info + event_queue_dropped(q), 5000, "every informational event is kept or counted");
	ok(ordered, "what is kept stays in time order");
	event_queue_free(q);

	q = event_queue_new();
	for (i = 0; i < 3000; i++)
		event_pushf(q, i % 2 ? EV_USB_DISCONNECT : EV_UNDERVOLTAGE, 1 + i, "s", "x");
	n = 0;
	while (event_pop(q, &ev, 1))
		n++;
	is_int(n, 3000, "events that decide validity are never dropped: the queue grows");
	is_int(event_queue_dropped(q), 0, "and nothing is counted as dropped");
	event_queue_free(q);
}

struct pusher {
	struct event_queue *q;
	int kind;
};

static void *push_many(void *arg)
{
	struct pusher *p = arg;
	int i;

	for (i = 0; i < 2000; i++)
		event_pushf(p->q, p->kind, 0, "thread", "%d", i);
	return NULL;
}

static void test_threads(void)
{
	struct event_queue *q = event_queue_new();
	struct pusher a = { q, EV_UNDERVOLTAGE }, b = { q, EV_UNDERVOLTAGE_END };
	struct run_event ev[64];
	pthread_t ta, tb;
	size_t n = 0, k;

	pthread_create(&ta, NULL, push_many, &a);
	pthread_create(&tb, NULL, push_many, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	while ((k = event_pop(q, ev, 64)) > 0)
		n += k;
	is_int(n, 4000, "two threads pushing kept events: all 4000 arrive");
	event_queue_free(q);
}

/* A run's record: a queue read without popping, with the same policy at its own size. */
static void test_record(void)
{
	struct event_queue *q = event_queue_new_cap(4);
	struct run_event ev[8];
	size_t i, n;

	event_pushf(q, EV_UNDERVOLTAGE, 1, "kmsg", "uv");
	for (i = 0; i < 6; i++)
		event_pushf(q, EV_INFO, 10 + i, "flappy", "info %zu", i);
	n = event_queue_peek(q, 0, ev, 8);
	is_int(n, 4, "a record of 4 keeps 4 events");
	is_int(event_queue_count(q), 4, "and counts them");
	ok(ev[0].kind == EV_UNDERVOLTAGE && ev[1].t_ns == 13 && ev[3].t_ns == 15,
	   "the undervoltage and the newest informational events, in order");
	is_int(event_queue_dropped(q), 3, "the oldest informational ones are counted as dropped");
	is_int(event_queue_peek(q, 3, ev, 8), 1, "peek from an index");
	is_int(event_queue_count(q), 4, "peeking removes nothing");
	event_queue_free(q);

	q = event_queue_new_cap(100);
	for (i = 0; i < 150; i++)
		event_pushf(q, EV_INFO, i, "s", "x");
	is_int(event_queue_count(q), 100, "a record grows to its limit exactly, not past it");
	is_int(event_queue_dropped(q), 50, "and drops from there");
	event_queue_free(q);
}

int main(void)
{
	test_order_and_null();
	test_drop_policy();
	test_threads();
	test_record();
	return done_testing();
}
