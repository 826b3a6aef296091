/* SPDX-License-Identifier: MIT */
/* Each job over its rounds: statistics of every figure, and steady state as SNIA PTS judges it. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/repeats.h"
#include "analysis/results_read.h"
#include "core/mem.h"
#include "core/steady.h"
#include "core/tstat.h"

enum { FROM_JOB, FROM_POWER, FROM_EFF };

/* A summary figure and where an entry keeps it (and its u95, if it has one). */
struct figure_src {
	const char *key; /* the summary's key, the same as the entry's figure */
	size_t off;	 /* in struct result_summary_figures */
	int from;
	double (*fn)(const struct job_result *j);
	size_t val_off, u95_off; /* in result_power / result_efficiency */
	int has_u95;
};

/* The job rows of the figure table (RESULT_JOB_FIGURES), as job_<name>(). */
static double job_iops(const struct job_result *j)
{
	return rr_iops(j);
}

static double job_bw_bytes(const struct job_result *j)
{
	return rr_bw_bytes(j);
}

static double job_clat_p50_ns(const struct job_result *j)
{
	return rr_clat_ns(j, 50);
}

static double job_clat_p99_ns(const struct job_result *j)
{
	return rr_clat_ns(j, 99);
}

static double job_lat_p50_ns(const struct job_result *j)
{
	return rr_lat_ns(j, 50);
}

static double job_lat_p99_ns(const struct job_result *j)
{
	return rr_lat_ns(j, 99);
}

/* Every row of the figure table (result_figures.h) that has statistics. */
#define SOFF(m) offsetof(struct result_summary_figures, m)
#define JOB(m, kind) RESULT_IF_STATS(kind, { #m, SOFF(m), FROM_JOB, job_##m, 0, 0, 0 }, )
#define FIGURE_IN(T, FROM, m, kind) \
	RESULT_IF_STATS(kind, { #m, SOFF(m), FROM, NULL, offsetof(T, m), offsetof(T, m##_u95), 1 }, )
#define POWER(m, kind) FIGURE_IN(struct result_power, FROM_POWER, m, kind)
#define EFF(m, kind) FIGURE_IN(struct result_efficiency, FROM_EFF, m, kind)

static const struct figure_src figures[] = {
	RESULT_JOB_FIGURES(JOB)
	RESULT_POWER_FIGURES(POWER)
	RESULT_EFFICIENCY_FIGURES(EFF)
};

static const void *figure_obj(const struct figure_src *f, const struct job_result *j)
{
	return f->from == FROM_POWER ? (const void *)rr_power(j) : (const void *)rr_eff(j);
}

static double figure_value(const struct figure_src *f, const struct job_result *j)
{
	if (f->from == FROM_JOB)
		return f->fn(j);
	return *(const double *)(const void *)((const char *)figure_obj(f, j) + f->val_off);
}

static double figure_u95(const struct figure_src *f, const struct job_result *j)
{
	if (!f->has_u95)
		return NAN;
	return *(const double *)(const void *)((const char *)figure_obj(f, j) + f->u95_off);
}

/* An entry counts when it finished and no meter judged it invalid. */
static int result_entry_counts(const struct job_result *j)
{
	return j->status == RESULT_OK && rr_valid(j) != 0;
}

/* The entries of one job, in run order (rounds, then loops). Caller frees. */
static const struct job_result **entries_of(const struct run_result *r, const char *name,
					    size_t *n)
{
	const struct job_result **out = xcalloc(r->njobs + 1, sizeof(*out));
	size_t i;

	*n = 0;
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].jobname && !strcmp(r->jobs[i].jobname, name))
			out[(*n)++] = &r->jobs[i];
	return out;
}

static void stat_of(const struct figure_src *f, const struct job_result *const *e, size_t n,
		    struct result_stat *st)
{
	double *x = xcalloc(n + 1, sizeof(*x)), u_sum = 0;
	struct tstat t;
	size_t i, k = 0, nu = 0;

	for (i = 0; i < n; i++) {
		if (!result_entry_counts(e[i]))
			continue;
		x[k++] = figure_value(f, e[i]);
		if (isfinite(figure_u95(f, e[i]))) {
			u_sum += figure_u95(f, e[i]);
			nu++;
		}
	}
	tstat_describe(x, k, TSTAT_CONFIDENCE, &t);
	free(x);
	st->n = t.n;
	st->mean = t.mean;
	st->stddev = t.stddev;
	st->cv = t.cv;
	st->min = t.min;
	st->max = t.max;
	st->ci95_lo = t.ci_lo;
	st->ci95_hi = t.ci_hi;
	st->u95 = nu && nu == t.n ? u_sum / (double)nu : NAN;
}

static const char *steady_metric_of(const struct job_result *j)
{
	const struct result_opt *o = result_opt_find(j, "steady");

	return o && o->type == RESULT_OPT_STR && o->s && strcmp(o->s, "none") ? o->s : NULL;
}

static double metric_value(const char *metric, const struct job_result *j)
{
	if (!strcmp(metric, "iops"))
		return rr_iops(j);
	if (!strcmp(metric, "bw"))
		return rr_bw_bytes(j);
	return rr_eff(j)->j_per_gb;
}

