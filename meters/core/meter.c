/* SPDX-License-Identifier: MIT */
/* Meter core: one sampling thread per meter, a lock-free SPSC ring, gaps and reconnects. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/events.h"
#include "core/log.h"
#include "core/util.h"
#include "meters/meter.h"

#define MOD "meter"
#define RING_MASK (METER_RING_CAP - 1)
#define READ_BATCH 64
/* A driver read never blocks longer than this, so stop is seen within ~this. */
#define READ_TIMEOUT_MS 50
#define BACKOFF_MIN_NS (200 * NS_PER_MS)
#define BACKOFF_MAX_NS (5 * NS_PER_SEC)

enum gap_state { GAP_NONE, GAP_STALL, GAP_LINK };

struct meter_core {
	/* Ring: the sampling thread owns head, the main thread owns tail. */
	struct meter_sample *ring;
	_Atomic uint64_t head;
	_Atomic uint64_t tail;
	_Atomic uint64_t phase; /* (boundary time << 2) | phase */
	atomic_int stop;
	int wake_fd;
	pthread_t thread;
	int running;
	int is_open;
	int started;
	/* Sampling-thread state. */
	uint64_t last_t_ns;	  /* last delivered timestamp: output never goes back */
	uint64_t last_arrival_ns; /* last sample's arrival, for stall detection */
	uint64_t gap_since_ns;
	int gap;		  /* enum gap_state */
	int after_gap;
};

_Static_assert((METER_RING_CAP & (METER_RING_CAP - 1)) == 0, "ring size is a power of two");

static struct meter_core *core_get(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;

	if (c)
		return c;
	c = xcalloc(1, sizeof(*c));
	c->ring = xcalloc(METER_RING_CAP, sizeof(*c->ring));
	atomic_init(&c->head, 0);
	atomic_init(&c->tail, 0);
	atomic_init(&c->phase, 0);
	atomic_init(&c->stop, 0);
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	dev->core = c;
	return c;
}

/* Producer side; never blocks: a full ring drops the newest sample and counts it. */
static int ring_push(struct meter_dev *dev, struct meter_core *c, const struct meter_sample *s)
{
	uint64_t h = atomic_load_explicit(&c->head, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&c->tail, memory_order_acquire);

	if (h - t >= METER_RING_CAP) {
		METER_COUNT(dev->overruns);
		return 0;
	}
	c->ring[h & RING_MASK] = *s;
	atomic_store_explicit(&c->head, h + 1, memory_order_release);
	return 1;
}

unsigned meter_pop(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		   uint64_t before_ns)
{
	struct meter_core *c = dev->core;
	uint64_t h, t;
	unsigned n = 0;

	if (!c)
		return 0;
	h = atomic_load_explicit(&c->head, memory_order_acquire);
	t = atomic_load_explicit(&c->tail, memory_order_relaxed);
	while (n < max && t < h && c->ring[t & RING_MASK].t_ns < before_ns)
		out[n++] = c->ring[t++ & RING_MASK];
	atomic_store_explicit(&c->tail, t, memory_order_release);
	return n;
}

static void deliver(struct meter_dev *dev, struct meter_core *c, struct meter_sample *s,
		    uint64_t now)
{
	uint64_t arrival = now;

	if (!s->t_ns)
		s->t_ns = now;
	/* Lag estimates vary per reply; the energy integral needs ordered samples. */
	if (s->t_ns < c->last_t_ns)
		s->t_ns = c->last_t_ns;
	c->last_t_ns = s->t_ns;
	c->last_arrival_ns = arrival;
	if (dev->emulated)
		s->flags |= SAMPLE_EMULATED;
	if (c->gap == GAP_STALL)
		event_pushf(dev->events, EV_METER_RECONNECT, arrival, dev->spec,
			     "data resumed after %.1f s without a valid reading",
			     (double)(arrival - c->gap_since_ns) / 1e9);
	c->gap = GAP_NONE;
	if (c->after_gap) {
		s->flags |= SAMPLE_AFTER_GAP;
		c->after_gap = 0;
	}
	if (ring_push(dev, c, s))
		METER_COUNT(dev->samples);
}

static void check_stall(struct meter_dev *dev, struct meter_core *c, uint64_t now)
{
	if (!dev->period_ns || c->gap != GAP_NONE || now - c->last_arrival_ns <= 2 * dev->period_ns)
		return;
	c->gap = GAP_STALL;
	c->gap_since_ns = c->last_arrival_ns;
	c->after_gap = 1;
	METER_COUNT(dev->gaps);
	event_pushf(dev->events, EV_METER_GAP, c->last_arrival_ns, dev->spec,
		     "no valid reading for more than %.1f s (stall)",
		     (double)(2 * dev->period_ns) / 1e9);
	log_warn(MOD, "%s: no valid reading for %.1f s", dev->spec,
		 (double)(now - c->last_arrival_ns) / 1e9);
}

