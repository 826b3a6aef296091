/* SPDX-License-Identifier: MIT */
/* The power model of a job: idle plus a cost per read, write and flush, fitted to the readings. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"
#include "energy/energy_model_lsq.h"

/* Residuals this many times the declared noise (chi^2 per degree of freedom 4): the model
 * does not describe the readings. */
#define EMODEL_POOR_CHI2 4.0
const char *const emodel_kind_names[COMPL_KINDS] = { "read", "write", "flush" };
static const char *const kind_plurals[COMPL_KINDS] = { "reads", "writes", "flushes" };

void emodel_say_pair(struct emodel_fit *out, const char *how, int base, int with)
{
	snprintf(out->why, sizeof(out->why), "%s and %s %s: only a %s with its %.2f %s can be known",
		 emodel_kind_names[base], emodel_kind_names[with], how, emodel_kind_names[base],
		 out->sum_ratio, kind_plurals[with]);
}

const char *energy_model_verdict_name(enum emodel_verdict v)
{
	switch (v) {
	case EMODEL_OK:
		return "ok";
	case EMODEL_POOR_FIT:
		return "poor fit";
	case EMODEL_NOT_IDENTIFIABLE:
		return "not identifiable";
	default:
		return NULL;
	}
}

static double noise_floor(const struct emodel_in *in)
{
	double s = 0;
	size_t i, n = 0;

	for (i = 0; i < in->n; i++)
		if (in->r[i].u_w > 0 && isfinite(in->r[i].u_w)) {
			s += in->r[i].u_w;
			n++;
		}
	return n ? s / (double)n * 1e-3 : 1e-6;
}

/*
 * What the job's U95 took besides its equations, for the pool to sum the jobs' alike: the
 * sandwich's middle with idle profiled out as a is (each kind's score less its share of
 * idle's), scaled by 1 / misfit^2 as a's scores are by 1 / misfit; the grid's spread of
 * the costs fitted (a pair's sum stands on the kind that carries it).
 */
static void robust_fill(const struct solution *so, const double a[NP][NP], double infl,
			double rob_dof, struct result_model_normal *nm)
{
	double r[COMPL_KINDS];
	unsigned i, j;

	for (i = 0; i < COMPL_KINDS; i++)
		r[i] = a[0][1 + i] / a[0][0];
	for (i = 0; i < COMPL_KINDS; i++)
		for (j = 0; j < COMPL_KINDS; j++)
			nm->meat[i][j] = (so->meat[1 + i][1 + j] - r[i] * so->meat[0][1 + j] -
					  r[j] * so->meat[1 + i][0] + r[i] * r[j] * so->meat[0][0]) /
					 (infl * infl);
	for (i = 1; i < so->m; i++)
		for (j = 1; j < so->m; j++)
			nm->sel[so->cols[i] - 1][so->cols[j] - 1] = so->sel[i][j];
	nm->rob_dof = rob_dof;
	nm->robust = 1;
}

/*
 * The job's fit as normal equations over the kinds' costs with idle profiled out (the
 * Schur complement of the idle row), all three kinds whether or not this job could split
 * them: jobs add, so a pair in lock-step here is split by a job where it is not. Scaled
 * by 1 / the misfit so a job whose residuals exceed its noise weighs as its U95 says.
 */
static void normal_fill(const struct emodel_in *in, const struct design *d,
			const struct solution *so, double infl, double rob_dof,
			struct result_model_normal *nm)
{
	double a[NP][NP] = { { 0 } }, b[NP] = { 0 }, yy = 0, wt, y;
	int prior = isfinite(in->idle_w) && in->idle_u_w > 0;
	/* Readings are taken relative to the idle level: the profile over idle does not move
	 * with it, and a prior of almost no spread (a flat idle phase) weighs 1e30 and more,
	 * which would cancel yy's digits away. */
	double ref = prior ? in->idle_w : 0;
	unsigned i, j;
	size_t n;

