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

/* Readings every period_ns over [t0, t1], the first phase_ns after t0 + period_ns: the
 * costs (uJ per kind) of the completions in each window (the meter's, ending at the
 * reading) averaged over it, idle, and noise; each one's count of completions in count. */
static size_t readings_of(const struct job_opts *jo, uint64_t period_ns, uint64_t phase_ns,
			  uint64_t t0, uint64_t t1, const struct op_at *o, size_t nops,
			  double noise_w, const double *cost_uj, struct emodel_reading *r,
			  unsigned *count, size_t max)
{
	uint64_t rng = pattern_thread_seed(jo->randseed, 2) ^ 0xbf58476d1ce4e5b9ULL, at;
	double win_s = sampling_window_s(period_ns), j;
	size_t n = 0, lo = 0, i;

	for (at = t0 + phase_ns + period_ns; at <= t1 && n < max; at += period_ns) {
		while (lo < nops && o[lo].t_ns + (uint64_t)(win_s * 1e9) <= at)
			lo++;
		for (j = 0, i = lo; i < nops && o[i].t_ns <= at; i++)
			j += cost_uj[o[i].kind] * 1e-6;
		count[n] = (unsigned)(i - lo);
		r[n++] = (struct emodel_reading){ at, IDLE_W + j / win_s + noise_w * normal_draw(&rng),
						  noise_w };
	}
	return n;
}

/*
 * Ops in step with the meter: every reading whose window lies inside the job's I/O holds
 * the same count of completions (a rate a multiple of the meter's, as 10/s or 2/s at 2 Hz),
 * so what they cost moves nothing the readings see but idle: only the idle baseline would
 * separate them, and a device awake between operations is no baseline. 1 then, with the
 * count in *held; 0 when the counts vary, or too few readings lie inside to tell.
 */
static int in_step(const struct emodel_reading *r, const unsigned *count, size_t n,
		   uint64_t first_ns, uint64_t last_ns, uint64_t win_ns, unsigned *held)
{
	size_t i, inside = 0;

	for (i = 0; i < n; i++) {
		if (r[i].t_ns < first_ns + win_ns || r[i].t_ns > last_ns)
			continue;
		if (inside++ && count[i] != *held)
			return 0;
		*held = count[i];
	}
	return inside >= 3;
}

/* The simulated fit at period_ns, the readings phase_ns later (fit NULL: only *step); 0,
 * or -1 when there was nothing to fit; *step: the ops in step with the readings (in_step),
 * *held their count. */
