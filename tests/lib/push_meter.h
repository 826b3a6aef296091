/* SPDX-License-Identifier: MIT */
/* A fake push meter for tests and bench/meter-push.sh: samples at a rate from its own thread. */
#ifndef IOWATT_TEST_PUSH_METER_H
#define IOWATT_TEST_PUSH_METER_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "events_util.h"
#include "meters/meter-internal.h"

/*
 * A push driver: its own thread makes samples at `rate` per second, stamped by nobody
 * (t_ns 0) and numbered in a, handed to meter_deliver() every PUSH_TICK_NS as a real
 * HID or USB stream would. It can lose its link after a count, or fall silent. As a
 * flood (bad_every, flap_every) it makes what libsigrok's demo signal makes: a reading
 * that cannot be true every few samples, and a voltage that crosses a 5 V line's
 * undervoltage threshold every few of the others; it counts both exactly.
 */
#define PUSH_RATE 100000u
#define PUSH_PERIOD_NS (NS_PER_SEC / push_rate)
static unsigned push_rate = PUSH_RATE;
#define PUSH_TICK_NS (2 * NS_PER_MS)
#define PUSH_BATCH 512
#define PUSH_V_HIGH 5.1 /* a healthy 5 V line */
#define PUSH_V_LOW 4.5	/* below iowatt's 4.75 V undervoltage threshold */
/* Under the core's 200 ms floor for a push meter's stall: a longer span without a handover
 * lets the core rightly call a stall that the test did not make (a starved thread). */
#define PUSH_SILENCE_NS (150 * NS_PER_MS)

static struct push {
	pthread_t th;
	atomic_int run, paused, starts, stops, opens;
	atomic_ullong generated; /* samples handed to meter_deliver() */
	uint64_t fail_at;	 /* meter_deliver_error() when generated reaches it; 0: never */
	unsigned bad_every;	 /* every Nth sample a negative current; 0: none */
	unsigned flap_every;	 /* the good samples' voltage toggles every N of them; 0: 3.3 V */
	atomic_ullong bad;	 /* impossible samples handed over */
	atomic_ullong drops;	 /* high -> low crossings among the good samples handed over */
	atomic_ullong late_ns;	 /* the longest this thread woke after its tick (starved) */
	atomic_ullong silences;	 /* spans over PUSH_SILENCE_NS between handovers, not paused */
	atomic_ullong handed_ns; /* before the last handover; 0 while paused */
	struct meter_dev *dev;
} pk;

/* Sample k; the flood's counts follow what is handed over. */
static void push_make(struct meter_sample *s, uint64_t k, uint64_t *good)
{
	int low;

	*s = (struct meter_sample){ .v = 3.3, .a = (double)k, .w = 3.3 };
	if (pk.bad_every && k % pk.bad_every == pk.bad_every - 1) {
		s->a = -1.0;
		atomic_fetch_add(&pk.bad, 1);
		return;
	}
	if (!pk.flap_every)
		return;
	low = (*good / pk.flap_every) % 2;
	if (low && *good % pk.flap_every == 0)
		atomic_fetch_add(&pk.drops, 1);
	s->v = low ? PUSH_V_LOW : PUSH_V_HIGH;
	s->a = 0.1;
	s->w = s->v * s->a;
	(*good)++;
}

/* After a handover that began at `before`: count the span since the one before it. */
static void push_silence(uint64_t before)
{
	uint64_t last = atomic_load(&pk.handed_ns);

	if (last && now_ns() - last > PUSH_SILENCE_NS)
		atomic_fetch_add(&pk.silences, 1);
	atomic_store(&pk.handed_ns, before);
}

/* Whether the thread has been silent past PUSH_SILENCE_NS now, not paused. */
static inline int push_silent_now(void)
{
	uint64_t last = atomic_load(&pk.handed_ns);

	return last && now_ns() - last > PUSH_SILENCE_NS;
}

static void *push_thread(void *arg)
{
	struct meter_sample buf[PUSH_BATCH];
	uint64_t t0 = now_ns(), next = t0, k0 = atomic_load(&pk.generated), k = k0, due, good = 0;
	uint64_t before;
	unsigned n, i;

	(void)arg;
	/* The span is measured from before one handover to after the next: never shorter
	 * than the core's between the two arrivals. */
	atomic_store(&pk.handed_ns, t0);
	while (atomic_load(&pk.run)) {
		next += PUSH_TICK_NS;
		sleep_until_ns(next);
		due = now_ns();
		if (due > next && due - next > atomic_load(&pk.late_ns))
			atomic_store(&pk.late_ns, due - next);
		if (atomic_load(&pk.paused)) {
			t0 += PUSH_TICK_NS; /* a silent device makes no samples */
			atomic_store(&pk.handed_ns, 0);
			continue;
		}
		due = k0 + (now_ns() - t0) / PUSH_PERIOD_NS;
		while (k < due) {
			n = due - k < PUSH_BATCH ? (unsigned)(due - k) : PUSH_BATCH;
			for (i = 0; i < n; i++)
				push_make(&buf[i], k + i, &good);
			before = now_ns();
			meter_deliver(pk.dev, buf, n);
			push_silence(before);
			k += n;
			atomic_store(&pk.generated, k);
			if (pk.fail_at && k >= pk.fail_at) {
				pk.fail_at = 0;
				atomic_store(&pk.handed_ns, 0); /* its silence is the link's */
				meter_deliver_error(pk.dev, -EIO);
				return NULL; /* a lost device delivers nothing more */
			}
		}
	}
	return NULL;
}

static int push_open(struct meter_dev *dev, struct meter_info *info)
{
	(void)dev;
	atomic_fetch_add(&pk.opens, 1);
	snprintf(info->model, sizeof(info->model), "push test");
	info->period_ns = PUSH_PERIOD_NS;
	return 0;
}

static int push_start(struct meter_dev *dev)
{
	pk.dev = dev;
	atomic_store(&pk.run, 1);
	atomic_fetch_add(&pk.starts, 1);
	return -pthread_create(&pk.th, NULL, push_thread, NULL);
}

static void push_stop(struct meter_dev *dev)
{
	(void)dev;
	atomic_store(&pk.run, 0);
	pthread_join(pk.th, NULL);
	atomic_fetch_add(&pk.stops, 1);
}

static void push_close(struct meter_dev *dev)
{
	(void)dev;
}

static const struct meter_driver push_drv = {
	.name = "push", .desc = "test driver", .conn_rule = METER_CONN_REQUIRED,
	.flags = METER_DRV_PUSH, .open = push_open, .start = push_start, .stop = push_stop,
	.close = push_close,
};

/* A new push meter whose events go to the test queue (drained). */
static struct meter_dev *push_dev(void)
{
	struct meter_dev *dev = meter_dev_new(&push_drv, "p", "");

	memset(&pk, 0, sizeof(pk));
	meter_set_events(dev, test_queue());
	test_events_drain();
	return dev;
}

#endif
