/* SPDX-License-Identifier: MIT */
/* Meter core lifecycle: open and publish, the sampling or supervising thread, reconnects, stop. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/core/meter_core.h"

#define MOD "meter"
#define READ_BATCH 64
/* A driver read never blocks longer than this, so stop is seen within ~this; a push
 * driver's supervisor looks at its link and its silence as often. */
#define READ_TIMEOUT_MS 50
#define BACKOFF_MIN_NS (200 * NS_PER_MS)
#define BACKOFF_MAX_NS (5 * NS_PER_SEC)
/* Pushed batches arrive in bursts (a HID report every 40 ms, USB transfers): silence
 * shorter than this is not a stall even at 100 kS/s, where two periods are 20 us. */
#define PUSH_STALL_MIN_NS (200 * NS_PER_MS)
/* The phase word: the boundary's time above the phase's two bits. */
#define PHASE_BITS 2
#define PHASE_MASK ((1u << PHASE_BITS) - 1)

static void info_stage(const struct meter_dev *dev, struct meter_info *in)
{
	memset(in, 0, sizeof(*in));
	in->spec = dev->spec;
	in->driver = dev->drv ? dev->drv->name : "?";
	in->range.v_min = in->range.v_max = NAN;
	in->range.a_min = in->range.a_max = in->range.w_max = NAN;
	in->link_rtt_ms = NAN;
}

static int info_same(const struct meter_info *a, const struct meter_info *b)
{
	return !strcmp(a->model, b->model) && a->emulated == b->emulated &&
	       a->manual == b->manual && a->period_ns == b->period_ns && a->lag_ns == b->lag_ns &&
	       !memcmp(&a->range, &b->range, sizeof(a->range)) && a->signed_q == b->signed_q &&
	       !strcmp(a->processing, b->processing);
}

/*
 * Readers hold pointers to what they were given, so a changed description is a new
 * node; an unchanged one (the usual reconnect) costs nothing. Only the thread that
 * runs open() publishes: the main thread before start, the sampling thread after.
 */
static void info_publish(struct meter_core *c, const struct meter_info *in)
{
	const struct meter_info *cur = atomic_load_explicit(&c->info, memory_order_relaxed);
	struct info_node *node;

	if (cur && info_same(cur, in))
		return;
	node = xcalloc(1, sizeof(*node));
	node->info = *in;
	node->next = c->infos;
	c->infos = node;
	atomic_store_explicit(&c->info, &node->info, memory_order_release);
}

void meter_core_init(struct meter_dev *dev)
{
	struct meter_core *c = xcalloc(1, sizeof(*c));
	struct meter_info in;

	atomic_init(&c->head, 0);
	atomic_init(&c->tail, 0);
	atomic_init(&c->phase, 0);
	atomic_init(&c->stop, 0);
	atomic_init(&c->push_err, 0);
	atomic_init(&c->info, NULL);
	pthread_mutex_init(&c->gap_lock, NULL);
	pthread_mutex_init(&c->extras_lock, NULL);
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	dev->core = c;
	info_stage(dev, &in);
	info_publish(c, &in);
}

void meter_core_free(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;
	struct info_node *n, *next;

	if (!c)
		return;
	meter_close(dev);
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	for (n = c->infos; n; n = next) {
		next = n->next;
		free(n);
	}
	core_ring_free(c);
	pthread_mutex_destroy(&c->gap_lock);
	pthread_mutex_destroy(&c->extras_lock);
	free(c);
	dev->core = NULL;
}

const struct meter_info *meter_info(const struct meter_dev *dev)
{
	return atomic_load_explicit(&dev->core->info, memory_order_acquire);
}

void meter_counters(const struct meter_dev *dev, struct meter_counters *out)
{
	out->samples = METER_LOAD(dev->samples);
	out->frames_bad = METER_LOAD(dev->frames_bad);
	out->gaps = METER_LOAD(dev->gaps);
	out->reconnects = METER_LOAD(dev->reconnects);
	out->overruns = METER_LOAD(dev->overruns);
	out->out_of_range = METER_LOAD(dev->out_of_range);
	out->counter_jumps = METER_LOAD(dev->counter_jumps);
	out->counter_lost = METER_LOAD(dev->counter_lost);
}

void meter_set_extras(struct meter_dev *dev, const char *fmt, ...)
{
	struct meter_core *c = dev->core;
	va_list ap;

	if (!c)
		return;
	pthread_mutex_lock(&c->extras_lock);
	va_start(ap, fmt);
	vsnprintf(c->extras, sizeof(c->extras), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&c->extras_lock);
}