static int fit_at(const struct job_opts *jo, uint64_t period_ns, uint64_t phase_ns,
		  const struct meter_fit_bursts *b, double noise_w, double gain_rel,
		  const double *cost_uj, struct emodel_fit *fit, uint64_t *ios, int *step,
		  unsigned *held)
{
	struct completions ops;
	struct emodel_reading *r;
	uint64_t t0 = NS_PER_SEC, t1 = b->end_ns + NS_PER_SEC;
	struct op_at *o;
	size_t nops, nr, idle_n;
	struct emodel_in in;
	unsigned *count;
	int rc;

	completions_init(&ops, t0);
	nops = completions_of(jo, b, &ops, &o);
	r = xcalloc(EMODEL_READINGS_MAX, sizeof(*r));
	count = xcalloc(EMODEL_READINGS_MAX, sizeof(*count));
	nr = readings_of(jo, period_ns, phase_ns, t0, t1, o, nops, noise_w, cost_uj, r, count,
			 EMODEL_READINGS_MAX);
	*step = nops && in_step(r, count, nr, o[0].t_ns, o[nops - 1].t_ns,
				(uint64_t)(sampling_window_s(period_ns) * 1e9), held);
	free(count);
	if (!fit) {
		completions_free(&ops);
		free(r);
		free(o);
		return 0;
	}
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

/*
 * The readings at each of FORECAST_PHASES phases (where they fall against the job's pacing
 * is not known before it runs): how many have the ops in step (counted, not fitted), and
 * the fit at up to nfit phases that are not, spread over the period, into f: the widest
 * one's U95s (the phase the run may meet). 0, or -1 when no phase had anything to fit.
 */
static int fit_phases(const struct job_opts *jo, uint64_t period_ns,
		      const struct meter_fit_bursts *b, double gain_rel, unsigned nfit,
		      struct model_forecast *f)
{
	static const double none_uj[COMPL_KINDS];
	struct model_forecast one;
	struct emodel_fit fit;
	uint64_t ios, p, k;
	unsigned held = 0, tried = 0;
	int step[FORECAST_PHASES], fitted = 0;
	double rel;

	f->step_phases = 0;
	for (p = 0; p < FORECAST_PHASES; p++) {
		step[p] = 0;
		if (fit_at(jo, period_ns, period_ns * p / FORECAST_PHASES, b, 0, 0, none_uj, NULL,
			   &ios, &step[p], &held) || !step[p])
			continue;
		if (!f->step_phases++)
			f->step_held_min = f->step_held_max = held;
		f->step_held_min = held < f->step_held_min ? held : f->step_held_min;
		f->step_held_max = held > f->step_held_max ? held : f->step_held_max;
	}
	/* phases 0, 3, 6, 1, ... of 8: the first few spread over the period */
	for (k = 0; k < FORECAST_PHASES && tried < nfit; k++) {
		p = k * 3 % FORECAST_PHASES;
		if (step[p] && f->step_phases < FORECAST_PHASES)
			continue;
		tried++;
		if (fit_at(jo, period_ns, period_ns * p / FORECAST_PHASES, b, f->noise_w, gain_rel,
			   f->costs.uj, &fit, &ios, &step[p], &held))
			continue;
		one = *f;
		rel = worst_rel(&fit, f->costs.uj, &one, b->total, b->n);
		if (fitted++ && !(isfinite(rel) && !(rel <= f->worst_rel)))
			continue;
		memcpy(f->u95_uj, one.u95_uj, sizeof(f->u95_uj));
		memcpy(f->cost_uj, one.cost_uj, sizeof(f->cost_uj));
		f->sum_base = one.sum_base;
		f->sum_with = one.sum_with;
		f->sum_u95_uj = one.sum_u95_uj;
		f->sum_cost_uj = one.sum_cost_uj;
		f->worst_rel = rel;
		f->verdict = fit.verdict;
		f->readings = fit.readings;
		f->readings_with_ops = fit.readings_with_ops;
		/* more bursts than simulated: the fit's covariance narrows as 1 / sqrt N */
		f->ios = b->total > b->n ? ios * b->total / b->n : ios;
	}
	return fitted ? 0 : -1;
}

void model_forecast_judge(const struct job_opts *jo, uint64_t period_ns,
			  const struct meter_accuracy *acc, const struct rate_basis *src,
			  struct model_forecast *f)
{
	struct meter_fit_bursts b, bf;
	struct model_forecast fast;
	double gain_rel;
	int k;

	memset(f, 0, sizeof(*f));
	f->worst_rel = f->fast_worst_rel = NAN;
	if (!period_ns || !meter_fit_bursts(jo, period_ns, 0, &b))
		return;
	meter_terms(acc, f, &gain_rel);
	forecast_costs_for(src, jo, &f->costs);
	f->limit = meter_fit_limit(jo);
	f->period_ns = period_ns;
	f->judged = !fit_phases(jo, period_ns, &b, gain_rel, FORECAST_FITS, f);
	free(b.t_ns);
	if (!f->judged)
		return;
	if (f->step_phases == FORECAST_PHASES) {
		/* no phase tells the costs from idle: no U95 to give, more I/Os change nothing */
		f->worst_rel = f->sum_u95_uj = NAN;
		f->sum_base = f->sum_with = -1;
		for (k = 0; k < COMPL_KINDS; k++)
			f->u95_uj[k] = NAN;
		f->uncertain = 1;
	} else {
		f->uncertain = f->step_phases || !(f->worst_rel <= f->limit);
		if (isfinite(f->worst_rel) && f->worst_rel > f->limit && !f->step_phases)
			f->need_ios = (uint64_t)ceil((double)f->ios *
						     pow(f->worst_rel / f->limit, 2));
	}
	if (period_ns > FORECAST_FAST_NS && meter_fit_bursts(jo, FORECAST_FAST_NS, 0, &bf)) {
		memset(&fast, 0, sizeof(fast));
		fast.noise_w = f->noise_w;
		fast.costs = f->costs;
		fast.worst_rel = NAN;
		/* a faster meter the job is in step with at some phase fixes nothing */
		if (!fit_phases(jo, FORECAST_FAST_NS, &bf, gain_rel, 1, &fast) && !fast.step_phases)
			f->fast_worst_rel = fast.worst_rel;
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
	r->in_step_phases = (uint64_t)f->step_phases;
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

/* Phases (of FORECAST_PHASES) at which jo's ops are in step with a meter of period_ns. */
static int step_phases_at(const struct job_opts *jo, uint64_t period_ns)
{
	struct model_forecast f;
	struct meter_fit_bursts b;

	memset(&f, 0, sizeof(f));
	if (!meter_fit_bursts(jo, period_ns, 0, &b))
		return 0;
	fit_phases(jo, period_ns, &b, 0, 0, &f);
	free(b.t_ns);
	return f.step_phases;
}

/* What takes the ops out of step with the meter: dither, or (paced) the nearest rate the
 * same simulation finds in step at no phase (a multiple of the meter's rate always is; at
 * 2 Hz and a 100 ms window most odd rates still are, as 11/s: checked, not assumed). */
static void step_fix(const struct job_opts *jo, const struct model_forecast *f, char *buf,
		     size_t len)
{
	struct job_opts alt = *jo;
	uint64_t d, r;

	snprintf(buf, len, "%s", jo->thinktime_ns ? "thinktime_dither=100%" : "rate_dither=100%");
	if (jo->thinktime_ns || !jo->rate_iops || jo->rate_dither > 0)
		return;
	for (d = 1; d <= FORECAST_RATE_SEARCH; d++)
		for (r = jo->rate_iops + d; r + 2 * d > jo->rate_iops + d; r -= 2 * d) {
			alt.rate_iops = r;
			if (r && !step_phases_at(&alt, f->period_ns)) {
				snprintf(buf + strlen(buf), len - strlen(buf),
					 ", or rate_iops=%" PRIu64 " (in step at no phase)", r);
				return;
			}
			if (r < 2 * d)
				break;
		}
}

/* The faster meter as a fix, where it forecasts better than now (now unknown: better). */
static void fast_fix(FILE *fp, const struct model_forecast *f, int first)
{
	/* worse than now, or (now unknown) than the coarse bound: no fix */
	if (!(f->fast_worst_rel < (isfinite(f->worst_rel) ? f->worst_rel : METER_FIT_COARSE_U95)))
		return;
	fprintf(fp, "%s a meter reading every %.0f ms (\u00b1%.1f %%)", first ? "; fix:" : ", or",
		(double)FORECAST_FAST_NS / 1e6, 100 * f->fast_worst_rel);
}

static void forecast_print(FILE *fp, const struct job_opts *jo, const struct model_forecast *f)
{
	char u[256], fix[160], held[96];

	step_fix(jo, f, fix, sizeof(fix));
	if (f->step_phases == FORECAST_PHASES) {
		if (f->step_held_min == f->step_held_max)
			snprintf(held, sizeof(held), "each reading holds %u I/O%s at every phase",
				 f->step_held_min, f->step_held_min == 1 ? "" : "s");
		else
			snprintf(held, sizeof(held), "at every phase its readings each hold the same "
				 "count of I/Os, %u to %u by phase", f->step_held_min, f->step_held_max);
		fprintf(fp, "  %s: not identifiable: ops in step with the meter (%s), so what they "
			    "cost cannot be told from idle, however many: UNCERTAIN; fix: %s",
			jo->name, held, fix);
		fast_fix(fp, f, 0);
		fputc('\n', fp);
		return;
	}
	u95_text(f, u, sizeof(u));
	fprintf(fp, "  %s: %s, %" PRIu64 " of %" PRIu64 " readings hold I/O", jo->name, u,
		f->readings_with_ops, f->readings);
	if (!f->uncertain) {
		fprintf(fp, ": within %.0f %%\n", 100 * f->limit);
		return;
	}
	if (f->step_phases) {
		/* the U95 above is a phase that is not in step: the run may meet one that is */
		fprintf(fp, ": UNCERTAIN (depends on the meter's phase: at %d of %d the ops are in "
			    "step with it, not identifiable); fix: %s", f->step_phases,
			FORECAST_PHASES, fix);
		fast_fix(fp, f, 0);
		fputc('\n', fp);
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
	fast_fix(fp, f, !f->need_ios);
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
	size_t i, shown = 0, step = 0;

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
		forecast_print(fp, &cfg->jobs[i], &f);
		step += f.step_phases == FORECAST_PHASES;
	}
	/* the meter fit above judges the readings' integral, which such a job suits */
	if (step)
		fprintf(fp, "model fit: %zu job%s in step with the meter: %s per-op costs cannot "
			    "be measured as given, however long %s run%s (UNCERTAIN when run)\n",
			step, step == 1 ? "" : "s", step == 1 ? "its" : "their",
			step == 1 ? "it" : "they", step == 1 ? "s" : "");
}
