/* SPDX-License-Identifier: MIT */
/* A fast meter's power aligned on the completions: each kind's charge and the shape of one operation. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"
#include "energy/event_deconv.h"
#include "energy/event_locked.h"

#define K COMPL_KINDS
#define NLAG (2 * EL_LAG_MAX_BINS + 1)

void el_series_reset(struct el_series *s)
{
	s->t0_ns = 0;
	s->n = 0;
	s->clock_steps = 0;
}

void el_series_add(struct el_series *s, uint64_t t_ns, double w)
{
	uint64_t i;

	if (!isfinite(w))
		return;
	if (!s->n) {
		s->t0_ns = t_ns;
		memset(s->w_sum, 0, sizeof(s->w_sum));
		memset(s->cnt, 0, sizeof(s->cnt));
	}
	if (t_ns < s->t0_ns)
		return;
	i = (t_ns - s->t0_ns) / EL_BIN_NS;
	if (i >= EL_MAX_BINS || s->cnt[i] == UINT16_MAX)
		return;
	s->w_sum[i] += (float)w;
	s->cnt[i]++;
	if (i + 1 > s->n)
		s->n = i + 1;
}

static double w_at(const struct el_series *s, int64_t i)
{
	if (i < 0 || (uint64_t)i >= s->n || !s->cnt[i])
		return NAN;
	return (double)s->w_sum[i] / s->cnt[i];
}

/* The series bin a completions bin falls in (before the series: negative). */
static int64_t bin_of(const struct el_series *s, const struct completions *ops, size_t j)
{
	double t = (double)(ops->t0_ns + j * ops->bin_ns) - (double)s->t0_ns;

	return (int64_t)floor(t / (double)EL_BIN_NS);
}

/*
 * The lag (bins) whose power, less its mean, correlates most with the completions'
 * counts (the middle of the peak above half its height); that width into *hw (bins)
 * and the peak's correlation.
 */
static int best_lag(const struct el_series *s, const struct completions *ops, int *hw,
		    double *r_peak)
{
	double c[NLAG] = { 0 }, mean = 0, dd = 0, aa = 0, d, a;
	size_t i, j, nv = 0;
	int l, best = 0, lo, hi;

	for (i = 0; i < s->n; i++)
		if (s->cnt[i]) {
			mean += w_at(s, (int64_t)i);
			nv++;
		}
	mean /= (double)nv;
	for (i = 0; i < s->n; i++)
		if (s->cnt[i])
			dd += pow(w_at(s, (int64_t)i) - mean, 2);
	for (j = 0; j < ops->n; j++) {
		a = ops->c[j * K] + ops->c[j * K + 1] + ops->c[j * K + 2];
		if (!(a > 0))
			continue;
		aa += a * a;
		for (l = 0; l < NLAG; l++) {
			d = w_at(s, bin_of(s, ops, j) + l - EL_LAG_MAX_BINS);
			if (isfinite(d))
				c[l] += a * (d - mean);
		}
	}
	for (l = 1; l < NLAG; l++)
		if (c[l] > c[best])
			best = l;
	for (lo = best; lo > 0 && c[lo - 1] > c[best] / 2; lo--)
		;
	for (hi = best; hi < NLAG - 1 && c[hi + 1] > c[best] / 2; hi++)
		;
	*hw = hi - lo + 1;
	*r_peak = aa > 0 && dd > 0 ? c[best] / sqrt(aa * dd) : 0;
	if (!(c[best] > 0))
		return INT_MIN; /* no lag where the power rises with the completions */
	/* an op's current lasts several bins: the top is flat and its highest bin is noise;
	 * its middle is where the ops show */
	return (lo + hi) / 2 - EL_LAG_MAX_BINS;
}

/* The completions of each kind as they show on the series (off_ns later on its clock),
 * per bin. */
static float *aligned_counts(const struct el_series *s, const struct completions *ops,
			     double off_ns)
{
	float *m = xcalloc(s->n * K, sizeof(*m));
	double t;
	int64_t b;
	size_t j;
	unsigned k;

	for (j = 0; j < ops->n; j++) {
		t = (double)(ops->t0_ns + j * ops->bin_ns) - (double)s->t0_ns + off_ns;
		b = (int64_t)floor(t / (double)EL_BIN_NS);
		if (b < 0 || (uint64_t)b >= s->n)
			continue;
		for (k = 0; k < K; k++)
			m[(size_t)b * K + k] += ops->c[j * K + k];
	}
	return m;
}

