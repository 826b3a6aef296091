/* SPDX-License-Identifier: MIT */
/* A job's activity over time: its I/Os and syncs in fixed time bins, for the meter's blind spots. */
#ifndef IOWATT_ACTIVITY_H
#define IOWATT_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

/* Bins start this fine: a 2 Hz meter's period holds 50 of them, a burst of a synced
 * record one or two. */
#define ACTIVITY_BIN_NS 10000000ULL
/* At most this many bins (256 KiB of floats): a longer job doubles its bin width (a
 * 10 ms bin lasts 11 minutes), so memory stays bounded whatever the job's length. */
#define ACTIVITY_MAX_BINS 65536u

/*
 * w[i] is the work done in [t0_ns + i bin_ns, t0_ns + (i + 1) bin_ns): each I/O and each
 * sync counts 1, spread evenly over the time from its submission to its completion.
 */
struct activity {
	uint64_t t0_ns, bin_ns;
	size_t n, cap;
	float *w;
	/* The bin the last operation ended in, [hot_lo_ns, hot_hi_ns) (empty: none): most
	 * I/Os start and end in it, and it saves them the divisions. */
	uint64_t hot_lo_ns, hot_hi_ns;
	size_t hot;
};

void activity_init(struct activity *a, uint64_t t0_ns);
/* One operation that ran from t0_ns to t1_ns (t1_ns >= t0_ns; earlier than the series'
 * start is clamped to it). */
void activity_add(struct activity *a, uint64_t t0_ns, uint64_t t1_ns);
/* Adds `from` (the same t0_ns) into `into`, at the wider of their bin widths. */
void activity_merge(struct activity *into, const struct activity *from);
/* The total work in the series (its operations). */
double activity_total(const struct activity *a);
void activity_free(struct activity *a);

#endif
