/* SPDX-License-Identifier: MIT */
/* Per-job energy: phase windows, trapezoids on sample times, coverage, the tail, the summary. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy.h"
#include "energy/sampling.h"

#define J_PER_MWH 3.6

/*
 * Without a floor a meter that reads 0.000 W at idle (or a 0 A baseline) would never
 * let the tail settle on the last-digit noise of the display; the testers we support
 * resolve about 1 mW / 0.1 mA.
 */
#define TAIL_FLOOR_W 0.005
#define TAIL_FLOOR_A 0.001

void energy_job_init(struct energy_job *ej, uint64_t period_ns)
{
	int i;

	memset(ej, 0, sizeof(*ej));
	ej->period_ns = period_ns;
	ej->tail_tol = 0.05;
	ej->last_w = NAN;
	idle_readings_reset(&ej->idle_rd);
	emodel_readings_reset(&ej->model_rd);
	el_series_reset(&ej->el);
	el_logic_reset(&ej->logic, period_ns);
	for (i = 0; i < PHASE_COUNT; i++) {
		ej->ph[i].unc.window_s = sampling_window_s(period_ns);
		ej->ph[i].peak_a = NAN;
		ej->ph[i].min_v = NAN;
		ej->ph[i].peak_w = NAN;
		current_hist_init(&ej->ph[i].a_hist);
	}
}

void energy_job_accuracy(struct energy_job *ej, const struct meter_accuracy *acc)
{
	ej->acc = *acc;
}

void energy_job_idle_watch(struct energy_job *ej, idle_busy_fn busy, const void *arg,
			   uint64_t reach_ns)
{
	ej->idle_busy = busy;
	ej->idle_busy_arg = arg;
	ej->idle_reach_ns = reach_ns;
}

size_t energy_idle_quiet(const struct energy_job *ej)
{
	return idle_quiet_count(&ej->idle_rd, ej->idle_busy, ej->idle_busy_arg, ej->idle_reach_ns);
}

void energy_phase_begin(struct energy_job *ej, int phase, uint64_t t_ns)
{
	struct phase_acc *pa;

	if (phase < 0 || phase >= PHASE_COUNT)
		return;
	if (ej->have_prev && t_ns < ej->prev.t_ns)
		ej->late_boundaries++;
	if (phase > 0) {
		pa = &ej->ph[phase - 1];
		if (pa->begun && !pa->t_end_ns)
			pa->t_end_ns = t_ns;
	}
	pa = &ej->ph[phase];
	pa->t_start_ns = t_ns;
	pa->t_end_ns = 0;
	pa->begun = 1;
	if (phase == PHASE_TAIL) {
		ej->settle_since_ns = 0;
		ej->in_band = 0;
		ej->have_tail_settled = 0;
		ej->have_idle_ref = 0;
	}
}

void energy_phase_end(struct energy_job *ej, int phase, uint64_t t_ns)
{
	if (phase < 0 || phase >= PHASE_COUNT || !ej->ph[phase].begun)
		return;
	if (ej->have_prev && t_ns < ej->prev.t_ns)
		ej->late_boundaries++;
	ej->ph[phase].t_end_ns = t_ns;
}

static double sample_w(const struct meter_sample *s)
{
	if (isfinite(s->w))
		return s->w;
	if (isfinite(s->v) && isfinite(s->a))
		return s->v * s->a;
	return NAN;
}

static int in_window(const struct phase_acc *pa, uint64_t t)
{
	return pa->begun && t >= pa->t_start_ns && (!pa->t_end_ns || t < pa->t_end_ns);
}

/* The trapezoid of a linear function between p0 at t0 and p1 at t0 + len, over [a, b]
 * (offsets in seconds from t0): the mean of the interpolated ends times the width. */
static double trap(double p0, double p1, double len, double a, double b)
{
	double fa = p0 + (p1 - p0) * a / len;
	double fb = p0 + (p1 - p0) * b / len;

	return 0.5 * (fa + fb) * (b - a);
}

/*
 * The same trapezoid's parts above and below zero (out as a positive number): a segment
 * whose ends have opposite signs is cut where the line crosses zero.
 */
