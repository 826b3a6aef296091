/* SPDX-License-Identifier: MIT */
/* Samples file decimation: which meters are binned, bin edges, min/mean/max, flags. */
#include <math.h>
#include <stdint.h>

#include "core/clock.h"
#include "energy/sample_bins.h"
#include "tap.h"

#define PERIOD_NS (10 * NS_PER_US) /* a 100 kS/s meter */
#define BIN_NS NS_PER_MS
#define T0 987654000000ULL /* a bin edge: bins are aligned to multiples of their width */

static void test_wanted(void)
{
	ok(sample_bins_wanted(PERIOD_NS, BIN_NS), "100 kS/s is binned at 1 ms");
	ok(sample_bins_wanted(100 * NS_PER_US, BIN_NS), "10 kS/s (10 per bin) is binned");
	ok(!sample_bins_wanted(101 * NS_PER_US, BIN_NS), "under 10 samples per bin is not");
	ok(!sample_bins_wanted(10 * NS_PER_MS, BIN_NS), "an FNB58 at 100 S/s is not binned at 1 ms");
	ok(sample_bins_wanted(10 * NS_PER_MS, 100 * NS_PER_MS), "but is at 100 ms bins");
	ok(!sample_bins_wanted(0, BIN_NS), "an unknown rate is never binned");
}

static void test_bins(void)
{
	struct sample_binner b;
	struct sample_bin out[4];
	struct meter_sample s;
	unsigned nout = 0;
	int i;

	sample_binner_init(&b, BIN_NS);
	/* 250 samples from T0 + 5 us: bins [T0, +1ms) 100, [+1, +2) 100, then 50 open. The
	 * current ramps 0..249 mA, the voltage is constant, W is missing. */
	for (i = 0; i < 250; i++) {
		s = (struct meter_sample){ .t_ns = T0 + 5000 + (uint64_t)i * PERIOD_NS, .v = 5.0,
					   .a = i * 1e-3, .w = NAN,
					   .flags = i == 120 ? SAMPLE_AFTER_LOSS : 0 };
		if (sample_binner_add(&b, &s, &out[nout]))
			nout++;
	}
	is_int(nout, 2, "two bins are closed by the samples after them");
	ok(out[0].t_ns == T0, "a bin starts at a multiple of its width");
	ok(out[1].t_ns == T0 + BIN_NS, "the next bin follows");
	is_int(out[0].n, 100, "100 samples of 10 us in 1 ms");
	is_dbl(out[0].a.min, 0.0, 1e-12, "min of the ramp's first bin");
	is_dbl(out[0].a.max, 0.099, 1e-12, "max of the ramp's first bin");
	is_dbl(out[0].a.mean, 0.0495, 1e-12, "mean of the ramp's first bin");
	is_dbl(out[1].a.mean, 0.1495, 1e-12, "mean of the second bin");
	ok(isnan(out[0].w.mean) && isnan(out[0].w.min), "a quantity no sample had stays NAN");
	is_dbl(out[0].v.max, 5.0, 0, "constant voltage");
	ok(!(out[0].flags & SAMPLE_AFTER_LOSS) && (out[1].flags & SAMPLE_AFTER_LOSS),
	   "a sample's flags mark its bin");
	ok(sample_binner_flush(&b, &out[2]), "flush closes the open bin");
	is_int(out[2].n, 50, "with what it had");
	is_dbl(out[2].a.max, 0.249, 1e-12, "its max");
	ok(!sample_binner_flush(&b, &out[3]), "and then has nothing to flush");

	/* A gap longer than a bin: the next sample opens its own bin, no empty rows. */
	sample_binner_init(&b, BIN_NS);
	s = (struct meter_sample){ .t_ns = T0, .v = 1, .a = 1, .w = 1 };
	sample_binner_add(&b, &s, &out[0]);
	s.t_ns = T0 + 7 * BIN_NS + 3;
	ok(sample_binner_add(&b, &s, &out[0]) && out[0].n == 1 && out[0].t_ns == T0,
	   "a sample after a gap closes the old bin");
	ok(sample_binner_flush(&b, &out[1]) && out[1].t_ns == T0 + 7 * BIN_NS,
	   "and opens the bin it falls in");
}

int main(void)
{
	test_wanted();
	test_bins();
	return done_testing();
}
