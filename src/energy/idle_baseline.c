/* SPDX-License-Identifier: MIT */
/* The idle baseline: the idle phase's readings, which of them were quiet, a robust level. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/idle_baseline.h"

/* MAD x this estimates the standard deviation of normal scatter. */
#define MAD_TO_SIGMA 1.482602218505602
#define HUBER_ITER 100

void idle_readings_reset(struct idle_readings *ir)
{
	ir->n = 0;
	ir->stride = 1;
	ir->skip = 0;
	ir->seen = 0;
}

/* Full: keep every other reading and from now on one in twice as many. */
static void thin(struct idle_readings *ir)
{
	size_t i;

	for (i = 0; 2 * i < ir->n; i++)
		ir->r[i] = ir->r[2 * i];
	ir->n = i;
	ir->stride = ir->stride ? 2 * ir->stride : 2;
	ir->skip = ir->stride - 1;
}

void idle_readings_add(struct idle_readings *ir, uint64_t t_ns, double w, const struct meter_u *u)
{
	ir->seen++;
	if (!isfinite(w))
		return;
	if (ir->skip) {
		ir->skip--;
		return;
	}
	if (ir->n == IDLE_READINGS_MAX)
		thin(ir);
	ir->r[ir->n++] = (struct idle_reading){ t_ns, w, (float)u->gain, (float)u->offset,
						 (float)u->res, (float)u->noise, (float)u->step };
	ir->skip = ir->stride > 1 ? ir->stride - 1 : 0;
}

static int quiet(const struct idle_reading *r, idle_busy_fn busy, const void *arg,
		 uint64_t reach_ns)
{
	uint64_t t0 = r->t_ns > reach_ns ? r->t_ns - reach_ns : 0;

	return !busy || !busy(arg, t0, r->t_ns);
}

size_t idle_quiet_count(const struct idle_readings *ir, idle_busy_fn busy, const void *arg,
			uint64_t reach_ns)
{
	size_t i, n = 0;

	for (i = 0; i < ir->n; i++)
		n += quiet(&ir->r[i], busy, arg, reach_ns);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* ψ(r) = r clipped to ±k. */
static double psi(double r)
{
	return r > IDLE_HUBER_K ? IDLE_HUBER_K : r < -IDLE_HUBER_K ? -IDLE_HUBER_K : r;
}

double idle_huber(double *x, size_t n, double s_min, double *u, double *scale)
{
	double *d, med, s, t, num, den, r, wgt, sp2 = 0, dp = 0;
	size_t i, it;

	*u = NAN;
	*scale = NAN;
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_double);
	med = median_sorted(x, n);
	d = xcalloc(n, sizeof(*d));
	for (i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	qsort(d, n, sizeof(*d), cmp_double);
	s = MAD_TO_SIGMA * median_sorted(d, n);
	free(d);
	if (!(s >= s_min))
		s = s_min;
	*scale = s;
	if (!(s > 0)) {
		*u = 0; /* every reading the same and nothing declared: the median is it */
		return med;
	}
	/* Iteratively reweighted mean from the median: weight min(1, k / |r|). */
	t = med;
	for (it = 0; it < HUBER_ITER; it++) {
		num = den = 0;
		for (i = 0; i < n; i++) {
			r = (x[i] - t) / s;
			wgt = fabs(r) <= IDLE_HUBER_K ? 1 : IDLE_HUBER_K / fabs(r);
			num += wgt * x[i];
			den += wgt;
		}
		r = num / den;
		if (fabs(r - t) <= 1e-12 * (fabs(t) + s)) {
			t = r;
			break;
		}
		t = r;
	}
	/* Sandwich variance s^2 E[psi^2] / E[psi']^2 / n, with n / (n - 1) for small n. */
	for (i = 0; i < n; i++) {
		r = (x[i] - t) / s;
		sp2 += psi(r) * psi(r);
		dp += fabs(r) <= IDLE_HUBER_K;
	}
	if (dp > 0 && n > 1)
		*u = s * sqrt(sp2 / (double)n) / (dp / (double)n) / sqrt((double)(n - 1));
	else
		*u = s; /* one reading, or all in the tails: as uncertain as one reading */
	return t;
}

/* The terms of a level known to u_stat from n readings, as an integral over span_s. */
static void terms_of(const struct idle_reading *const *q, size_t n, double u_stat,
		     double span_s, struct unc_terms *t)
{
	double gain = 0, offset = 0, res = 0, res2 = 0, noise2 = 0, step2 = 0, dx2 = 0, dx;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (!n || !isfinite(q[0]->u_gain))
		return;
	for (i = 0; i < n; i++) {
		gain += q[i]->u_gain;
		offset += q[i]->u_offset;
		res += q[i]->u_res;
		res2 += (double)q[i]->u_res * q[i]->u_res;
		noise2 += (double)q[i]->u_noise * q[i]->u_noise;
		step2 += (double)q[i]->step * q[i]->step;
		if (i) {
			dx = q[i]->w - q[i - 1]->w;
			dx2 += dx * dx;
		}
	}
	t->known = 1;
	t->gain = span_s * gain / (double)n;
	t->offset = span_s * offset / (double)n;
	/* As unc_terms_of: rounding averages out only when the readings move a step. */
	if (n > 1 && dx2 / (double)(n - 1) >= step2 / (double)n)
		t->res_rand2 = span_s * span_s * res2 / (double)n / (double)n;
	else
		t->res_sys = span_s * res / (double)n;
	/* The declared noise averaged over n readings is the least the scatter can be. */
	noise2 /= (double)n * (double)n;
	t->noise2 = span_s * span_s * fmax(u_stat * u_stat, noise2);
	t->step = sqrt(step2 / (double)n);
}

void idle_estimate(const struct idle_readings *ir, idle_busy_fn busy, const void *arg,
		   uint64_t reach_ns, double span_s, struct idle_estimate *out)
{
	const struct idle_reading **q = xcalloc(ir->n ? ir->n : 1, sizeof(*q));
	double *x = xcalloc(ir->n ? ir->n : 1, sizeof(*x)), noise2 = 0, scale;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ir->n; i++)
		if (quiet(&ir->r[i], busy, arg, reach_ns))
			q[n++] = &ir->r[i];
	out->quiet = n;
	out->excluded = ir->n - n;
	if (!n) {
		out->all = ir->n > 0;
		for (i = 0; i < ir->n; i++)
			q[n++] = &ir->r[i];
	}
	for (i = 0; i < n; i++) {
		x[i] = q[i]->w;
		if (isfinite(q[i]->u_noise))
			noise2 += (double)q[i]->u_noise * q[i]->u_noise;
	}
	out->w = idle_huber(x, n, n ? sqrt(noise2 / (double)n) : 0, &out->u_stat, &scale);
	terms_of(q, n, isfinite(out->u_stat) ? out->u_stat : 0, span_s, &out->terms);
	free(x);
	free(q);
}