static void trap_split(double p0, double p1, double len, double a, double b, double *in,
		       double *out)
{
	double fa = p0 + (p1 - p0) * a / len;
	double fb = p0 + (p1 - p0) * b / len;
	double z;

	if (fa >= 0 && fb >= 0) {
		*in += 0.5 * (fa + fb) * (b - a);
	} else if (fa <= 0 && fb <= 0) {
		*out -= 0.5 * (fa + fb) * (b - a);
	} else {
		z = (b - a) * fa / (fa - fb); /* from a to the crossing */
		if (fa > 0) {
			*in += 0.5 * fa * z;
			*out -= 0.5 * fb * (b - a - z);
		} else {
			*out -= 0.5 * fa * z;
			*in += 0.5 * fb * (b - a - z);
		}
	}
}

/*
 * The ends a phase's part [a, b] of the segment [0, len] is integrated between. A part cut
 * by one boundary is held at the reading inside the phase: a reading is the meter's view of
 * the time before it, so the line from the other phase's reading across a step (idle to
 * active) took up to half a step x a period from every job (-1.6 % of a stream's energy
 * above idle at 1 Hz, -2.6 % of a 4 s paced job at 100 ms, both low; docs/energy.md).
 */
static void part_ends(double a, double b, double len, double *p0, double *p1)
{
	if (a > 0 && !(b < len))
		*p0 = *p1;
	else if (!(a > 0) && b < len)
		*p1 = *p0;
}

static void integrate(struct phase_acc *pa, const struct meter_sample *s0, double w0,
		      const struct meter_sample *s1, double w1, int covered,
		      const struct unc_sample *u0, const struct unc_sample *u1)
{
	uint64_t a_ns, b_ns, t0 = s0->t_ns, t1 = s1->t_ns;
	double len, a, b, x0, x1;

	a_ns = pa->t_start_ns > t0 ? pa->t_start_ns : t0;
	b_ns = (pa->t_end_ns && pa->t_end_ns < t1) ? pa->t_end_ns : t1;
	if (b_ns <= a_ns)
		return;
	len = (double)(t1 - t0) / 1e9;
	a = (double)(a_ns - t0) / 1e9;
	b = (double)(b_ns - t0) / 1e9;
	pa->span_s += b - a;
	unc_segment(&pa->unc, t0, u0, t1, u1, len, a, b);
	if (covered)
		pa->covered_s += b - a;
	if (isfinite(w0) && isfinite(w1)) {
		x0 = w0, x1 = w1;
		part_ends(a, b, len, &x0, &x1);
		pa->energy_j += trap(x0, x1, len, a, b);
		trap_split(x0, x1, len, a, b, &pa->energy_in_j, &pa->energy_out_j);
		pa->w_s += b - a;
		pa->has_w = 1;
	}
	if (isfinite(s0->a) && isfinite(s1->a)) {
		x0 = s0->a, x1 = s1->a;
		part_ends(a, b, len, &x0, &x1);
		pa->charge_c += trap(x0, x1, len, a, b);
		pa->a_s += b - a;
		pa->has_a = 1;
	}
	if (isfinite(s0->v) && isfinite(s1->v)) {
		x0 = s0->v, x1 = s1->v;
		part_ends(a, b, len, &x0, &x1);
		pa->v_s += trap(x0, x1, len, a, b);
		pa->vt_s += b - a;
		pa->has_v = 1;
	}
}

static void count_sample(struct phase_acc *pa, const struct meter_sample *s, double w)
{
	pa->samples++;
	current_hist_add(&pa->a_hist, s->a);
	if (isfinite(s->a) && !(s->a <= pa->peak_a))
		pa->peak_a = s->a;
	if (isfinite(s->v) && !(s->v >= pa->min_v))
		pa->min_v = s->v;
	if (isfinite(w) && !(w <= pa->peak_w))
		pa->peak_w = w;
}

/* The idle phase's robust level of W over its quiet readings (energy/idle_baseline.h). */
static void idle_estimate_of(const struct energy_job *ej, struct idle_estimate *est)
{
	idle_estimate(&ej->idle_rd, ej->idle_busy, ej->idle_busy_arg, ej->idle_reach_ns,
		      ej->ph[PHASE_IDLE].w_s, est);
}

/* The idle level of the quantity the tail is judged by: the baseline of W, or the mean of
 * A for a V-less meter. Worked out once per tail: the idle readings are final by then. */
