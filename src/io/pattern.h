/* SPDX-License-Identifier: MIT */
/* Where each I/O goes and which way: sequential or uniform random offsets, read/write mix. */
#ifndef IOWATT_PATTERN_H
#define IOWATT_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/*
 * One thread's offset and direction generator over its region [base, base + nblocks * bs).
 * Sequential modes walk the region and wrap inside it; random modes draw a bs-aligned
 * block uniformly over the whole region; randrw draws the direction per I/O.
 * Deterministic for a seed: xoshiro256** seeded through splitmix64, no libc rand.
 */
struct pattern {
	uint64_t s[4];
	uint64_t base;
	uint64_t bs;
	uint64_t nblocks;
	uint64_t seq;	      /* next sequential block */
	uint64_t read_thresh; /* randrw: read when a 32-bit draw is below this */
	int rw;		      /* enum rw_mode */
};

/* 0, or -EINVAL when the region holds no whole block. */
int pattern_init(struct pattern *p, int rw, unsigned rwmixread, uint64_t bs, uint64_t base,
		 uint64_t len, uint64_t seed);
/* The next I/O: its byte offset and enum ddir. */
void pattern_next(struct pattern *p, uint64_t *offset, int *ddir);

/* The seed of thread `thread` of a job: randseed + thread index. */
uint64_t pattern_thread_seed(uint64_t randseed, unsigned thread);
/*
 * Fill a buffer with a non-zero pseudo-random pattern (no 8-byte word is zero), so a
 * compressing SSD controller gets no free wins. Deterministic for a seed: a test can
 * rebuild what a thread wrote.
 */
void pattern_fill(void *buf, size_t len, uint64_t seed);

#endif