	for (n = 0; n < d->n; n++) {
		wt = 1 / (d->s[n] * d->s[n]);
		y = d->y[n] - ref;
		yy += wt * y * y;
		for (i = 0; i < NP; i++) {
			b[i] += wt * d->x[n * NP + i] * y;
			for (j = 0; j < NP; j++)
				a[i][j] += wt * d->x[n * NP + i] * d->x[n * NP + j];
		}
	}
	if (prior)
		a[0][0] += 1 / (in->idle_u_w * in->idle_u_w);
	memset(nm, 0, sizeof(*nm));
	if (!(a[0][0] > 0) || d->n + (size_t)prior < 2)
		return;
	for (i = 0; i < COMPL_KINDS; i++) {
		for (j = 0; j < COMPL_KINDS; j++)
			nm->a[i][j] = (a[1 + i][1 + j] - a[0][1 + i] * a[0][1 + j] / a[0][0]) / infl;
		nm->b[i] = (b[1 + i] - a[0][1 + i] * b[0] / a[0][0]) / infl;
		nm->ops[i] = in->ops->total[i];
	}
	nm->yy = (yy - b[0] * b[0] / a[0][0]) / infl;
	nm->dof = (double)(d->n + (size_t)prior - 1);
	robust_fill(so, a, infl, rob_dof, nm);
	nm->gain_rel = in->gain_rel;
	nm->readings = d->n;
	nm->valid = 1;
}

/* What the model leaves unexplained: the readings' mean residual, its standard
 * uncertainty and how many readings it is from. */
struct unexplained {
	double mean_w, u_w;
	double mean_x[NP]; /* each column's mean over the readings: the rates they saw */
	size_t n;
};

/*
 * The energy above idle the model gives the job: each fitted cost times the job's
 * completions of its kind (a merged pair's cost covers its partner's ops), with the
 * covariance's U95 (misfit included) and the gain. Operations of a kind no window held
 * (a burst job's flushes, all between the readings' windows) are priced between nothing
 * and the dearest cost fitted, the half-range added to the U95, when they are at most
 * EMODEL_RARE_SHARE of all; more, and their energy is not known: NAN.
 * To that the energy the operations do not explain: the fitted idle's rise over the
 * baseline plus the mean residual, over the span (a journal's writeback seconds after
 * the records it carries, a device awake between operations, a kind done too few times
 * to price: a job's one closing fsync). The sum is the control
 * variate form of the readings' integral, sum c_k (N_k - xbar_k T) + (ybar - idle) T: the
 * readings sample what the completions do not tell (their spread over root n, with the
 * baseline's own uncertainty), and the costs' errors weigh only by the operations the
 * windows did not sample at the job's mean rate.
 */
static void net_energy(const struct emodel_in *in, const struct solution *so, double infl,
		       double k95, const struct unexplained *ux, struct emodel_fit *out)
{
	double span_s = (double)(in->t1_ns - in->t0_ns) / 1e9, extra_j, extra_var = 0, ku;
	double n[NP] = { 0 }, g[NP] = { 0 }, var, net = 0, seen = 0, all = 0, dear = 0, unseen;
	unsigned i, j;
	int k;

	for (i = 1; i < so->m; i++) {
		k = (int)so->cols[i] - 1;
		n[i] = in->ops->total[k];
		/* a cost's error moves the estimate only by the operations the readings'
		 * windows did not sample at the job's rate: the integral of the readings
		 * already holds the others */
		g[i] = n[i] - ux->mean_x[so->cols[i]] * span_s;
		net += so->p[i] * n[i];
		seen += n[i] + (k == out->sum_base ? in->ops->total[out->sum_with] : 0);
		dear = so->p[i] > dear ? so->p[i] : dear;
	}
	all = emodel_priced_ops(in);
	unseen = all - seen;
	out->net_j = out->net_u95_j = NAN;
	if (unseen > EMODEL_RARE_SHARE * all)
		return;
	extra_j = ux->mean_w * span_s;
	if (isfinite(in->idle_w) && in->idle_u_w > 0) {
		extra_j += (so->p[0] - in->idle_w) * span_s;
		extra_var = pow(in->idle_u_w * span_s, 2);
	} else {
		g[0] = -span_s; /* no baseline: the fitted idle is what the net is above */
	}
	var = emodel_fig_var(so, g, infl, k95);
	/* over the grid, the spread of the energy itself at the points the readings cannot
	 * tell apart, in place of the costs' spread carried through g (which leaves out points
	 * of other columns, and weighs each cost by the catch at the best point alone) */
	if (isfinite(so->net_sel)) {
		for (i = 0; i < so->m; i++)
			for (j = 0; j < so->m; j++)
				var -= g[i] * g[j] * so->sel[i][j];
		var = fmax(var, 0) + so->net_sel;
	}
	ku = emodel_coverage_k((double)ux->n - 1) / 2;
	extra_var += pow(ku * ux->u_w * span_s, 2);
	net += unseen * dear / 2 + extra_j;
	out->net_j = net;
	out->net_u95_j = 2 * sqrt(var + extra_var + pow(net * in->gain_rel, 2)) + unseen * dear / 2;
}

