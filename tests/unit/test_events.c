/* SPDX-License-Identifier: MIT */
/* The event queue: floods coalesce, one drop policy (informational events may go, validity
 * never does), O(1) pushes into bounded memory. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
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
	is_int(event_count(&ev[0]), 1, "a single event counts one");
	is_int(event_last_ns(&ev[0]), 10, "its last time is its time");
	is_int(event_pop(q, ev, 4), 0, "empty after popping");
	event_pushf(NULL, EV_UNDERVOLTAGE, 1, "x", "nowhere");
	is_int(event_pop(NULL, ev, 4), 0, "a NULL queue discards");
	event_queue_free(q);
}

/* One kind from one source is one entry with a count and its first and last times. */
static void test_coalesce(void)
{
	struct event_queue *q = event_queue_new();
	struct run_event ev[8];
	size_t i;

	for (i = 0; i < 1000; i++)
		event_pushf(q, EV_INFO, 100 + i, "meter", "dropped %zu", i);
	event_pushf(q, EV_INFO, 50, "other", "another source");
	event_pushf(q, EV_METER_GAP, 60, "meter", "another kind");
	event_pushf(q, EV_INFO, 90, "meter", "dropped %d", 5000); /* earlier, as a kernel line's may be */
	is_int(event_queue_count(q), 3, "1001 events of one kind and source are one entry");
	is_int(event_pop(q, ev, 8), 3, "three entries popped");
	is_int(event_count(&ev[0]), 1001, "the flood's entry counts every event");
	is_int(ev[0].t_ns, 90, "its time is the first occurrence's");
	is_int(event_last_ns(&ev[0]), 1099, "and it keeps the last one's");
	is_str(ev[0].text, "dropped 0", "with the text of the one that opened it");
	ok(ev[1].kind == EV_INFO && !strcmp(ev[1].source, "other") && event_count(&ev[1]) == 1,
	   "another source is an entry of its own");
	ok(ev[2].kind == EV_METER_GAP && event_count(&ev[2]) == 1,
	   "another kind from the same source too");

	/* The same kind and source telling another story is an entry of its own (a stall's gap
	 * and the hang-up after it), whatever the numbers; the same story joins. */
	event_pushf(q, EV_METER_GAP, 1500, "m", "no valid reading for more than %.1f s", 0.4);
	event_pushf(q, EV_METER_GAP, 1501, "m", "link lost: %s", "Broken pipe");
	event_pushf(q, EV_METER_GAP, 1502, "m", "link lost: %s", "Broken pipe");
	event_pushf(q, EV_METER_GAP, 1503, "m", "no valid reading for more than %.1f s", 12.5);
	event_pushf(q, EV_INFO, 1504, "m", "a negative voltage (%.4g V)", -3.25);
	event_pushf(q, EV_INFO, 1505, "m", "a negative voltage (%.4g V)", -1.5e-05);
	event_pushf(q, EV_INFO, 1506, "m", "a negative voltage (%.4g V)", 2.0);
	is_int(event_queue_count(q), 4, "a flood's figures, signs and exponents aside, is one");
	is_int(event_pop(q, ev, 8), 4, "two stories of one kind and source are apart");
	is_int(event_count(&ev[3]), 3, "the flood counts its three");
	ok(event_count(&ev[0]) == 1 && event_count(&ev[1]) == 2 &&
		   !strncmp(ev[1].text, "link lost", 9) && event_count(&ev[2]) == 1,
	   "the hang-up keeps its words; its repeat joins it; the stall after it is new");
	event_pushf(q, EV_INFO, 2000, "meter", "after the pop");
	is_int(event_pop(q, ev, 8), 1, "an entry once popped takes nothing more");
	ok(event_count(&ev[0]) == 1 && ev[0].t_ns == 2000, "the next event starts a new one");

	event_pushf(q, EV_INFO, 3000, "meter", "phase one");
	event_pushf(q, EV_INFO, 3001, "meter", "phase one");
	event_queue_seal(q);
	event_pushf(q, EV_INFO, 3002, "meter", "phase two");
	event_pushf(q, EV_INFO, 3003, "meter", "phase two");
	is_int(event_pop(q, ev, 8), 2, "a seal ends the entries held: two phases, two entries");
	ok(event_count(&ev[0]) == 2 && event_last_ns(&ev[0]) == 3001 &&
		   event_count(&ev[1]) == 2 && ev[1].t_ns == 3002,
	   "each with its own count and times");
	event_queue_free(q);
}

