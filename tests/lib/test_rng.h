/* SPDX-License-Identifier: MIT */
/* A seeded uniform and Gaussian draw for synthetic test data, so the tests repeat. */
#ifndef IOWATT_TEST_RNG_H
#define IOWATT_TEST_RNG_H

#include <math.h>
#include <stdint.h>

/* The state: a test seeds it (rng = N) before each series. */
static uint64_t rng;

/* A deterministic uniform (0, 1) (a 64-bit LCG's top bits). */
static inline double uniform(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static inline double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

#endif
