/* SPDX-License-Identifier: MIT */
/* Latency statistics in constant memory: Welford moments, log-linear histogram, percentiles. */
#include <math.h>
#include <string.h>

#include "io/stats.h"

const double lat_default_percentiles[] = {1,  5,  10, 20, 30,	40,   50,    60,   70,
					  80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
const size_t lat_default_percentiles_count =
    sizeof(lat_default_percentiles) / sizeof(lat_default_percentiles[0]);

#define SUB_COUNT (1u << LAT_SUB_BITS)

/*
 * Group 0 holds the values below 2^LAT_SUB_BITS one per bucket. A value whose highest
 * set bit is m (m >= LAT_SUB_BITS) goes to group m - LAT_SUB_BITS + 1, and the next
 * LAT_SUB_BITS bits below that top bit choose the linear bucket inside the group.
 */
static unsigned lat_bucket(uint64_t v)
{
	unsigned msb, group;

	if (v < SUB_COUNT)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	group = msb - LAT_SUB_BITS + 1;
	if (group >= LAT_GROUPS)
		return LAT_BUCKETS - 1;
	return (group << LAT_SUB_BITS) + (unsigned)((v >> (msb - LAT_SUB_BITS)) & (SUB_COUNT - 1));
}

/* Lowest value of a bucket and its width. */
static void lat_bucket_range(unsigned idx, uint64_t *lo, uint64_t *width)
{
	unsigned group = idx >> LAT_SUB_BITS, sub = idx & (SUB_COUNT - 1);

	if (group == 0) {
		*lo = sub;
		*width = 1;
		return;
	}
	*lo = (uint64_t)(SUB_COUNT + sub) << (group - 1);
	*width = 1ull << (group - 1);
}

void lat_init(struct lat_stats *ls)
{
	memset(ls, 0, sizeof(*ls));
}

void lat_add(struct lat_stats *ls, uint64_t ns)
{
	double d;

	ls->n++;
	if (ls->n == 1) {
		ls->min_ns = ns;
		ls->max_ns = ns;
	} else if (ns < ls->min_ns) {
		ls->min_ns = ns;
	} else if (ns > ls->max_ns) {
		ls->max_ns = ns;
	}
	d = (double)ns - ls->mean_ns;
	ls->mean_ns += d / (double)ls->n;
	ls->m2 += d * ((double)ns - ls->mean_ns);
	ls->hist[lat_bucket(ns)]++;
}

/* Chan et al.'s pairwise update: the merged moments equal those of adding every sample. */
void lat_merge(struct lat_stats *dst, const struct lat_stats *src)
{
	double n, d;
	size_t i;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	n = (double)(dst->n + src->n);
	d = src->mean_ns - dst->mean_ns;
	dst->m2 += src->m2 + d * d * (double)dst->n * (double)src->n / n;
	dst->mean_ns += d * (double)src->n / n;
	dst->n += src->n;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < LAT_BUCKETS; i++)
		dst->hist[i] += src->hist[i];
}

double lat_stddev(const struct lat_stats *ls)
{
	if (ls->n < 2)
		return 0.0;
	return sqrt(ls->m2 / (double)(ls->n - 1));
}

uint64_t lat_percentile(const struct lat_stats *ls, double p)
{
	uint64_t rank, seen = 0, lo, width, v;
	unsigned i;

	if (!ls->n)
		return 0;
	if (p <= 0)
		return ls->min_ns;
	if (p >= 100)
		return ls->max_ns;
	rank = (uint64_t)ceil(p / 100.0 * (double)ls->n);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < LAT_BUCKETS; i++) {
		seen += ls->hist[i];
		if (seen >= rank)
			break;
	}
	if (i == LAT_BUCKETS)
		return ls->max_ns;
	lat_bucket_range(i, &lo, &width);
	v = lo + width / 2;
	if (v < ls->min_ns)
		v = ls->min_ns;
	if (v > ls->max_ns)
		v = ls->max_ns;
	return v;
}
