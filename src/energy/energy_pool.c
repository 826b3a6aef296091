/* SPDX-License-Identifier: MIT */
/* A device's per-operation costs pooled over its jobs: their normal equations added and solved. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model_lsq.h"
#include "energy/energy_pool.h"

#define K COMPL_KINDS
/* As a job's fit: chi^2 per degree of freedom past this is a poor fit. */
#define POOL_POOR_CHI2 4.0

/* The sum of the jobs' equations, readings and ops; the gain as the readings' mean. */
static void pool_sum(const struct result_model_normal *const *nm, size_t n,
		     struct result_model_normal *s)
{
	double gain_n = 0;
	size_t i;
	unsigned j, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		if (!nm[i]->valid)
			continue;
		for (j = 0; j < K; j++) {
			for (k = 0; k < K; k++)
				s->a[j][k] += nm[i]->a[j][k];
			s->b[j] += nm[i]->b[j];
			s->ops[j] += nm[i]->ops[j];
		}
		s->yy += nm[i]->yy;
		s->dof += nm[i]->dof;
		s->readings += nm[i]->readings;
		s->gain_rel += nm[i]->gain_rel * (double)nm[i]->readings;
		gain_n += (double)nm[i]->readings;
		s->valid = 1;
	}
	s->gain_rel = gain_n > 0 ? s->gain_rel / gain_n : 0;
}

static double pair_r(const struct result_model_normal *s, unsigned j, unsigned k)
{
	return s->a[j][j] > 0 && s->a[k][k] > 0 ? fabs(s->a[j][k]) / sqrt(s->a[j][j] * s->a[k][k])
						: 0;
}

/* Whether kinds j and k move together in every job that has both (as a job judges). */
static int in_step_everywhere(const struct result_model_normal *const *nm, size_t n, unsigned j,
			      unsigned k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (nm[i]->valid && nm[i]->a[j][j] > 0 && nm[i]->a[k][k] > 0 &&
		    pair_r(nm[i], j, k) < EMODEL_COLLINEAR_R)
			return 0;
	return 1;
}

/*
 * Whether every job whose readings hold both kinds j and k (at least one) gave them only
 * as their sum, the first such job's first kind in *first: the pool then knows that sum
 * and no more, whatever its pooled columns (a job sums a pair its readings could not
 * split, their costs' U95 each above their sum, though their counts were not in step).
 */
static int summed_by_jobs(const struct result_model_normal *const *nm, size_t n, unsigned j,
			  unsigned k, int *first)
{
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++) {
		if (!nm[i]->valid || !(nm[i]->a[j][j] > 0) || !(nm[i]->a[k][k] > 0))
			continue;
		if (nm[i]->sum_pair != (1u << j | 1u << k))
			return 0;
		if (!any)
			*first = nm[i]->sum_first;
		any = 1;
	}
	return any;
}

/* What the pool's column choice was: the pair merged (-1: none), and whether only
 * because the jobs gave it as their sum (not in step). */
struct pool_pair {
	int base, with, by_jobs;
};

/*
 * The kinds to solve for: each with ops and information; of a pair that every job
 * holding both gave only as their sum, or whose pooled columns (idle out) correlate at
 * EMODEL_COLLINEAR_R and that moves together in every job (or any pair, with force, the
 * most correlated), one kind keeps its column and prices the other's share, as in a job:
 * the jobs' first kind where they gave it, else the kind with more ops. A pair one job
 * moves apart is split: one logger in step with a mixed job must not hide what the mixed
 * job tells.
 */
static unsigned pool_cols(const struct result_model_normal *s,
			  const struct result_model_normal *const *nm, size_t n, int force,
			  unsigned *cols, struct pool_pair *pp)
{
	unsigned j, k, m = 0;
	int has[K], first, jobs;
	double r, score, best = -1;

	pp->base = pp->with = -1;
	pp->by_jobs = 0;
	for (k = 0; k < K; k++)
		has[k] = s->ops[k] >= EMODEL_MIN_OPS && s->a[k][k] > 0;
	for (j = 0; j < K; j++)
		for (k = j + 1; k < K; k++) {
			if (!has[j] || !has[k])
				continue;
			r = pair_r(s, j, k);
			first = s->ops[j] >= s->ops[k] ? (int)j : (int)k;
			jobs = summed_by_jobs(nm, n, j, k, &first);
			/* a pair the jobs summed goes first: one pair is merged */
			score = jobs ? 2 + r : r;
			if (score <= best || (!force && !jobs && (r < EMODEL_COLLINEAR_R ||
							   !in_step_everywhere(nm, n, j, k))))
				continue;
			best = score;
			pp->base = first;
			pp->with = first == (int)j ? (int)k : (int)j;
			pp->by_jobs = jobs && (r < EMODEL_COLLINEAR_R || !in_step_everywhere(nm, n, j, k));
		}
	if (pp->with >= 0)
		has[pp->with] = 0;
	for (k = 0; k < K; k++)
		if (has[k])
			cols[m++] = k;
	return m;
}

