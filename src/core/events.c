/* SPDX-License-Identifier: MIT */
/* A run's bounded, mutex-protected event queue that any thread may push to, coalescing floods. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/mem.h"

/* Entries a queue holds before it drops the oldest informational one. The main loop
 * drains every 50 ms and a flood is one entry, so this is far more than it ever holds. */
#define EVENT_QUEUE_CAP 1024
/* A queue starts this small and doubles up to its limit: a quiet run's record stays small. */
#define EVENT_QUEUE_START 64
#define NIL UINT32_MAX

/*
 * An entry, in a pool that grows by doubling (indices, not pointers, survive the move).
 * Entries are on two lists in arrival order, every entry and the droppable ones, so that
 * pop and the drop policy are O(1); the newest entry of each kind and source is in a hash
 * table, so that coalescing is O(1).
 */
struct node {
	struct run_event ev;
	uint64_t epoch;		     /* the queue's epoch when it was made */
	uint32_t prev, next;	     /* every entry, oldest first; a free node: next free */
	uint32_t dprev, dnext;	     /* droppable entries, oldest first */
	uint32_t hnext;		     /* the hash chain, while indexed */
	uint32_t hash;
	unsigned indexed : 1;	     /* its kind and source's newest entry */
	unsigned droppable : 1;
};

struct list {
	uint32_t head, tail;
};

struct event_queue {
	pthread_mutex_t lock;
	struct node *pool;
	uint32_t cap, used, free; /* pool size, nodes ever handed out, free list */
	uint32_t *bucket;	  /* 2 x cap, a power of two */
	uint32_t nbucket;
	struct list all, drop;
	size_t count;
	size_t limit; /* entries held before the drop policy applies */
	uint64_t epoch, dropped;
};

uint64_t event_count(const struct run_event *ev)
{
	return ev->count ? ev->count : 1;
}

uint64_t event_last_ns(const struct run_event *ev)
{
	return ev->t_last_ns > ev->t_ns ? ev->t_last_ns : ev->t_ns;
}

static uint32_t key_hash(int kind, const char *source)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind; /* FNV-1a */

	while (*source)
		h = (h ^ (uint8_t)*source++) * 16777619u;
	return h;
}

static void rehash(struct event_queue *q)
{
	uint32_t i, n = 1;

	while (n < 2 * q->cap)
		n <<= 1;
	free(q->bucket);
	q->bucket = xcalloc(n, sizeof(q->bucket[0]));
	q->nbucket = n;
	for (i = 0; i < n; i++)
		q->bucket[i] = NIL;
	for (i = 0; i < q->used; i++) {
		struct node *x = &q->pool[i];

		if (!x->indexed)
			continue;
		x->hnext = q->bucket[x->hash & (n - 1)];
		q->bucket[x->hash & (n - 1)] = i;
	}
}

struct event_queue *event_queue_new_cap(size_t limit)
{
	struct event_queue *q = xcalloc(1, sizeof(*q));

	pthread_mutex_init(&q->lock, NULL);
	q->limit = limit ? limit : 1;
	if (q->limit > NIL / 4)
		q->limit = NIL / 4;
	q->cap = q->limit < EVENT_QUEUE_START ? (uint32_t)q->limit : EVENT_QUEUE_START;
	q->pool = xcalloc(q->cap, sizeof(q->pool[0]));
	q->free = NIL;
	q->all = q->drop = (struct list){ NIL, NIL };
	rehash(q);
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
	free(q->bucket);
	free(q->pool);
	free(q);
}

/* The newest entry of this kind and source, or NIL. Lock held. */
static uint32_t find(struct event_queue *q, int kind, const char *source, uint32_t h)
{
	uint32_t i;

	for (i = q->bucket[h & (q->nbucket - 1)]; i != NIL; i = q->pool[i].hnext)
		if (q->pool[i].hash == h && q->pool[i].ev.kind == kind &&
		    !strcmp(q->pool[i].ev.source, source))
			return i;
	return NIL;
}

static void unindex(struct event_queue *q, uint32_t i)
{
	uint32_t *at = &q->bucket[q->pool[i].hash & (q->nbucket - 1)];

	while (*at != i)
		at = &q->pool[*at].hnext;
	*at = q->pool[i].hnext;
	q->pool[i].indexed = 0;
}

/* Unlink entry i from list l through its prev/next (or dprev/dnext) members. */
#define UNLINK(q, l, i, PREV, NEXT)                                                  \
	do {                                                                         \
		struct node *x_ = &(q)->pool[i];                                     \
		if (x_->PREV != NIL)                                                 \
			(q)->pool[x_->PREV].NEXT = x_->NEXT;                         \
		else                                                                 \
			(l)->head = x_->NEXT;                                        \
		if (x_->NEXT != NIL)                                                 \
			(q)->pool[x_->NEXT].PREV = x_->PREV;                         \
		else                                                                 \
			(l)->tail = x_->PREV;                                        \
	} while (0)
#define APPEND(q, l, i, PREV, NEXT)                                                  \
	do {                                                                         \
		(q)->pool[i].PREV = (l)->tail;                                       \
		(q)->pool[i].NEXT = NIL;                                             \
		if ((l)->tail != NIL)                                                \
			(q)->pool[(l)->tail].NEXT = (i);                             \
		else                                                                 \
			(l)->head = (i);                                             \
		(l)->tail = (i);                                                     \
	} while (0)

