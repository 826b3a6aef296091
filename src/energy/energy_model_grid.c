/* SPDX-License-Identifier: MIT */
/* The power model's search over the window, hold and lag a meter that declares none reads with. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"
#include "energy/energy_model_lsq.h"

/* The grid's windows for a meter of this period: a quarter, half, 100 ms and all of it. */
static unsigned grid_windows(uint64_t period_ns, uint64_t bin_ns, uint64_t *w)
{
	uint64_t cand[4] = { period_ns / 4, period_ns / 2, 100000000ULL, period_ns };
	unsigned i, j, n = 0;

	for (i = 0; i < 4; i++) {
		if (cand[i] < 2 * bin_ns || cand[i] > period_ns)
			continue;
		for (j = 0; j < n && w[j] != cand[i]; j++)
			;
		if (j == n)
			w[n++] = cand[i];
	}
	return n;
}

void emodel_grid_space(const struct emodel_in *in, struct grid_space *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->grid = !in->window_ns;
	if (sp->grid) {
		sp->nw = grid_windows(in->period_ns, in->ops->bin_ns, sp->wins);
		sp->lo = EMODEL_LAG_MIN_NS;
		sp->hi = EMODEL_LAG_MAX_NS;
		sp->step = EMODEL_LAG_STEP_NS;
	} else {
		sp->nw = 1;
		sp->wins[0] = in->window_ns;
		sp->lo = sp->hi = in->lag_ns;
		sp->step = 1;
	}
}

/*
 * The job's energy above idle at one point of the grid, as net_energy() gives it at the
 * best: sum c_k (N_k - xbar_k T) + (ybar - idle) T, a kind no window held priced at half
 * the dearest cost (NAN past EMODEL_RARE_SHARE of all operations).
 */
static double net_value(const struct emodel_in *in, const struct design *d,
			const struct solution *so, int base, int with)
{
	double span_s = (double)(in->t1_ns - in->t0_ns) / 1e9, mx, ybar = 0, net = 0;
	double seen = 0, all, dear = 0;
	int prior = isfinite(in->idle_w) && in->idle_u_w > 0;
	unsigned i;
	size_t n;
	int k;

	if (!d->n)
		return NAN;
	for (n = 0; n < d->n; n++)
		ybar += d->y[n] / (double)d->n;
	for (i = 1; i < so->m; i++) {
		k = (int)so->cols[i] - 1;
		mx = 0;
		for (n = 0; n < d->n; n++)
			mx += d->x[n * NP + so->cols[i]] / (double)d->n;
		net += so->p[i] * (in->ops->total[k] - mx * span_s);
		seen += in->ops->total[k] + (k == base ? in->ops->total[with] : 0);
		dear = so->p[i] > dear ? so->p[i] : dear;
	}
	all = emodel_priced_ops(in);
	if (all - seen > EMODEL_RARE_SHARE * all)
		return NAN;
	return net + (all - seen) * dear / 2 + (ybar - (prior ? in->idle_w : so->p[0])) * span_s;
}

/* The kinds given a cost at a point (bit k): those fitted, and the partner a pair's sum
 * holds. */
static unsigned priced(const struct solution *so, int with)
{
	unsigned i, bits = with >= 0 ? 1u << with : 0;

	for (i = 1; i < so->m; i++)
		bits |= 1u << (so->cols[i] - 1);
	return bits;
}

/* The hold tried with window iw: the meter's declared one, or on the grid one window (the
 * lags then kept leave none for a window much longer than the grid's reach). */
static uint64_t grid_hold(const struct emodel_in *in, const struct grid_space *sp, unsigned iw)
{
	return sp->grid ? sp->wins[iw] : in->hold_ns;
}

/* Fits every point of the space (a pair merged where force names it) and keeps the best,
 * with the spread of its neighbours' estimates. */
void emodel_grid_search(const struct emodel_in *in, const struct grid_space *sp,
			const double *cum, struct design *d, double *res, double floor_w,
			unsigned force, struct grid_best *gb)
{
	size_t ngp = 0, gp_max = 0, nlag = (size_t)((sp->hi - sp->lo) / sp->step + 1);
	struct grid_point *gp;
	uint64_t hold, hold_step, hold_max, phase;
	struct solution so;
	int64_t lag;
	int base, with;
	unsigned iw;
	double score;

	for (iw = 0; iw < sp->nw; iw++) {
		hold_max = grid_hold(in, sp, iw);
		gp_max += nlag * (1 + (hold_max + EMODEL_PHASE_STEP_NS - 1) / EMODEL_PHASE_STEP_NS);
	}
	gp = xcalloc(gp_max, sizeof(*gp));
	memset(gb, 0, sizeof(*gb));
	gb->score = INFINITY;
	for (iw = 0; iw < sp->nw; iw++) {
		/* each window is tried without a hold and with one (the grid's: one window) */
		hold_max = grid_hold(in, sp, iw);
		hold_step = hold_max ? hold_max : 1;
		for (hold = 0; hold <= hold_max; hold += hold_step)
		for (phase = 0; phase < (hold ? hold : 1); phase += EMODEL_PHASE_STEP_NS)
		/* a held window ends up to a hold before the lag: the lags that keep its end as
		 * far back as an unheld one's */
		for (lag = sp->lo; lag <= sp->hi - (sp->grid ? (int64_t)hold : 0); lag += sp->step) {
			emodel_design_build(in, cum, sp->wins[iw], lag, hold, phase, d);
			emodel_design_floor(d, floor_w);
			memset(&so, 0, sizeof(so));
			emodel_choose_cols(d, &so, &base, &with, force);
			emodel_fit_cols(in, d, &so, res);
			if (!so.ok)
				continue;
			score = so.chi2 / (double)(so.dof ? so.dof : 1);
			if (ngp < gp_max) {
				gp[ngp] = (struct grid_point){ .score = score, .m = so.m, .base = base,
							       .net_j = net_value(in, d, &so, base,
										  with),
							       .priced = priced(&so, with) };
				memcpy(gp[ngp].p, so.p, sizeof(so.p));
				memcpy(gp[ngp].cols, so.cols, sizeof(so.cols));
				ngp++;
			}
			if (score < gb->score) {
				*gb = (struct grid_best){ so, sp->wins[iw], hold, phase, lag, base, with,
							  score, net_value(in, d, &so, base, with) };
			}
		}
	}
	if (gb->win_ns)
		emodel_selection_spread(gp, ngp, &gb->so, gb->base, gb->score, gb->net_j,
					gb->so.dof);
	free(gp);
}