/* Of the pooled sum, the ratio of its second kind per op of its first: as the jobs that
 * gave it counted it in their windows, weighted by their first kind's ops (the other way
 * round, its inverse); where none did, as the jobs' ops go. */
static double pool_sum_ratio(const struct result_model_normal *s,
			     const struct result_model_normal *const *nm, size_t n, int base,
			     int with)
{
	double wsum = 0, rsum = 0, w;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!nm[i]->valid || nm[i]->sum_pair != (1u << base | 1u << with) ||
		    !(nm[i]->sum_ratio > 0))
			continue;
		w = nm[i]->ops[base];
		wsum += w;
		rsum += w * (nm[i]->sum_first == base ? nm[i]->sum_ratio : 1 / nm[i]->sum_ratio);
	}
	return wsum > 0 ? rsum / wsum : s->ops[with] / s->ops[base];
}

/* The pooled system over cols[0..m) solved: costs p, covariance inv. 0 or -1. */
static int pool_solve(const struct result_model_normal *s, const unsigned *cols, unsigned m,
		      double *b, double p[EMODEL_NP], double a[EMODEL_NP][EMODEL_NP],
		      double inv[EMODEL_NP][EMODEL_NP])
{
	unsigned i, j;

	for (i = 0; i < m; i++) {
		b[i] = s->b[cols[i]];
		for (j = 0; j < m; j++)
			a[i][j] = s->a[cols[i]][cols[j]];
	}
	return m ? energy_model_solve(a, b, m, p, inv) : -1;
}

/*
 * The variance of the pooled cost in column i as a job's U95 takes it (docs/energy.md,
 * "Pooled per device"): the larger of the declared noise times the pool's misfit and the
 * jobs' sandwiches summed (their middles added between the pooled inverse), the latter
 * times Student's t on the effective dof of that sum (Welch-Satterthwaite over the jobs'
 * own); plus each job's spread over its lag and window grid carried as it weighs in the
 * pool, summed as fully correlated (one meter's lag). NAN when a job did not give what
 * this needs (robust 0: equations made by hand, or by a version before it), and the
 * caller keeps the misfit alone.
 */
static double pool_robust_var(const struct result_model_normal *const *nm, size_t n,
			      const unsigned *cols, unsigned m, unsigned i,
			      double inv[EMODEL_NP][EMODEL_NP], double infl)
{
	double rob = 0, wsd = 0, sel_sd = 0, v, q[EMODEL_NP], sv, k95;
	const struct result_model_normal *t;
	unsigned a, b;
	size_t c;

	for (c = 0; c < n; c++) {
		t = nm[c];
		if (!t->valid)
			continue;
		if (!t->robust)
			return NAN;
		v = sv = 0;
		for (a = 0; a < m; a++) {
			q[a] = 0;
			for (b = 0; b < m; b++) {
				v += inv[a][i] * t->meat[cols[a]][cols[b]] * inv[b][i];
				q[a] += t->a[cols[a]][cols[b]] * inv[b][i];
			}
		}
		for (a = 0; a < m; a++)
			for (b = 0; b < m; b++)
				sv += q[a] * t->sel[cols[a]][cols[b]] * q[b];
		rob += v;
		wsd += v * v / (t->rob_dof > 1 ? t->rob_dof : 1);
		sel_sd += sqrt(fmax(0, sv));
	}
	k95 = emodel_coverage_k(wsd > 0 ? rob * rob / wsd : 1);
	rob *= k95 * k95 / 4;
	v = inv[i][i] * infl;
	return (v > rob ? v : rob) + sel_sd * sel_sd;
}

