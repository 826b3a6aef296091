/* SPDX-License-Identifier: MIT */
/* Seeded jitter of paced and bursty I/O: the stream, and thinktime's pauses. */
#include <math.h>
#include <stdint.h>

#include "io/pace.h"
#include "tap.h"

#define DRAWS 100000

static void test_stream(void)
{
	uint64_t x = 0, y = 7, z = 7;
	int same = 1, i;

	/* splitmix64's published first output from state 0 (Vigna's reference code) */
	ok(pace_next(&x) == 0xe220a8397b1dcdafULL, "splitmix64 from 0: 0xe220a8397b1dcdaf");
	for (i = 0; i < 100; i++)
		same &= pace_next(&y) == pace_next(&z);
	ok(same, "one seed, one sequence");
	y = 7;
	z = 8;
	ok(pace_next(&y) != pace_next(&z), "another seed, another sequence");
}

static void test_think(void)
{
	const uint64_t tt = 8000000000ULL; /* 8 s */
	uint64_t rng = 42, p, lo = UINT64_MAX, hi = 0;
	double sum = 0, sum2 = 0, mean, sd;
	int i, inside = 1;

	ok(pace_think_ns(tt, 0, &rng) == tt && rng == 42,
	   "no dither: the pause is thinktime, and no draw is taken");
	for (i = 0; i < DRAWS; i++) {
		p = pace_think_ns(tt, 1.0, &rng);
		inside &= p >= tt / 2 && p < tt / 2 * 3;
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
		sum += (double)p;
		sum2 += (double)p * (double)p;
	}
	mean = sum / DRAWS;
	sd = sqrt(sum2 / DRAWS - mean * mean);
	ok(inside, "100%%: every pause in [4 s, 12 s) (%.3f to %.3f s)", (double)lo / 1e9,
	   (double)hi / 1e9);
	/* the mean of 1e5 uniform draws: sd 8 s / sqrt(12 x 1e5) = 7.3 ms; 5 sigma */
	ok(fabs(mean - (double)tt) < 0.037e9, "the mean pause stays 8 s: %.4f s", mean / 1e9);
	ok(fabs(sd - 8e9 / sqrt(12)) < 0.02 * 8e9 / sqrt(12), "uniform: sd %.4f s (8/sqrt(12) = %.4f)",
	   sd / 1e9, 8 / sqrt(12));
	lo = UINT64_MAX;
	hi = 0;
	for (i = 0; i < DRAWS; i++) {
		p = pace_think_ns(tt, 0.25, &rng);
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	ok(lo >= 7000000000ULL && hi < 9000000000ULL && hi - lo > 1900000000ULL,
	   "25%%: pauses span 7 to 9 s (%.3f to %.3f s)", (double)lo / 1e9, (double)hi / 1e9);
}

int main(void)
{
	test_stream();
	test_think();
	return done_testing();
}
