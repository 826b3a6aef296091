/* SPDX-License-Identifier: MIT */
/* Seeded jitter of paced and bursty I/O: rate_dither's offsets and thinktime's pauses. */
#ifndef IOWATT_PACE_H
#define IOWATT_PACE_H

#include <stdint.h>

/* splitmix64 (Steele, Lea, Flood 2014): the next value of the stream whose state is *x. */
uint64_t pace_next(uint64_t *x);

/*
 * One thinktime pause: thinktime_ns exactly without dither, else uniform in
 * thinktime_ns x (1 - dither/2, 1 + dither/2), from the stream *rng: the mean pause stays
 * thinktime_ns (docs/energy.md, "Dithered pacing").
 */
uint64_t pace_think_ns(uint64_t thinktime_ns, double dither, uint64_t *rng);

#endif