static void pool_verdict(const struct result_model_normal *s, double s2, int by_jobs,
			 struct emodel_fit *out)
{
	unsigned k;

	if (out->sum_base >= 0) {
		out->verdict = EMODEL_NOT_IDENTIFIABLE;
		emodel_say_pair(out, by_jobs ? "cannot be told apart in any job"
					     : "move together in every job",
				out->sum_base, out->sum_with);
		return;
	}
	for (k = 0; k < K; k++)
		if (s->ops[k] >= EMODEL_MIN_OPS && isnan(out->j_per_op[k])) {
			out->verdict = EMODEL_NOT_IDENTIFIABLE;
			snprintf(out->why, sizeof(out->why),
				 "no %s completed inside any reading's window", emodel_kind_names[k]);
			return;
		}
	if (s2 > POOL_POOR_CHI2) {
		out->verdict = EMODEL_POOR_FIT;
		snprintf(out->why, sizeof(out->why),
			 "residuals %.1f x the meter's noise (the jobs disagree, or fit poorly)",
			 sqrt(s2));
		return;
	}
	/* an operation gives energy back only where the model misses what moves the power
	 * (the filesystem's own writes between the job's, a window or lag off) */
	for (k = 0; k < K; k++)
		if (out->j_per_op[k] + out->u95_j[k] < 0) {
			out->verdict = EMODEL_POOR_FIT;
			snprintf(out->why, sizeof(out->why),
				 "a %s costs %.0f +-%.0f uJ, below zero: the model misses what moves "
				 "the power (operations the jobs did not issue, or a window or lag off)",
				 emodel_kind_names[k], out->j_per_op[k] * 1e6, out->u95_j[k] * 1e6);
			return;
		}
	out->verdict = EMODEL_OK;
}

int energy_pool_fit(const struct result_model_normal *const *nm, size_t n, struct emodel_fit *out)
{
	double a[EMODEL_NP][EMODEL_NP] = { { 0 } }, b[EMODEL_NP], p[EMODEL_NP] = { 0 },
	       inv[EMODEL_NP][EMODEL_NP], chi2, s2, infl, u2;
	struct result_model_normal s;
	unsigned cols[K], m, i, j;
	struct pool_pair pp;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < K; i++)
		out->j_per_op[i] = out->u95_j[i] = NAN;
	out->sum_j = out->sum_u95_j = out->sum_ratio = out->chi2_dof = NAN;
	out->idle_w = out->idle_u95_w = out->lag_s = out->window_s = out->hold_s = NAN;
	out->residual_rms_w = out->noise_rms_w = NAN;
	out->sum_base = out->sum_with = -1;
	pool_sum(nm, n, &s);
	out->readings = s.readings;
	m = pool_cols(&s, nm, n, 0, cols, &pp);
	if (!s.valid || !m || s.dof <= m) {
		snprintf(out->why, sizeof(out->why), "no job with a fitted model to pool");
		return -EINVAL;
	}
	if (pool_solve(&s, cols, m, b, p, a, inv)) {
		m = pool_cols(&s, nm, n, 1, cols, &pp);
		if (pool_solve(&s, cols, m, b, p, a, inv)) {
			snprintf(out->why, sizeof(out->why), "the pooled kinds cannot be told apart");
			return -EINVAL;
		}
	}
	/* chi^2 of the pooled costs over every job: their own misfit and their disagreement */
	chi2 = s.yy;
	for (i = 0; i < m; i++) {
		chi2 -= 2 * p[i] * b[i];
		for (j = 0; j < m; j++)
			chi2 += p[i] * a[i][j] * p[j];
	}
	s2 = fmax(0, chi2) / (s.dof - m);
	infl = s2 > 1 ? s2 : 1;
	out->chi2_dof = s2;
	for (i = 0; i < m; i++) {
		u2 = pool_robust_var(nm, n, cols, m, i, inv, infl);
		if (isnan(u2)) /* a job without its sandwich: the misfit over every reading */
			u2 = inv[i][i] * infl;
		u2 += pow(p[i] * s.gain_rel, 2);
		if ((int)cols[i] == pp.base) {
			out->sum_j = p[i];
			out->sum_u95_j = 2 * sqrt(u2);
			continue;
		}
		out->j_per_op[cols[i]] = p[i];
		out->u95_j[cols[i]] = 2 * sqrt(u2);
	}
	out->sum_base = pp.base;
	out->sum_with = pp.with;
	if (pp.base >= 0)
		out->sum_ratio = pool_sum_ratio(&s, nm, n, pp.base, pp.with);
	out->normal = s;
	pool_verdict(&s, s2, pp.by_jobs, out);
	return 0;
}

