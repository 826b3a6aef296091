/* SPDX-License-Identifier: MIT */
/* Steady state as SNIA's Performance Test Specification decides it from rounds. */
#include <math.h>
#include <string.h>

#include "core/steady.h"

void steady_judge(const double *x, size_t w, struct steady_window *out)
{
	double mean = 0, min = x[0], max = x[0], sxx = 0, sxy = 0, xm = (double)(w - 1) / 2;
	double slope;
	size_t i;

	for (i = 0; i < w; i++) {
		mean += x[i];
		if (x[i] < min)
			min = x[i];
		if (x[i] > max)
			max = x[i];
	}
	mean /= (double)w;
	/* least squares over rounds 0..w-1: slope = sum (i - im)(y - ym) / sum (i - im)^2 */
	for (i = 0; i < w; i++) {
		sxx += ((double)i - xm) * ((double)i - xm);
		sxy += ((double)i - xm) * (x[i] - mean);
	}
	slope = sxx > 0 ? sxy / sxx : 0;
	out->mean = mean;
	out->range_frac = mean != 0 ? (max - min) / fabs(mean) : INFINITY;
	out->slope_frac = mean != 0 ? fabs(slope) * (double)(w - 1) / fabs(mean) : INFINITY;
}

static int finite_all(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

int steady_find(const double *x, size_t n, size_t window, double max_range, double max_slope,
		struct steady_window *out)
{
	struct steady_window w;
	double score, best = INFINITY;
	size_t i;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (window < 2 || n < window)
		return -1;
	for (i = 0; i + window <= n; i++) {
		if (!finite_all(x + i, window))
			continue;
		steady_judge(x + i, window, &w);
		w.first = i;
		w.last = i + window - 1;
		w.reached = w.range_frac <= max_range && w.slope_frac <= max_slope;
		if (w.reached) {
			*out = w;
			return 0;
		}
		score = fmax(w.range_frac / max_range, w.slope_frac / max_slope);
		if (score < best) {
			best = score;
			*out = w;
			found = 1;
		}
	}
	return found ? 0 : -1;
}
