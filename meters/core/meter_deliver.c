/* SPDX-License-Identifier: MIT */
/* Meter core delivery: the SPSC ring, timestamps, gap and stall state, the push entry point. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/core/meter_core.h"

#define MOD "meter"
/* The ring holds at least this much of a meter's output, so a main thread that drains a
 * few times a second never loses samples; and never less than RING_MIN_CAP samples. */
#define RING_SPAN_NS (500 * NS_PER_MS)
#define RING_MIN_CAP 16384u
#define RING_MAX_CAP (1u << 18)

_Static_assert((RING_MIN_CAP & (RING_MIN_CAP - 1)) == 0, "ring size is a power of two");

/* The published description, as meter_info() gives it to the layers above: read here
 * rather than through meter.c, which calls this half. */
static const struct meter_info *info_now(const struct meter_core *c)
{
	return atomic_load_explicit(&c->info, memory_order_acquire);
}

int core_ring_alloc(struct meter_dev *dev, struct meter_core *c)
{
	const struct meter_info *in = info_now(dev->core);
	uint64_t want = in->period_ns ? RING_SPAN_NS / in->period_ns : 0;
	unsigned cap = RING_MIN_CAP;

	if (c->ring)
		return 0;
	while (cap < want && cap < RING_MAX_CAP)
		cap <<= 1;
	c->ring = xcalloc(cap, sizeof(*c->ring));
	c->cap = cap;
	return 0;
}

void core_ring_free(struct meter_core *c)
{
	free(c->ring);
	c->ring = NULL;
	c->cap = 0;
}

unsigned meter_ring_capacity(const struct meter_dev *dev)
{
	return dev->core ? dev->core->cap : 0;
}

unsigned meter_pop(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		   uint64_t before_ns)
{
	struct meter_core *c = dev->core;
	uint64_t h, t, mask;
	unsigned n = 0;

	if (!c || !c->ring)
		return 0;
	mask = c->cap - 1;
	h = atomic_load_explicit(&c->head, memory_order_acquire);
	t = atomic_load_explicit(&c->tail, memory_order_relaxed);
	while (n < max && t < h && c->ring[t & mask].t_ns < before_ns)
		out[n++] = c->ring[t++ & mask];
	atomic_store_explicit(&c->tail, t, memory_order_release);
	return n;
}

/* Entering a batch: close a stall with its event, take the after-gap mark. */
static int gap_enter_batch(struct meter_dev *dev, struct meter_core *c, uint64_t arrival)
{
	int flag;

	pthread_mutex_lock(&c->gap_lock);
	if (c->gap == GAP_STALL)
		event_pushf(dev->events, EV_METER_RECONNECT, arrival, dev->spec,
			    "data resumed after %.1f s without a valid reading",
			    (double)(arrival - c->gap_since_ns) / 1e9);
	c->gap = GAP_NONE;
	flag = c->after_gap;
	c->after_gap = 0;
	c->last_arrival_ns = arrival;
	pthread_mutex_unlock(&c->gap_lock);
	return flag;
}

/*
 * The newest part of a batch did not fit. The hole keeps its length on the sample clock
 * (the next batch continues after the dropped samples' times), the next stored sample is
 * marked, and the first loss of an episode is an event the run's record keeps.
 */
static void ring_overrun(struct meter_dev *dev, struct meter_core *c,
			 const struct meter_sample *dropped, unsigned n)
{
	uint64_t t_last = dropped[n - 1].t_ns;

	if (t_last > c->last_t_ns)
		c->last_t_ns = t_last;
	if (!c->lost)
		event_pushf(dev->events, EV_METER_GAP, dropped[0].t_ns, dev->spec,
			    "samples lost: the meter ring (%u samples) was full", c->cap);
	c->lost += n;
	atomic_fetch_add_explicit(&dev->overruns, n, memory_order_relaxed);
}

/*
 * Readings that cannot be true leave the batch here, counted; the next stored sample
 * carries their number. The first of an episode is an event with the reason.
 */
static unsigned drop_impossible(struct meter_dev *dev, struct meter_core *c,
				const struct meter_info *in, struct meter_sample *s, unsigned n,
				uint64_t arrival_ns)
{
	unsigned i, k = 0;
	char why[160];

	for (i = 0; i < n; i++) {
		if (!meter_sample_check(in, &s[i], why, sizeof(why))) {
			if (c->dropped) {
				s[i].dropped_before =
				    c->dropped > UINT32_MAX ? UINT32_MAX : (uint32_t)c->dropped;
				s[i].flags |= SAMPLE_AFTER_DROP;
				c->dropped = 0;
			}
			s[k++] = s[i];
			continue;
		}
		if (!c->dropped)
			event_pushf(dev->events, EV_INFO, s[i].t_ns ? s[i].t_ns : arrival_ns,
				    dev->spec, "reading dropped as impossible: %s", why);
		c->dropped++;
		atomic_fetch_add_explicit(&dev->out_of_range, 1, memory_order_relaxed);
	}
	return k;
}

/*
 * Stamp and store a batch. Never blocks: what does not fit is the newest part of the
 * batch, dropped and counted as overruns.
 */
