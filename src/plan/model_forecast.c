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

/* The meter as simulated: each reading the average of the window_ns ending lag_ns before
 * it, or (hold_ns) ending at the meter's last conversion by then, conversions every hold
 * from phase_ns, the readings FORECAST_DRIFT_PPM slower than the period (the value's age
 * drifts); noise and the misfit (residuals over noise: the scatter beyond it, where
 * operations are). */
struct sim_meter {
	uint64_t window_ns, hold_ns, phase_ns;
	int64_t lag_ns;
	double noise_w, misfit;
	unsigned draw; /* which of the draws: its own noise */
};

/* Where the window of a reading at at_ns ends. */
static uint64_t window_end(const struct sim_meter *sm, uint64_t at_ns)
{
	uint64_t end = (uint64_t)((int64_t)at_ns - sm->lag_ns);

	if (!sm->hold_ns || end < sm->phase_ns)
		return end;
	return sm->phase_ns + (end - sm->phase_ns) / sm->hold_ns * sm->hold_ns;
}

/*
 * Readings every period_ns over [t0, t1], the first phase_ns after t0 + period_ns: the
 * costs (uJ per kind) of the completions in each one's window averaged over it, idle, and
 * noise; each one's count of completions in count. A misfit above 1 scatters each
 * operation's energy (a device's journal writes, a varying cost) so that the readings'
 * chi^2/dof is its square: the scatter sits in the readings that caught operations, as a
 * real device's does, not spread over the quiet ones.
 */
static size_t readings_of(const struct job_opts *jo, uint64_t period_ns, uint64_t phase_ns,
			  uint64_t t0, uint64_t t1, const struct op_at *o, size_t nops,
			  const struct sim_meter *sm, const double *cost_uj,
			  struct emodel_reading *r, unsigned *count, size_t max)
{
	uint64_t rng = pattern_thread_seed(jo->randseed, 2) ^ 0xbf58476d1ce4e5b9ULL ^
		       sm->draw * 0x94d049bb133111ebULL, at, end;
	uint64_t every = period_ns + (sm->hold_ns ? period_ns / 1000000 * FORECAST_DRIFT_PPM : 0);
	double win_s = (double)sm->window_ns / 1e9, j, held = 0, op_w;
	size_t n = 0, lo = 0, i;

	for (at = t0 + phase_ns + period_ns; at <= t1 && n < max; at += every) {
		end = window_end(sm, at);
		while (lo < nops && o[lo].t_ns + sm->window_ns <= end)
			lo++;
		for (j = 0, i = lo; i < nops && o[i].t_ns <= end; i++)
			j += cost_uj[o[i].kind] * 1e-6;
		count[n] = (unsigned)(i - lo);
		held += count[n];
		r[n++] = (struct emodel_reading){ at, IDLE_W + j / win_s +
							  sm->noise_w * normal_draw(&rng),
						  sm->noise_w };
	}
	if (!(sm->misfit > 1) || !(held > 0))
		return n;
	/* each operation's share: the readings' extra variance, noise^2 (misfit^2 - 1) on
	 * average over all of them, spread over the operations they hold */
	op_w = sm->noise_w * sqrt((sm->misfit * sm->misfit - 1) * (double)n / held);
	for (i = 0; i < n; i++)
		r[i].w += sqrt((double)count[i]) * op_w * normal_draw(&rng);
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
		  const struct meter_fit_bursts *b, const struct sim_meter *sm, double gain_rel,
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
	nr = readings_of(jo, period_ns, phase_ns, t0, t1, o, nops, sm, cost_uj, r, count,
			 EMODEL_READINGS_MAX);
	*step = nops && in_step(r, count, nr, o[0].t_ns, o[nops - 1].t_ns, sm->window_ns, held);
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
	in.idle_u_w = sm->noise_w / sqrt(idle_n ? (double)idle_n : 1);
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

/* The fit the forecast simulates: the earlier result's misfit, window, hold and lag where
 * its fit found them (the window at most the period), else FORECAST_MISFIT and the
 * meter's window, held where the period is longer (a tester's conversions), at no lag. */
static void fit_terms(const struct forecast_costs *c, uint64_t period_ns,
		      struct model_forecast *f)
{
	double period_s = (double)period_ns / 1e9, win_s = sampling_window_s(period_ns);

