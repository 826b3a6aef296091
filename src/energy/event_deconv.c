/* SPDX-License-Identifier: MIT */
/* Each kind's current kernel fitted to a fast meter's power by least squares: ops that overlap split apart. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/event_deconv.h"

#define K COMPL_KINDS
/* Kernel taps whose columns are all but dependent (a stream paced to the ms) are pulled
 * to zero by this share of the mean diagonal: the areas, which a periodic stream still
 * tells, do not move; a split the data cannot tell shows as a huge U95. */
#define ELD_RIDGE 1e-9

/* A kind with fewer ops is not fitted (its kernel would rest on them alone: a job's one
 * closing flush gave -2293 +- 1.2e6 uJ); the bins their kernels span are left out. */
#define ELD_MIN_OPS 5

/* Two kinds whose areas' estimates correlate at this or below (each known 5 x worse than
 * their sum: a variance inflation above 25, the power model's bound for columns that move
 * together) are one record to the readings. */
#define ELD_LOCKSTEP_R 0.98

struct nz {
	unsigned p;
	double v;
};

struct system {
	unsigned np;
	double *a, *b, *l, *sc; /* np x np normal matrix, right side, its factor, scales */
	double yy;
	size_t rows;
};

static void system_alloc(struct system *s, unsigned np)
{
	s->np = np;
	s->a = xcalloc((size_t)np * np, sizeof(*s->a));
	s->l = xcalloc((size_t)np * np, sizeof(*s->l));
	s->b = xcalloc(np, sizeof(*s->b));
	s->sc = xcalloc(np, sizeof(*s->sc));
}

static void system_free(struct system *s)
{
	free(s->a);
	free(s->l);
	free(s->b);
	free(s->sc);
}

/* The ridge on present kinds' taps; an absent kind's taps pinned at zero. */
static void regularize(struct system *s, unsigned taps, const int *present)
{
	double ridge = 0;
	unsigned i;

	for (i = 1; i < s->np; i++)
		ridge += s->a[(size_t)i * s->np + i];
	ridge *= ELD_RIDGE / (s->np - 1);
	for (i = 1; i < s->np; i++)
		s->a[(size_t)i * s->np + i] += present[(i - 1) / taps] ? ridge : 1;
}

/* The nonzero entries of bin i's row (the idle column first); their count. */
static unsigned row_of(const struct eld_in *in, const int *present, size_t i, struct nz *row)
{
	unsigned nr = 0, k, t;
	int64_t j;
	float v;

	row[nr++] = (struct nz){ 0, 1 };
	for (t = 0; t < in->taps; t++) {
		j = (int64_t)i + in->pre - t;
		if (j < 0 || (size_t)j >= in->n)
			continue;
		for (k = 0; k < K; k++) {
			v = in->m[(size_t)j * K + k];
			if (present[k] && v != 0)
				row[nr++] = (struct nz){ 1 + k * in->taps + t, v };
		}
	}
	return nr;
}

static void normal_build(const struct eld_in *in, const int *present, struct system *s,
			 struct nz *row)
{
	unsigned nr, a, b, np = s->np;
	size_t i;

	for (i = 0; i < in->n; i++) {
		if (!isfinite(in->w[i]))
			continue;
		nr = row_of(in, present, i, row);
		for (a = 0; a < nr; a++) {
			s->b[row[a].p] += row[a].v * in->w[i];
			for (b = 0; b < nr; b++)
				s->a[(size_t)row[a].p * np + row[b].p] += row[a].v * row[b].v;
		}
		s->yy += in->w[i] * in->w[i];
		s->rows++;
	}
}

/* Cholesky of a (scaled to a unit diagonal) plus prior on the idle term into l: 0, or -1
 * when a pivot is not positive. */
static int factor(struct system *s, double prior)
{
	unsigned i, j, k, np = s->np;
	double sum, d;

	for (i = 0; i < np; i++) {
		d = s->a[(size_t)i * np + i] + (i == 0 ? prior : 0);
		if (!(d > 0))
			return -1;
		s->sc[i] = 1 / sqrt(d);
	}
	for (i = 0; i < np; i++)
		for (j = 0; j <= i; j++) {
			sum = (s->a[(size_t)i * np + j] + (i == 0 && j == 0 ? prior : 0)) * s->sc[i] *
			      s->sc[j];
			for (k = 0; k < j; k++)
				sum -= s->l[(size_t)i * np + k] * s->l[(size_t)j * np + k];
			if (i == j) {
				if (!(sum > 1e-14))
					return -1;
				s->l[(size_t)i * np + i] = sqrt(sum);
			} else {
				s->l[(size_t)i * np + j] = sum / s->l[(size_t)j * np + j];
			}
		}
	return 0;
}