size_t meter_extras(const struct meter_dev *dev, char *buf, size_t len)
{
	struct meter_core *c = dev->core;
	size_t n;

	if (!c || !len)
		return 0;
	pthread_mutex_lock(&c->extras_lock);
	n = strlen(c->extras);
	snprintf(buf, len, "%s", c->extras);
	pthread_mutex_unlock(&c->extras_lock);
	return n;
}

void meter_set_events(struct meter_dev *dev, struct event_queue *q)
{
	dev->events = q;
}

/* open() with a staged description that is published only if it succeeds. */
static int open_and_publish(struct meter_dev *dev, struct meter_core *c)
{
	struct meter_info in;
	int rc;

	info_stage(dev, &in);
	rc = dev->drv->open(dev, &in);
	if (!rc)
		info_publish(c, &in);
	return rc;
}

static void drv_stop_close(struct meter_dev *dev, struct meter_core *c)
{
	if (c->started && dev->drv->stop)
		dev->drv->stop(dev);
	c->started = 0;
	if (c->is_open && dev->drv->close)
		dev->drv->close(dev);
	c->is_open = 0;
}

static void link_lost(struct meter_dev *dev, struct meter_core *c, int err, uint64_t now)
{
	log_warn(MOD, "%s: link lost (%s); reconnecting", dev->spec, strerror(-err));
	drv_stop_close(dev, c);
	core_gap_link(dev, c, err, now);
}

static void wake_drain(struct meter_dev *dev, struct meter_core *c)
{
	uint64_t drain;

	if (c->wake_fd >= 0 && read(c->wake_fd, &drain, sizeof(drain)) < 0 && errno != EAGAIN)
		log_debug(MOD, "%s: wake drain: %s", dev->spec, strerror(errno));
}

static void wake(struct meter_dev *dev, struct meter_core *c)
{
	uint64_t one = 1;

	if (c->wake_fd >= 0 && write(c->wake_fd, &one, sizeof(one)) < 0)
		log_debug(MOD, "%s: wake: %s", dev->spec, strerror(errno));
}

/* Sleeps up to ns unless woken (stop, a push driver's error); returns 1 when stopping. */
static int wait_or_stop(struct meter_core *c, uint64_t ns)
{
	struct pollfd pfd = { .fd = c->wake_fd, .events = POLLIN };

	if (atomic_load(&c->stop))
		return 1;
	if (c->wake_fd >= 0)
		poll(&pfd, 1, (int)(ns / NS_PER_MS));
	else
		sleep_ns(ns);
	return atomic_load(&c->stop);
}

static void reconnect(struct meter_dev *dev, struct meter_core *c, uint64_t *backoff_ns)
{
	uint64_t now, since;
	int rc;

	if (wait_or_stop(c, *backoff_ns))
		return;
	dev->reconnecting = 1;
	rc = open_and_publish(dev, c);
	dev->reconnecting = 0;
	if (!rc && dev->drv->start) {
		rc = dev->drv->start(dev);
		if (rc && dev->drv->close)
			dev->drv->close(dev);
	}
	if (rc) {
		*backoff_ns = *backoff_ns * 2 > BACKOFF_MAX_NS ? BACKOFF_MAX_NS : *backoff_ns * 2;
		return;
	}
	now = now_ns();
	c->is_open = 1;
	c->started = 1;
	c->opened_ns = now;
	since = core_gap_reopened(c, now);
	/* The back-off is reset by the first sample, not by open(): a link that opens and
	 * then fails at once must not reconnect five times a second for ever. */
	METER_COUNT(dev->reconnects);
	event_pushf(dev->events, EV_METER_RECONNECT, now, dev->spec, "reconnected after %.1f s",
		    (double)(now - since) / 1e9);
	log_info(MOD, "%s: reconnected", dev->spec);
}

/* One round of a polled driver: read a batch, deliver it, or notice silence or loss. */
static void poll_once(struct meter_dev *dev, struct meter_core *c, uint64_t *backoff_ns)
{
	struct meter_sample batch[READ_BATCH];
	uint64_t now;
	int n;

	n = dev->drv->read(dev, batch, READ_BATCH, READ_TIMEOUT_MS);
	now = now_ns();
	if (n < 0) {
		link_lost(dev, c, n, now);
		return;
	}
	if (n) {
		core_deliver(dev, c, batch, (unsigned)n, now);
		*backoff_ns = BACKOFF_MIN_NS;
	} else {
		core_check_stall(dev, c, now, 0);
	}
}