	win_s = win_s > 0 ? win_s : period_s;
	f->misfit_assumed = !(c->misfit >= 0);
	f->misfit = f->misfit_assumed ? FORECAST_MISFIT : c->misfit;
	f->shape_assumed = !(c->window_s > 0);
	f->window_s = f->shape_assumed ? win_s : fmin(c->window_s, period_s);
	f->hold_s = f->shape_assumed ? (period_s > win_s ? win_s : 0) : c->hold_s;
	f->lag_s = f->shape_assumed ? 0 : c->lag_s;
}

/* f's fit as the meter simulated, its conversions' phase drawn from the job's seed. */
static void sim_of(const struct job_opts *jo, const struct model_forecast *f,
		   struct sim_meter *sm)
{
	memset(sm, 0, sizeof(*sm));
	sm->window_ns = (uint64_t)llround(f->window_s * 1e9);
	sm->hold_ns = (uint64_t)llround(f->hold_s * 1e9);
	sm->lag_ns = (int64_t)llround(f->lag_s * 1e9);
	sm->noise_w = f->noise_w;
	sm->misfit = f->misfit;
	if (sm->hold_ns)
		sm->phase_ns = pattern_thread_seed(jo->randseed, 3) % sm->hold_ns;
}

static int rel_cmp(const void *a, const void *b)
{
	const struct model_forecast *x = a, *y = b;
	double u = isfinite(x->worst_rel) ? x->worst_rel : INFINITY;
	double v = isfinite(y->worst_rel) ? y->worst_rel : INFINITY;

	return u < v ? -1 : u > v;
}

/*
 * The fit at phase_ns, drawn FORECAST_DRAWS times (jobs of up to FORECAST_DRAWS_BURSTS
 * bursts simulated; once past) with the noise, the misfit and the meter's conversions'
 * phase drawn anew each time: into *one the U95s of the draw whose worst_rel is the median
 * (one->judged 0: nothing fitted), its I/Os in *ios; that worst_rel. A U95 from a few
 * readings that hold operations is itself a wide draw (Student's t at a few degrees of
 * freedom, the grid's spread): the median is what the run meets half the time.
 */
static double median_draw(const struct job_opts *jo, uint64_t period_ns, uint64_t phase_ns,
			  const struct meter_fit_bursts *b, struct sim_meter *sim,
			  double gain_rel, const struct model_forecast *f,
			  struct model_forecast *one, uint64_t *ios)
{
	struct model_forecast *got = xcalloc(FORECAST_DRAWS, sizeof(*got));
	unsigned d, n = 0, draws = b->n <= FORECAST_DRAWS_BURSTS ? FORECAST_DRAWS : 1;
	uint64_t hold = sim->hold_ns, ios_n;
	struct emodel_fit fit;
	int step;
	unsigned held;
	double rel;

	for (d = 0; d < draws; d++) {
		sim->draw = d;
		sim->phase_ns = hold ? pattern_thread_seed(jo->randseed, 3 + d) % hold : 0;
		if (fit_at(jo, period_ns, phase_ns, b, sim, gain_rel, f->costs.uj, &fit,
			   &ios_n, &step, &held))
			continue;
		got[n] = *f;
		got[n].worst_rel = worst_rel(&fit, f->costs.uj, &got[n], b->total, b->n);
		got[n].verdict = fit.verdict;
		got[n].readings = fit.readings;
		got[n].readings_with_ops = fit.readings_with_ops;
		got[n].judged = 1;
		got[n].ios = ios_n;
		n++;
	}
	one->judged = 0;
	rel = NAN;
	if (n) {
		qsort(got, n, sizeof(*got), rel_cmp);
		*one = got[n / 2];
		*ios = one->ios;
		rel = one->worst_rel;
	}
	free(got);
	return rel;
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
	struct sim_meter sim, plain;
	uint64_t ios, p, k;
	unsigned held = 0, tried = 0;
	int step[FORECAST_PHASES], fitted = 0;
	double rel;