int energy_model_usable(const struct emodel_fit *f)
{
	int k;

	/* A poor fit is usable: its misfit is in every U95 where it falls (V_resid), and
	 * the job's energy adds what the operations leave unexplained; a meter whose declared
	 * noise is a tenth of one operation's power calls every real device's spread poor. */
	if (f->verdict == EMODEL_NONE || !isfinite(f->net_j) || !isfinite(f->net_u95_j))
		return 0;
	/* at a lag where (almost) no window holds an operation the fit says they cost
	 * nothing, exactly: an aliased job's readings fitted at its blind phase */
	if (f->readings_with_ops < EMODEL_MIN_SEEN)
		return 0;
	/* a cost below zero beyond its U95: the model does not describe this device */
	for (k = 0; k < COMPL_KINDS; k++)
		if (f->j_per_op[k] + f->u95_j[k] < 0)
			return 0;
	return !(f->sum_j + f->sum_u95_j < 0);
}

/* Row n's residual from so's fit. */
static double residual(const struct design *d, const struct solution *so, size_t n)
{
	double r = d->y[n];
	unsigned i;

	for (i = 0; i < so->m; i++)
		r -= so->p[i] * d->x[n * NP + so->cols[i]];
	return r;
}

/*
 * The fit's residuals' and the declared noise's RMS into out; the mean residual with its u
 * and the columns' means over the sample's rows (the fit's, and those it left out for an
 * unpriced op, whose energy the readings sample as they do the rest unexplained).
 */
static void residual_stats(const struct design *d, const struct design *sample,
			   const struct solution *so, struct unexplained *ux, struct emodel_fit *out)
{
	double r, rs = 0, rsum = 0, ns = 0;
	unsigned i;
	size_t n;

	for (n = 0; n < d->n; n++) {
		r = residual(d, so, n);
		rs += r * r;
		ns += d->s[n] * d->s[n];
	}
	out->residual_rms_w = d->n ? sqrt(rs / (double)d->n) : NAN;
	out->noise_rms_w = d->n ? sqrt(ns / (double)d->n) : NAN;
	*ux = (struct unexplained){ .n = sample->n };
	rs = 0;
	for (n = 0; n < sample->n; n++) {
		for (i = 0; i < NP; i++)
			ux->mean_x[i] += sample->x[n * NP + i] / (double)sample->n;
		r = residual(sample, so, n);
		rs += r * r;
		rsum += r;
	}
	if (sample->n > 1) {
		ux->mean_w = rsum / (double)sample->n;
		ux->u_w = sqrt(fmax(0, rs - rsum * ux->mean_w) / (double)(sample->n - 1) /
			       (double)sample->n);
	}
}

static void fill_out(const struct emodel_in *in, const struct design *d,
		     const struct design *sample, const struct solution *so, int base, int with,
		     struct emodel_fit *out)
{
	double s2 = so->dof ? so->chi2 / (double)so->dof : INFINITY, infl, u2;
	double g[NP] = { 0 }, k95, nu;
	struct unexplained ux;
	unsigned i, k;
	int flat, blind;