/* Entry i leaves the queue; its node is free. Lock held. */
static void remove_node(struct event_queue *q, uint32_t i)
{
	struct node *x = &q->pool[i];

	UNLINK(q, &q->all, i, prev, next);
	if (x->droppable)
		UNLINK(q, &q->drop, i, dprev, dnext);
	if (x->indexed)
		unindex(q, i);
	x->next = q->free;
	q->free = i;
	q->count--;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Past a number at t ("-1.5e-05", "42"), or t itself when none starts there. */
static const char *skip_num(const char *t)
{
	const char *p = t + (*t == '-' || *t == '+');

	if (!is_digit(*p) && !(*p == '.' && is_digit(p[1])))
		return t;
	while (is_digit(*p) || *p == '.')
		p++;
	if ((*p == 'e' || *p == 'E') &&
	    (is_digit(p[1]) || ((p[1] == '-' || p[1] == '+') && is_digit(p[2])))) {
		p += 2;
		while (is_digit(*p))
			p++;
	}
	return p;
}

/*
 * Whether two texts tell the same story, numbers aside: a flood repeats its words with new
 * figures ("a negative voltage (-3.2 V)"), while a stall's gap and the hang-up after it
 * are two stories, and the second must not be told as "x 2" of the first.
 */
static int same_story(const char *a, const char *b)
{
	while (*a && *b) {
		const char *na = skip_num(a), *nb = skip_num(b);

		if (na != a && nb != b) {
			a = na;
			b = nb;
			continue;
		}
		if (*a++ != *b++)
			return 0;
	}
	return *a == *b;
}

static void merge(struct run_event *into, const struct run_event *ev)
{
	uint64_t last = event_last_ns(into) > event_last_ns(ev) ? event_last_ns(into)
								: event_last_ns(ev);

	into->count = event_count(into) + event_count(ev);
	if (ev->t_ns < into->t_ns)
		into->t_ns = ev->t_ns;
	into->t_last_ns = last;
	if (ev->t_end_ns > into->t_end_ns)
		into->t_end_ns = ev->t_end_ns;
}

/* A free node, the pool doubled when there is none. Lock held. */
static uint32_t take_node(struct event_queue *q)
{
	uint32_t i = q->free;

	if (i != NIL) {
		q->free = q->pool[i].next;
		return i;
	}
	if (q->used == q->cap) {
		uint32_t cap = q->cap * 2;

		if (q->count < q->limit && cap > q->limit)
			cap = (uint32_t)q->limit; /* a record grows to its limit exactly */
		q->pool = xrealloc(q->pool, (size_t)cap * sizeof(q->pool[0]));
		q->cap = cap;
		rehash(q);
	}
	return q->used++;
}

/* Room for a new entry of ev's kind: 1 if it may take one, 0 if it was dropped or joined
 * its kind and source's newest entry (at). Lock held. */
static int make_room(struct event_queue *q, const struct run_event *ev, uint32_t at)
{
	if (q->count < q->limit)
		return 1;
	if (q->drop.head != NIL) {
		q->dropped += event_count(&q->pool[q->drop.head].ev);
		remove_node(q, q->drop.head);
		return 1;
	}
	if (!event_must_keep(ev->kind)) {
		q->dropped += event_count(ev);
		return 0;
	}
	if (at != NIL) {
		merge(&q->pool[at].ev, ev);
		return 0;
	}
	return 1; /* a kind and source never seen: past the limit, as few as there are sources */
}

void event_push(struct event_queue *q, const struct run_event *ev)
{
	uint32_t h, at, i;
	struct node *x;

	if (!q)
		return;
	h = key_hash(ev->kind, ev->source);
	pthread_mutex_lock(&q->lock);
	at = find(q, ev->kind, ev->source, h);
	if (at != NIL && q->pool[at].epoch == q->epoch && same_story(q->pool[at].ev.text, ev->text)) {
		merge(&q->pool[at].ev, ev);
		goto out;
	}
	if (!make_room(q, ev, at))
		goto out;
	/* make_room may have removed the entry found */
	at = find(q, ev->kind, ev->source, h);
	if (at != NIL)
		unindex(q, at);
	i = take_node(q);
	x = &q->pool[i];
	x->ev = *ev;
	x->ev.count = event_count(ev);
	x->epoch = q->epoch;
	x->hash = h;
	x->droppable = !event_must_keep(ev->kind);
	APPEND(q, &q->all, i, prev, next);
	if (x->droppable)
		APPEND(q, &q->drop, i, dprev, dnext);
	x->hnext = q->bucket[h & (q->nbucket - 1)];
	q->bucket[h & (q->nbucket - 1)] = i;
	x->indexed = 1;
	q->count++;
out:
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
	while (n < max && q->all.head != NIL) {
		out[n++] = q->pool[q->all.head].ev;
		remove_node(q, q->all.head);
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

size_t event_queue_peek(struct event_queue *q, size_t first, struct run_event *out, size_t max)
{
	size_t n = 0, k = 0;
	uint32_t i;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	for (i = q->all.head; i != NIL && n < max; i = q->pool[i].next)
		if (k++ >= first)
			out[n++] = q->pool[i].ev;
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

void event_queue_seal(struct event_queue *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->epoch++;
	pthread_mutex_unlock(&q->lock);
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