/* One round of a push driver's supervisor: its samples arrive on its own thread. */
static void supervise_once(struct meter_dev *dev, struct meter_core *c, uint64_t *backoff_ns)
{
	uint64_t now;
	int err;

	if (wait_or_stop(c, READ_TIMEOUT_MS * NS_PER_MS))
		return;
	now = now_ns();
	err = atomic_exchange(&c->push_err, 0);
	if (err) {
		wake_drain(dev, c);
		link_lost(dev, c, err, now);
		return;
	}
	if (core_last_arrival(c) > c->opened_ns)
		*backoff_ns = BACKOFF_MIN_NS;
	core_check_stall(dev, c, now, PUSH_STALL_MIN_NS);
}

/*
 * The sampling thread: reads a polled driver, or supervises a push driver (its link and
 * its silence). No allocation and no locks on the read path but the gap lock once per
 * batch. Disconnects and stalls become events; the loop goes on until stop.
 */
static void *meter_thread(void *arg)
{
	struct meter_dev *dev = arg;
	struct meter_core *c = dev->core;
	uint64_t backoff_ns = BACKOFF_MIN_NS;

	/* Named, so its CPU time can be told apart (bench/meter-highrate.sh, top -H). */
	pthread_setname_np(pthread_self(), "iowatt-meter");
	core_gap_reopened(c, now_ns());
	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		if (!c->is_open)
			reconnect(dev, c, &backoff_ns);
		else if (dev->drv->flags & METER_DRV_PUSH)
			supervise_once(dev, c, &backoff_ns);
		else
			poll_once(dev, c, &backoff_ns);
	}
	return NULL;
}

int meter_open(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;
	int rc;

	if (c->is_open)
		return 0;
	rc = open_and_publish(dev, c);
	if (rc)
		return rc;
	c->is_open = 1;
	c->opened_ns = now_ns();
	return 0;
}

int meter_thread_start(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;
	int rc;

	if (!c->is_open) {
		log_err(MOD, "%s: start before open", dev->spec);
		return -EINVAL;
	}
	core_ring_alloc(dev, c);
	atomic_store(&c->stop, 0);
	atomic_store(&c->push_err, 0);
	/* A wake left from an earlier stop would turn every back-off into a busy loop. Done
	 * before start(): a push driver may report a lost link from inside it. */
	wake_drain(dev, c);
	if (dev->drv->start && !c->started) {
		rc = dev->drv->start(dev);
		if (rc)
			return rc;
	}
	c->started = 1;
	rc = pthread_create(&c->thread, NULL, meter_thread, dev);
	if (rc) {
		log_err(MOD, "%s: cannot start the sampling thread: %s", dev->spec, strerror(rc));
		if (dev->drv->stop)
			dev->drv->stop(dev);
		c->started = 0;
		return -rc;
	}
	c->running = 1;
	return 0;
}

void meter_deliver_error(struct meter_dev *dev, int err)
{
	struct meter_core *c = dev->core;
	int none = 0;

	if (err >= 0)
		err = -EIO;
	if (atomic_compare_exchange_strong(&c->push_err, &none, err))
		wake(dev, c);
}

void meter_thread_stop(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;

	if (!c || !c->running)
		return;
	atomic_store(&c->stop, 1);
	wake(dev, c);
	pthread_join(c->thread, NULL);
	c->running = 0;
	if (c->is_open && c->started && dev->drv->stop)
		dev->drv->stop(dev);
	c->started = 0;
}

void meter_set_phase(struct meter_dev *dev, int phase, uint64_t t_ns)
{
	/* One word, so a reader never pairs a phase with another boundary's time. */
	atomic_store_explicit(&dev->core->phase, t_ns << PHASE_BITS | ((uint64_t)phase & PHASE_MASK),
			      memory_order_release);
}

int meter_stopping(const struct meter_dev *dev)
{
	struct meter_core *c = dev->core;

	if (dev->cancel && atomic_load_explicit(dev->cancel, memory_order_relaxed))
		return 1;
	return c ? atomic_load_explicit(&c->stop, memory_order_relaxed) : 0;
}

void meter_set_cancel(struct meter_dev *dev, const atomic_int *flag)
{
	dev->cancel = flag;
}

int meter_get_phase(const struct meter_dev *dev, uint64_t *since_ns)
{
	struct meter_core *c = dev->core;
	uint64_t v = c ? atomic_load_explicit(&c->phase, memory_order_acquire) : 0;

	if (since_ns)
		*since_ns = v >> PHASE_BITS;
	return (int)(v & PHASE_MASK);
}

void meter_close(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;

	if (!c)
		return;
	meter_thread_stop(dev);
	drv_stop_close(dev, c);
}