	infl = s2 > 1 ? s2 : 1; /* the misfit: residuals beyond the declared noise */
	/* the residuals that tell the costs' spread are those of the readings that caught
	 * operations, less the costs fitted from them and, over the grid, the lag, window
	 * and hold chosen on the same readings */
	nu = (double)out->readings_with_ops - (double)(so->m - 1) - (out->grid ? 3 : 0);
	k95 = emodel_coverage_k(nu);
	out->readings = d->n;
	out->chi2_dof = s2;
	residual_stats(d, sample, so, &ux, out);
	normal_fill(in, d, so, infl, nu, &out->normal);
	out->idle_w = so->p[0];
	g[0] = 1;
	out->idle_u95_w = 2 * sqrt(emodel_fig_var(so, g, infl, k95) + pow(in->offset_w, 2) +
				   pow(so->p[0] * in->gain_rel, 2));
	g[0] = 0;
	for (i = 1; i < so->m; i++) {
		k = so->cols[i] - 1;
		/* the offset is the same in idle and active readings: it cancels in a cost */
		g[i] = 1;
		u2 = emodel_fig_var(so, g, infl, k95) + pow(so->p[i] * in->gain_rel, 2);
		g[i] = 0;
		if ((int)k == base) {
			out->sum_j = so->p[i];
			out->sum_u95_j = 2 * sqrt(u2);
			out->sum_ratio = emodel_column_sum(d, 1 + (unsigned)with) /
					 emodel_column_sum(d, 1 + k);
			continue;
		}
		out->j_per_op[k] = so->p[i];
		out->u95_j[k] = 2 * sqrt(u2);
	}
	out->sum_base = base;
	out->sum_with = with;
	if (base >= 0) { /* for the pool: what this job could not split */
		out->normal.sum_pair = 1u << base | 1u << with;
		out->normal.sum_first = base;
		out->normal.sum_ratio = out->sum_ratio;
	}
	net_energy(in, so, infl, k95, &ux, out);
	blind = emodel_uncaught_kinds(so, base, with, out);
	if (blind >= 0) {
		/* its equations price it from the same windows: the pool must not take them */
		out->normal.valid = 0;
		out->verdict = EMODEL_NOT_IDENTIFIABLE;
		snprintf(out->why, sizeof(out->why),
			 "windows holding no %s fit as well (%.0f %% of the likelihood): the "
			 "readings may have caught none",
			 emodel_kind_names[blind], 100 * so->uncaught[blind]);
		return;
	}
	flat = out->grid ? emodel_flat_column(in, d, so, (uint64_t)llround(out->window_s * 1e9)) : -1;
	if (flat >= 0) {
		out->net_j = out->net_u95_j = NAN;
		out->verdict = EMODEL_NOT_IDENTIFIABLE;
		snprintf(out->why, sizeof(out->why),
			 "every reading's window holds as many %ss: what one costs depends on "
			 "the window, which the readings cannot tell", emodel_kind_names[flat]);
		return;
	}
	if (base >= 0) {
		out->verdict = EMODEL_NOT_IDENTIFIABLE;
		emodel_say_pair(out, "move together", base, with);
		return;
	}
	for (k = 0; k < COMPL_KINDS; k++)
		if (in->ops->total[k] >= EMODEL_MIN_OPS && isnan(out->j_per_op[k])) {
			out->verdict = EMODEL_NOT_IDENTIFIABLE;
			snprintf(out->why, sizeof(out->why),
				 "no %s completed inside any reading's window", emodel_kind_names[k]);
			return;
		}
	if (s2 > EMODEL_POOR_CHI2) {
		out->verdict = EMODEL_POOR_FIT;
		snprintf(out->why, sizeof(out->why),
			 "residuals %.1f x the meter's noise", sqrt(s2));
		return;
	}
	out->verdict = EMODEL_OK;
}

/* Readings whose window holds at least half an operation of any kind priced (rows are
 * rates). */
static size_t readings_with_ops(const struct design *d, double window_s)
{
	size_t n, seen = 0;
	unsigned k;
	double ops;

	for (n = 0; n < d->n; n++) {
		ops = 0;
		for (k = 1; k < NP; k++)
			if (!(d->unpriced & 1u << (k - 1)))
				ops += d->x[n * NP + k] * window_s;
		seen += ops >= 0.5;
	}
	return seen;
}

/* The design at the grid's best point, and the fit's figures from it; all: the design with
 * the rows an unpriced op left out of it, for the sample of the energy unexplained. */
static void fill_best(const struct emodel_in *in, const double *cum, struct design *d,
		      struct design *all, double floor_w, const struct grid_best *gb,
		      struct emodel_fit *out)
{
	emodel_design_build(in, cum, gb->win_ns, gb->lag_ns, gb->hold_ns, gb->phase_ns, d);
	emodel_design_floor(d, floor_w);
	if (d->unpriced) {
		all->keep_unpriced = 1;
		emodel_design_build(in, cum, gb->win_ns, gb->lag_ns, gb->hold_ns, gb->phase_ns,
				    all);
	}
	out->readings_with_ops = readings_with_ops(d, (double)gb->win_ns / 1e9);
	out->window_s = (double)gb->win_ns / 1e9;
	out->lag_s = (double)gb->lag_ns / 1e9;
	out->hold_s = (double)gb->hold_ns / 1e9;
	fill_out(in, d, d->unpriced ? all : d, &gb->so, gb->base, gb->with, out);
}

