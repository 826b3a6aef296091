/* SPDX-License-Identifier: MIT */
/* The power model's design (completions per reading's window) and its weighted least-squares solution. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"
#include "energy/energy_model_lsq.h"

/* Cumulative completions per kind at each bin edge: cum[i * K + k] holds bins < i. */
double *emodel_cumulate(const struct completions *ops)
{
	double *cum = xcalloc((ops->n + 1) * COMPL_KINDS, sizeof(*cum));
	size_t i;
	unsigned k;

	for (i = 0; i < ops->n; i++)
		for (k = 0; k < COMPL_KINDS; k++)
			cum[(i + 1) * COMPL_KINDS + k] =
			    cum[i * COMPL_KINDS + k] + ops->c[i * COMPL_KINDS + k];
	return cum;
}

/* Completions of kind k before t_ns, each bin's spread evenly over it. */
static double count_before(const struct completions *ops, const double *cum, int64_t t_ns,
			   unsigned k)
{
	int64_t rel = t_ns - (int64_t)ops->t0_ns;
	size_t i;

	if (rel <= 0)
		return 0;
	i = (size_t)((uint64_t)rel / ops->bin_ns);
	if (i >= ops->n)
		return cum[ops->n * COMPL_KINDS + k];
	return cum[i * COMPL_KINDS + k] + (double)((uint64_t)rel - i * ops->bin_ns) /
					      (double)ops->bin_ns * ops->c[i * COMPL_KINDS + k];
}

/* The last point of the grid phase_ns + k hold_ns (after t0_ns) at or before t_ns. */
static int64_t grid_floor(int64_t t_ns, int64_t t0_ns, uint64_t hold_ns, uint64_t phase_ns)
{
	int64_t rel = t_ns - t0_ns - (int64_t)phase_ns, h = (int64_t)hold_ns, k = rel / h;

	if (rel < 0 && k * h != rel)
		k--;
	return t0_ns + (int64_t)phase_ns + k * h;
}

/* Whether [start, end) holds a completion of a kind in the bits unpriced. */
static int holds_unpriced(const struct emodel_in *in, const double *cum, unsigned unpriced,
			  int64_t start, int64_t end)
{
	unsigned k;

	for (k = 0; k < COMPL_KINDS; k++)
		if (unpriced & 1u << k &&
		    count_before(in->ops, cum, end, k) > count_before(in->ops, cum, start, k))
			return 1;
	return 0;
}

void emodel_design_build(const struct emodel_in *in, const double *cum, uint64_t win_ns,
			int64_t lag_ns, uint64_t hold_ns, uint64_t phase_ns, struct design *d)
{
	double win_s = (double)win_ns / 1e9;
	int64_t end, start;
	unsigned k;
	size_t i;

	d->n = 0;
	d->span_ns = win_ns;
	d->unpriced = 0;
	for (k = 0; k < COMPL_KINDS; k++)
		if (in->ops->total[k] > 0 && in->ops->total[k] < EMODEL_MIN_OPS)
			d->unpriced |= 1u << k;
	for (i = 0; i < in->n; i++) {
		end = (int64_t)in->r[i].t_ns - lag_ns;
		/* a meter that converts every hold_ns and shows its last conversion until the
		 * next: the window ends on that grid, at an age that drifts reading by reading */
		if (hold_ns)
			end = grid_floor(end, (int64_t)in->t0_ns, hold_ns, phase_ns);
		start = end - (int64_t)win_ns;
		if (start < (int64_t)in->t0_ns || end > (int64_t)in->t1_ns || !isfinite(in->r[i].w))
			continue;
		/* a reading that holds an op left unpriced would set the other costs by it */
		if (d->unpriced && !d->keep_unpriced && holds_unpriced(in, cum, d->unpriced, start, end))
			continue;
		d->x[d->n * NP] = 1;
		for (k = 0; k < COMPL_KINDS; k++)
			d->x[d->n * NP + 1 + k] = (count_before(in->ops, cum, end, k) -
						   count_before(in->ops, cum, start, k)) /
						  win_s;
		d->y[d->n] = in->r[i].w;
		d->s[d->n] = in->r[i].u_w;
		d->end[d->n] = end;
		d->n++;
	}
}

/* Solves the m x m system a p = b in place by Cholesky, scaled to a unit diagonal; the
 * inverse into inv. -1 when a pivot is too small to trust (columns nearly dependent). */
int energy_model_solve(double a[NP][NP], const double *b, unsigned m, double *p,
		       double inv[NP][NP])
{
	double l[NP][NP] = { { 0 } }, sc[NP], sum, z[NP];
	unsigned i, j, k, c;

	for (i = 0; i < m; i++) {
		if (!(a[i][i] > 0))
			return -1;
		sc[i] = 1 / sqrt(a[i][i]);
	}
	for (i = 0; i < m; i++)
		for (j = 0; j <= i; j++) {
			sum = a[i][j] * sc[i] * sc[j];
			for (k = 0; k < j; k++)
				sum -= l[i][k] * l[j][k];
			if (i == j) {
				if (sum < 1e-10)
					return -1;
				l[i][i] = sqrt(sum);
			} else {
				l[i][j] = sum / l[j][j];
			}
		}
	/* column c of the scaled inverse: solve L L^T z = e_c */
	for (c = 0; c <= m; c++) {
		for (i = 0; i < m; i++) {
			sum = c < m ? (i == c) : b[i] * sc[i];
			for (k = 0; k < i; k++)
				sum -= l[i][k] * z[k];
			z[i] = sum / l[i][i];
		}
		for (i = m; i-- > 0;) {
			sum = z[i];
			for (k = i + 1; k < m; k++)
				sum -= l[k][i] * z[k];
			z[i] = sum / l[i][i];
		}
		for (i = 0; i < m; i++) {
			if (c < m)
				inv[i][c] = z[i] * sc[i] * sc[c];
			else
				p[i] = z[i] * sc[i];
		}
	}
	return 0;
}