static void test_drop_policy(void)
{
	struct event_queue *q = event_queue_new();
	struct run_event ev;
	char src[16];
	size_t i, uv = 0, uv_end = 0, info = 0;
	uint64_t last_t = 0;
	int ordered = 1;

	/* Sources that differ (a flapping USB hub's ports) do not coalesce: the cap holds. */
	event_pushf(q, EV_UNDERVOLTAGE, 1, "kmsg", "Under-voltage detected!");
	for (i = 0; i < 5000; i++) {
		snprintf(src, sizeof(src), "port%zu", i);
		event_pushf(q, EV_INFO, 2 + i, src, "flappy %zu", i);
	}
	event_pushf(q, EV_UNDERVOLTAGE_END, 6000, "kmsg", "Voltage normalised");
	ok(event_queue_dropped(q) > 0, "a flood of informational entries drops some (%llu)",
	   (unsigned long long)event_queue_dropped(q));
	ok(event_queue_count(q) <= 1024, "the queue holds at most its limit (%zu)",
	   event_queue_count(q));
	while (event_pop(q, &ev, 1)) {
		uv += ev.kind == EV_UNDERVOLTAGE;
		uv_end += ev.kind == EV_UNDERVOLTAGE_END;
		info += ev.kind == EV_INFO ? event_count(&ev) : 0;
		if (ev.t_ns < last_t)
			ordered = 0;
		last_t = ev.t_ns;
	}
	is_int(uv, 1, "the undervoltage at the start survives the flood");
	is_int(uv_end, 1, "its end survives too");
	is_int(info + event_queue_dropped(q), 5000, "every informational event is kept or counted");
	ok(ordered, "what is kept stays in time order");
	event_queue_free(q);

	/* Events that decide validity are never dropped; one source's coalesce. */
	q = event_queue_new();
	for (i = 0; i < 3000; i++)
		event_pushf(q, i % 2 ? EV_USB_DISCONNECT : EV_UNDERVOLTAGE, 1 + i, "s", "x");
	is_int(event_queue_count(q), 2, "3000 alternating events of two kinds: two entries");
	info = 0;
	while (event_pop(q, &ev, 1))
		info += event_count(&ev);
	is_int(info, 3000, "events that decide validity are never dropped: all 3000 counted");
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
	size_t n = 0, k, i;

	pthread_create(&ta, NULL, push_many, &a);
	pthread_create(&tb, NULL, push_many, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	while ((k = event_pop(q, ev, 64)) > 0)
		for (i = 0; i < k; i++)
			n += event_count(&ev[i]);
	is_int(n, 4000, "two threads pushing kept events: all 4000 arrive");
	event_queue_free(q);
}

/* A run's record: a queue read without popping, with the same policy at its own size. */
static void test_record(void)
{
	struct event_queue *q = event_queue_new_cap(4);
	struct run_event ev[8];
	char src[16];
	size_t i, n;

	event_pushf(q, EV_UNDERVOLTAGE, 1, "kmsg", "uv");
	for (i = 0; i < 6; i++) {
		snprintf(src, sizeof(src), "flappy%zu", i);
		event_pushf(q, EV_INFO, 10 + i, src, "info %zu", i);
	}
	n = event_queue_peek(q, 0, ev, 8);
	is_int(n, 4, "a record of 4 keeps 4 entries");
	is_int(event_queue_count(q), 4, "and counts them");
	ok(ev[0].kind == EV_UNDERVOLTAGE && ev[1].t_ns == 13 && ev[3].t_ns == 15,
	   "the undervoltage and the newest informational entries, in order");
	is_int(event_queue_dropped(q), 3, "the oldest informational ones are counted as dropped");
	is_int(event_queue_peek(q, 3, ev, 8), 1, "peek from an index");
	is_int(event_queue_count(q), 4, "peeking removes nothing");

	/* Full of entries that must be kept: a known kind and source joins its newest entry
	 * across the seal, a new one takes a place past the limit. */
	for (i = 0; i < 3; i++) {
		snprintf(src, sizeof(src), "uv%zu", i);
		event_pushf(q, EV_UNDERVOLTAGE, 20 + i, src, "uv");
	}
	event_queue_seal(q);
	for (i = 0; i < 100; i++)
		event_pushf(q, EV_UNDERVOLTAGE, 30 + i, "uv1", "again");
	is_int(event_queue_count(q), 4, "a full record of kept entries grows not for a known source");
	n = event_queue_peek(q, 0, ev, 8);
	ok(n == 4 && !strcmp(ev[2].source, "uv1") && event_count(&ev[2]) == 101 &&
		   event_last_ns(&ev[2]) == 129,
	   "its 100 events joined uv1's entry, sealed as it was");
	event_pushf(q, EV_USB_DISCONNECT, 200, "kmsg", "new kind");
	is_int(event_queue_count(q), 5, "a kind and source never seen takes a place past the limit");
	event_queue_free(q);

	q = event_queue_new_cap(100);
	for (i = 0; i < 150; i++) {
		snprintf(src, sizeof(src), "s%zu", i);
		event_pushf(q, EV_INFO, i, src, "x");
	}
	is_int(event_queue_count(q), 100, "a record grows to its limit exactly, not past it");
	is_int(event_queue_dropped(q), 50, "and drops from there");
	event_queue_free(q);
}

/*
 * The flood of a meter that drops a reading every few samples, and its supply flapping
 * about the undervoltage threshold: millions of events, kept and informational, into a
 * run's record sealed at every phase. Every event is counted, the record stays within its
 * limit plus one entry per kind and source, and the pushes take no time that grows with
 * what is held (the old queue shifted its whole content per push: hours for this).
 */
#define FLOOD_EVENTS 3000000u
#define FLOOD_LIMIT 4096u
#define FLOOD_PHASE 1000u /* events between seals: 3000 phases, more than the limit */
#define FLOOD_MAX_S 60.0  /* a few seconds here, under ASan on a shared machine */

static void test_flood_bounded(void)
{
	static const int kinds[] = { EV_INFO, EV_UNDERVOLTAGE, EV_INFO, EV_UNDERVOLTAGE_END };
	struct event_queue *q = event_queue_new_cap(FLOOD_LIMIT);
	struct run_event *all;
	uint64_t t0 = now_ns(), counted = 0, kept = 0, i;
	size_t n, k, most = 0;
	double secs;

	for (i = 0; i < FLOOD_EVENTS; i++) {
		event_pushf(q, kinds[i % 4], 1 + i, i % 8 < 4 ? "sigrok:demo" : "kmsg", "e");
		if (i % FLOOD_PHASE == FLOOD_PHASE - 1) {
			event_queue_seal(q);
			n = event_queue_count(q);
			most = n > most ? n : most;
		}
	}
	secs = (double)(now_ns() - t0) / 1e9;
	ok(most <= FLOOD_LIMIT + 4, "%u events in %u phases: at most %zu entries held (limit %u "
	   "+ one per kept kind and source)", FLOOD_EVENTS, FLOOD_EVENTS / FLOOD_PHASE, most,
	   FLOOD_LIMIT);
	n = event_queue_count(q);
	all = calloc(n, sizeof(*all));
	n = event_queue_peek(q, 0, all, n);
	for (k = 0; k < n; k++) {
		counted += event_count(&all[k]);
		kept += event_must_keep(all[k].kind) ? event_count(&all[k]) : 0;
	}
	is_int(counted + event_queue_dropped(q), FLOOD_EVENTS,
	       "every event is in an entry's count or counted as dropped");
	is_int(kept, FLOOD_EVENTS / 2, "every undervoltage and its end is in a count");
	ok(secs < FLOOD_MAX_S, "%u pushes took %.1f s (bound %.0f s)", FLOOD_EVENTS, secs,
	   FLOOD_MAX_S);
	free(all);
	event_queue_free(q);
}

int main(void)
{
	test_order_and_null();
	test_coalesce();
	test_drop_policy();
	test_threads();
	test_record();
	test_flood_bounded();
	return done_testing();
}
