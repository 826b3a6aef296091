/* SPDX-License-Identifier: MIT */
/* A phase's current readings in constant memory: a log-binned histogram for its percentiles. */
#include <math.h>
#include <string.h>

#include "energy/current_hist.h"

void current_hist_init(struct current_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = INFINITY;
	h->max = -INFINITY;
}

static unsigned bin_of(double mag)
{
	double k = floor(log(mag / CHIST_MIN_A) / log(CHIST_RATIO));

	return k < 0 ? 0 : k >= CHIST_BINS ? CHIST_BINS - 1 : (unsigned)k;
}

void current_hist_add(struct current_hist *h, double a)
{
	unsigned k;

	if (isnan(a))
		return;
	h->n++;
	if (a < h->min)
		h->min = a;
	if (a > h->max)
		h->max = a;
	if (fabs(a) < CHIST_MIN_A) {
		h->zero++;
	} else if (a > 0) {
		k = bin_of(a);
		h->pos[k]++;
		h->pos_sum[k] += a;
	} else {
		k = bin_of(-a);
		h->neg[k]++;
		h->neg_sum[k] += a;
	}
}

double current_hist_quantile(const struct current_hist *h, double q)
{
	uint64_t rank, seen = 0;
	double v = NAN;
	int k;

	if (!h->n)
		return NAN;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank < 1)
		rank = 1;
	/* from the most negative up: the negative bins in falling magnitude, zero, positive */
	for (k = CHIST_BINS - 1; k >= 0 && isnan(v); k--)
		if ((seen += h->neg[k]) >= rank)
			v = h->neg_sum[k] / (double)h->neg[k];
	if (isnan(v) && (seen += h->zero) >= rank)
		v = 0;
	for (k = 0; k < CHIST_BINS && isnan(v); k++)
		if ((seen += h->pos[k]) >= rank)
			v = h->pos_sum[k] / (double)h->pos[k];
	return v;
}
