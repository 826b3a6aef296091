/* SPDX-License-Identifier: MIT */
/* Constant-memory latency statistics: Welford moments and a log-linear histogram. */
#ifndef IOWATT_STATS_H
#define IOWATT_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Log-linear buckets as fio's: values below 2^LAT_SUB_BITS ns are exact, above that
 * each power of two is split into 2^LAT_SUB_BITS linear buckets, so the relative
 * error of a percentile stays below 1/2^LAT_SUB_BITS whatever the latency.
 */
#define LAT_SUB_BITS 6
#define LAT_GROUPS 40
#define LAT_BUCKETS (LAT_GROUPS << LAT_SUB_BITS)

struct lat_stats {
	uint64_t n;
	uint64_t min_ns, max_ns;
	double mean_ns, m2; /* Welford */
	uint64_t hist[LAT_BUCKETS];
};

void lat_init(struct lat_stats *ls);
void lat_add(struct lat_stats *ls, uint64_t ns);
void lat_merge(struct lat_stats *dst, const struct lat_stats *src);
double lat_stddev(const struct lat_stats *ls);
/* p in 0..100; the value at that percentile (bucket midpoint, clamped to min/max). */
uint64_t lat_percentile(const struct lat_stats *ls, double p);

/* fio's default percentile list: 1 5 10 20 30 40 50 60 70 80 90 95 99 99.5 99.9 99.95 99.99 */
extern const double lat_default_percentiles[];
extern const size_t lat_default_percentiles_count;

#endif
