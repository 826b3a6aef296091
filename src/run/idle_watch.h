/* SPDX-License-Identifier: MIT */
/* When the target did I/O during a job's idle phase, from its /proc/diskstats polled finely. */
#ifndef IOWATT_IDLE_WATCH_H
#define IOWATT_IDLE_WATCH_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diskstats.h"

/* How often the idle phase reads the target's counters: a 2 Hz meter's period holds 50
 * polls, so a busy stretch is placed to within this. */
#define IDLE_WATCH_POLL_NS 10000000ULL
/* Longer than any reading's reach back (run/session.h, session_idle_reach_ns). */
#define IDLE_WATCH_KEEP_NS 120000000000ULL

/* [t0_ns, t1_ns]: the device did I/O at some time in it (between two polls). */
struct idle_span {
	uint64_t t0_ns, t1_ns;
};

struct idle_watch {
	char path[PATH_MAX]; /* ROOT/proc/diskstats */
	char disk[64];	     /* "loop3", "sda"; "" = nothing to watch */
	struct diskstats last;
	uint64_t last_ns;
	int have_last;
	int failed;	     /* the device vanished from the file: watching stopped */
	struct idle_span *busy;
	size_t n, cap;
	uint64_t polls;
};

/* Watch `disk` ("" or NULL: nothing) in ROOT/proc/diskstats (root NULL: "/"). */
void idle_watch_init(struct idle_watch *w, const char *disk, const char *root);
/* A new idle phase: forget busy spans that ended IDLE_WATCH_KEEP_NS before now (the
 * ones since still reach its first readings), read the counters now. */
void idle_watch_reset(struct idle_watch *w, uint64_t now_ns);
/*
 * Read the counters at now_ns: any completed read, write, discard or flush, any time the
 * device counted as busy (io_ticks), or an I/O in flight at either poll makes the stretch
 * since the previous poll busy.
 */
void idle_watch_poll(struct idle_watch *w, uint64_t now_ns);
/* 1 when the target did I/O at any time in [t0_ns, t1_ns] as far as the polls tell. */
int idle_watch_busy(const struct idle_watch *w, uint64_t t0_ns, uint64_t t1_ns);
/* The watch is on (a disk, readable counters). */
int idle_watch_on(const struct idle_watch *w);
void idle_watch_free(struct idle_watch *w);

#endif
