/* SPDX-License-Identifier: MIT */
/* A run's bounded, mutex-protected event queue that any thread may push to. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/mem.h"

/* Informational events a queue holds before it drops the oldest of them. The main loop
 * drains every 50 ms, so this is seconds of a flapping source. */
#define EVENT_QUEUE_CAP 1024
/* A queue starts this small and doubles up to its limit: a quiet run's record stays small. */
#define EVENT_QUEUE_START 64

struct event_queue {
	pthread_mutex_t lock;
	struct run_event *ring;
	size_t cap, head, count;
	size_t limit; /* events held before the drop policy applies */
	uint64_t dropped;
};

struct event_queue *event_queue_new_cap(size_t limit)
{
	struct event_queue *q = xcalloc(1, sizeof(*q));

	pthread_mutex_init(&q->lock, NULL);
	q->limit = limit ? limit : 1;
	q->cap = q->limit < EVENT_QUEUE_START ? q->limit : EVENT_QUEUE_START;
	q->ring = xcalloc(q->cap, sizeof(q->ring[0]));
	return q;
}

struct event_queue *event_queue_new(void)
{
	return event_queue_new_cap(EVENT_QUEUE_CAP);
}

void event_queue_free(struct event_queue *q)
{
	if (!q)
		return;
	pthread_mutex_destroy(&q->lock);
	free(q->ring);
	free(q);
}

static struct run_event *slot(struct event_queue *q, size_t i)
{
	return &q->ring[(q->head + i) % q->cap];
}

/* The ring at a new size, oldest event first. Lock held. */
static void grow(struct event_queue *q, size_t cap)
{
	struct run_event *bigger = xcalloc(cap, sizeof(bigger[0]));
	size_t i;

	for (i = 0; i < q->count; i++)
		bigger[i] = *slot(q, i);
	free(q->ring);
	q->ring = bigger;
	q->head = 0;
	q->cap = cap;
}

/* Make room for one more: grow up to the limit, then drop the oldest droppable event, or
 * grow past the limit for one that must be kept. Lock held. */
static void make_room(struct event_queue *q)
{
	size_t i;

	if (q->cap < q->limit) {
		grow(q, q->cap * 2 < q->limit ? q->cap * 2 : q->limit);
		return;
	}
	for (i = 0; i < q->count; i++) {
		if (event_must_keep(slot(q, i)->kind))
			continue;
		for (; i > 0; i--)
			*slot(q, i) = *slot(q, i - 1);
		q->head = (q->head + 1) % q->cap;
		q->count--;
		q->dropped++;
		return;
	}
	grow(q, q->cap * 2);
	q->limit = q->cap;
}

void event_push(struct event_queue *q, const struct run_event *ev)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	if (q->count == q->cap)
		make_room(q);
	*slot(q, q->count) = *ev;
	q->count++;
	pthread_mutex_unlock(&q->lock);
}

void event_pushf(struct event_queue *q, int kind, uint64_t t_ns, const char *source,
		 const char *fmt, ...)
{
	struct run_event ev;
	va_list ap;

	if (!q)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.t_ns = t_ns ? t_ns : now_ns();
	snprintf(ev.source, sizeof(ev.source), "%s", source ? source : "");
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof(ev.text), fmt, ap);
	va_end(ap);
	event_push(q, &ev);
}

size_t event_pop(struct event_queue *q, struct run_event *out, size_t max)
{
	size_t n = 0;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	while (n < max && q->count) {
		out[n++] = *slot(q, 0);
		q->head = (q->head + 1) % q->cap;
		q->count--;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

size_t event_queue_peek(struct event_queue *q, size_t first, struct run_event *out, size_t max)
{
	size_t n = 0;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	while (n < max && first + n < q->count) {
		out[n] = *slot(q, first + n);
		n++;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

size_t event_queue_count(struct event_queue *q)
{
	size_t n;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	n = q->count;
	pthread_mutex_unlock(&q->lock);
	return n;
}

uint64_t event_queue_dropped(struct event_queue *q)
{
	uint64_t d;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	d = q->dropped;
	pthread_mutex_unlock(&q->lock);
	return d;
}

const char *event_kind_name(int kind)
{
	static const char *const names[EV_KIND_COUNT] = {
		[EV_UNDERVOLTAGE] = "undervoltage",
		[EV_UNDERVOLTAGE_END] = "undervoltage_end",
		[EV_THROTTLED] = "throttled",
		[EV_USB_OVERCURRENT] = "usb_overcurrent",
		[EV_USB_DISCONNECT] = "usb_disconnect",
		[EV_METER_GAP] = "meter_gap",
		[EV_METER_RECONNECT] = "meter_reconnect",
		[EV_METER_RESET] = "meter_reset",
		[EV_TEMPERATURE] = "temperature",
		[EV_INFO] = "info",
	};

	if (kind < 0 || kind >= EV_KIND_COUNT)
		return "unknown";
	return names[kind];
}

int event_invalidates(int kind)
{
	return kind == EV_UNDERVOLTAGE || kind == EV_USB_OVERCURRENT || kind == EV_USB_DISCONNECT;
}

int event_must_keep(int kind)
{
	return event_invalidates(kind) || kind == EV_UNDERVOLTAGE_END;
}
