/* SPDX-License-Identifier: MIT */
/* Latency statistics: percentiles against known distributions, merge, Welford vs two-pass. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "io/stats.h"
#include "tap.h"

#define N_SAMPLES 200000

/* The histogram's stated bound: a percentile is within 1/2^LAT_SUB_BITS of the truth. */
static const double rel_err = 1.0 / (1 << LAT_SUB_BITS);

static uint64_t rng_state = 0x853c49e6748fea9bull;

static double unit_rand(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact percentile with the same rank rule: the ceil(p/100*n)-th smallest sample. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_percentiles(const char *what, uint64_t *v, size_t n)
{
	struct lat_stats *ls = malloc(sizeof(*ls));
	double worst = 0, e;
	size_t i;
	uint64_t got, want;

	lat_init(ls);
	for (i = 0; i < n; i++)
		lat_add(ls, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < lat_default_percentiles_count; i++) {
		got = lat_percentile(ls, lat_default_percentiles[i]);
		want = exact_percentile(v, n, lat_default_percentiles[i]);
		e = fabs((double)got - (double)want) / (double)want;
		if (e > worst)
			worst = e;
	}
	if (!ok(worst <= rel_err, "%s: all default percentiles within 1/%d", what,
		1 << LAT_SUB_BITS))
		printf("#   worst relative error %g\n", worst);
	is_int(ls->min_ns, v[0], "%s: min", what);
	is_int(ls->max_ns, v[n - 1], "%s: max", what);
	is_int(lat_percentile(ls, 100), v[n - 1], "%s: p100 is the max", what);
	free(ls);
}

static void test_distributions(uint64_t *v)
{
	size_t i;

	for (i = 0; i < N_SAMPLES; i++)
		v[i] = 1000 + (uint64_t)(unit_rand() * 999000.0);
	check_percentiles("uniform 1us..1ms", v, N_SAMPLES);

	for (i = 0; i < N_SAMPLES; i++)
		v[i] = 1 + (uint64_t)(-100000.0 * log(1.0 - unit_rand()));
	check_percentiles("exponential mean 100us", v, N_SAMPLES);

	for (i = 0; i < N_SAMPLES; i++)
		v[i] = 3 + (uint64_t)(unit_rand() * 60.0);
	check_percentiles("small values (exact buckets)", v, N_SAMPLES);

	for (i = 0; i < N_SAMPLES; i++)
		v[i] = 5000000000ull + (uint64_t)(unit_rand() * 5e9);
	check_percentiles("seconds-long latencies", v, N_SAMPLES);
}

static void test_constant_and_mix(void)
{
	struct lat_stats *ls = malloc(sizeof(*ls));
	size_t i;

	lat_init(ls);
	for (i = 0; i < 1000; i++)
		lat_add(ls, 123457);
	is_int(lat_percentile(ls, 1), 123457, "constant: p1 exact (clamped to min/max)");
	is_int(lat_percentile(ls, 99.99), 123457, "constant: p99.99 exact");
	is_dbl(lat_stddev(ls), 0, 1e-9, "constant: stddev 0");

	/* 90 % at 100 ns, 10 % at 10 us: the percentiles jump at p90. */
	lat_init(ls);
	for (i = 0; i < 10000; i++)
		lat_add(ls, i % 10 == 9 ? 10000 : 100);
	is_int(lat_percentile(ls, 50), 100, "two-point: p50 is the low point");
	is_int(lat_percentile(ls, 90), 100, "two-point: p90 is still the low point");
	ok(fabs((double)lat_percentile(ls, 90.01) - 10000) <= 10000 * rel_err,
	   "two-point: p90.01 is the high point");
	is_int(lat_percentile(ls, 99.99), 10000, "two-point: p99.99 is the high point (max)");
	is_dbl(ls->mean_ns, 1090, 1e-6, "two-point: mean");

	lat_init(ls);
	is_int(lat_percentile(ls, 50), 0, "empty: percentile 0");
	is_dbl(lat_stddev(ls), 0, 0, "empty: stddev 0");
	lat_add(ls, 1ull << 62);
	is_int(ls->hist[LAT_BUCKETS - 1], 1, "beyond the last group: counted in the last bucket");
	is_int(lat_percentile(ls, 50), 1ull << 62, "beyond the last group: percentile is the max");
	is_int(lat_default_percentiles_count, 17, "fio's 17 default percentiles");
	free(ls);
}

static void test_welford_and_merge(const uint64_t *v, size_t n)
{
	struct lat_stats *all = malloc(sizeof(*all)), *part = malloc(3 * sizeof(*part));
	double sum = 0, mean, ss = 0, sd;
	size_t i;
	int same_hist = 1;

	lat_init(all);
	for (i = 0; i < 3; i++)
		lat_init(&part[i]);
	for (i = 0; i < n; i++) {
		lat_add(all, v[i]);
		/* Unequal parts, one of them small, to exercise the weights. */
		lat_add(&part[i % 7 == 0 ? 0 : (i % 7 < 3 ? 1 : 2)], v[i]);
		sum += (double)v[i];
	}
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	sd = sqrt(ss / (double)(n - 1));
	is_dbl(all->mean_ns, mean, mean * 1e-9, "Welford mean equals the two-pass mean");
	is_dbl(lat_stddev(all), sd, sd * 1e-9, "Welford stddev equals the two-pass stddev");

	lat_merge(&part[1], &part[2]);
	lat_merge(&part[0], &part[1]);
	is_int(part[0].n, all->n, "merge: count");
	is_int(part[0].min_ns, all->min_ns, "merge: min");
	is_int(part[0].max_ns, all->max_ns, "merge: max");
	is_dbl(part[0].mean_ns, all->mean_ns, mean * 1e-9, "merge: mean");
	is_dbl(lat_stddev(&part[0]), lat_stddev(all), sd * 1e-9, "merge: stddev");
	for (i = 0; i < LAT_BUCKETS; i++)
		if (part[0].hist[i] != all->hist[i])
			same_hist = 0;
	ok(same_hist, "merge: histogram equals adding all samples");
	lat_init(&part[1]);
	lat_merge(&part[1], all);
	is_dbl(part[1].mean_ns, all->mean_ns, 0, "merge into empty copies");
	free(all);
	free(part);
}

int main(void)
{
	uint64_t *v = malloc(N_SAMPLES * sizeof(*v));
	size_t i;

	test_distributions(v);
	test_constant_and_mix();
	for (i = 0; i < N_SAMPLES; i++)
		v[i] = 20000 + (uint64_t)(-50000.0 * log(1.0 - unit_rand()));
	test_welford_and_merge(v, N_SAMPLES);
	free(v);
	return done_testing();
}