/* A job's verdict, as its model names it. */
static int job_is(const struct result_energy_model *em, enum emodel_verdict v)
{
	return em->verdict && !strcmp(em->verdict, energy_model_verdict_name(v));
}

/* A job's own cost of kind k, uJ: NAN where it could not price it alone. */
static double own_cost(const struct result_energy_model *em, unsigned k)
{
	return k == COMPL_READ ? em->read_uj_per_op : k == COMPL_WRITE ? em->write_uj_per_op
								     : em->flush_uj_per_op;
}

/* The pooled cost of kind k and its U95 (uJ), a lock-step sum in its base kind's place. */
static int pooled_cost(const struct emodel_fit *f, unsigned k, double *c, double *u)
{
	*c = f->j_per_op[k] * 1e6;
	*u = f->u95_j[k] * 1e6;
	if (!isfinite(*c) && f->sum_base == (int)k) {
		*c = f->sum_j * 1e6;
		*u = f->sum_u95_j * 1e6;
	}
	return isfinite(*c);
}

void energy_pool_judge(const struct result_energy_model *const *em, const char *const *name,
		       size_t n, struct emodel_fit *out)
{
	double c, u;
	size_t i;
	unsigned k;

	if (out->verdict != EMODEL_OK)
		return;
	for (i = 0; i < n; i++)
		if (job_is(em[i], EMODEL_POOR_FIT)) {
			out->verdict = EMODEL_POOR_FIT;
			snprintf(out->why, sizeof(out->why),
				 "job %s fits poorly on its own (%s): the model does not hold for it, "
				 "pooled or not", name[i] ? name[i] : "?",
				 em[i]->why ? em[i]->why : "poor fit");
			return;
		}
	/* a job that could not price a kind is helped only where the pool prices it to
	 * better than what the job knew of it, its lock-step sum (a buffered write costs
	 * next to nothing beside its flush: 0 +- 135 uJ splits a record of 2400 well), else
	 * than the cost itself; else the pool knows no more than the job */
	for (i = 0; i < n; i++) {
		if (!job_is(em[i], EMODEL_NOT_IDENTIFIABLE))
			continue;
		for (k = 0; k < K; k++) {
			if (!(em[i]->normal.ops[k] > 0) || !isnan(own_cost(em[i], k)) ||
			    !pooled_cost(out, k, &c, &u) ||
			    u <= fabs(isfinite(em[i]->sum_uj_per_op) ? em[i]->sum_uj_per_op : c))
				continue;
			out->verdict = EMODEL_NOT_IDENTIFIABLE;
			snprintf(out->why, sizeof(out->why),
				 "job %s could not tell its %s (%s), nor can the pool: %.0f +-%.0f uJ",
				 name[i] ? name[i] : "?", emodel_kind_names[k],
				 em[i]->why ? em[i]->why : "not identifiable", c, u);
			return;
		}
	}
}

/* One group: a meter, a block size, direct or not and the writes a flush carries; its
 * jobs' models and names. */
struct pool_group {
	const char *meter;
	uint64_t bs, wpf;
	int direct;
	const struct result_energy_model **em;
	const char **name;
	size_t n;
};

static uint64_t job_int(const struct job_result *j, const char *key)
{
	const struct result_opt *o = result_opt_find(j, key);

	return o && o->type == RESULT_OPT_INT && o->i > 0
		       ? (uint64_t)o->i
		       : 0;
}

/* A buffered flush writes back what the writes before it left in the page cache (and the
 * journal with them): its cost grows with them, so only jobs that carry as many writes
 * per flush share a flush cost. A direct write costs at once; its flush carries none. */
static uint64_t writes_per_flush(const struct job_result *j)
{
	return job_int(j, "direct") > 0 ? 0 : job_int(j, "fdatasync");
}

