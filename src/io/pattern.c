/* SPDX-License-Identifier: MIT */
/* Offset and direction generator: seeded xoshiro256**, aligned uniform blocks, wrapping seq. */
#include <errno.h>
#include <string.h>

#include "io/job.h"
#include "io/pattern.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Next raw 64-bit value of the generator. */
static uint64_t pattern_rand(struct pattern *p)
{
	uint64_t *s = p->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static void seed_state(uint64_t s[4], uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		s[i] = splitmix64(&seed);
}

int pattern_init(struct pattern *p, int rw, unsigned rwmixread, uint64_t bs, uint64_t base,
		 uint64_t len, uint64_t seed)
{
	memset(p, 0, sizeof(*p));
	if (!bs || len < bs)
		return -EINVAL;
	p->rw = rw_pattern(rw);
	p->bs = bs;
	p->base = base;
	p->nblocks = len / bs;
	if (rwmixread > 100)
		rwmixread = 100;
	p->read_thresh = ((uint64_t)rwmixread << 32) / 100;
	seed_state(p->s, seed);
	return 0;
}

/*
 * A block in [0, n): the high 32 bits scaled by n (a multiply, no division) for regions
 * up to 2^32 blocks, where the bias is below n / 2^32 of a block; modulo beyond.
 */
static uint64_t rand_block(struct pattern *p)
{
	uint64_t x = pattern_rand(p);

	if (p->nblocks <= (1ull << 32))
		return ((x >> 32) * p->nblocks) >> 32;
	return x % p->nblocks;
}

void pattern_next(struct pattern *p, uint64_t *offset, int *ddir)
{
	uint64_t blk;

	switch (p->rw) {
	case RW_READ:
	case RW_WRITE:
		blk = p->seq++;
		if (p->seq == p->nblocks)
			p->seq = 0;
		*ddir = p->rw == RW_READ ? DDIR_READ : DDIR_WRITE;
		break;
	case RW_RANDRW:
		*ddir = (pattern_rand(p) >> 32) < p->read_thresh ? DDIR_READ : DDIR_WRITE;
		blk = rand_block(p);
		break;
	default:
		*ddir = p->rw == RW_RANDREAD ? DDIR_READ : DDIR_WRITE;
		blk = rand_block(p);
		break;
	}
	*offset = p->base + blk * p->bs;
}

uint64_t pattern_thread_seed(uint64_t randseed, unsigned thread)
{
	return randseed + thread;
}

void pattern_fill(void *buf, size_t len, uint64_t seed)
{
	unsigned char *b = buf;
	struct pattern p;
	uint64_t w;
	size_t i;

	seed_state(p.s, seed ^ 0x6a09e667f3bcc909ull);
	for (i = 0; i < len; i += sizeof(w)) {
		w = pattern_rand(&p);
		if (!w)
			w = 0x5555555555555555ull;
		memcpy(b + i, &w, len - i < sizeof(w) ? len - i : sizeof(w));
	}
}
