/* SPDX-License-Identifier: MIT */
/* A job's activity over time: its I/Os and syncs in fixed time bins, for the meter's blind spots. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/activity.h"

void activity_init(struct activity *a, uint64_t t0_ns)
{
	memset(a, 0, sizeof(*a));
	a->t0_ns = t0_ns;
	a->bin_ns = ACTIVITY_BIN_NS;
}

/* Halve the resolution: pairs of bins become one. */
static void coarsen(struct activity *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		a->w[i / 2] = (i % 2 ? a->w[i / 2] : 0) + a->w[i];
	a->n = (a->n + 1) / 2;
	if (a->w) /* a series whose first operation is past the bound has no bins yet */
		memset(a->w + a->n, 0, (a->cap - a->n) * sizeof(*a->w));
	a->bin_ns *= 2;
	a->hot_lo_ns = a->hot_hi_ns = 0;
}

/* Makes bin `idx` exist (coarsening first when it is beyond the bound); its new index. */
static size_t reach(struct activity *a, uint64_t t_ns)
{
	size_t idx = (size_t)((t_ns - a->t0_ns) / a->bin_ns), cap;

	while (idx >= ACTIVITY_MAX_BINS) {
		coarsen(a);
		idx = (size_t)((t_ns - a->t0_ns) / a->bin_ns);
	}
	if (idx >= a->cap) {
		cap = a->cap ? a->cap : 256;
		while (cap <= idx)
			cap *= 2;
		if (cap > ACTIVITY_MAX_BINS)
			cap = ACTIVITY_MAX_BINS;
		a->w = xrealloc(a->w, cap * sizeof(*a->w));
		memset(a->w + a->cap, 0, (cap - a->cap) * sizeof(*a->w));
		a->cap = cap;
	}
	if (idx >= a->n)
		a->n = idx + 1;
	return idx;
}

void activity_add(struct activity *a, uint64_t t0_ns, uint64_t t1_ns)
{
	size_t i0, i1, i;
	double len;
	uint64_t lo, hi, b0, b1;

	if (t0_ns < a->t0_ns)
		t0_ns = a->t0_ns;
	if (t1_ns < t0_ns)
		t1_ns = t0_ns;
	if (t0_ns >= a->hot_lo_ns && t1_ns < a->hot_hi_ns) {
		a->w[a->hot] += 1.0f;
		return;
	}
	i1 = reach(a, t1_ns); /* coarsens first, so both ends use the final width */
	i0 = (size_t)((t0_ns - a->t0_ns) / a->bin_ns);
	a->hot = i1;
	a->hot_lo_ns = a->t0_ns + (uint64_t)i1 * a->bin_ns;
	a->hot_hi_ns = a->hot_lo_ns + a->bin_ns;
	if (i0 == i1) {
		a->w[i0] += 1.0f;
		return;
	}
	len = (double)(t1_ns - t0_ns);
	for (i = i0; i <= i1; i++) {
		b0 = a->t0_ns + (uint64_t)i * a->bin_ns;
		b1 = b0 + a->bin_ns;
		lo = t0_ns > b0 ? t0_ns : b0;
		hi = t1_ns < b1 ? t1_ns : b1;
		a->w[i] += (float)((double)(hi - lo) / len);
	}
}

void activity_merge(struct activity *into, const struct activity *from)
{
	uint64_t t;
	size_t i, k;

	if (!from->n)
		return;
	while (into->bin_ns < from->bin_ns)
		coarsen(into);
	for (i = 0; i < from->n; i++) {
		if (from->w[i] == 0)
			continue;
		t = from->t0_ns + (uint64_t)i * from->bin_ns;
		k = reach(into, t);
		into->w[k] += from->w[i];
	}
}

double activity_total(const struct activity *a)
{
	double s = 0;
	size_t i;

	for (i = 0; i < a->n; i++)
		s += a->w[i];
	return s;
}

void activity_free(struct activity *a)
{
	free(a->w);
	memset(a, 0, sizeof(*a));
}
