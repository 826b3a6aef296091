/* SPDX-License-Identifier: MIT */
/* Meter core state shared by its lifecycle (meter.c) and delivery (meter_deliver.c) halves. */
#ifndef IOWATT_METER_CORE_H
#define IOWATT_METER_CORE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "meters/meter-internal.h"

enum gap_state { GAP_NONE, GAP_STALL, GAP_LINK };

/* A published description; kept until the device is freed, since readers hold pointers. */
struct info_node {
	struct meter_info info;
	struct info_node *next;
};

struct meter_core {
	/* Ring: one producer (the sampling thread, or a push driver's thread), the main
	 * thread consumes. The producer owns head, the consumer tail. */
	struct meter_sample *ring;
	unsigned cap; /* a power of two; 0 until the first start */
	_Atomic uint64_t head;
	_Atomic uint64_t tail;

	_Atomic(const struct meter_info *) info;
	struct info_node *infos; /* every published one, newest first */

	_Atomic uint64_t phase; /* (boundary time << 2) | phase */
	atomic_int stop;
	atomic_int push_err; /* a push driver's lost link, for the supervisor */
	int wake_fd;
	pthread_t thread;
	int running;
	int is_open;
	int started;
	uint64_t opened_ns; /* last successful (re)open, for the back-off */

	uint64_t last_t_ns; /* producer only: last delivered timestamp, output never goes back */
	uint64_t lost;	    /* producer only: samples lost since the last stored one */
	uint64_t dropped;   /* producer only: impossible readings since the last stored one */
	uint64_t grid_skip; /* producer only: periods the sample clock skips (device losses) */
	/* Gap state: the producer and the stall check may run on different threads. */
	pthread_mutex_t gap_lock;
	uint64_t last_arrival_ns;
	uint64_t gap_since_ns;
	int gap; /* enum gap_state */
	int after_gap;
	/* The driver's extra channels as text: set on the producer side, read anywhere. */
	pthread_mutex_t extras_lock;
	char extras[METER_EXTRAS_LEN];
};

void meter_core_init(struct meter_dev *dev);
void meter_core_free(struct meter_dev *dev);

/* Both halves' entry points into each other. */
unsigned core_deliver(struct meter_dev *dev, struct meter_core *c, struct meter_sample *s,
		      unsigned n, uint64_t arrival_ns);
/* A stall: no arrival for longer than max(2 periods, min_ns). */
void core_check_stall(struct meter_dev *dev, struct meter_core *c, uint64_t now, uint64_t min_ns);
/* The link went down at now (the producer is already stopped). */
void core_gap_link(struct meter_dev *dev, struct meter_core *c, int err, uint64_t now);
/* After a reconnect at now: stall detection counts from here; returns when the gap began. */
uint64_t core_gap_reopened(struct meter_core *c, uint64_t now);
uint64_t core_last_arrival(struct meter_core *c);
int core_ring_alloc(struct meter_dev *dev, struct meter_core *c);
void core_ring_free(struct meter_core *c);

#endif