static double idle_level(struct energy_job *ej, int use_w)
{
	const struct phase_acc *id = &ej->ph[PHASE_IDLE];
	struct idle_estimate est;

	if (use_w && !ej->have_idle_ref) {
		idle_estimate_of(ej, &est);
		ej->idle_ref_w = ej->idle_rd.n && id->w_s > 0 ? est.w
				 : id->w_s > 0		     ? id->energy_j / id->w_s
							     : NAN;
		ej->have_idle_ref = 1;
	}
	if (use_w)
		return ej->idle_ref_w;
	return id->a_s > 0 ? id->charge_c / id->a_s : NAN;
}

/*
 * Tail samples are judged as they arrive so that one excursion between two calls of
 * energy_tail_settled() still restarts the hold.
 */
static void tail_track(struct energy_job *ej, const struct meter_sample *s, double w)
{
	int use_w = isfinite(w);
	double x = use_w ? w : s->a;
	double ref = idle_level(ej, use_w);
	double band;
	int in;

	if (!isfinite(x) || !isfinite(ref)) {
		in = 1; /* no baseline: only the hold time can end the tail */
	} else {
		band = fabs(ref) * ej->tail_tol;
		if (band < (use_w ? TAIL_FLOOR_W : TAIL_FLOOR_A))
			band = use_w ? TAIL_FLOOR_W : TAIL_FLOOR_A;
		/*
		 * Only power above the band keeps the tail open: the tail is the drive still
		 * working. Power below idle is settled too; otherwise one burst from elsewhere
		 * during the idle phase (a journal commit) inflates the baseline and every
		 * tail runs to tail_max.
		 */
		in = x <= ref + band;
	}
	if (in && !ej->in_band) {
		/* Integrated up to this sample, which is not counted yet: the tail as it
		 * would be if it ended here. Without a baseline nothing says where power
		 * settled, and the tail runs to the end of the hold. */
		ej->settle_since_ns = s->t_ns;
		ej->tail_settled = ej->ph[PHASE_TAIL];
		ej->have_tail_settled = isfinite(ref);
	}
	ej->in_band = in;
}

/*
 * A hole ends at s: samples lost (ring full, device) or readings dropped as impossible
 * (meter_sample_check). Every window it overlaps is hit: losses count holes, out_of_range
 * the readings (at least one: a sample read back from a file keeps only the flag).
 */
static void count_hole(struct energy_job *ej, const struct meter_sample *s)
{
	uint64_t t0 = ej->have_prev ? ej->prev.t_ns : s->t_ns;
	struct phase_acc *pa;
	int i;

	for (i = 0; i < PHASE_COUNT; i++) {
		pa = &ej->ph[i];
		if (!pa->begun || s->t_ns < pa->t_start_ns || (pa->t_end_ns && t0 >= pa->t_end_ns))
			continue;
		if (s->flags & SAMPLE_AFTER_LOSS)
			pa->losses++;
		if (s->flags & SAMPLE_AFTER_DROP)
			pa->out_of_range += s->dropped_before ? s->dropped_before : 1;
	}
}

void energy_feed(struct energy_job *ej, const struct meter_sample *s)
{
	double w = sample_w(s), w0;
	struct unc_sample u;
	int i, covered;

	if (ej->have_prev && s->t_ns < ej->prev.t_ns) {
		ej->out_of_order++;
		return;
	}
	if (s->flags & (SAMPLE_AFTER_LOSS | SAMPLE_AFTER_DROP))
		count_hole(ej, s);
	unc_sample_of(&ej->acc, s, &u);
	if (ej->have_prev && s->t_ns > ej->prev.t_ns) {
		w0 = sample_w(&ej->prev);
		covered = !ej->period_ns || s->t_ns - ej->prev.t_ns <= 2 * ej->period_ns;
		for (i = 0; i < PHASE_COUNT; i++)
			if (ej->ph[i].begun)
				integrate(&ej->ph[i], &ej->prev, w0, s, w, covered, &ej->prev_u, &u);
	}
	if (in_window(&ej->ph[PHASE_IDLE], s->t_ns))
		idle_readings_add(&ej->idle_rd, s->t_ns, w, &u.u[UNC_W]);
	if (in_window(&ej->ph[PHASE_TAIL], s->t_ns))
		tail_track(ej, s, w);
	if (ej->period_ns >= SAMPLING_MIN_PERIOD_NS && (in_window(&ej->ph[PHASE_ACTIVE], s->t_ns) ||
							 in_window(&ej->ph[PHASE_TAIL], s->t_ns)))
		emodel_readings_add(&ej->model_rd, s->t_ns, w, &u.u[UNC_W]);
	if (ej->period_ns && ej->period_ns <= EL_MAX_PERIOD_NS &&
	    (in_window(&ej->ph[PHASE_ACTIVE], s->t_ns) || in_window(&ej->ph[PHASE_TAIL], s->t_ns))) {
		el_series_add(&ej->el, s->t_ns, w);
		if (s->flags & SAMPLE_CLOCK_STEP)
			ej->el.clock_steps++;
	}
	if (s->flags & SAMPLE_LOGIC)
		el_logic_add(&ej->logic, s->t_ns, s->logic);
	for (i = 0; i < PHASE_COUNT; i++)
		if (in_window(&ej->ph[i], s->t_ns))
			count_sample(&ej->ph[i], s, w);
	ej->prev = *s;
	ej->prev_u = u;
	ej->have_prev = 1;
	ej->last_w = w;
}