int event_locked_fit(const struct el_series *s, const struct completions *ops, double idle_w,
		     double idle_u_w, const struct el_align *al, struct el_fit *out)
{
	double *w, dt = (double)EL_BIN_NS / 1e9, off_ns;
	struct eld_fit d;
	struct eld_in in;
	float *m;
	size_t i;
	int lag, hw, rc;
	unsigned k;

	memset(out, 0, sizeof(*out));
	out->trace_kind = out->sum_base = out->sum_with = -1;
	out->sum_j = out->sum_u95_j = out->sum_ratio = NAN;
	for (k = 0; k < K; k++)
		out->j_per_op[k] = out->u95_j[k] = NAN;
	out->lag_s = out->lag_u_s = out->r_peak = out->corr_lag_s = NAN;
	if (!s->n || !ops || !ops->n || ops->bin_ns != EL_BIN_NS || !isfinite(idle_w))
		return -EINVAL;
	lag = best_lag(s, ops, &hw, &out->r_peak);
	if (lag != INT_MIN)
		out->corr_lag_s = lag * dt;
	out->marker = al && al->ok && isfinite(al->offset_s);
	if (out->marker) {
		/* the marker's edges place the completions; the correlation stays the check.
		 * The offset is finer than a bin: each completion, in the middle of its own
		 * 1 ms on average, goes to the series bin that time shows in. */
		off_ns = al->offset_s * 1e9 + (double)EL_BIN_NS / 2;
		out->lag_s = al->offset_s;
		out->lag_u_s = al->u95_s;
	} else if (lag == INT_MIN) {
		return -ENODATA;
	} else {
		out->lag_s = lag * dt;
		out->lag_u_s = hw * dt / 2;
		off_ns = (double)lag * (double)EL_BIN_NS;
	}
	w = xcalloc(s->n, sizeof(*w));
	for (i = 0; i < s->n; i++)
		w[i] = w_at(s, (int64_t)i);
	m = aligned_counts(s, ops, off_ns);
	in = (struct eld_in){ .w = w, .m = m, .n = s->n, .taps = EL_TRACE_BINS,
			      .pre = EL_PRE_BINS, .idle_w = idle_w, .idle_u_w = idle_u_w,
			      .bin_s = dt };
	rc = event_deconv_fit(&in, &d);
	free(w);
	free(m);
	if (rc)
		return rc;
	for (k = 0; k < K; k++) {
		out->j_per_op[k] = d.j_per_op[k];
		out->u95_j[k] = d.u95_j[k];
		out->ops[k] = d.ops[k];
		if ((isfinite(d.j_per_op[k]) || (int)k == d.sum_base) &&
		    (out->trace_kind < 0 || d.ops[k] > out->ops[out->trace_kind]))
			out->trace_kind = (int)k;
	}
	out->sum_base = d.sum_base;
	out->sum_with = d.sum_with;
	out->sum_j = d.sum_j;
	out->sum_u95_j = d.sum_u95_j;
	out->sum_ratio = d.sum_ratio;
	out->idle_w = d.idle_w;
	out->idle_u95_w = d.idle_u95_w;
	out->residual_rms_w = d.residual_rms_w;
	out->inflation = d.inflation;
	out->kernels_j = d.kernels_j;
	out->kernels_u95_j = d.kernels_u95_j;
	out->above_idle_j = d.above_idle_j;
	out->above_idle_u95_j = d.above_idle_u95_j;
	if (out->trace_kind >= 0)
		memcpy(out->trace_w, d.kernel_w[out->trace_kind], sizeof(out->trace_w));
	return 0;
}

/* How the completions were placed: the marker's edges, or the cross-correlation and why. */
static void alignment(const struct el_fit *f, const struct el_align *al, unsigned steps,
		      struct result_event_locked *r)
{
	char in[16];

