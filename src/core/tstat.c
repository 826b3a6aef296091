/* SPDX-License-Identifier: MIT */
/* Sample statistics of repeated measurements: Student t quantiles, mean, spread, interval. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/tstat.h"

#define BETA_MAX_ITER 300
#define BETA_EPS 1e-15
#define BETA_TINY 1e-300
#define BISECT_ITER 200

/* One term of the modified Lentz recurrence: c and d updated, the factor h takes. */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1 + num * *d;
	*c = 1 + num / *c;
	if (fabs(*d) < BETA_TINY)
		*d = BETA_TINY;
	if (fabs(*c) < BETA_TINY)
		*c = BETA_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/*
 * The continued fraction of the regularised incomplete beta function I_x(a, b), by the
 * modified Lentz method; it converges quickly for x < (a + 1) / (a + b + 2), and the
 * caller uses the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) to stay there. Its terms
 * alternate: d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)), d_2m+1 = -(a + m)(a + b + m) x /
 * ((a + 2m)(a + 2m + 1)).
 */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, delta;
	int m, m2;

	if (fabs(d) < BETA_TINY)
		d = BETA_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= BETA_MAX_ITER; m++) {
		m2 = 2 * m;
		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1) * (a + m2)), &c, &d);
		delta = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)), &c, &d);
		h *= delta;
		if (fabs(delta - 1) < BETA_EPS)
			break;
	}
	return h;
}

static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double tstat_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? 1 - tail : tail;
}

double tstat_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (!(df > 0) || !(p > 0) || !(p < 1))
		return NAN;
	if (p < 0.5)
		return -tstat_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (tstat_cdf(hi, df) < p && hi < DBL_MAX / 4)
		hi *= 2;
	for (i = 0; i < BISECT_ITER && hi - lo > hi * DBL_EPSILON; i++) {
		mid = 0.5 * (lo + hi);
		if (tstat_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

void tstat_describe(const double *x, size_t n, double conf, struct tstat *out)
{
	double sum = 0, m2 = 0, delta, half;
	size_t i, k = 0;

	memset(out, 0, sizeof(*out));
	out->mean = out->stddev = out->cv = out->min = out->max = NAN;
	out->ci_lo = out->ci_hi = NAN;
	for (i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		/* Welford: no cancellation when the spread is small against the mean */
		k++;
		delta = x[i] - sum;
		sum += delta / (double)k;
		m2 += delta * (x[i] - sum);
		if (!(x[i] >= out->min))
			out->min = x[i];
		if (!(x[i] <= out->max))
			out->max = x[i];
	}
	out->n = k;
	if (!k)
		return;
	out->mean = sum;
	if (k < 2)
		return;
	out->stddev = sqrt(m2 / (double)(k - 1));
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : NAN;
	half = tstat_quantile(1 - (1 - conf) / 2, (double)(k - 1)) * out->stddev / sqrt((double)k);
	out->ci_lo = out->mean - half;
	out->ci_hi = out->mean + half;
}
