/* SPDX-License-Identifier: MIT */
/* How far the power model's fit can be off: the residuals' sandwich, the grid's spread, Student's t. */
#include <math.h>
#include <string.h>

#include "energy/energy_model_lsq.h"

/*
 * The coverage factor of a spread estimated from nu degrees of freedom at the 95.45 % that
 * k = 2 gives a known one: Student's t (GUM table G.2 up to 10, its expansion in 1/nu past).
 */
double emodel_coverage_k(double nu)
{
	static const double t[10] = { 13.97, 4.53, 3.31, 2.87, 2.65, 2.52, 2.43, 2.37, 2.32, 2.28 };

	if (nu < 1)
		nu = 1;
	if (nu <= 10)
		return t[(int)nu - 1];
	return 2 + 2.5 / nu + 3.0625 / (nu * nu);
}

/*
 * The covariance from the residuals where they fall: (X'WX)^-1 M (X'WX)^-1, M summing
 * each row's w r x x' with r scaled by 1 / (1 - its leverage) (a row that alone sets a
 * cost leaves a residual near zero that says nothing of its error), and the cross terms of
 * rows whose windows overlap (they saw the same energy). A misfit that sits in the few
 * readings that caught operations (a record's varying journal writes) widens the costs
 * those readings set, where chi^2/dof spread over every quiet reading would not.
 */
void emodel_robust_cov(const struct emodel_in *in, const struct design *d, struct solution *so,
		      const double *res)
{
	double u[NP], prev[NP] = { 0 }, tmp[NP][NP] = { { 0 } }, h, wt;
	int prior = isfinite(in->idle_w) && in->idle_u_w > 0, have_prev = 0;
	unsigned i, j, k, m = so->m;
	size_t n;

	memset(so->meat, 0, sizeof(so->meat));
	for (n = 0; n < d->n; n++) {
		wt = 1 / (d->s[n] * d->s[n]);
		h = 0;
		for (i = 0; i < m; i++)
			for (j = 0; j < m; j++)
				h += d->x[n * NP + so->cols[i]] * so->cov[i][j] *
				     d->x[n * NP + so->cols[j]];
		h *= wt;
		h = h < EMODEL_LEVERAGE_MAX ? h : EMODEL_LEVERAGE_MAX;
		for (i = 0; i < NP; i++)
			u[i] = wt * res[n] / (1 - h) * d->x[n * NP + i];
		for (i = 0; i < NP; i++)
			for (j = 0; j < NP; j++) {
				so->meat[i][j] += u[i] * u[j];
				if (have_prev)
					so->meat[i][j] += u[i] * prev[j] + prev[i] * u[j];
			}
		have_prev = n + 1 < d->n && d->end[n + 1] - d->end[n] < (int64_t)d->span_ns;
		memcpy(prev, u, sizeof(prev));
	}
	if (prior)
		so->meat[0][0] += 1 / (in->idle_u_w * in->idle_u_w);
	for (i = 0; i < m; i++)
		for (j = 0; j < m; j++)
			for (k = 0; k < m; k++)
				tmp[i][j] += so->cov[i][k] * so->meat[so->cols[k]][so->cols[j]];
	for (i = 0; i < m; i++)
		for (j = 0; j < m; j++) {
			so->rob[i][j] = 0;
			for (k = 0; k < m; k++)
				so->rob[i][j] += tmp[i][k] * so->cov[k][j];
		}
}

/*
 * The variance of a figure sum g_i p_i: the larger of what the declared noise (times the
 * misfit) and what the residuals where they fall (their few degrees of freedom taken by
 * k95) say, plus the spread over the windows and lags the readings could not tell apart.
 */
double emodel_fig_var(const struct solution *so, const double *g, double infl, double k95)
{
	double model = 0, rob = 0, sel = 0;
	unsigned i, j;

	for (i = 0; i < so->m; i++)
		for (j = 0; j < so->m; j++) {
			model += g[i] * g[j] * so->cov[i][j];
			rob += g[i] * g[j] * so->rob[i][j];
			sel += g[i] * g[j] * so->sel[i][j];
		}
	model *= infl;
	rob *= k95 * k95 / 4;
	return (model > rob ? model : rob) + sel;
}


/*
 * The spread of the estimates over the grid's points about the one kept: each weighs by
 * its likelihood against the best, exp(-(chi^2 - chi^2_best) / (2 misfit)), so lags and
 * windows the readings cannot tell apart from the best widen the U95 by how far apart
 * their estimates lie, and those the readings rule out do not. Points with other columns
 * (a pair merged at one lag, split at another) estimate other costs: left out of the
 * costs' spread. The job's energy above idle is the same figure at every point, whatever
 * its columns: its spread takes them all (a wide window that holds every in-step record
 * and one held on the meter's conversions that holds a stretch of them price the job
 * apart, as both fit).
 */
void emodel_selection_spread(const struct grid_point *gp, size_t ngp, struct solution *b,
			     int base, double best_score, double best_net_j, size_t dof)
{
	double s2 = best_score > 1 ? best_score : 1, wsum = 0, nsum = 0, nsel = 0, wt, dp[NP];
	double all = 0, unknown = 0, blind[COMPL_KINDS] = { 0 };
	unsigned i, j, k;
	size_t c;

	memset(b->sel, 0, sizeof(b->sel));
	for (c = 0; c < ngp; c++) {
		wt = exp(-(gp[c].score - best_score) * (double)dof / (2 * s2));
		/* a point where no window holds a kind allows it any cost: the likelihood it
		 * carries is left out of no interval, and cannot be weighed in as a spread */
		all += wt;
		for (k = 0; k < COMPL_KINDS; k++)
			blind[k] += gp[c].priced & 1u << k ? 0 : wt;
		unknown += isfinite(gp[c].net_j) ? 0 : wt;
		if (isfinite(gp[c].net_j) && isfinite(best_net_j)) {
			nsum += wt;
			nsel += wt * (gp[c].net_j - best_net_j) * (gp[c].net_j - best_net_j);
		}
		if (gp[c].m != b->m || gp[c].base != base ||
		    memcmp(gp[c].cols, b->cols, sizeof(b->cols[0]) * b->m))
			continue;
		wsum += wt;
		for (i = 0; i < b->m; i++)
			dp[i] = gp[c].p[i] - b->p[i];
		for (i = 0; i < b->m; i++)
			for (j = 0; j < b->m; j++)
				b->sel[i][j] += wt * dp[i] * dp[j];
	}
	for (i = 0; wsum > 0 && i < b->m; i++)
		for (j = 0; j < b->m; j++)
			b->sel[i][j] /= wsum;
	b->net_sel = nsum > 0 ? nsel / nsum : NAN;
	for (k = 0; k < COMPL_KINDS; k++)
		b->uncaught[k] = all > 0 ? blind[k] / all : 0;
	b->net_unknown = all > 0 ? unknown / all : 0;
}