	r->correlation_offset_s = f->corr_lag_s;
	r->drift_ppm = NAN;
	if (steps) {
		r->alignment = xstrdup("not known");
		r->alignment_note = xasprintf(
			"alignment not known: the meter's clock was set again %u time(s) within the "
			"job (samples lost that its counter tells only modulo 64, 0.64 ms, or a step "
			"of over 0.5 ms); per-kind figures not given",
			steps);
		return;
	}
	r->alignment = xstrdup(f->marker ? "marker" : "correlation");
	if (!al)
		return;
	r->marker_edges = al->edges;
	if (al->input >= 0) {
		snprintf(in, sizeof(in), "D%d", al->input);
		r->marker_input = xstrdup(in);
	}
	if (f->marker)
		r->drift_ppm = al->drift_ppm;
	else
		r->alignment_note = xstrdup(al->why[0] ? al->why : "the marker gave no offset");
}

struct result_event_locked *event_locked_figures(const struct el_series *s,
						 const struct completions *ops, double idle_w,
						 double idle_u_w, const struct el_align *al)
{
	struct result_event_locked *r;
	struct el_fit f;
	int l;

	if (!s->n || !ops || event_locked_fit(s, ops, idle_w, idle_u_w, al, &f) ||
	    f.trace_kind < 0)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->agrees_with_model = RESULT_NULL_BOOL;
	r->difference_uj = r->combined_u95_uj = NAN;
	r->offset_s = f.lag_s;
	r->offset_u_s = f.lag_u_s;
	r->correlation = f.r_peak;
	alignment(&f, al, s->clock_steps, r);
	r->idle_w = f.idle_w;
	r->idle_w_u95 = f.idle_u95_w;
	r->residual_rms_w = f.residual_rms_w;
	r->inflation = f.inflation;
	r->ops_energy_uj = f.kernels_j * 1e6;
	r->ops_energy_uj_u95 = f.kernels_u95_j * 1e6;
	r->above_idle_uj = f.above_idle_j * 1e6;
	r->above_idle_uj_u95 = f.above_idle_u95_j * 1e6;
	r->agrees_with_trace = RESULT_NULL_BOOL;
	r->read_uj_per_op = f.j_per_op[COMPL_READ] * 1e6;
	r->read_uj_per_op_u95 = f.u95_j[COMPL_READ] * 1e6;
	r->write_uj_per_op = f.j_per_op[COMPL_WRITE] * 1e6;
	r->write_uj_per_op_u95 = f.u95_j[COMPL_WRITE] * 1e6;
	r->flush_uj_per_op = f.j_per_op[COMPL_FLUSH] * 1e6;
	r->flush_uj_per_op_u95 = f.u95_j[COMPL_FLUSH] * 1e6;
	r->reads = (uint64_t)f.ops[COMPL_READ];
	r->writes = (uint64_t)f.ops[COMPL_WRITE];
	r->flushes = (uint64_t)f.ops[COMPL_FLUSH];
	r->sum_uj_per_op = f.sum_j * 1e6;
	r->sum_uj_per_op_u95 = f.sum_u95_j * 1e6;
	r->sum_ratio = f.sum_ratio;
	if (f.sum_base >= 0)
		r->sum_of = emodel_pair_name(f.sum_base, f.sum_with);
	r->trace_of = f.trace_kind == f.sum_base ? xstrdup(r->sum_of)
						 : xstrdup(emodel_kind_names[f.trace_kind]);
	if (s->clock_steps) {
		/* where the completions fall on the trace is not known: what each kind costs
		 * and one op's shape are not either; the ops' energy against the trace's is */
		r->read_uj_per_op = r->write_uj_per_op = r->flush_uj_per_op = NAN;
		r->read_uj_per_op_u95 = r->write_uj_per_op_u95 = r->flush_uj_per_op_u95 = NAN;
		r->sum_uj_per_op = r->sum_uj_per_op_u95 = r->sum_ratio = NAN;
		r->offset_u_s = NAN;
		return r;
	}
	r->trace = xcalloc(EL_TRACE_BINS, sizeof(*r->trace));
	r->ntrace = EL_TRACE_BINS;
	for (l = 0; l < EL_TRACE_BINS; l++) {
		r->trace[l].t_s = (double)(l - EL_PRE_BINS) * (double)EL_BIN_NS / 1e9;
		r->trace[l].w = f.trace_w[l];
	}
	return r;
}