	sim_of(jo, f, &sim);
	plain = (struct sim_meter){ .window_ns = sim.window_ns };
	f->step_phases = 0;
	for (p = 0; p < FORECAST_PHASES; p++) {
		step[p] = 0;
		/* in step: the meter's window at the reading, whatever it holds */
		if (fit_at(jo, period_ns, period_ns * p / FORECAST_PHASES, b, &plain, 0, none_uj,
			   NULL, &ios, &step[p], &held) || !step[p])
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
		rel = median_draw(jo, period_ns, period_ns * p / FORECAST_PHASES, b, &sim,
				  gain_rel, f, &one, &ios);
		if (!one.judged)
			continue;
		if (fitted++ && !(isfinite(rel) && !(rel <= f->worst_rel)))
			continue;
		memcpy(f->u95_uj, one.u95_uj, sizeof(f->u95_uj));
		memcpy(f->cost_uj, one.cost_uj, sizeof(f->cost_uj));
		f->sum_base = one.sum_base;
		f->sum_with = one.sum_with;
		f->sum_u95_uj = one.sum_u95_uj;
		f->sum_cost_uj = one.sum_cost_uj;
		f->worst_rel = rel;
		f->verdict = one.verdict;
		f->readings = one.readings;
		f->readings_with_ops = one.readings_with_ops;
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
	fit_terms(&f->costs, period_ns, f);
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
		/* a U95 narrows as 1/sqrt(N) only where readings held I/O to fit it from: with
		 * none or few (LOG-64K-burst-sync at 2 Hz, 0 of 96) N times more tells nothing */
		if (isfinite(f->worst_rel) && f->worst_rel > f->limit && !f->step_phases &&
		    f->readings_with_ops >= EMODEL_MIN_SEEN)
			f->need_ios = (uint64_t)ceil((double)f->ios *
						     pow(f->worst_rel / f->limit, 2));
	}
	if (period_ns > FORECAST_FAST_NS && meter_fit_bursts(jo, FORECAST_FAST_NS, 0, &bf)) {
		memset(&fast, 0, sizeof(fast));
		fast.noise_w = f->noise_w;
		fast.costs = f->costs;
		/* the earlier result's misfit, at the faster meter's own window */
		fast.costs.window_s = NAN;
		fit_terms(&fast.costs, FORECAST_FAST_NS, &fast);
		fast.worst_rel = NAN;
		/* a faster meter the job is in step with at some phase fixes nothing */
		if (!fit_phases(jo, FORECAST_FAST_NS, &bf, gain_rel, 1, &fast) && !fast.step_phases)
			f->fast_worst_rel = fast.worst_rel;
		free(bf.t_ns);
	}
}

struct result_model_forecast *model_forecast_report(const struct model_forecast *f)
{
	struct result_model_forecast *r;

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
	if (f->sum_base >= 0)
		r->sum_of = emodel_pair_name(f->sum_base, f->sum_with);
	r->u95_rel = f->worst_rel;
	r->uncertain = f->uncertain;
	r->need_ios = f->need_ios;
	r->noise_w = f->noise_w;
	r->noise_assumed = f->noise_assumed;
	r->readings = f->readings;
	r->readings_with_ops = f->readings_with_ops;
	r->in_step_phases = (uint64_t)f->step_phases;
	r->misfit = f->misfit;
	r->misfit_assumed = f->misfit_assumed;
	r->window_s = f->window_s;
	r->hold_s = f->hold_s;
	r->lag_s = f->lag_s;
	r->window_assumed = f->shape_assumed;
	return r;
}

int model_forecast_step_phases(const struct job_opts *jo, uint64_t period_ns)
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
