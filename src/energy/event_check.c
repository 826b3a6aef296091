/* SPDX-License-Identifier: MIT */
/* Event-locked energies per op checked against the power model fitted to the same readings at 100 ms. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"
#include "energy/event_check.h"
#include "energy/uncertainty.h"

#define K COMPL_KINDS
#define TEXT_LEN 256
/* Kinds whose summed count is the same in this share of the active phase's windows are
 * in step with them (emulated paced jobs: 87-100 %; a stream 2-5 ms apart and a paced
 * job whose current shows 80 ms late: 71-72 %); fewer windows than EL_INSTEP_MIN_WINDOWS
 * tell nothing. */
#define EL_INSTEP_SHARE 0.8
#define EL_INSTEP_MIN_WINDOWS 5
/* An op whose completion lies this near a window's edge (twice the offset's uncertainty,
 * within these bounds) may count on either side; a wider reach would take a stream's
 * count, a few ops either way, for one held in step. */
#define EL_INSTEP_EDGE_S 0.002
#define EL_INSTEP_EDGE_MAX_S 0.005

/*
 * The series as a 10 Hz meter would have read it: the mean of each 100 ms whose 1 ms
 * bins all hold readings, at the end of its window, weighed by the deconvolution's
 * residuals (their RMS, widened by their correlation, over the bins averaged).
 */
static void decimate(const struct el_series *s, const struct result_event_locked *r,
		     struct emodel_readings *mr)
{
	double u_bin = isfinite(r->residual_rms_w) ? r->residual_rms_w : 0;
	struct meter_u u = { .gain = NAN, .offset = NAN, .res = NAN, .step = NAN };
	size_t b, i, full;
	double sum;

	u.noise = u_bin * sqrt(isfinite(r->inflation) ? r->inflation : 1) / sqrt(EL_CHECK_BINS);
	emodel_readings_reset(mr);
	for (b = 0; (b + 1) * EL_CHECK_BINS <= s->n; b++) {
		for (sum = 0, full = 1, i = b * EL_CHECK_BINS; i < (b + 1) * EL_CHECK_BINS; i++) {
			full &= s->cnt[i] > 0;
			sum += s->cnt[i] ? (double)s->w_sum[i] / s->cnt[i] : 0;
		}
		if (full)
			emodel_readings_add(mr, s->t0_ns + (b + 1) * EL_CHECK_BINS * EL_BIN_NS,
					    sum / EL_CHECK_BINS, &u);
	}
}

static const double *el_costs(const struct result_event_locked *r, int u95)
{
	static double c[K];

	c[COMPL_READ] = u95 ? r->read_uj_per_op_u95 : r->read_uj_per_op;
	c[COMPL_WRITE] = u95 ? r->write_uj_per_op_u95 : r->write_uj_per_op;
	c[COMPL_FLUSH] = u95 ? r->flush_uj_per_op_u95 : r->flush_uj_per_op;
	return c;
}

/* A difference d with combined U95 u on `what` into r: the check fails when it lies
 * outside; the one furthest apart for its interval is named. */
static void judge(struct result_event_locked *r, const char *what, double d, double u,
		  double *worst)
{
	if (!isfinite(d) || !isfinite(u))
		return;
	if (r->agrees_with_model == RESULT_NULL_BOOL)
		r->agrees_with_model = 1;
	if (fabs(d) > u)
		r->agrees_with_model = 0;
	if (u > 0 && fabs(d) / u > *worst) {
		*worst = fabs(d) / u;
		free(r->check_kind);
		r->check_kind = xstrdup(what);
		r->difference_uj = d;
		r->combined_u95_uj = u;
	}
}

/* The kinds "write+flush" names: 0, or -1 when it names no pair of them. */
static int pair_kinds(const char *sum_of, int *base, int *with)
{
	char name[2 * 16];
	unsigned k;

	*base = *with = -1;
	for (k = 0; sum_of && k < K; k++) {
		snprintf(name, sizeof(name), "%s+", emodel_kind_names[k]);
		if (!strncmp(sum_of, name, strlen(name)))
			*base = (int)k;
	}
	for (k = 0; *base >= 0 && k < K; k++)
		if (!strcmp(sum_of + strlen(emodel_kind_names[*base]) + 1, emodel_kind_names[k]))
			*with = (int)k;
	return *base >= 0 && *with >= 0 && *base != *with ? 0 : -1;
}

/*
 * One op of base with `ratio` of with as one side prices it: its own sum where it merged
 * that pair, else its parts added (their covariance is not kept: their U95s add, the
 * widest they can be). NAN where it has neither.
 */
static void pair_price(const double *c, const double *c_u, double sum, double sum_u,
		       const char *sum_of, const char *pair, int base, int with, double ratio,
		       double *v, double *u)
{
	if (sum_of && !strcmp(sum_of, pair)) {
		*v = sum;
		*u = sum_u;
	} else {
		*v = c[base] + ratio * c[with];
		*u = c_u[base] + ratio * c_u[with];
	}
}

