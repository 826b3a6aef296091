/* SPDX-License-Identifier: MIT */
/* The sampling term: the energy of a job's activity that a meter of its period can miss. */
#ifndef IOWATT_SAMPLING_H
#define IOWATT_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "core/activity.h"

/* How long one reading is taken to average the power over, before its timestamp, when
 * the meter does not say (docs/energy.md: an assumption; iowatt's emulator holds each
 * value for its 100 ms update). Capped at the meter's period. */
#define SAMPLING_WINDOW_NS 100000000ULL
/* A meter this fast resolves the activity series itself: no term. */
#define SAMPLING_MIN_PERIOD_NS (2 * ACTIVITY_BIN_NS)
/* Below this share of its fair share seen at some phase, the activity's energy cannot be
 * known from the readings: the job is not valid. */
#define SAMPLING_UNSEEN 0.1
/* Phase resolution of the estimate. */
#define SAMPLING_PHASES 256
#define SAMPLING_WHY_LEN 160

struct sampling_in {
	const uint64_t *t_ns;	  /* the meter's sample times, ascending */
	size_t n;
	uint64_t period_ns;	  /* its nominal period */
	uint64_t window_ns;	  /* how long a reading averages (SAMPLING_WINDOW_NS) */
	uint64_t active_ns, end_ns; /* the active phase */
	const struct activity *act; /* the job's I/Os and syncs over time; NULL: not known */
	double act_j;		  /* the active phase's energy above idle, as measured */
};

struct sampling_est {
	int evaluated;	  /* 0: nothing to judge (no activity series, a fast meter) */
	double u_rel;	  /* standard uncertainty over the activity's energy */
	double u_j;	  /* the same in J (k = 1); NAN: the energy cannot be known */
	double u_indep;	  /* the part of u_rel's phase spread had each cluster its own phase */
	double g_min, g_max; /* the least and most of its energy a reading phase sees (1: fair) */
	double edge_share; /* activity no pair of readings brackets */
	double freq_hz;	  /* the activity's burst rate, NAN when it is not in bursts */
	uint64_t bursts;
	char why[SAMPLING_WHY_LEN]; /* "activity at 2.00 Hz, meter at 2 Hz: aliased" */
};

/*
 * How long one reading of a meter of this period is taken to average over (and the
 * meter to hold its value), in seconds: SAMPLING_WINDOW_NS capped at the period, for
 * meters the sampling term judges (period at least SAMPLING_MIN_PERIOD_NS); 0 (not
 * known) for faster ones. The sampling and the time-discretisation terms share it
 * (docs/energy.md).
 */
double sampling_window_s(uint64_t period_ns);

/*
 * The activity's phases within the readings' segments, the share of its energy a
 * reading window sees at each unknown phase lag, and from their spread the term
 * (docs/energy.md, "The sampling term").
 */
void sampling_estimate(const struct sampling_in *in, struct sampling_est *out);

#endif