int energy_tail_settled(struct energy_job *ej, double tol, uint64_t hold_ns)
{
	const struct phase_acc *tl = &ej->ph[PHASE_TAIL];

	/* A new tolerance applies from the next sample on; the orchestrator passes the
	 * same value every call, and energy_job_init() starts with the default 5 %. */
	if (tol >= 0)
		ej->tail_tol = tol;
	if (!tl->begun || !ej->have_prev || !ej->in_band || ej->prev.t_ns < tl->t_start_ns)
		return 0;
	return ej->prev.t_ns - ej->settle_since_ns >= hold_ns;
}

uint64_t energy_tail_finish(struct energy_job *ej, uint64_t t_cut, int settled)
{
	struct phase_acc *tl = &ej->ph[PHASE_TAIL];

	if (!tl->begun)
		return t_cut;
	if (settled && ej->in_band && ej->have_tail_settled && ej->settle_since_ns <= t_cut &&
	    ej->settle_since_ns >= tl->t_start_ns) {
		*tl = ej->tail_settled;
		tl->t_end_ns = ej->settle_since_ns;
		return ej->settle_since_ns;
	}
	tl->t_end_ns = t_cut;
	return t_cut;
}

static double phase_len_s(const struct energy_job *ej, const struct phase_acc *pa)
{
	uint64_t end = pa->t_end_ns;

	if (!pa->begun)
		return 0;
	if (!end)
		end = ej->have_prev && ej->prev.t_ns > pa->t_start_ns ? ej->prev.t_ns
								       : pa->t_start_ns;
	return end > pa->t_start_ns ? (double)(end - pa->t_start_ns) / 1e9 : 0;
}

/* Energy only where W was known over the whole sampled span: a partial integral would
 * read as a smaller figure, not as a missing one. */
