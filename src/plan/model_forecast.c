/* SPDX-License-Identifier: MIT */
/* Before a job runs: the per-operation U95 the power model will reach, from the job's I/O simulated. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/units.h"
#include "energy/energy_model.h"
#include "energy/sampling.h"
#include "io/pace.h"
#include "io/pattern.h"
#include "plan/meter_fit.h"
#include "plan/model_forecast.h"

/* A flush completes this long after the write it follows: a buffered 4 KiB write returns at
 * once and its fdatasync takes the device's time (4-9 ms on an ext4 loop device, a card's
 * program time), so the two land in different 1 ms bins, mostly in the same window. */
#define FLUSH_AFTER_NS (5 * 1000000ULL)
/* The device's level between operations: a card's idle at 5 V. */
#define IDLE_W 0.45

/* One standard normal draw from the stream *rng (Box-Muller). */
static double normal_draw(uint64_t *rng)
{
	double u1 = ((double)(pace_next(rng) >> 11) + 1) / 9007199254740993.0;
	double u2 = (double)(pace_next(rng) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* The meter's noise and gain at a tester's usual load (5 V, 100 mA). */
static void meter_terms(const struct meter_accuracy *acc, struct model_forecast *f,
			double *gain_rel)
{
	struct meter_u uw;
	double n;

	*gain_rel = 0;
	f->noise_w = FORECAST_NOISE_W;
	f->noise_assumed = 1;
	if (!acc || !acc->source)
		return;
	accuracy_reading_u(acc, 5.0, 0.1, 0.5, acc->w.resolution > 0, NULL, NULL, &uw);
	n = hypot(isfinite(uw.noise) ? uw.noise : 0, isfinite(uw.res) ? uw.res : 0);
	if (n > 0) {
		f->noise_w = n;
		f->noise_assumed = 0;
		f->noise_from = acc->source;
	}
	if (isfinite(uw.gain))
		*gain_rel = uw.gain / 0.5;
}

struct op_at {
	uint64_t t_ns;
	unsigned char kind;
};

static int op_cmp(const void *a, const void *b)
{
	const struct op_at *x = a, *y = b;

	return x->t_ns < y->t_ns ? -1 : x->t_ns > y->t_ns;
}

/* Each I/O of the simulated bursts as a completion of its kind into ops, and in time
 * order into *out (a flush after every fdatasync-th write, FLUSH_AFTER_NS later); the count. */
static size_t completions_of(const struct job_opts *jo, const struct meter_fit_bursts *b,
			     struct completions *ops, struct op_at **out)
{
	uint64_t rng = pattern_thread_seed(jo->randseed, 1) ^ 0x9e3779b97f4a7c15ULL, w = 0, at;
	size_t i, k, n = 0;
	struct op_at *o = xcalloc(b->n * b->per_burst * 2 + 1, sizeof(*o));
	int reads;

	for (i = 0; i < b->n; i++)
		for (k = 0; k < b->per_burst; k++) {
			at = b->t_ns[i] + b->burst_ns * (k + 1) / b->per_burst;
			reads = rw_reads(jo->rw) &&
				(!rw_writes(jo->rw) || pace_next(&rng) % 100 < jo->rwmixread);
			o[n++] = (struct op_at){ at, reads ? COMPL_READ : COMPL_WRITE };
			if (!reads && jo->fdatasync && ++w % jo->fdatasync == 0)
				o[n++] = (struct op_at){ at + FLUSH_AFTER_NS, COMPL_FLUSH };
		}
	qsort(o, n, sizeof(*o), op_cmp);
	for (i = 0; i < n; i++)
		completions_add(ops, (enum compl_kind)o[i].kind, o[i].t_ns);
	*out = o;
	return n;
}

/* Readings every period_ns over [t0, t1]: the costs (uJ per kind) of the completions in
 * each window (the meter's, ending at the reading) averaged over it, idle, and noise. */
static size_t readings_of(const struct job_opts *jo, uint64_t period_ns, uint64_t t0,
			  uint64_t t1, const struct op_at *o, size_t nops, double noise_w,
			  const double *cost_uj, struct emodel_reading *r, size_t max)
{
	uint64_t rng = pattern_thread_seed(jo->randseed, 2) ^ 0xbf58476d1ce4e5b9ULL, at;
	double win_s = sampling_window_s(period_ns), j;
	size_t n = 0, lo = 0, i;

	for (at = t0 + period_ns; at <= t1 && n < max; at += period_ns) {
		while (lo < nops && o[lo].t_ns + (uint64_t)(win_s * 1e9) <= at)
			lo++;
		for (j = 0, i = lo; i < nops && o[i].t_ns <= at; i++)
			j += cost_uj[o[i].kind] * 1e-6;
		r[n++] = (struct emodel_reading){ at, IDLE_W + j / win_s + noise_w * normal_draw(&rng),
						  noise_w };
	}
	return n;
}

/* The simulated fit at period_ns; 0, or -1 when there was nothing to fit. */
static int fit_at(const struct job_opts *jo, uint64_t period_ns, const struct meter_fit_bursts *b,
		  double noise_w, double gain_rel, const double *cost_uj, struct emodel_fit *fit,
		  uint64_t *ios)
{
	struct completions ops;
	struct emodel_reading *r;
	uint64_t t0 = NS_PER_SEC, t1 = b->end_ns + NS_PER_SEC;
	struct op_at *o;
	size_t nops, nr, idle_n;
	struct emodel_in in;
	int rc;

	completions_init(&ops, t0);
	nops = completions_of(jo, b, &ops, &o);
	r = xcalloc(EMODEL_READINGS_MAX, sizeof(*r));
	nr = readings_of(jo, period_ns, t0, t1, o, nops, noise_w, cost_uj, r, EMODEL_READINGS_MAX);
	idle_n = (size_t)fmax((double)jo->idle_samples, (double)jo->idle_ns / (double)period_ns);
	memset(&in, 0, sizeof(in));
	in.r = r;
	in.n = nr;
	in.t0_ns = t0;
	in.t1_ns = t1;
	in.ops = &ops;
	in.idle_w = IDLE_W;
	in.idle_u_w = noise_w / sqrt(idle_n ? (double)idle_n : 1);
	in.gain_rel = gain_rel;
	in.period_ns = period_ns;
	/* window and lag not declared, as a tester's: the fit searches them as it will */
	rc = nr ? energy_model_fit(&in, fit) : -1;
	*ios = (uint64_t)(ops.total[COMPL_READ] + ops.total[COMPL_WRITE]);
	completions_free(&ops);
	free(r);
	free(o);
	return rc ? -1 : 0;
}

/* The largest U95 over its cost (simulated: cost_uj) among the kinds the fit priced (the
 * pair's sum counted as one); NAN when it priced none. */
static double worst_rel(const struct emodel_fit *fit, const double *cost_uj,
			struct model_forecast *f, uint64_t scale_n, uint64_t n)
{
	double s = scale_n > n ? sqrt((double)n / (double)scale_n) : 1, worst = NAN, rel;
	int k;

	for (k = 0; k < COMPL_KINDS; k++) {
		f->u95_uj[k] = fit->u95_j[k] * 1e6 * s;
		f->cost_uj[k] = cost_uj[k];
		rel = f->u95_uj[k] / cost_uj[k];
		if (isfinite(rel) && !(rel <= worst))
			worst = rel;
	}
	f->sum_base = fit->sum_base;
	f->sum_with = fit->sum_with;
	f->sum_u95_uj = f->sum_cost_uj = NAN;
	if (fit->sum_base >= 0) {
		f->sum_u95_uj = fit->sum_u95_j * 1e6 * s;
		f->sum_cost_uj = cost_uj[fit->sum_base] + fit->sum_ratio * cost_uj[fit->sum_with];
		rel = f->sum_u95_uj / f->sum_cost_uj;
		if (isfinite(rel) && !(rel <= worst))
			worst = rel;
	}
	return worst;
}

void model_forecast_judge(const struct job_opts *jo, uint64_t period_ns,
			  const struct meter_accuracy *acc, const struct rate_basis *src,
			  struct model_forecast *f)
{
	struct meter_fit_bursts b, bf;
	struct emodel_fit fit;
	struct model_forecast fast;
	double gain_rel;
	uint64_t ios;

	memset(f, 0, sizeof(*f));
	f->worst_rel = f->fast_worst_rel = NAN;
	if (!period_ns || !meter_fit_bursts(jo, period_ns, 0, &b))
		return;
	meter_terms(acc, f, &gain_rel);
	forecast_costs_for(src, jo, &f->costs);
	f->limit = meter_fit_limit(jo);
	if (!fit_at(jo, period_ns, &b, f->noise_w, gain_rel, f->costs.uj, &fit, &ios)) {
		f->judged = 1;
		f->verdict = fit.verdict;
		f->readings = fit.readings;
		f->readings_with_ops = fit.readings_with_ops;
		/* more bursts than simulated: the fit's covariance narrows as 1 / sqrt N */
		f->ios = b.total > b.n ? ios * b.total / b.n : ios;
		f->worst_rel = worst_rel(&fit, f->costs.uj, f, b.total, b.n);
	}
	free(b.t_ns);
	if (!f->judged)
		return;
	f->uncertain = !(f->worst_rel <= f->limit);
	if (isfinite(f->worst_rel) && f->worst_rel > f->limit)
		f->need_ios = (uint64_t)ceil((double)f->ios * pow(f->worst_rel / f->limit, 2));
	if (period_ns > FORECAST_FAST_NS && meter_fit_bursts(jo, FORECAST_FAST_NS, 0, &bf)) {
		memset(&fast, 0, sizeof(fast));
		if (!fit_at(jo, FORECAST_FAST_NS, &bf, f->noise_w, gain_rel, f->costs.uj, &fit,
			    &ios))
			f->fast_worst_rel = worst_rel(&fit, f->costs.uj, &fast, bf.total, bf.n);
		free(bf.t_ns);
	}
}

static const char *const kind_names[COMPL_KINDS] = { "read", "write", "flush" };

struct result_model_forecast *model_forecast_report(const struct model_forecast *f)
{
	struct result_model_forecast *r;
	char pair[32];

	if (!f->judged)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->read_uj_per_op = f->costs.uj[COMPL_READ];
	r->write_uj_per_op = f->costs.uj[COMPL_WRITE];
	r->flush_uj_per_op = f->costs.uj[COMPL_FLUSH];
	r->costs_from = xstrdup(f->costs.from);
	r->read_uj_per_op_u95 = f->u95_uj[COMPL_READ];
	r->write_uj_per_op_u95 = f->u95_uj[COMPL_WRITE];
	r->flush_uj_per_op_u95 = f->u95_uj[COMPL_FLUSH];
	r->sum_uj_per_op_u95 = f->sum_base >= 0 ? f->sum_u95_uj : NAN;
	if (f->sum_base >= 0) {
		snprintf(pair, sizeof(pair), "%s+%s", kind_names[f->sum_base],
			 kind_names[f->sum_with]);
		r->sum_of = xstrdup(pair);
	}
	r->u95_rel = f->worst_rel;
	r->uncertain = f->uncertain;
	r->need_ios = f->need_ios;
	r->noise_w = f->noise_w;
	r->noise_assumed = f->noise_assumed;
	r->readings = f->readings;
	r->readings_with_ops = f->readings_with_ops;
	return r;
}

/* "write +-41 uJ (7 %)", or the pair's "write+flush +-41 uJ (5 %)", ", "-joined. */
static void u95_text(const struct model_forecast *f, char *buf, size_t len)
{
	const char *const *names = kind_names;
	char v[32];
	size_t n = 0;
	int k;

	buf[0] = 0;
	if (f->sum_base >= 0 && isfinite(f->sum_u95_uj))
		n += (size_t)snprintf(buf + n, len - n, "%s+%s \u00b1%s \u00b5J (%.1f %%)",
				      names[f->sum_base], names[f->sum_with],
				      fmt_sig(f->sum_u95_uj, 2, v, sizeof(v)),
				      100 * f->sum_u95_uj / f->sum_cost_uj);
	for (k = 0; k < COMPL_KINDS && n < len; k++)
		if (isfinite(f->u95_uj[k]))
			n += (size_t)snprintf(buf + n, len - n, "%s%s \u00b1%s \u00b5J (%.1f %%)",
					      n ? ", " : "", names[k],
					      fmt_sig(f->u95_uj[k], 2, v, sizeof(v)),
					      100 * f->u95_uj[k] / f->cost_uj[k]);
	if (!n)
		snprintf(buf, len, "no cost known");
}

static void forecast_print(FILE *fp, const char *name, const struct model_forecast *f)
{
	char u[256];

	u95_text(f, u, sizeof(u));
	fprintf(fp, "  %s: %s, %" PRIu64 " of %" PRIu64 " readings hold I/O", name, u,
		f->readings_with_ops, f->readings);
	if (!f->uncertain) {
		fprintf(fp, ": within %.0f %%\n", 100 * f->limit);
		return;
	}
	fprintf(fp, ": UNCERTAIN (above %.0f %%", 100 * f->limit);
	/* a lock-step pair is not identifiable by kind: its sum is the figure shown */
	if (f->verdict != EMODEL_OK && !(f->verdict == EMODEL_NOT_IDENTIFIABLE && f->sum_base >= 0))
		fprintf(fp, ", %s", energy_model_verdict_name((enum emodel_verdict)f->verdict));
	fputs(")", fp);
	if (f->need_ios)
		fprintf(fp, "; fix: %" PRIu64 " I/Os or more (now %" PRIu64 ")", f->need_ios,
			f->ios);
	if (isfinite(f->fast_worst_rel))
		fprintf(fp, "%s a meter reading every %.0f ms (\u00b1%.1f %%)",
			f->need_ios ? ", or" : "; fix:", (double)FORECAST_FAST_NS / 1e6,
			100 * f->fast_worst_rel);
	fputc('\n', fp);
}

/* Does jo do operations of kind k (a flush: fdatasync writes)? */
static int does(const struct job_opts *jo, int k)
{
	return k == COMPL_READ ? rw_reads(jo->rw) != 0
			       : rw_writes(jo->rw) && (k == COMPL_WRITE || jo->fdatasync);
}

/* "  costs: write 640 ±20 µJ, flush 310 ±12 µJ; from FILE: sda's pooled model (...)". */
static void costs_text(const struct job_opts *jo, const struct forecast_costs *c, char *buf,
		       size_t len)
{
	static const char *const how[] = { " (assumed)", "", " (of their measured sum)" };
	char v[32], u[48];
	size_t n = (size_t)snprintf(buf, len, "  costs:");
	int k, m = 0;

	for (k = 0; k < COMPL_KINDS && n < len; k++) {
		if (!does(jo, k))
			continue;
		u[0] = 0;
		if (isfinite(c->u95_uj[k]))
			snprintf(u, sizeof(u), " \u00b1%s", fmt_sig(c->u95_uj[k], 2, v, sizeof(v)));
		n += (size_t)snprintf(buf + n, len - n, "%s %s %s%s \u00b5J%s", m++ ? "," : "",
				      kind_names[k], fmt_sig(c->uj[k], 3, v, sizeof(v)), u,
				      how[c->how[k]]);
	}
	if (n < len)
		snprintf(buf + n, len - n, "; %s", c->from);
}

void model_forecast_plan(FILE *fp, const struct run_config *cfg, uint64_t period_ns,
			 const struct meter_accuracy *acc, const struct rate_basis *src)
{
	struct model_forecast f;
	char per[32], costs[FORECAST_FROM_LEN + 256], last[sizeof(costs)] = "";
	size_t i, shown = 0;

	for (i = 0; period_ns && i < cfg->njobs; i++) {
		model_forecast_judge(&cfg->jobs[i], period_ns, acc, src, &f);
		if (!f.judged)
			continue;
		if (!shown++)
			fprintf(fp, "model fit: the power model's per-op U95, the job's I/O simulated "
				    "against a reading every %s with %.2g mW noise%s%s%s, at the costs "
				    "below:\n",
				fmt_duration(period_ns, per, sizeof(per)), f.noise_w * 1e3,
				f.noise_assumed ? " (assumed: the meter declares its own once open)"
						: " (the meter's declared accuracy: ",
				f.noise_assumed ? "" : f.noise_from,
				f.noise_assumed ? "" : ")");
		/* the costs once, and again where a job's differ */
		costs_text(&cfg->jobs[i], &f.costs, costs, sizeof(costs));
		if (strcmp(costs, last))
			fprintf(fp, "%s\n", costs);
		memcpy(last, costs, sizeof(last));
		forecast_print(fp, cfg->jobs[i].name, &f);
	}
}
