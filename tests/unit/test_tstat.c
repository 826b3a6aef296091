/* SPDX-License-Identifier: MIT */
/* Repeat statistics: t quantiles against the published table, hand-computed intervals, PTS. */
#include <math.h>

#include "core/steady.h"
#include "core/tstat.h"
#include "tap.h"

/*
 * t(0.975, df) for df = 1..29 (n = 2..30 rounds), as every statistics table prints it
 * (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), to six decimals.
 */
static const double t975[] = {
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
	2.262157,  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
	2.109816,  2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
	2.059539,  2.055529, 2.051831, 2.048407, 2.045230,
};

static void test_quantiles(void)
{
	size_t i;
	int worst = 0;
	double err, max_err = 0;

	for (i = 0; i < sizeof(t975) / sizeof(t975[0]); i++) {
		err = fabs(tstat_quantile(0.975, (double)(i + 1)) - t975[i]);
		if (err > max_err) {
			max_err = err;
			worst = (int)i + 1;
		}
	}
	ok(max_err <= 5e-7, "t(0.975, df) for n = 2..30 matches the table to 6 decimals "
	   "(worst df %d, off by %.2g)", worst, max_err);
	is_dbl(tstat_quantile(0.995, 10), 3.169273, 5e-7, "t(0.995, 10) = 3.169273");
	is_dbl(tstat_quantile(0.95, 5), 2.015048, 5e-7, "t(0.95, 5) = 2.015048");
	is_dbl(tstat_quantile(0.975, 1e7), 1.959964, 5e-6, "large df: the normal's 1.959964");
	is_dbl(tstat_quantile(0.025, 4), -2.776445, 5e-7, "lower tail is symmetric");
	is_dbl(tstat_cdf(2.776445, 4), 0.975, 1e-7, "the CDF inverts the quantile");
	is_dbl(tstat_cdf(0, 3), 0.5, 1e-15, "CDF at 0 is one half");
	ok(isnan(tstat_quantile(1.0, 3)) && isnan(tstat_quantile(0.5, 0)), "out of range: NAN");
}

static void test_describe(void)
{
	const double x[] = { 10, 12, NAN, 11, 13, 9 };
	const double one[] = { 4.2 };
	struct tstat s;

	tstat_describe(x, 6, 0.95, &s);
	/* mean 11, squares of deviations 1+1+0+4+4 = 10, var 10/4 = 2.5 */
	is_int(s.n, 5, "NAN values are left out");
	is_dbl(s.mean, 11.0, 1e-12, "mean 11");
	is_dbl(s.stddev, sqrt(2.5), 1e-12, "sample stddev sqrt(10/4) = 1.5811");
	is_dbl(s.cv, sqrt(2.5) / 11, 1e-12, "CV 14.37 %%");
	ok(s.min == 9 && s.max == 13, "min 9, max 13");
	/* half width: 2.776445 x 1.5811388 / sqrt(5) = 1.963243 */
	is_dbl(s.ci_lo, 11 - 1.963243, 2e-6, "CI low 9.036757");
	is_dbl(s.ci_hi, 11 + 1.963243, 2e-6, "CI high 12.963243");
	tstat_describe(one, 1, 0.95, &s);
	ok(s.n == 1 && s.mean == 4.2 && isnan(s.stddev) && isnan(s.ci_lo),
	   "one round: a mean, no spread, no interval");
}

static void test_steady(void)
{
	const double pass[] = { 100, 102, 98, 101, 99 };
	const double slope[] = { 92, 96, 100, 104, 108 };
	const double rounds[] = { 60, 80, 92, 96, 100, 104, 108, 100, 101, 99, 100, 102 };
	const double edge_range[] = { 90, 110, 100, 100, 100 };
	const double edge_slope[] = { 95, 97.5, 100, 102.5, 105 };
	const double over_slope[] = { 95, 97.5, 100, 102.5, 105.5 };
	struct steady_window w;
	int rc;

	steady_judge(pass, 5, &w);
	/* range 4 of 100; slope: sum (i-2)(y-100) = -3 over sum (i-2)^2 = 10: -0.3/round */
	is_dbl(w.range_frac, 0.04, 1e-12, "passing window: range 4 %% of the mean");
	is_dbl(w.slope_frac, 0.012, 1e-12, "passing window: fit line moves 1.2 %% over it");
	ok(steady_find(pass, 5, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w) == 0 &&
	   w.reached, "100 102 98 101 99 is steady");
	steady_judge(slope, 5, &w);
	is_dbl(w.range_frac, 0.16, 1e-12, "92..108: range 16 %%, within 20 %%");
	is_dbl(w.slope_frac, 0.16, 1e-12, "but the line climbs 4/round: 16 %% > 10 %%");
	ok(steady_find(slope, 5, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w) == 0 &&
	   !w.reached, "92 96 100 104 108 fails on slope alone");
	rc = steady_find(rounds, 12, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w);
	ok(rc == 0 && w.reached && w.first == 3 && w.last == 7,
	   "a warming drive: the first steady window is rounds 4-8 (%zu-%zu)", w.first + 1,
	   w.last + 1);
	is_dbl(w.slope_frac, 6.4 / 101.6, 1e-12, "its line moves 6.3 %%");
	ok(steady_find(rounds, 4, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w) == -1,
	   "fewer rounds than a window: no verdict");
	/* SNIA's words are "no more than 20 %" and "within 10 %": both limits are in */
	ok(steady_find(edge_range, 5, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w) == 0 &&
	   w.reached && w.range_frac == 0.20, "90 110 100 100 100: a range of exactly 20 %% is steady");
	ok(steady_find(edge_slope, 5, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w) == 0 &&
	   w.reached && w.slope_frac == 0.10,
	   "95 97.5 100 102.5 105: a fit line moving exactly 10 %% is steady");
	ok(steady_find(over_slope, 5, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w) == 0 &&
	   !w.reached, "95 97.5 100 102.5 105.5: just over 10 %% is not");
}

int main(void)
{
	test_quantiles();
	test_describe();
	test_steady();
	return done_testing();
}