/* A pair summed on either side is compared as the record both price. */
static void check_pair(struct result_event_locked *r, const double *el, const double *el_u,
		       const double *m, const double *m_u, double *worst)
{
	const struct result_energy_model *md = r->model;
	const char *pair = r->sum_of ? r->sum_of : md->sum_of;
	double ratio = r->sum_of ? r->sum_ratio : md->sum_ratio, a, a_u, b, b_u;
	int base, with;

	if (pair_kinds(pair, &base, &with))
		return;
	pair_price(el, el_u, r->sum_uj_per_op, r->sum_uj_per_op_u95, r->sum_of, pair, base,
		   with, ratio, &a, &a_u);
	pair_price(m, m_u, md->sum_uj_per_op, md->sum_uj_per_op_u95, md->sum_of, pair, base,
		   with, ratio, &b, &b_u);
	judge(r, pair, a - b, hypot(a_u, b_u), worst);
}

/* Completions of each kind in [from_ns, to_ns) into n. */
static void count_ops(const struct completions *ops, int64_t from_ns, int64_t to_ns, double *n)
{
	int64_t t;
	size_t j;
	unsigned k;

	memset(n, 0, K * sizeof(*n));
	for (j = 0; j < ops->n; j++) {
		t = (int64_t)(ops->t0_ns + j * ops->bin_ns);
		if (t >= from_ns && t < to_ns)
			for (k = 0; k < K; k++)
				n[k] += ops->c[j * K + k];
	}
}

/* The count of the kinds in `set` among n's. */
static double set_count(const double *n, unsigned set)
{
	double c = 0;
	unsigned k;

	for (k = 0; k < K; k++)
		c += set >> k & 1 ? n[k] : 0;
	return c;
}

/* The job did every kind in set. */
static int set_done(const struct completions *ops, unsigned set)
{
	unsigned k;

	for (k = 0; k < K; k++)
		if (set >> k & 1 && !(ops->total[k] > 0))
			return 0;
	return 1;
}

/*
 * Kinds whose count, summed, is the same in (almost) every reading's 100 ms that the
 * active phase spans (ops paced in step with the 100 ms windows: one read or one write in
 * each): their costs move with idle exactly, and only readings outside the ops (the tail,
 * a journal's writeback in it), the prior, or an op whose completion falls within the
 * alignment's reach of an edge tell them apart, which the model cannot judge. An op that
 * near an edge counts on either side (n_in: ops well inside; n_out: with those near it).
 * Their bits (bit k for kind k; the fewest kinds that are), or 0.
 */
static unsigned in_step_kinds(const struct emodel_readings *mr, const struct completions *ops,
			      const struct emodel_fit *f, double edge_s, double *share)
{
	int64_t lag = (int64_t)llround(f->lag_s * 1e9), span, edge = (int64_t)llround(edge_s * 1e9);
	double (*n_in)[K] = xcalloc(mr->n ? mr->n : 1, sizeof(*n_in));
	double (*n_out)[K] = xcalloc(mr->n ? mr->n : 1, sizeof(*n_out));
	size_t i, first = SIZE_MAX, last = 0, nw, same, best_same;
	unsigned set, bits = 0;
	double m, mode, top;
	int64_t end;

	/* the readings' own windows, at the lag the model found (a current later than the
	 * event-locked offsets reach is placed by it) */
	span = (int64_t)EL_CHECK_BINS * EL_BIN_NS;
	for (i = 0; i < mr->n && span > 2 * edge; i++) {
		end = (int64_t)mr->r[i].t_ns - lag;
		count_ops(ops, end - span + edge, end - edge, n_in[i]);
		count_ops(ops, end - span - edge, end + edge, n_out[i]);
		if (set_count(n_out[i], 7) > 0) {
			first = first == SIZE_MAX ? i : first;
			last = i;
		}
	}
	nw = first == SIZE_MAX ? 0 : last - first + 1;
	*share = NAN;
	for (set = 1; nw >= EL_INSTEP_MIN_WINDOWS && set < 1u << K; set++) {
		if (!set_done(ops, set))
			continue; /* a kind the job did not do */
		/* the count the most windows can hold, and how many can */
		for (top = 0, i = first; i <= last; i++)
			top = fmax(top, set_count(n_out[i], set));
		for (best_same = 0, mode = 0, m = 1; m <= top; m++) {
			for (same = 0, i = first; i <= last; i++)
				same += set_count(n_in[i], set) <= m + 0.5 &&
					m - 0.5 <= set_count(n_out[i], set);
			if (same > best_same) {
				best_same = same;
				mode = m;
			}
		}
		if (mode > 0 && !(*share >= (double)best_same / (double)nw))
			*share = (double)best_same / (double)nw;
		if (mode > 0 && (double)best_same >= EL_INSTEP_SHARE * (double)nw &&
		    (!bits || __builtin_popcount(set) < __builtin_popcount(bits)))
			bits = set;
	}
	free(n_in);
	free(n_out);
	return bits;
}

