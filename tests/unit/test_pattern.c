/* SPDX-License-Identifier: MIT */
/* Offset/direction generator: alignment, bounds, coverage, sequential wrap, mix, determinism. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/job.h"
#include "io/pattern.h"
#include "tap.h"

#define BS 4096ull

static void test_sequential(void)
{
	struct pattern p;
	uint64_t off, base = 10 * BS;
	int d, i, exact = 1, dir_ok = 1;

	is_int(pattern_init(&p, RW_WRITE, 50, BS, base, 8 * BS + 100, 1), 0, "seq init");
	for (i = 0; i < 20; i++) {
		pattern_next(&p, &off, &d);
		if (off != base + (uint64_t)(i % 8) * BS)
			exact = 0;
		if (d != DDIR_WRITE)
			dir_ok = 0;
	}
	ok(exact, "seq write: exact block sequence, wraps inside its region (partial tail unused)");
	ok(dir_ok, "seq write: every I/O is a write");
	pattern_init(&p, RW_READ, 50, BS, 0, BS, 1);
	pattern_next(&p, &off, &d);
	pattern_next(&p, &off, &d);
	ok(off == 0 && d == DDIR_READ, "seq read over a one-block region stays on it");
	is_int(pattern_init(&p, RW_READ, 50, BS, 0, BS - 1, 1), -EINVAL,
	       "region below bs rejected");
}

static void test_random_coverage(void)
{
	enum { NB = 1000, DRAWS = 50000 };
	static unsigned hits[NB];
	struct pattern p;
	uint64_t base = 3 * BS, off, blk;
	double chi2 = 0, expect = (double)DRAWS / NB;
	int i, d, aligned = 1, inside = 1, all = 1;

	pattern_init(&p, RW_RANDREAD, 50, BS, base, NB * BS, 7);
	for (i = 0; i < DRAWS; i++) {
		pattern_next(&p, &off, &d);
		if ((off - base) % BS)
			aligned = 0;
		if (off < base || off + BS > base + NB * BS) {
			inside = 0;
			continue;
		}
		blk = (off - base) / BS;
		hits[blk]++;
	}
	for (i = 0; i < NB; i++) {
		if (!hits[i])
			all = 0;
		chi2 += (hits[i] - expect) * (hits[i] - expect) / expect;
	}
	ok(aligned, "random: offsets aligned to bs");
	ok(inside, "random: offsets inside the region");
	ok(all, "random: every block of the region drawn over %d draws", DRAWS);
	/* 999 degrees of freedom: mean 999, sd 45; 1300 is beyond 6 sd. */
	if (!ok(chi2 < 1300, "random: uniform (chi-square over %d blocks)", NB))
		printf("#   chi2 %.1f\n", chi2);
}

static void test_huge_region(void)
{
	struct pattern p;
	uint64_t len = 1ull << 45, off, hi = 0;
	int i, d, good = 1;

	pattern_init(&p, RW_RANDWRITE, 50, 512, 1ull << 40, len, 3);
	for (i = 0; i < 10000; i++) {
		pattern_next(&p, &off, &d);
		if (off % 512 || off < (1ull << 40) || off + 512 > (1ull << 40) + len ||
		    d != DDIR_WRITE)
			good = 0;
		if (off > hi)
			hi = off;
	}
	ok(good, "2^36 blocks: aligned, inside, all writes");
	ok(hi > (1ull << 40) + len / 2, "2^36 blocks: reaches the upper half");
}

static double read_share(unsigned mix, int draws)
{
	struct pattern p;
	uint64_t off;
	int i, d, reads = 0;

	pattern_init(&p, RW_RANDRW, mix, BS, 0, 1000 * BS, 11);
	for (i = 0; i < draws; i++) {
		pattern_next(&p, &off, &d);
		reads += d == DDIR_READ;
	}
	return (double)reads / draws;
}

static void test_mix(void)
{
	is_dbl(read_share(70, 100000), 0.70, 0.01, "randrw 70: read share within 1 %%");
	is_dbl(read_share(50, 100000), 0.50, 0.01, "randrw 50: read share within 1 %%");
	is_dbl(read_share(5, 100000), 0.05, 0.005, "randrw 5: read share");
	is_dbl(read_share(0, 10000), 0.0, 0, "randrw 0: writes only");
	is_dbl(read_share(100, 10000), 1.0, 0, "randrw 100: reads only");
}

static void test_determinism(void)
{
	struct pattern a, b, c;
	uint64_t oa, ob, oc;
	int i, da, db, dc, same = 1, differ = 0;
	unsigned char x[100], y[100], z[100];
	uint64_t w;
	size_t k;
	int nonzero = 1;

	pattern_init(&a, RW_RANDRW, 50, BS, 0, 1 << 20, 42);
	pattern_init(&b, RW_RANDRW, 50, BS, 0, 1 << 20, 42);
	pattern_init(&c, RW_RANDRW, 50, BS, 0, 1 << 20, pattern_thread_seed(42, 1));
	for (i = 0; i < 1000; i++) {
		pattern_next(&a, &oa, &da);
		pattern_next(&b, &ob, &db);
		pattern_next(&c, &oc, &dc);
		if (oa != ob || da != db)
			same = 0;
		if (oa != oc)
			differ++;
	}
	ok(same, "same seed: same offsets and directions");
	ok(differ > 900, "next thread's seed: a different sequence");
	ok(pattern_thread_seed(42, 0) != pattern_thread_seed(42, 1), "thread seeds differ");

	pattern_fill(x, sizeof(x), 5);
	pattern_fill(y, sizeof(y), 5);
	pattern_fill(z, sizeof(z), 6);
	ok(!memcmp(x, y, sizeof(x)), "fill: deterministic per seed");
	ok(memcmp(x, z, sizeof(x)), "fill: differs between seeds");
	for (k = 0; k + 8 <= sizeof(x); k += 8) {
		memcpy(&w, x + k, 8);
		if (!w)
			nonzero = 0;
	}
	ok(nonzero, "fill: no zero word");
}

int main(void)
{
	test_sequential();
	test_random_coverage();
	test_huge_region();
	test_mix();
	test_determinism();
	return done_testing();
}