void emodel_fit_cols(const struct emodel_in *in, const struct design *d, struct solution *so,
		     double *res)
{
	double a[NP][NP] = { { 0 } }, b[NP] = { 0 }, wt, r;
	int prior = isfinite(in->idle_w) && in->idle_u_w > 0;
	unsigned i, j, m = so->m;
	size_t n;

	for (n = 0; n < d->n; n++) {
		wt = 1 / (d->s[n] * d->s[n]);
		for (i = 0; i < m; i++) {
			b[i] += wt * d->x[n * NP + so->cols[i]] * d->y[n];
			for (j = 0; j < m; j++)
				a[i][j] += wt * d->x[n * NP + so->cols[i]] * d->x[n * NP + so->cols[j]];
		}
	}
	if (prior) {
		wt = 1 / (in->idle_u_w * in->idle_u_w);
		a[0][0] += wt;
		b[0] += wt * in->idle_w;
	}
	so->ok = d->n + (size_t)prior > m && !energy_model_solve(a, b, m, so->p, so->cov);
	if (!so->ok)
		return;
	so->dof = d->n + (size_t)prior - m;
	so->chi2 = 0;
	for (n = 0; n < d->n; n++) {
		r = d->y[n];
		for (i = 0; i < m; i++)
			r -= so->p[i] * d->x[n * NP + so->cols[i]];
		so->chi2 += r * r / (d->s[n] * d->s[n]);
		res[n] = r;
	}
	if (prior)
		so->chi2 += pow((so->p[0] - in->idle_w) / in->idle_u_w, 2);
	emodel_robust_cov(in, d, so, res);
}

/* The weighted correlation of two kinds' columns with the idle column taken out. */
static double column_r(const struct design *d, unsigned cj, unsigned ck)
{
	double sw = 0, mj = 0, mk = 0, sjj = 0, skk = 0, sjk = 0, wt, xj, xk;
	size_t n;

	for (n = 0; n < d->n; n++) {
		wt = 1 / (d->s[n] * d->s[n]);
		sw += wt;
		mj += wt * d->x[n * NP + cj];
		mk += wt * d->x[n * NP + ck];
	}
	if (!(sw > 0))
		return 0;
	mj /= sw;
	mk /= sw;
	for (n = 0; n < d->n; n++) {
		wt = 1 / (d->s[n] * d->s[n]);
		xj = d->x[n * NP + cj] - mj;
		xk = d->x[n * NP + ck] - mk;
		sjj += wt * xj * xj;
		skk += wt * xk * xk;
		sjk += wt * xj * xk;
	}
	return sjj > 0 && skk > 0 ? sjk / sqrt(sjj * skk) : 0;
}

double emodel_priced_ops(const struct emodel_in *in)
{
	double n = 0;
	unsigned k;

	for (k = 0; k < COMPL_KINDS; k++)
		if (in->ops->total[k] >= EMODEL_MIN_OPS)
			n += in->ops->total[k];
	return n;
}

double emodel_column_sum(const struct design *d, unsigned c)
{
	double s = 0;
	size_t n;

	for (n = 0; n < d->n; n++)
		s += d->x[n * NP + c];
	return s;
}

/*
 * The columns to fit at this design: idle and each kind seen in some window and done
 * often enough to price (not in d->unpriced); of a pair that moves together (or the pair *force names, bit k for kind k) only the kind seen
 * more (its cost then holds the other's share).
 */
void emodel_choose_cols(const struct design *d, struct solution *so, int *base, int *with,
			unsigned force)
{
	unsigned k, j;
	int merged[COMPL_KINDS] = { 0 };

	*base = *with = -1;
	for (j = 0; j < COMPL_KINDS; j++)
		for (k = j + 1; k < COMPL_KINDS; k++) {
			if (*base >= 0 || (d->unpriced & (1u << j | 1u << k)) ||
			    !(emodel_column_sum(d, 1 + j) > 0) || !(emodel_column_sum(d, 1 + k) > 0))
				continue;
			if (force != (1u << j | 1u << k) &&
			    fabs(column_r(d, 1 + j, 1 + k)) < EMODEL_COLLINEAR_R)
				continue;
			*base = emodel_column_sum(d, 1 + j) >= emodel_column_sum(d, 1 + k) ? (int)j : (int)k;
			*with = *base == (int)j ? (int)k : (int)j;
			merged[*with] = 1;
		}
	so->m = 1;
	so->cols[0] = 0;
	for (k = 0; k < COMPL_KINDS; k++)
		if (!merged[k] && !(d->unpriced & 1u << k) && emodel_column_sum(d, 1 + k) > 0)
			so->cols[so->m++] = 1 + k;
}

void emodel_design_floor(struct design *d, double floor_w)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!(d->s[i] >= floor_w))
			d->s[i] = floor_w;
}