/*
 * Says after out->why which kinds the job did too few times to price ("1 flush: too few to
 * price"): their cost is null by choice, not because the readings failed, and the verdict
 * is the other kinds'.
 */
static void say_unpriced(const struct emodel_in *in, struct emodel_fit *out)
{
	size_t at = strlen(out->why), len = sizeof(out->why);
	const char *sep = at ? "; " : "";
	double n;
	int k, any = 0;

	for (k = 0; k < COMPL_KINDS && at < len; k++) {
		n = in->ops->total[k];
		if (!(n > 0) || n >= EMODEL_MIN_OPS)
			continue;
		snprintf(out->why + at, len - at, "%s%.0f %s", any ? ", " : sep, n,
			 n == 1 ? emodel_kind_names[k] : kind_plurals[k]);
		at = strlen(out->why);
		any = 1;
	}
	if (any && at < len)
		snprintf(out->why + at, len - at, ": too few to price");
}

/* A fit that holds nothing yet. */
static void fit_reset(const struct emodel_in *in, struct emodel_fit *out)
{
	unsigned k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < COMPL_KINDS; k++)
		out->j_per_op[k] = out->u95_j[k] = NAN;
	out->sum_j = out->sum_u95_j = out->sum_ratio = out->idle_w = out->idle_u95_w = NAN;
	out->net_j = out->net_u95_j = NAN;
	out->gain_rel = in->gain_rel;
	out->residual_rms_w = out->noise_rms_w = out->chi2_dof = out->lag_s = out->window_s = NAN;
	out->hold_s = NAN;
	out->sum_base = out->sum_with = -1;
	out->grid = !in->window_ns;
}

static void design_alloc(struct design *d, size_t n)
{
	memset(d, 0, sizeof(*d));
	d->x = xcalloc(n * NP, sizeof(*d->x));
	d->y = xcalloc(n, sizeof(*d->y));
	d->s = xcalloc(n, sizeof(*d->s));
	d->end = xcalloc(n, sizeof(*d->end));
}

static void design_free(struct design *d)
{
	free(d->x);
	free(d->y);
	free(d->s);
	free(d->end);
}

int energy_model_fit(const struct emodel_in *in, struct emodel_fit *out)
{
	struct emodel_in fin;
	struct design d, all;
	struct grid_space sp;
	struct grid_best gb;
	double *cum, *res, floor_w;
	unsigned force;

	fit_reset(in, out);
	if (!in->n || !in->ops || !in->ops->n) {
		snprintf(out->why, sizeof(out->why), "no readings or no completions");
		return -EINVAL;
	}
	floor_w = noise_floor(in);
	/* An idle baseline of readings all alike (an emulated meter's flat idle) declares a u
	 * of 0, or 1e-17 from rounding: the first left the fit without its prior, and the job's
	 * energy was taken above the idle the fit found, not the baseline (a stream at the
	 * emulator's ceiling: 3.35 W against 0.41, 11.05 J against the readings' 55.35). */
	fin = *in;
	if (isfinite(fin.idle_w) && !(fin.idle_u_w >= floor_w))
		fin.idle_u_w = floor_w;
	in = &fin;
	emodel_grid_space(in, &sp);
	cum = emodel_cumulate(in->ops);
	design_alloc(&d, in->n);
	design_alloc(&all, in->n);
	res = xcalloc(in->n, sizeof(*res));
	emodel_grid_search(in, &sp, cum, &d, res, floor_w, 0, &gb);
	if (gb.win_ns) {
		fill_best(in, cum, &d, &all, floor_w, &gb, out);
		force = gb.base < 0 ? emodel_unsplittable(out) : 0;
		if (force) {
			emodel_grid_search(in, &sp, cum, &d, res, floor_w, force, &gb);
			fit_reset(in, out);
			fill_best(in, cum, &d, &all, floor_w, &gb, out);
			if (gb.base >= 0)
				emodel_say_pair(out, "cannot be told apart", gb.base, gb.with);
		}
		say_unpriced(in, out);
	} else {
		snprintf(out->why, sizeof(out->why), "too few readings in the span to fit");
	}
	free(cum);
	design_free(&d);
	design_free(&all);
	free(res);
	return gb.win_ns ? 0 : -EINVAL;
}