static double phase_energy(const struct phase_acc *pa)
{
	if (pa->span_s <= 0)
		return 0; /* an empty window (tail_max=0, a stop) holds no energy */
	if (!pa->has_w || pa->w_s < pa->span_s * (1 - 1e-9))
		return NAN;
	return pa->energy_j;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* The phases' uncertainty parts; the last sample of a phase still open counts as is. */
static void unc_summarize(const struct energy_job *ej, struct energy_phases *es)
{
	struct unc_phase up;
	int p, c;

	for (p = 0; p < PHASE_COUNT; p++) {
		up = ej->ph[p].unc;
		unc_phase_close(&up);
		for (c = 0; c < UNC_CH_COUNT; c++)
			unc_terms_of(&up.ch[c], &es->unc[p][c]);
		es->span_s[p][UNC_V] = ej->ph[p].vt_s;
		es->span_s[p][UNC_A] = ej->ph[p].a_s;
		es->span_s[p][UNC_W] = ej->ph[p].w_s;
		es->samples[p] = ej->ph[p].samples;
	}
}

/*
 * The idle baseline: Huber's level over the quiet readings replaces the trapezoid mean,
 * and its parts of uncertainty the idle integral's (docs/energy.md, "The idle baseline").
 */
static void idle_baseline(const struct energy_job *ej, struct energy_phases *es,
			  struct result_power *p)
{
	const struct phase_acc *id = &ej->ph[PHASE_IDLE];
	struct idle_estimate est;

	if (!ej->idle_rd.n || !(id->w_s > 0) || !isfinite(p->idle_w))
		return;
	idle_estimate_of(ej, &est);
	p->idle_w = est.w;
	if (est.terms.known)
		es->unc[PHASE_IDLE][UNC_W] = est.terms;
	es->idle_readings = ej->idle_rd.n;
	es->idle_quiet = est.quiet;
	es->idle_excluded = est.excluded;
	es->idle_all = est.all;
	es->idle_u_w = est.u_stat;
	es->idle_offered = ej->idle_rd.seen;
	es->idle_exclusion_s = (double)ej->idle_reach_ns / 1e9;
}

struct result_ma_stats *energy_ma_stats(const struct energy_job *ej, int phase)
{
	const struct phase_acc *pa = &ej->ph[phase];
	const struct current_hist *h = &pa->a_hist;
	struct result_ma_stats *st;

	if (!h->n || !pa->begun)
		return NULL;
	st = xcalloc(1, sizeof(*st));
	st->n = h->n;
	st->min = h->min * 1e3;
	st->p1 = current_hist_quantile(h, 0.01) * 1e3;
	st->median = current_hist_quantile(h, 0.5) * 1e3;
	st->p99 = current_hist_quantile(h, 0.99) * 1e3;
	st->max = h->max * 1e3;
	return st;
}

void energy_summarize(const struct energy_job *ej, struct energy_phases *es,
		      struct result_power *p)
{
	const struct phase_acc *id = &ej->ph[PHASE_IDLE];
	const struct phase_acc *ac = &ej->ph[PHASE_ACTIVE];
	const struct phase_acc *tl = &ej->ph[PHASE_TAIL];
	double coef[PHASE_COUNT];
	int i;

	memset(es, 0, sizeof(*es));
	es->period_ns = ej->period_ns;
	es->idle_s = phase_len_s(ej, id);
	es->active_s = phase_len_s(ej, ac);
	es->tail_s = phase_len_s(ej, tl);
	es->samples_idle = id->samples;
	es->samples_active = ac->samples;
	es->samples_tail = tl->samples;
	es->has_voltage = id->has_v || ac->has_v || tl->has_v || id->has_w || ac->has_w;

	p->idle_w = ratio(id->energy_j, id->w_s);
	p->active_w = ratio(ac->energy_j, ac->w_s);
	p->active_ma = ratio(ac->charge_c, ac->a_s) * 1e3;
	p->peak_ma = ac->peak_a * 1e3;
	p->active_v = ratio(ac->v_s, ac->vt_s);
	p->min_v = ac->min_v;

	es->energy_idle_j = phase_energy(id);
	p->energy_active_j = phase_energy(ac);
	p->energy_active_mwh = p->energy_active_j / J_PER_MWH;
	p->energy_active_in_j = isfinite(p->energy_active_j) ? ac->energy_in_j : NAN;
	p->energy_active_out_j = isfinite(p->energy_active_j) ? ac->energy_out_j : NAN;
	p->energy_tail_j = tl->begun ? phase_energy(tl) : 0;
	p->energy_tail_mwh = p->energy_tail_j / J_PER_MWH;
	p->charge_mah = ac->has_a && ac->a_s >= ac->span_s * (1 - 1e-9) ? ac->charge_c / 3.6
									: NAN;

	unc_summarize(ej, es);
	idle_baseline(ej, es, p);
	energy_tail_net_coef(es, coef);
	p->energy_tail_net_j = tl->begun ? energy_combined(es, p, coef) : 0;
	energy_net_coef(es, coef);
	p->energy_net_j = energy_combined(es, p, coef);
	es->coverage = ratio(ac->covered_s, es->active_s);
	es->coverage_idle = ratio(id->covered_s, es->idle_s);
	es->coverage_tail = ratio(tl->covered_s, es->tail_s);
	for (i = 0; i < PHASE_COUNT; i++) {
		es->losses[i] = ej->ph[i].losses;
		es->out_of_range[i] = ej->ph[i].out_of_range;
	}
	p->out_of_range.idle = es->out_of_range[PHASE_IDLE];
	p->out_of_range.active = es->out_of_range[PHASE_ACTIVE];
	p->out_of_range.tail = es->out_of_range[PHASE_TAIL];
	free(p->note);
	p->note = es->has_voltage ? NULL
				  : xstrdup("meter reports no voltage: energy unknown, charge only");
}
