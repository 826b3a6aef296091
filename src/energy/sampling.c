/* SPDX-License-Identifier: MIT */
/* The sampling term: the energy of a job's activity that a meter of its period can miss. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/sampling.h"

#define SQRT3 1.7320508075688772
#define MIN_ONSETS 3

/* The last sample at or before t: its index, or n when t is before the first. */
static size_t segment_of(const uint64_t *t, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	if (!n || x < t[0])
		return n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Spreads w evenly over the phases [pa, pb) of the histogram (0 <= pa <= pb <= 1). */
static void deposit(double *h, double pa, double pb, double w)
{
	int i, ia = (int)(pa * SAMPLING_PHASES), ib = (int)(pb * SAMPLING_PHASES);
	double lo, hi;

	if (ia >= SAMPLING_PHASES)
		ia = SAMPLING_PHASES - 1;
	if (ib >= SAMPLING_PHASES)
		ib = SAMPLING_PHASES - 1;
	if (ia == ib || !(pb > pa)) {
		h[ia] += w;
		return;
	}
	for (i = ia; i <= ib; i++) {
		lo = fmax(pa, (double)i / SAMPLING_PHASES);
		hi = fmin(pb, (double)(i + 1) / SAMPLING_PHASES);
		if (hi > lo)
			h[i] += w * (hi - lo) / (pb - pa);
	}
}

/*
 * Bin i's phases [pa, pb] within the segment between the two readings around it; 0 when
 * no pair of readings brackets it (before the first, after the last, in a gap longer
 * than 2 periods: the edge share).
 */
static int bin_phase(const struct sampling_in *in, size_t i, double *pa, double *pb)
{
	const struct activity *a = in->act;
	uint64_t b0 = a->t0_ns + (uint64_t)i * a->bin_ns, b1 = b0 + a->bin_ns;
	size_t k = segment_of(in->t_ns, in->n, b0 + a->bin_ns / 2);
	double seg;

	if (k + 1 >= in->n || in->t_ns[k + 1] - in->t_ns[k] > 2 * in->period_ns)
		return 0;
	seg = (double)(in->t_ns[k + 1] - in->t_ns[k]);
	*pa = b0 > in->t_ns[k] ? (double)(b0 - in->t_ns[k]) / seg : 0;
	*pb = b1 < in->t_ns[k + 1] ? (double)(b1 - in->t_ns[k]) / seg : 1;
	return 1;
}

/* The activity-weighted histogram of phases and the edge share; returns the activity inside. */
static double phase_histogram(const struct sampling_in *in, double *h, double *edge)
{
	const struct activity *a = in->act;
	double inside = 0, pa, pb;
	size_t i;

	*edge = 0;
	for (i = 0; i < a->n; i++) {
		if (a->w[i] <= 0)
			continue;
		if (!bin_phase(in, i, &pa, &pb)) {
			*edge += a->w[i];
			continue;
		}
		deposit(h, pa, pb, a->w[i]);
		inside += a->w[i];
	}
	return inside;
}

/*
 * A reading sees the activity in a window of `len` phases before it, at an unknown lag:
 * g(lag) is the share of the activity in that window over the window's share of the
 * period (1: the readings see it in proportion). Over every lag, its RMS deviation from
 * 1 and its extremes.
 */
static double window_spread(const double *h, int len, double *gmin, double *gmax)
{
	double mass = 0, fair = (double)len / SAMPLING_PHASES, g, sum2 = 0;
	int a;

	*gmin = INFINITY;
	*gmax = -INFINITY;
	for (a = 0; a < len; a++)
		mass += h[a];
	for (a = 0; a < SAMPLING_PHASES; a++) {
		g = mass / fair;
		sum2 += (g - 1) * (g - 1);
		*gmin = fmin(*gmin, g);
		*gmax = fmax(*gmax, g);
		mass += h[(a + len) % SAMPLING_PHASES] - h[a];
	}
	return sqrt(sum2 / SAMPLING_PHASES);
}

/*
 * What the readings' phase spread would be if each cluster of activity (busy bins with
 * less than a reading window of idle between them) fell at its own random phase: a
 * cluster of mass m whose window share spreads by r over the lags adds (m r)^2 (the
 * activity inside the readings' segments only: the edge share is its own term). The
 * realised histogram is one draw of those phases; its spread scatters around this, and
 * bursts that happened to fall evenly would otherwise get a tight interval
 * (docs/energy.md). Phases are within the readings' own segments, so one long cluster
 * gives the realised spread itself.
 */
static double independent_spread(const struct sampling_in *in, int len)
{
	const struct activity *a = in->act;
	uint64_t window_ns = (uint64_t)len * in->period_ns / SAMPLING_PHASES;
	uint64_t gap_bins = (window_ns + a->bin_ns - 1) / a->bin_ns, idle = 0;
	double h[SAMPLING_PHASES], mass = 0, total = 0, var = 0, gmin, gmax, r, pa, pb;
	size_t i, j;

	for (i = 0; i <= a->n; i++) {
		if (i < a->n && a->w[i] > 0 && bin_phase(in, i, &pa, &pb)) {
			if (mass == 0)
				memset(h, 0, sizeof(h));
			idle = 0;
			deposit(h, pa, pb, a->w[i]);
			mass += a->w[i];
		} else if (mass > 0 && (++idle >= gap_bins || i == a->n)) {
			for (j = 0; j < SAMPLING_PHASES; j++)
				h[j] /= mass;
			r = window_spread(h, len, &gmin, &gmax);
			var += (mass * r) * (mass * r);
			total += mass;
			mass = 0;
		}
	}
	return total > 0 ? sqrt(var) / total : 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* Bursts are runs of busy bins after an idle one; their rate from the median spacing. */
static void burst_rate(const struct activity *a, struct sampling_est *out)
{
	uint64_t *gaps = xcalloc(a->n ? a->n : 1, sizeof(*gaps)), last = 0;
	size_t i, ng = 0;
	int prev_busy = 0, have = 0;

	out->bursts = 0;
	out->freq_hz = NAN;
	for (i = 0; i < a->n; i++) {
		int busy = a->w[i] > 0;

		if (busy && !prev_busy) {
			uint64_t t = (uint64_t)i * a->bin_ns;

			out->bursts++;
			if (have)
				gaps[ng++] = t - last;
			last = t;
			have = 1;
		}
		prev_busy = busy;
	}
	if (out->bursts >= MIN_ONSETS && ng) {
		qsort(gaps, ng, sizeof(*gaps), cmp_u64);
		out->freq_hz = 1e9 / (double)gaps[ng / 2];
	}
	free(gaps);
}

static void describe(const struct sampling_in *in, struct sampling_est *out, int unknown)
{
	double fs = 1e9 / (double)in->period_ns;

	if (unknown && isfinite(out->freq_hz))
		snprintf(out->why, sizeof(out->why), "activity at %.2f Hz, meter at %.3g Hz: aliased",
			 out->freq_hz, fs);
	else if (unknown)
		snprintf(out->why, sizeof(out->why),
			 "activity at one phase of the meter's %.3g Hz readings: aliased", fs);
	else if (isfinite(out->freq_hz))
		snprintf(out->why, sizeof(out->why),
			 "sampling: activity in bursts at %.2f Hz, meter at %.3g Hz", out->freq_hz,
			 fs);
	else
		snprintf(out->why, sizeof(out->why),
			 "sampling: activity between readings every %.3g s", 1 / fs);
}

double sampling_window_s(uint64_t period_ns)
{
	if (period_ns < SAMPLING_MIN_PERIOD_NS)
		return 0;
	return (double)(period_ns < SAMPLING_WINDOW_NS ? period_ns : SAMPLING_WINDOW_NS) / 1e9;
}

void sampling_estimate(const struct sampling_in *in, struct sampling_est *out)
{
	double h[SAMPLING_PHASES] = { 0 }, inside, edge, total, u_phase = 0, w;
	int len, unknown;

	memset(out, 0, sizeof(*out));
	out->g_min = out->g_max = 1;
	out->freq_hz = NAN;
	if (!in->act || !in->act->n || in->period_ns < SAMPLING_MIN_PERIOD_NS || in->n < 2)
		return;
	inside = phase_histogram(in, h, &edge);
	total = inside + edge;
	if (!(total > 0))
		return;
	out->evaluated = 1;
	burst_rate(in->act, out);
	out->edge_share = edge / total;
	w = (double)(in->window_ns < in->period_ns ? in->window_ns : in->period_ns) /
	    (double)in->period_ns;
	len = (int)lround(w * SAMPLING_PHASES);
	if (len < 1)
		len = 1;
	if (inside > 0 && len < SAMPLING_PHASES) {
		int i;

		for (i = 0; i < SAMPLING_PHASES; i++)
			h[i] /= inside;
		u_phase = window_spread(h, len, &out->g_min, &out->g_max);
		out->u_indep = independent_spread(in, len);
		u_phase = fmax(u_phase, out->u_indep);
	}
	/* Activity outside every segment may count fully or not at all: a rectangle. */
	out->u_rel = hypot(u_phase * (1 - out->edge_share), out->edge_share / SQRT3);
	unknown = inside > 0 && out->g_min < SAMPLING_UNSEEN;
	out->u_j = unknown ? NAN : out->u_rel * fmax(in->act_j, 0);
	describe(in, out, unknown);
}