unsigned core_deliver(struct meter_dev *dev, struct meter_core *c, struct meter_sample *s,
		      unsigned n, uint64_t arrival_ns)
{
	const struct meter_info *in = info_now(dev->core);
	uint64_t h, t, mask = c->cap - 1;
	unsigned i, room, k;
	uint32_t extra = in->emulated ? SAMPLE_EMULATED : 0;

	/* A batch of impossible readings is no data: a stall goes on (and says so). */
	n = n ? drop_impossible(dev, c, in, s, n, arrival_ns) : 0;
	if (!n)
		return 0;
	if (gap_enter_batch(dev, c, arrival_ns))
		s[0].flags |= SAMPLE_AFTER_GAP;
	h = atomic_load_explicit(&c->head, memory_order_relaxed);
	t = atomic_load_explicit(&c->tail, memory_order_acquire);
	room = c->cap - (unsigned)(h - t);
	k = n < room ? n : room;
	if (k && c->lost) {
		s[0].flags |= SAMPLE_AFTER_LOSS;
		c->lost = 0;
	}
	for (i = 0; i < k; i++) {
		if (!s[i].t_ns)
			s[i].t_ns = arrival_ns;
		/* Lag estimates vary per reply; the energy integral needs ordered samples. */
		if (s[i].t_ns < c->last_t_ns)
			s[i].t_ns = c->last_t_ns;
		c->last_t_ns = s[i].t_ns;
		s[i].flags |= extra;
		c->ring[(h + i) & mask] = s[i];
	}
	atomic_store_explicit(&c->head, h + k, memory_order_release);
	atomic_fetch_add_explicit(&dev->samples, k, memory_order_relaxed);
	if (k < n)
		ring_overrun(dev, c, s + k, n - k);
	return k;
}

/*
 * The sample clock for pushed batches without timestamps. Devices that stream keep their
 * own steady rate while their batches arrive in bursts (USB transfers, HID reports), so
 * a batch continues the last one at the nominal period. It cannot have been taken after
 * it arrived (minus the transport lag): a grid running ahead is pulled back, squeezed if
 * it would overlap the last batch; one that fell behind by more than the slack (samples
 * lost, or a slow device clock) starts again from the arrival.
 */
static void stamp_grid(struct meter_core *c, struct meter_sample *s, unsigned n,
		       uint64_t arrival_ns, const struct meter_info *in)
{
	uint64_t p = in->period_ns, span = (uint64_t)(n - 1) * p, last = c->last_t_ns;
	uint64_t end = arrival_ns > in->lag_ns ? arrival_ns - in->lag_ns : arrival_ns;
	uint64_t start, step = p;
	unsigned i;

	if (!last || !p) {
		start = end > span ? end - span : end;
		if (start == end)
			step = 0;
	} else {
		start = last + p * (1 + c->grid_skip);
		if (start + span > end || end - (start + span) > METER_GRID_SLACK_NS)
			start = end > span ? end - span : 0;
		if (start <= last) {
			step = end > last ? (end - last) / n : 0;
			start = last + step;
		}
	}
	for (i = 0; i < n; i++)
		if (!s[i].t_ns)
			s[i].t_ns = start + (uint64_t)i * step;
	c->grid_skip = 0;
}

void meter_deliver_lost(struct meter_dev *dev, uint64_t n)
{
	struct meter_core *c = dev->core;

	if (!c || !n)
		return;
	if (!c->lost)
		event_pushf(dev->events, EV_METER_GAP, c->last_t_ns, dev->spec,
			    "samples lost: the device dropped %" PRIu64, n);
	c->lost += n;
	c->grid_skip += n;
	atomic_fetch_add_explicit(&dev->overruns, n, memory_order_relaxed);
}

unsigned meter_deliver(struct meter_dev *dev, struct meter_sample *s, unsigned n)
{
	struct meter_core *c = dev->core;
	uint64_t now;

	if (!c || !c->ring || !n)
		return 0;
	now = now_ns();
	stamp_grid(c, s, n, now, info_now(dev->core));
	return core_deliver(dev, c, s, n, now);
}

void core_check_stall(struct meter_dev *dev, struct meter_core *c, uint64_t now, uint64_t min_ns)
{
	uint64_t limit = 2 * info_now(dev->core)->period_ns, since;

	if (!limit)
		return;
	if (limit < min_ns)
		limit = min_ns;
	pthread_mutex_lock(&c->gap_lock);
	/* A push driver's batch may have arrived after the caller read its clock. */
	if (c->gap != GAP_NONE || now <= c->last_arrival_ns || now - c->last_arrival_ns <= limit) {
		pthread_mutex_unlock(&c->gap_lock);
		return;
	}
	c->gap = GAP_STALL;
	since = c->gap_since_ns = c->last_arrival_ns;
	c->after_gap = 1;
	METER_COUNT(dev->gaps);
	event_pushf(dev->events, EV_METER_GAP, since, dev->spec,
		    "no valid reading for more than %.1f s (stall)", (double)limit / 1e9);
	pthread_mutex_unlock(&c->gap_lock);
	log_warn(MOD, "%s: no valid reading for %.1f s", dev->spec, (double)(now - since) / 1e9);
}

void core_gap_link(struct meter_dev *dev, struct meter_core *c, int err, uint64_t now)
{
	pthread_mutex_lock(&c->gap_lock);
	if (c->gap == GAP_NONE) {
		METER_COUNT(dev->gaps);
		c->gap_since_ns = c->last_arrival_ns;
	}
	c->gap = GAP_LINK;
	c->after_gap = 1;
	event_pushf(dev->events, EV_METER_GAP, now, dev->spec, "link lost: %s", strerror(-err));
	pthread_mutex_unlock(&c->gap_lock);
}

uint64_t core_gap_reopened(struct meter_core *c, uint64_t now)
{
	uint64_t since;

	pthread_mutex_lock(&c->gap_lock);
	c->last_arrival_ns = now;
	since = c->gap_since_ns;
	pthread_mutex_unlock(&c->gap_lock);
	return since;
}

uint64_t core_last_arrival(struct meter_core *c)
{
	uint64_t t;

	pthread_mutex_lock(&c->gap_lock);
	t = c->last_arrival_ns;
	pthread_mutex_unlock(&c->gap_lock);
	return t;
}
