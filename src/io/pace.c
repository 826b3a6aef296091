/* SPDX-License-Identifier: MIT */
/* Seeded jitter of paced and bursty I/O: rate_dither's offsets and thinktime's pauses. */
#include "io/pace.h"

uint64_t pace_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t pace_think_ns(uint64_t thinktime_ns, double dither, uint64_t *rng)
{
	double span = dither * (double)thinktime_ns, u;

	if (!(span > 0))
		return thinktime_ns;
	/* 53 random bits: a uniform double in [0, 1) */
	u = (double)(pace_next(rng) >> 11) / (double)(1ULL << 53);
	return (uint64_t)((double)thinktime_ns - span / 2 + u * span);
}