/*
 * The ops' energy event-locked against the readings' above the idle baseline over the
 * same bins: agreement within their combined U95. Judged for every job, in step or not:
 * it does not rest on the 100 ms windows (docs/energy.md, "The energy balance").
 */
static void balance_judge(struct result_event_locked *r)
{
	double d = r->above_idle_uj - r->ops_energy_uj,
	       u = hypot(r->ops_energy_uj_u95, r->above_idle_uj_u95);

	r->agrees_with_trace = isfinite(d) && isfinite(u) ? fabs(d) <= u : RESULT_NULL_BOOL;
}

/* The model's verdict made "not identifiable", saying which kinds move with idle. */
static void say_in_step(struct result_energy_model *md, unsigned bits)
{
	char names[3 * 16] = "";
	unsigned k;

	for (k = 0; k < K; k++)
		if (bits >> k & 1)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? "+" : "", emodel_kind_names[k]);
	free(md->verdict);
	free(md->why);
	md->verdict = xstrdup(energy_model_verdict_name(EMODEL_NOT_IDENTIFIABLE));
	md->why = xasprintf("ops in step with the 100 ms windows: each holds the same count of "
			    "%s, so their cost cannot be told from idle; not compared",
			    names);
}

void event_locked_check(struct result_event_locked *r, const struct el_series *s,
			const struct completions *ops, double idle_w, double idle_u_w)
{
	struct emodel_readings *mr = xcalloc(1, sizeof(*mr));
	double el[K], el_u[K], m[K], m_u[K], worst = -1;
	struct emodel_fit fit;
	unsigned k, step = 0;

	r->agrees_with_model = RESULT_NULL_BOOL;
	r->difference_uj = r->combined_u95_uj = r->in_step_share = NAN;
	balance_judge(r);
	decimate(s, r, mr);
	/* The idle the trace shows between the ops, not the idle phase's: where the windows'
	 * counts barely vary, a free idle trades against the costs (a dithered 10 IOPS job
	 * whose windows held one op in 65 %: idle 7 mW high, read 242 +- 511 against 998 +-
	 * 300 uJ, a false disagreement). The model then checks the split; the level (this
	 * idle against the baseline) is the balance's. */
	if (isfinite(r->idle_w) && isfinite(r->idle_w_u95)) {
		idle_w = r->idle_w;
		idle_u_w = r->idle_w_u95 / 2;
	}
	r->model = energy_model_figures(mr, ops, s->t0_ns, s->t0_ns + s->n * EL_BIN_NS, idle_w,
					idle_u_w, EL_CHECK_BINS * EL_BIN_NS, &fit);
	if (r->model && fit.verdict != EMODEL_NONE)
		step = in_step_kinds(mr, ops, &fit,
				     fmin(fmax(EL_INSTEP_EDGE_S, 2 * r->offset_u_s),
					  EL_INSTEP_EDGE_MAX_S),
				     &r->in_step_share);
	free(mr);
	if (!r->model)
		return;
	if (step)
		say_in_step(r->model, step);
	memcpy(el, el_costs(r, 0), sizeof(el));
	memcpy(el_u, el_costs(r, 1), sizeof(el_u));
	m[COMPL_READ] = r->model->read_uj_per_op;
	m[COMPL_WRITE] = r->model->write_uj_per_op;
	m[COMPL_FLUSH] = r->model->flush_uj_per_op;
	m_u[COMPL_READ] = r->model->read_uj_per_op_u95;
	m_u[COMPL_WRITE] = r->model->write_uj_per_op_u95;
	m_u[COMPL_FLUSH] = r->model->flush_uj_per_op_u95;
	for (k = 0; k < K; k++)
		if (!(step >> k & 1))
			judge(r, emodel_kind_names[k], el[k] - m[k], hypot(el_u[k], m_u[k]), &worst);
	if ((r->sum_of || r->model->sum_of) && !step)
		check_pair(r, el, el_u, m, m_u, &worst);
}

void event_locked_judge(const struct result_event_locked *r, struct result_validity *v)
{
	char buf[3 * TEXT_LEN] = "";

	if (!r)
		return;
	if (r->agrees_with_model == 0)
		snprintf(buf, sizeof(buf),
			 "event-locked and model disagree: %s %.4g uJ per op apart, beyond their "
			 "combined U95 %.3g uJ",
			 r->check_kind ? r->check_kind : "?", r->difference_uj, r->combined_u95_uj);
	if (r->agrees_with_trace == 0)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "%sevent-locked and the trace disagree: the ops' energy %.4g mJ against "
			 "%.4g mJ above idle in the readings, beyond their combined U95 %.3g mJ",
			 buf[0] ? "; " : "", r->ops_energy_uj / 1e3, r->above_idle_uj / 1e3,
			 hypot(r->ops_energy_uj_u95, r->above_idle_uj_u95) / 1e3);
	if (buf[0])
		uncertainty_disagreement(v, buf);
}