int result_steady_of(const struct run_result *r, const char *jobname, struct result_steady *out)
{
	const struct job_result **e;
	const char *metric = NULL;
	struct steady_window w;
	unsigned *round;
	double *x;
	size_t n, i, k = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->mean = out->range_rel = out->slope_rel = NAN;
	e = entries_of(r, jobname, &n);
	if (n)
		metric = steady_metric_of(e[0]);
	if (!metric) {
		free(e);
		return -1;
	}
	out->metric = xstrdup(metric);
	x = xcalloc(n + 1, sizeof(*x));
	round = xcalloc(n + 1, sizeof(*round));
	for (i = 0; i < n; i++) {
		if (!result_entry_counts(e[i]))
			continue;
		round[k] = e[i]->round ? e[i]->round : 1;
		x[k++] = metric_value(metric, e[i]);
	}
	if (!steady_find(x, k, STEADY_WINDOW, STEADY_MAX_RANGE, STEADY_MAX_SLOPE, &w)) {
		out->reached = w.reached;
		out->first_round = round[w.first];
		out->last_round = round[w.last];
		out->mean = w.mean;
		out->range_rel = w.range_frac;
		out->slope_rel = w.slope_frac;
		rc = w.reached;
	}
	free(x);
	free(round);
	free(e);
	return rc;
}

static void summarize_job(const struct run_result *r, const char *name,
			  struct result_job_summary *s)
{
	struct result_steady st;
	const struct job_result **e;
	size_t n, i;

	e = entries_of(r, name, &n);
	s->jobname = xstrdup(name);
	s->entries = (unsigned)n;
	for (i = 0; i < n; i++) {
		if (result_entry_counts(e[i]))
			s->valid++;
		else
			s->invalid++;
	}
	for (i = 0; i < ARRAY_SIZE(figures); i++)
		stat_of(&figures[i], e, n,
			(struct result_stat *)(void *)((char *)&s->figures + figures[i].off));
	free(e);
	result_steady_of(r, name, &st);
	if (!st.metric)
		return;
	s->steady = xcalloc(1, sizeof(*s->steady));
	*s->steady = st;
}

static void summary_free(struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->nsummary; i++) {
		free(r->summary[i].jobname);
		if (r->summary[i].steady)
			free(r->summary[i].steady->metric);
		free(r->summary[i].steady);
	}
	free(r->summary);
	r->summary = NULL;
	r->nsummary = 0;
}

void result_summarize(struct run_result *r)
{
	const struct job_result **e;
	size_t i, k, n, repeated = 0;
	int seen;

	summary_free(r);
	for (i = 0; i < r->njobs; i++) {
		if (!r->jobs[i].jobname)
			continue;
		e = entries_of(r, r->jobs[i].jobname, &n);
		free(e);
		repeated |= n > 1;
	}
	if (!repeated)
		return;
	r->summary = xcalloc(r->njobs + 1, sizeof(*r->summary));
	for (i = 0; i < r->njobs; i++) {
		if (!r->jobs[i].jobname)
			continue;
		for (seen = 0, k = 0; k < r->nsummary && !seen; k++)
			seen = !strcmp(r->summary[k].jobname, r->jobs[i].jobname);
		if (!seen)
			summarize_job(r, r->jobs[i].jobname, &r->summary[r->nsummary++]);
	}
}

/* One entry's figure by its summary key ("j_per_gb", "iops", "active_w"), and its _u95
 * in *u95 (NAN: none); NAN for a key the summary has not. */
static double result_entry_figure(const struct job_result *j, const char *key, double *u95)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(figures); i++) {
		if (strcmp(figures[i].key, key))
			continue;
		if (u95)
			*u95 = figure_u95(&figures[i], j);
		return figure_value(&figures[i], j);
	}
	if (u95)
		*u95 = NAN;
	return NAN;
}

double result_job_figure(const struct run_result *r, const struct job_result *j, const char *key,
			 double *u95)
{
	const struct result_job_summary *s = j->jobname ? result_summary_find(r, j->jobname) : NULL;
	const struct result_stat *st = result_summary_stat(s, key);

	if (!st)
		return result_entry_figure(j, key, u95);
	if (u95)
		*u95 = result_stat_u95(st);
	return st->mean;
}

const struct result_stat *result_summary_stat(const struct result_job_summary *s, const char *key)
{
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(figures); i++)
		if (!strcmp(figures[i].key, key))
			return (const struct result_stat *)(const void *)((const char *)&s->figures +
									   figures[i].off);
	return NULL;
}

double result_stat_u95(const struct result_stat *st)
{
	double ci;

	if (!st || !st->n)
		return NAN;
	ci = (st->ci95_hi - st->ci95_lo) / 2;
	if (isnan(ci))
		return st->u95;
	if (isnan(st->u95))
		return ci;
	return hypot(ci, st->u95);
}

const struct result_job_summary *result_summary_find(const struct run_result *r,
						     const char *jobname)
{
	size_t i;

	for (i = 0; i < r->nsummary; i++)
		if (!strcmp(r->summary[i].jobname, jobname))
			return &r->summary[i];
	return NULL;
}