static void link_lost(struct meter_dev *dev, struct meter_core *c, int err, uint64_t now)
{
	log_warn(MOD, "%s: link lost (%s); reconnecting", dev->spec, strerror(-err));
	if (dev->drv->stop)
		dev->drv->stop(dev);
	if (dev->drv->close)
		dev->drv->close(dev);
	c->is_open = 0;
	c->started = 0;
	if (c->gap == GAP_NONE) {
		METER_COUNT(dev->gaps);
		c->gap_since_ns = c->last_arrival_ns;
	}
	c->gap = GAP_LINK;
	c->after_gap = 1;
	event_pushf(dev->events, EV_METER_GAP, now, dev->spec, "link lost: %s", strerror(-err));
}

/* Sleeps up to ns unless stop is asked for; returns 1 when stopping. */
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
	uint64_t now;
	int rc;

	if (wait_or_stop(c, *backoff_ns))
		return;
	dev->reconnecting = 1;
	rc = dev->drv->open(dev);
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
	c->last_arrival_ns = now;
	/* The back-off is reset by the first sample, not by open(): a link that opens and
	 * then fails at once must not reconnect five times a second for ever. */
	METER_COUNT(dev->reconnects);
	event_pushf(dev->events, EV_METER_RECONNECT, now, dev->spec, "reconnected after %.1f s",
		     (double)(now - c->gap_since_ns) / 1e9);
	log_info(MOD, "%s: reconnected", dev->spec);
}

/*
 * The sampling loop. No allocation and no locks here: the driver fills a stack
 * batch, each sample is stamped and copied into the ring. Disconnects and stalls
 * become events; the loop goes on until stop.
 */
static void *meter_thread(void *arg)
{
	struct meter_dev *dev = arg;
	struct meter_core *c = dev->core;
	struct meter_sample batch[READ_BATCH];
	uint64_t backoff_ns = BACKOFF_MIN_NS, now;
	int n, i;

	c->last_arrival_ns = now_ns();
	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		if (!c->is_open) {
			reconnect(dev, c, &backoff_ns);
			continue;
		}
		n = dev->drv->read(dev, batch, READ_BATCH, READ_TIMEOUT_MS);
		now = now_ns();
		if (n < 0) {
			link_lost(dev, c, n, now);
			continue;
		}
		for (i = 0; i < n; i++)
			deliver(dev, c, &batch[i], now);
		if (n)
			backoff_ns = BACKOFF_MIN_NS;
		else
			check_stall(dev, c, now);
	}
	return NULL;
}

int meter_open(struct meter_dev *dev)
{
	struct meter_core *c = core_get(dev);
	int rc;

	if (c->is_open)
		return 0;
	rc = dev->drv->open(dev);
	if (rc)
		return rc;
	c->is_open = 1;
	return 0;
}

int meter_thread_start(struct meter_dev *dev)
{
	struct meter_core *c = core_get(dev);
	uint64_t drain;
	int rc;

	if (!c->is_open) {
		log_err(MOD, "%s: start before open", dev->spec);
		return -EINVAL;
	}
	if (dev->drv->start && !c->started) {
		rc = dev->drv->start(dev);
		if (rc)
			return rc;
	}
	c->started = 1;
	atomic_store(&c->stop, 0);
	/* A wake left from an earlier stop would turn every back-off into a busy loop. */
	if (c->wake_fd >= 0 && read(c->wake_fd, &drain, sizeof(drain)) < 0 && errno != EAGAIN)
		log_debug(MOD, "%s: wake drain: %s", dev->spec, strerror(errno));
	rc = pthread_create(&c->thread, NULL, meter_thread, dev);
	if (rc) {
		log_err(MOD, "%s: cannot start the sampling thread: %s", dev->spec, strerror(rc));
		return -rc;
	}
	c->running = 1;
	return 0;
}

void meter_thread_stop(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;
	uint64_t one = 1;

	if (!c || !c->running)
		return;
	atomic_store(&c->stop, 1);
	if (c->wake_fd >= 0 && write(c->wake_fd, &one, sizeof(one)) < 0)
		log_debug(MOD, "%s: wake: %s", dev->spec, strerror(errno));
	pthread_join(c->thread, NULL);
	c->running = 0;
	if (c->is_open && c->started && dev->drv->stop)
		dev->drv->stop(dev);
	c->started = 0;
}

void meter_set_phase(struct meter_dev *dev, int phase, uint64_t t_ns)
{
	/* One word, so a reader never pairs a phase with another boundary's time. */
	atomic_store_explicit(&core_get(dev)->phase, t_ns << 2 | ((uint64_t)phase & 3),
			      memory_order_release);
}

int meter_stopping(const struct meter_dev *dev)
{
	struct meter_core *c = dev->core;

	return c ? atomic_load_explicit(&c->stop, memory_order_relaxed) : 0;
}

int meter_get_phase(const struct meter_dev *dev, uint64_t *since_ns)
{
	struct meter_core *c = dev->core;
	uint64_t v = c ? atomic_load_explicit(&c->phase, memory_order_acquire) : 0;

	if (since_ns)
		*since_ns = v >> 2;
	return (int)(v & 3);
}

void meter_close(struct meter_dev *dev)
{
	struct meter_core *c = dev->core;

	if (!c)
		return;
	meter_thread_stop(dev);
	if (c->is_open && dev->drv->close)
		dev->drv->close(dev);
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	free(c->ring);
	free(c);
	dev->core = NULL;
}