static struct pool_group *group_of(struct pool_group **g, size_t *ng, const char *meter,
				   uint64_t bs, int direct, uint64_t wpf)
{
	size_t i;

	for (i = 0; i < *ng; i++)
		if ((*g)[i].bs == bs && (*g)[i].direct == direct && (*g)[i].wpf == wpf &&
		    !strcmp((*g)[i].meter, meter))
			return &(*g)[i];
	*g = xrealloc(*g, (*ng + 1) * sizeof(**g));
	(*g)[*ng] = (struct pool_group){ .meter = meter, .bs = bs, .direct = direct, .wpf = wpf };
	return &(*g)[(*ng)++];
}

static double uj(double j)
{
	return j * 1e6;
}

static void device_model_fill(const struct pool_group *g, const struct emodel_fit *f,
			      struct result_device_model *d)
{
	memset(d, 0, sizeof(*d));
	d->meter = xstrdup(g->meter);
	d->bs = g->bs;
	d->direct = g->direct;
	d->writes_per_flush = g->wpf;
	d->jobs = g->n;
	d->readings = f->readings;
	d->reads = (uint64_t)f->normal.ops[COMPL_READ];
	d->writes = (uint64_t)f->normal.ops[COMPL_WRITE];
	d->flushes = (uint64_t)f->normal.ops[COMPL_FLUSH];
	d->verdict = xstrdup(f->verdict ? energy_model_verdict_name(f->verdict) : "not identifiable");
	d->why = f->why[0] ? xstrdup(f->why) : NULL;
	d->read_uj_per_op = uj(f->j_per_op[COMPL_READ]);
	d->read_uj_per_op_u95 = uj(f->u95_j[COMPL_READ]);
	d->write_uj_per_op = uj(f->j_per_op[COMPL_WRITE]);
	d->write_uj_per_op_u95 = uj(f->u95_j[COMPL_WRITE]);
	d->flush_uj_per_op = uj(f->j_per_op[COMPL_FLUSH]);
	d->flush_uj_per_op_u95 = uj(f->u95_j[COMPL_FLUSH]);
	d->sum_uj_per_op = uj(f->sum_j);
	d->sum_uj_per_op_u95 = uj(f->sum_u95_j);
	d->sum_ratio = f->sum_ratio;
	if (f->sum_base >= 0)
		d->sum_of = emodel_pair_name(f->sum_base, f->sum_with);
	d->misfit = isfinite(f->chi2_dof) ? sqrt(f->chi2_dof) : NAN;
}

void energy_pool_run(struct run_result *r)
{
	struct pool_group *g = NULL;
	struct emodel_fit f;
	size_t i, ng = 0, m, c;
	const struct result_energy_model *em;
	const struct result_model_normal **nm;
	struct pool_group *at;

	result_device_models_free(r);
	for (i = 0; i < r->njobs; i++) {
		if (r->jobs[i].status != RESULT_OK)
			continue;
		for (m = 0; m < r->jobs[i].nmeters; m++) {
			em = r->jobs[i].meters[m].power.energy_model;
			if (!em || !em->normal.valid || !r->jobs[i].meters[m].spec)
				continue;
			at = group_of(&g, &ng, r->jobs[i].meters[m].spec, job_int(&r->jobs[i], "bs"),
				      job_int(&r->jobs[i], "direct") > 0,
				      writes_per_flush(&r->jobs[i]));
			at->em = xrealloc(at->em, (at->n + 1) * sizeof(*at->em));
			at->name = xrealloc(at->name, (at->n + 1) * sizeof(*at->name));
			at->em[at->n] = em;
			at->name[at->n++] = r->jobs[i].jobname;
		}
	}
	for (i = 0; i < ng; i++) {
		nm = xcalloc(g[i].n, sizeof(*nm));
		for (c = 0; c < g[i].n; c++)
			nm[c] = &g[i].em[c]->normal;
		if (!energy_pool_fit(nm, g[i].n, &f)) {
			energy_pool_judge(g[i].em, g[i].name, g[i].n, &f);
			r->energy_models = xrealloc(r->energy_models,
						    (r->nenergy_models + 1) * sizeof(*r->energy_models));
			device_model_fill(&g[i], &f, &r->energy_models[r->nenergy_models++]);
		}
		free(nm);
		free(g[i].em);
		free(g[i].name);
	}
	free(g);
}
