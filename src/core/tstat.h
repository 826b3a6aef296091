/* SPDX-License-Identifier: MIT */
/* Sample statistics of repeated measurements: Student t quantiles, mean, spread, interval. */
#ifndef IOWATT_TSTAT_H
#define IOWATT_TSTAT_H

#include <stddef.h>

/* The two-sided confidence every interval of iowatt uses. */
#define TSTAT_CONFIDENCE 0.95

/*
 * The p quantile (0 < p < 1) of Student's t distribution with df > 0 degrees of freedom:
 * the t with P(T <= t) = p. From the distribution function by bisection to full double
 * precision; NAN for arguments out of range.
 */
double tstat_quantile(double p, double df);
/* P(T <= t) for Student's t with df degrees of freedom. */
double tstat_cdf(double t, double df);

struct tstat {
	size_t n;
	double mean, stddev; /* sample standard deviation (n - 1); NAN for n < 2 */
	double cv;	     /* stddev / |mean| */
	double min, max;
	double ci_lo, ci_hi; /* mean -+ t(1 - (1 - conf) / 2, n - 1) stddev / sqrt(n); NAN for n < 2 */
};

/* Statistics of x[0..n) (NAN values are skipped) at two-sided confidence conf. */
void tstat_describe(const double *x, size_t n, double conf, struct tstat *out);

#endif