/* x = (A + prior)^-1 rhs with the factor in s. */
static void solve(const struct system *s, const double *rhs, double *x)
{
	unsigned i, k, np = s->np;
	double sum;

	for (i = 0; i < np; i++) {
		sum = rhs[i] * s->sc[i];
		for (k = 0; k < i; k++)
			sum -= s->l[(size_t)i * np + k] * x[k];
		x[i] = sum / s->l[(size_t)i * np + i];
	}
	for (i = np; i-- > 0;) {
		sum = x[i];
		for (k = i + 1; k < np; k++)
			sum -= s->l[(size_t)k * np + i] * x[k];
		x[i] = sum / s->l[(size_t)i * np + i];
	}
	for (i = 0; i < np; i++)
		x[i] *= s->sc[i];
}

/* Residuals of the fit p into r (NAN where no reading); their sum of squares. */
static double residuals(const struct eld_in *in, const int *present, const double *p,
			struct nz *row, double *r)
{
	double rss = 0, f;
	unsigned nr, a;
	size_t i;

	for (i = 0; i < in->n; i++) {
		r[i] = NAN;
		if (!isfinite(in->w[i]))
			continue;
		nr = row_of(in, present, i, row);
		for (f = 0, a = 0; a < nr; a++)
			f += row[a].v * p[row[a].p];
		r[i] = in->w[i] - f;
		rss += r[i] * r[i];
	}
	return rss;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The bins' noise variance from their successive differences' median (operations'
 * edges are few among them): the first pass's weight for the idle prior. */
static double noise_var(const struct eld_in *in)
{
	double *d = xcalloc(in->n, sizeof(*d)), v;
	size_t i, nd = 0;

	for (i = 1; i < in->n; i++)
		if (isfinite(in->w[i]) && isfinite(in->w[i - 1]))
			d[nd++] = pow(in->w[i] - in->w[i - 1], 2);
	qsort(d, nd, sizeof(*d), cmp_dbl);
	/* the median of a chi-square of one degree is 0.455; a difference has twice the
	 * variance */
	v = nd ? d[nd / 2] / (2 * 0.455) : 0;
	free(d);
	return v;
}

/* The residuals' autocorrelation at lag l (r0: their sum of squares). */
static double autocorr(const double *r, size_t n, unsigned l, double r0)
{
	double rl = 0;
	size_t i;

	for (i = 0; i + l < n; i++)
		if (isfinite(r[i]) && isfinite(r[i + l]))
			rl += r[i] * r[i + l];
	return rl / r0;
}

/*
 * 1 + 2 x the residuals' autocorrelation summed over lags 1.., as far as the sums of
 * neighbouring pairs (lags 2m and 2m + 1) stay positive (Geyer's initial positive
 * sequence: a negative lag 1, a pulse's edge split between two bins, does not end the sum
 * before the positive lags after it); at least 1.
 */
static double inflation_of(const double *r, size_t n, unsigned max_lag)
{
	double r0 = 0, pair, f = -1;
	unsigned m;
	size_t i;

	for (i = 0; i < n; i++)
		if (isfinite(r[i]))
			r0 += r[i] * r[i];
	if (!(r0 > 0))
		return 1;
	for (m = 0; 2 * m + 1 <= max_lag; m++) {
		pair = (m ? autocorr(r, n, 2 * m, r0) : 1) + autocorr(r, n, 2 * m + 1, r0);
		if (!(pair > 0))
			break;
		f += 2 * pair;
	}
	return f > 1 ? f : 1;
}

/* The idle prior's weight on the normal equations at residual variance s2. */
static double prior_of(const struct eld_in *in, double s2)
{
	return isfinite(in->idle_u_w) && isfinite(in->idle_w) && in->idle_u_w >= 0
		       ? s2 / fmax(in->idle_u_w * in->idle_u_w, 1e-12)
		       : 0;
}

/* Fits with the idle prior at variance s2: the parameters into p; -1: singular. */
static int fit_at(struct system *s, const struct eld_in *in, double s2, double *p, double *rhs)
{
	double prior = prior_of(in, s2);

	if (factor(s, prior))
		return -1;
	memcpy(rhs, s->b, s->np * sizeof(*rhs));
	rhs[0] += prior * (isfinite(in->idle_w) ? in->idle_w : 0);
	solve(s, rhs, p);
	return 0;
}

/* The area of kind k's kernel as a selector over the parameters into e. */
static void area_of(const struct eld_in *in, unsigned np, unsigned k, double *e)
{
	unsigned t;

	memset(e, 0, np * sizeof(*e));
	for (t = 0; t < in->taps; t++)
		e[1 + k * in->taps + t] = in->bin_s;
}

static double dot(const double *a, const double *b, unsigned n)
{
	double s = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

static void figures(const struct eld_in *in, const int *present, const struct system *s,
		    const double *p, double s2, struct eld_fit *out)
{
	double *e = xcalloc(s->np, sizeof(*e)), *z = xcalloc((size_t)K * s->np, sizeof(*z));
	double v[K][K] = { { 0 } }, sc = s2 * out->inflation;
	unsigned k, j, t;

	for (k = 0; k < K; k++) {
		if (!present[k])
			continue;
		for (t = 0; t < in->taps; t++)
			out->kernel_w[k][t] = p[1 + k * in->taps + t];
		area_of(in, s->np, k, e);
		out->j_per_op[k] = dot(e, p, s->np);
		solve(s, e, z + (size_t)k * s->np);
		for (j = 0; j <= k; j++) {
			if (!present[j])
				continue;
			area_of(in, s->np, j, e);
			v[k][j] = v[j][k] = dot(e, z + (size_t)k * s->np, s->np) * sc;
		}
		out->u95_j[k] = 2 * sqrt(fmax(0, v[k][k]));
	}
	for (k = 0; k < K; k++)
		for (j = 0; j < K; j++)
			out->area_r[k][j] = present[k] && present[j] && v[k][k] > 0 && v[j][j] > 0
						    ? v[k][j] / sqrt(v[k][k] * v[j][j])
						    : NAN;
	memset(e, 0, s->np * sizeof(*e));
	e[0] = 1;
	solve(s, e, z);
	out->idle_w = p[0];
	out->idle_u95_w = 2 * sqrt(fmax(0, z[0] * sc));
	free(e);
	free(z);
}

/*
 * The kernels' energy in the bins fitted (each bin's kernel terms, their idle left out)
 * against the readings' energy above the idle prior there: the prior is the idle phase's,
 * measured apart from these bins, so current the kernels do not hold (later than they
 * reach, not aligned, no completion's) shows as a difference (docs/energy.md).
 */
static void balance(const struct eld_in *in, const int *present, const struct system *s,
		    const double *p, double s2, struct nz *row, struct eld_fit *out)
{
	double *e = xcalloc(s->np, sizeof(*e)), *z = xcalloc(s->np, sizeof(*z)), above = 0;
	unsigned nr, a;
	size_t i, bins = 0;

	out->kernels_j = out->kernels_u95_j = out->above_idle_j = out->above_idle_u95_j = NAN;
	for (i = 0; i < in->n; i++) {
		if (!isfinite(in->w[i]))
			continue;
		nr = row_of(in, present, i, row);
		for (a = 1; a < nr; a++)
			e[row[a].p] += row[a].v * in->bin_s;
		above += in->w[i] - in->idle_w;
		bins++;
	}
	if (isfinite(in->idle_w) && isfinite(in->idle_u_w) && bins) {
		solve(s, e, z);
		out->kernels_j = dot(e, p, s->np);
		out->kernels_u95_j = 2 * sqrt(fmax(0, dot(e, z, s->np) * s2 * out->inflation));
		out->above_idle_j = above * in->bin_s;
		out->above_idle_u95_j = 2 * in->bin_s *
					sqrt(pow(in->idle_u_w * (double)bins, 2) +
					     (double)bins * s2 * out->inflation);
	}
	free(e);
	free(z);
}

/* One fit of the present kinds' kernels into out: 0, or -EINVAL (too few bins, singular). */
static int fit_kinds(const struct eld_in *in, const int *present, struct eld_fit *out)
{
	struct system s = { 0 };
	struct nz *row;
	double *p, *rhs, *r, s2;
	unsigned k, dof;
	int rc = -EINVAL;

	system_alloc(&s, 1 + K * in->taps);
	p = xcalloc(s.np, sizeof(*p));
	rhs = xcalloc(s.np, sizeof(*rhs));
	row = xcalloc(s.np, sizeof(*row));
	r = xcalloc(in->n, sizeof(*r));
	normal_build(in, present, &s, row);
	regularize(&s, in->taps, present);
	dof = 1;
	for (k = 0; k < K; k++)
		dof += present[k] ? in->taps : 0;
	if (s.rows <= dof + 1)
		goto out;
	/* twice: the idle prior weighs against the residuals' variance, known after a fit */
	s2 = noise_var(in);
	if (fit_at(&s, in, s2 > 0 ? s2 : 1e-12, p, rhs))
		goto out;
	s2 = residuals(in, present, p, row, r) / (double)(s.rows - dof);
	if (fit_at(&s, in, s2 > 0 ? s2 : 1e-12, p, rhs))
		goto out;
	s2 = residuals(in, present, p, row, r) / (double)(s.rows - dof);
	out->residual_rms_w = sqrt(s2);
	out->inflation = inflation_of(r, in->n, in->taps);
	out->bins = s.rows;
	figures(in, present, &s, p, s2, out);
	balance(in, present, &s, p, s2, row, out);
	rc = 0;
out:
	system_free(&s);
	free(p);
	free(rhs);
	free(row);
	free(r);
	return rc;
}

/* The pair whose areas the split fit could not tell apart, most correlated first: 0, or
 * -1 when none. The kind with more ops carries the pair. */
static int lockstep_pair(const struct eld_fit *f, int *base, int *with)
{
	double worst = -ELD_LOCKSTEP_R;
	unsigned j, k;
	int found = -1;

	for (j = 0; j < K; j++)
		for (k = j + 1; k < K; k++)
			if (f->area_r[j][k] <= worst) {
				worst = f->area_r[j][k];
				*base = f->ops[j] >= f->ops[k] ? (int)j : (int)k;
				*with = *base == (int)j ? (int)k : (int)j;
				found = 0;
			}
	return found;
}

/*
 * in's power with the bins an unfitted kind's ops reach (their kernels' span) taken out:
 * their current (a job's closing fsync with the journal writes before its flush) would
 * otherwise go to the fitted kernels that reach those bins (the last write read 12 mJ
 * more, +286 uJ on each of 42 writes on the PPK2 emulator). NULL when there are none.
 */
static double *mask_unfitted(const struct eld_in *in, const int *present, const double *ops)
{
	double *w = NULL;
	int64_t b, i;
	size_t j;
	unsigned k;

	for (k = 0; k < K; k++) {
		if (present[k] || !(ops[k] > 0))
			continue;
		if (!w) {
			w = xcalloc(in->n, sizeof(*w));
			memcpy(w, in->w, in->n * sizeof(*w));
		}
		for (j = 0; j < in->n; j++) {
			if (in->m[j * K + k] == 0)
				continue;
			b = (int64_t)j - in->pre;
			for (i = b < 0 ? 0 : b; i < b + in->taps && (size_t)i < in->n; i++)
				w[i] = NAN;
		}
	}
	return w;
}

/* The kinds' kernels, a pair in lock-step as one (event_deconv_fit). */
static int fit_present(const struct eld_in *in, int *present, struct eld_fit *out)
{
	int base, with, rc = fit_kinds(in, present, out);

	if (rc || lockstep_pair(out, &base, &with))
		return rc;
	/* Refitted without the partner's column: the carrier's kernel takes the partner's
	 * current too (it lies within the kernel's span when they always come together),
	 * as the record the readings tell. */
	present[with] = 0;
	memset(out->kernel_w[with], 0, sizeof(out->kernel_w[with]));
	rc = fit_kinds(in, present, out);
	if (rc)
		return rc;
	out->sum_base = base;
	out->sum_with = with;
	out->sum_j = out->j_per_op[base];
	out->sum_u95_j = out->u95_j[base];
	out->sum_ratio = out->ops[with] / out->ops[base];
	out->j_per_op[base] = out->u95_j[base] = NAN;
	out->j_per_op[with] = out->u95_j[with] = NAN;
	return 0;
}

int event_deconv_fit(const struct eld_in *in, struct eld_fit *out)
{
	int present[K] = { 0 }, any = 0, rc;
	struct eld_in masked;
	double *w;
	unsigned k, j;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < K; k++) {
		out->j_per_op[k] = out->u95_j[k] = NAN;
		for (j = 0; j < K; j++)
			out->area_r[k][j] = NAN;
	}
	out->idle_w = out->idle_u95_w = out->residual_rms_w = NAN;
	out->sum_j = out->sum_u95_j = out->sum_ratio = NAN;
	out->kernels_j = out->kernels_u95_j = out->above_idle_j = out->above_idle_u95_j = NAN;
	out->sum_base = out->sum_with = -1;
	out->inflation = 1;
	if (!in->n || !in->taps || in->taps > ELD_MAX_TAPS || in->pre >= in->taps)
		return -EINVAL;
	for (i = 0; i < in->n; i++)
		for (k = 0; k < K; k++)
			out->ops[k] += in->m[i * K + k];
	for (k = 0; k < K; k++)
		any |= present[k] = out->ops[k] >= ELD_MIN_OPS;
	if (!any)
		return -EINVAL;
	w = mask_unfitted(in, present, out->ops);
	masked = *in;
	if (w)
		masked.w = w;
	rc = fit_present(&masked, present, out);
	free(w);
	return rc;
}
