/* SPDX-License-Identifier: MIT */
/* Steady state as SNIA's Performance Test Specification decides it from rounds. */
#ifndef IOWATT_STEADY_H
#define IOWATT_STEADY_H

#include <stddef.h>

/*
 * SNIA PTS (Solid State Storage Performance Test Specification, "Steady State"): a
 * measurement window of 5 rounds is steady when the data excursion (max - min) is no
 * more than 20 % of the window's mean and the excursion of its least-squares line (slope
 * x the window's span in rounds: the line's max - min over it) within 10 %; both limits
 * are in. docs/results.md says where the rule was checked and what could not be.
 */
#define STEADY_WINDOW 5
#define STEADY_MAX_RANGE 0.20
#define STEADY_MAX_SLOPE 0.10

struct steady_window {
	int reached;	      /* some window passed */
	size_t first, last;   /* indices of its first and last round (of the best when not) */
	double mean;	      /* of the window */
	double range_frac;    /* (max - min) / |mean| */
	double slope_frac;    /* |slope| x (window - 1) / |mean| */
};

/* The first of x[0..n)'s windows that is steady, else the one closest to it (the
 * smaller of its two excursions over their limits). 0, or -1 when n < window or a value
 * is not finite in every window. */
int steady_find(const double *x, size_t n, size_t window, double max_range, double max_slope,
		struct steady_window *out);
/* One window of w values at x: its excursions. */
void steady_judge(const double *x, size_t w, struct steady_window *out);

#endif
