/* SPDX-License-Identifier: MIT */
/* Event-locked kernels on a synthetic 50 kS/s meter: ops far apart and a stream whose pulses overlap. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results_read.h"
#include "core/completions.h"
#include "core/mem.h"
#include "energy/event_check.h"
#include "energy/event_locked.h"
#include "tap.h"
#include "test_rng.h"

#define T0 5000000000ULL
#define IDLE_W 0.45
#define IDLE_U_W 0.001
#define NOISE_W 0.02
#define RATE_NS 20000ULL /* 50 kS/s */
/* The meter's clock runs this far behind the completions' (ns) */
#define OFFSET_NS 3000000ULL
/* Each op's energy is spread evenly over this long after its completion shows */
#define PULSE_NS 4000000ULL

static const double cost_j[COMPL_KINDS] = { 200e-6, 600e-6, 300e-6 };
static const char *const kind_name[COMPL_KINDS] = { "read", "write", "flush" };

struct op {
	uint64_t t_ns;
	int kind;
};

/* The meter's samples over span_s of the ops (ascending), each op's pulse offset_ns after it. */
static void synthesize(struct el_series *s, const struct op *ops, size_t nops, unsigned span_s,
		       uint64_t offset_ns)
{
	size_t i, next = 0;
	uint64_t t;
	double w;

	el_series_reset(s);
	for (t = T0; t < T0 + (uint64_t)span_s * 1000000000ULL; t += RATE_NS) {
		w = IDLE_W + NOISE_W * gauss();
		while (next < nops && ops[next].t_ns + offset_ns + PULSE_NS < t)
			next++;
		for (i = next; i < nops && ops[i].t_ns + offset_ns <= t; i++)
			if (t < ops[i].t_ns + offset_ns + PULSE_NS)
				w += cost_j[ops[i].kind] / ((double)PULSE_NS / 1e9);
		el_series_add(s, t, w);
	}
}

static void check_kinds(const struct el_fit *f, const char *what, double max_rel)
{
	int k;

	for (k = 0; k < COMPL_KINDS; k++) {
		ok(fabs(f->j_per_op[k] - cost_j[k]) <= f->u95_j[k],
		   "%s, %s: %.1f +- %.1f uJ against %.1f (%.0f ops)", what, kind_name[k],
		   f->j_per_op[k] * 1e6, f->u95_j[k] * 1e6, cost_j[k] * 1e6, f->ops[k]);
		ok(f->u95_j[k] < max_rel * cost_j[k], "its U95 under %.0f %% of it", max_rel * 100);
	}
}

/* The result's record, checked against the model as the run does. */
static struct result_event_locked *figures(const struct el_series *s, const struct completions *c)
{
	struct result_event_locked *r = event_locked_figures(s, c, IDLE_W, IDLE_U_W, NULL);

	if (r)
		event_locked_check(r, s, c, IDLE_W, IDLE_U_W);
	return r;
}

/* r's check against the model passed, with the figure furthest apart. */
static void agrees(const struct result_event_locked *r, const char *what)
{
	is_int(r ? r->agrees_with_model : -2, 1, "%s (%s %.1f uJ apart, combined U95 %.1f)", what,
	       r && r->check_kind ? r->check_kind : "-", r ? r->difference_uj : NAN,
	       r ? r->combined_u95_uj : NAN);
}

/* r's model says its costs cannot be told from idle, and no verdict is drawn from it. */
static void not_judged(const struct result_event_locked *r, const char *what)
{
	ok(r && r->model && r->model->verdict && !strcmp(r->model->verdict, "not identifiable") &&
		   r->model->why && strstr(r->model->why, "in step"),
	   "%s: the check's model is not identifiable (%s: %s)", what,
	   r && r->model && r->model->verdict ? r->model->verdict : "-",
	   r && r->model && r->model->why ? r->model->why : "-");
	is_int(r ? r->agrees_with_model : -2, RESULT_NULL_BOOL,
	       "and neither agrees nor disagrees (%s %.1f uJ apart)",
	       r && r->check_kind ? r->check_kind : "-", r ? r->difference_uj : NAN);
}

/* r's energy balance: the ops' energy event-locked against the readings' above idle. */
static void balanced(const struct result_event_locked *r, int want, const char *what)
{
	is_int(r ? r->agrees_with_trace : -2, want,
	       "%s: the ops' %.1f +- %.1f mJ against %.1f +- %.1f mJ above idle", what,
	       r ? r->ops_energy_uj / 1e3 : NAN, r ? r->ops_energy_uj_u95 / 1e3 : NAN,
	       r ? r->above_idle_uj / 1e3 : NAN, r ? r->above_idle_uj_u95 / 1e3 : NAN);
}

/* Frees r as a job's result would (its schema). */
static void el_free(struct result_event_locked *r)
{
	struct job_result j = { 0 };

	j.power = xcalloc(1, sizeof(*j.power));
	j.power->event_locked = r;
	result_job_free(&j);
}

/* Paced at 10/s, each slot's op at a random point of its first half: no two overlap. */
static struct op *paced(struct completions *c, size_t nops)
{
	struct op *ops = xcalloc(nops, sizeof(*ops));
	size_t i;

	completions_init(c, T0);
	for (i = 0; i < nops; i++) {
		ops[i].t_ns = T0 + i * 100000000ULL + (uint64_t)(uniform() * 5e7);
		ops[i].kind = (int)(uniform() * 3);
		completions_add(c, ops[i].kind, ops[i].t_ns);
	}
	return ops;
}

static void far_apart(struct el_series *s)
{
	size_t nops = 300;
	struct completions c;
	struct op *ops;
	struct result_event_locked *r;
	struct result_validity v = { 0 };
	struct el_fit f;
	double area = 0;
	int l;

	rng = 3;
	ops = paced(&c, nops);
	synthesize(s, ops, nops, 30, OFFSET_NS);
	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, NULL, &f), 0, "fitted");
	printf("# offset %.4f +- %.4f s (r %.2f), idle %.4f +- %.4f W, residual %.4f W, "
	       "inflation %.2f\n",
	       f.lag_s, f.lag_u_s, f.r_peak, f.idle_w, f.idle_u95_w, f.residual_rms_w, f.inflation);
	ok(fabs(f.lag_s - (OFFSET_NS + PULSE_NS / 2) / 1e9) <= f.lag_u_s + 0.001,
	   "the meter's offset found: %.1f ms +- %.1f (pulse centre %.1f ms)", f.lag_s * 1e3,
	   f.lag_u_s * 1e3, (OFFSET_NS + PULSE_NS / 2) / 1e6);
	ok(f.r_peak > 0.1, "the counts correlate with the power at it (r %.2f)", f.r_peak);
	check_kinds(&f, "far apart", 0.2);
	is_int(f.sum_base, -1, "kinds apart are not summed");
	ok(f.trace_kind >= 0, "a trace of one op (%d)", f.trace_kind);
	for (l = 0; l < EL_TRACE_BINS; l++) {
		area += f.trace_w[l] * EL_BIN_NS / 1e9;
		printf("# t %+3d ms  %8.4f W\n", l - EL_PRE_BINS, f.trace_w[l]);
	}
	is_dbl(area, f.j_per_op[f.trace_kind], 1e-9, "the trace holds the op's energy");
	ok(f.trace_w[EL_PRE_BINS] > 0.5 * cost_j[f.trace_kind] / ((double)PULSE_NS / 1e9),
	   "and peaks where the completion shows");
	r = figures(s, &c);
	ok(r && r->model, "the model fitted to the same readings at 100 ms");
	if (r && r->model)
		printf("# model: %.1f +- %.1f, %.1f +- %.1f, %.1f +- %.1f uJ (%s), window %.3f s\n",
		       r->model->read_uj_per_op, r->model->read_uj_per_op_u95,
		       r->model->write_uj_per_op, r->model->write_uj_per_op_u95,
		       r->model->flush_uj_per_op, r->model->flush_uj_per_op_u95, r->model->verdict,
		       r->model->window_s);
	/* each slot's op in its first half: every 100 ms window holds exactly one */
	not_judged(r, "ops far apart, one in each 100 ms window");
	balanced(r, 1, "ops far apart");
	event_locked_judge(r, &v);
	is_int(v.uncertain, 0, "the job is not made uncertain");
	el_free(r);
	completions_free(&c);
	free(ops);
}

/*
 * A disagreement on a job whose headline interval is not known (a meter that declares no
 * accuracy): the verdict gives the disagreement, no "+-nan %" and no "largest term" that
 * only says why the interval is not known.
 */
static void unknown_interval(const struct result_event_locked *r)
{
	struct result_uncertainty u = { .figure = (char *)"j_per_gb", .u95_rel = NAN,
					.limit = 0.05 };
	struct result_validity v = { .valid = 1, .uncertainty = &u };
	char text[1024];

	u.dominant = xstrdup("meter accuracy not declared by its driver");
	event_locked_judge(r, &v);
	rr_verdict_text(&v, RESULT_OK, text, sizeof(text));
	ok(v.uncertain && strstr(text, "event-locked and model disagree") && !strstr(text, "nan") &&
		   !strstr(text, "largest term"),
	   "an unknown interval: the verdict says the disagreement alone (%s)", text);
	free(u.dominant);
}

/*
 * Each op's current 80 ms after its completion: beyond the offsets searched and the
 * kernel's reach, so the event-locked figures miss it; the model's lag grid reaches it.
 * The check must say so and make the job uncertain.
 */
static void late_current(struct el_series *s)
{
	struct result_uncertainty u = { 0 };
	struct result_validity v = { .uncertainty = &u };
	struct result_event_locked *r;
	struct completions c;
	struct op *ops;

	rng = 5;
	ops = paced(&c, 300);
	synthesize(s, ops, 300, 31, 80000000ULL);
	r = figures(s, &c);
	ok(r && r->model, "a late current: fitted both ways");
	if (!r || !r->model) {
		skip("nothing fitted");
		skip("nothing fitted");
	} else {
		printf("# event-locked %.1f +- %.1f, model %.1f +- %.1f uJ per write (lag %.3f s)\n",
		       r->write_uj_per_op, r->write_uj_per_op_u95, r->model->write_uj_per_op,
		       r->model->write_uj_per_op_u95, r->model->lag_s);
		is_int(r->agrees_with_model, 0, "they disagree: %s %.1f uJ apart, combined U95 %.1f",
		       r->check_kind ? r->check_kind : "-", r->difference_uj, r->combined_u95_uj);
		event_locked_judge(r, &v);
		ok(v.uncertain && u.dominant && strstr(u.dominant, "event-locked and model disagree"),
		   "the job is uncertain and says why: %s", u.dominant ? u.dominant : "-");
		unknown_interval(r);
	}
	free(u.dominant);
	el_free(r);
	completions_free(&c);
	free(ops);
}

/*
 * nops reads and writes paced at rate_hz from 20 ms into the series, each up to `dither`
 * of its slot late, synthesized into s over the ops' span and 3 s more.
 */
static struct op *paced_at(struct el_series *s, struct completions *c, size_t nops,
			   double rate_hz, double dither)
{
	struct op *ops = xcalloc(nops, sizeof(*ops));
	size_t i;

	completions_init(c, T0);
	for (i = 0; i < nops; i++) {
		ops[i].t_ns = T0 + 20000000ULL + (uint64_t)(((double)i + uniform() * dither) /
							    rate_hz * 1e9);
		ops[i].kind = (int)(uniform() * 2);
		completions_add(c, ops[i].kind, ops[i].t_ns);
	}
	synthesize(s, ops, nops, (unsigned)ceil((double)nops / rate_hz) + 3, OFFSET_NS);
	return ops;
}

/*
 * Reads and writes paced at exactly 10/s, each 1 ms late at most: every 100 ms window
 * holds one op, so the model's idle is told only by the prior and the tail, where a
 * journal's writeback draws current no completion explains: the model's costs fall by
 * what its idle rises (an emulated run: 492 +- 272 against 1164 +- 157 uJ per read, a
 * "disagreement"). The check must say it cannot judge, and leave the job certain.
 */
static void in_step(struct el_series *s)
{
	struct result_uncertainty u = { 0 };
	struct result_validity v = { .uncertainty = &u };
	size_t nops = 300, i, j, tail0;
	struct result_event_locked *r;
	struct completions c;
	struct op *ops;

	rng = 23;
	ops = paced_at(s, &c, nops, 10, 0.01);
	/* four commits of 2 mJ (20 ms at 100 mW) in the tail, no completion near them */
	for (j = 0; j < 4; j++) {
		tail0 = (size_t)(ops[nops - 1].t_ns - s->t0_ns) / EL_BIN_NS + 500 + 700 * j;
		for (i = tail0; i < tail0 + 20 && i < s->n; i++)
			s->w_sum[i] += (float)(0.1 * s->cnt[i]);
	}
	r = figures(s, &c);
	ok(r && isfinite(r->read_uj_per_op) && isfinite(r->write_uj_per_op),
	   "in step: event-locked read %.1f +- %.1f, write %.1f +- %.1f uJ",
	   r ? r->read_uj_per_op : NAN, r ? r->read_uj_per_op_u95 : NAN,
	   r ? r->write_uj_per_op : NAN, r ? r->write_uj_per_op_u95 : NAN);
	if (r && r->model)
		printf("# model: read %.1f +- %.1f, write %.1f +- %.1f uJ, idle %.4f W\n",
		       r->model->read_uj_per_op, r->model->read_uj_per_op_u95,
		       r->model->write_uj_per_op, r->model->write_uj_per_op_u95, r->model->idle_w);
	not_judged(r, "in step");
	ok(r && r->in_step_share >= 0.8, "in %.0f %% of the windows",
	   r ? r->in_step_share * 100 : NAN);
	/* the tail's 8 mJ are within the baseline's 2 x 1 mW over 33 s */
	balanced(r, 1, "in step, checked by the energy balance");
	event_locked_judge(r, &v);
	ok(!v.uncertain && !u.dominant, "the job is not made uncertain (%s)",
	   u.dominant ? u.dominant : "-");
	free(u.dominant);
	el_free(r);
	completions_free(&c);
	free(ops);
}

/*
 * Ops in step as above, the device awake at 20 mW more than idle through the active
 * phase (a state it keeps between them): the kernels, above the fitted idle, hold each
 * op's energy, but not the job's: before, nothing was compared (the model in step) and
 * the job was certain; the energy balance must say the trace holds more than the ops.
 */
static void in_step_awake(struct el_series *s)
{
	struct result_uncertainty u = { 0 };
	struct result_validity v = { .uncertainty = &u };
	size_t nops = 300, i, end;
	struct result_event_locked *r;
	struct completions c;
	struct op *ops;

	rng = 29;
	ops = paced_at(s, &c, nops, 10, 0.01);
	end = (size_t)(ops[nops - 1].t_ns - s->t0_ns) / EL_BIN_NS;
	for (i = 0; i < end && i < s->n; i++)
		s->w_sum[i] += (float)(0.02 * s->cnt[i]);
	r = figures(s, &c);
	not_judged(r, "in step, awake between the ops");
	balanced(r, 0, "awake: the balance disagrees");
	event_locked_judge(r, &v);
	ok(v.uncertain && u.dominant && strstr(u.dominant, "event-locked and the trace disagree"),
	   "the job is uncertain and says why: %s", u.dominant ? u.dominant : "-");
	free(u.dominant);
	el_free(r);
	completions_free(&c);
	free(ops);
}

/*
 * Paced at 10, 15, 20 and 30/s, each op up to 1 %, 50 % or 100 % of its slot late: the
 * in-step rule's threshold (80 % of the windows holding one count) against jobs on both
 * sides of it. Whatever the share, no check may disagree with figures that are right
 * (ops at their slot's start are in step at 10, 20 and 30/s, not at 15/s: 2 and 1 op in
 * turn).
 */
static void in_step_threshold(struct el_series *s)
{
	static const double rates[] = { 10, 15, 20, 30 }, dithers[] = { 0.01, 0.5, 1.0 };
	struct result_event_locked *r;
	struct completions c;
	struct op *ops;
	unsigned i, j;

	for (i = 0; i < sizeof(rates) / sizeof(*rates); i++)
		for (j = 0; j < sizeof(dithers) / sizeof(*dithers); j++) {
			rng = 41 + 7 * i + j;
			ops = paced_at(s, &c, (size_t)(20 * rates[i]), rates[i], dithers[j]);
			r = figures(s, &c);
			printf("# %.0f/s, dither %.0f %%: %.0f %% in step, model %s; read %.1f +- "
			       "%.1f, write %.1f +- %.1f uJ\n",
			       rates[i], dithers[j] * 100, r ? r->in_step_share * 100 : NAN,
			       r && r->model ? r->model->verdict : "-", r ? r->read_uj_per_op : NAN,
			       r ? r->read_uj_per_op_u95 : NAN, r ? r->write_uj_per_op : NAN,
			       r ? r->write_uj_per_op_u95 : NAN);
			ok(r && r->agrees_with_model != 0,
			   "%.0f/s, dither %.0f %%: no disagreement with the model (%s %.1f uJ "
			   "apart, U95 %.1f)",
			   rates[i], dithers[j] * 100, r && r->check_kind ? r->check_kind : "-",
			   r ? r->difference_uj : NAN, r ? r->combined_u95_uj : NAN);
			balanced(r, 1, "and the balance agrees");
			if (dithers[j] < 0.1)
				ok(r && (r->in_step_share >= 0.8) == (rates[i] != 15),
				   "undithered: %s step (%.0f %%)", rates[i] != 15 ? "in" : "not in",
				   r ? r->in_step_share * 100 : NAN);
			el_free(r);
			completions_free(&c);
			free(ops);
		}
}

/*
 * A stream: ops 2 to 5 ms apart with 4 ms pulses, so each op's current overlaps its
 * neighbours'; the window's plain average would read each kind high by the others'.
 */
static void stream(struct el_series *s)
{
	size_t cap = 8000, nops = 0;
	struct op *ops = xcalloc(cap, sizeof(*ops));
	struct result_event_locked *r;
	struct completions c;
	struct el_fit f;
	uint64_t t = T0 + 100000000ULL;
	rng = 11;
	completions_init(&c, T0);
	while (t < T0 + 20000000000ULL && nops < cap) {
		ops[nops].t_ns = t;
		ops[nops].kind = (int)(uniform() * 3);
		completions_add(&c, ops[nops].kind, t);
		nops++;
		t += 2000000ULL + (uint64_t)(uniform() * 3e6);
	}
	synthesize(s, ops, nops, 21, OFFSET_NS);
	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, NULL, &f), 0, "a stream of %zu ops fitted", nops);
	printf("# offset %.4f +- %.4f s, idle %.4f +- %.4f W, residual %.4f W, inflation %.2f\n",
	       f.lag_s, f.lag_u_s, f.idle_w, f.idle_u95_w, f.residual_rms_w, f.inflation);
	check_kinds(&f, "stream", 0.1);
	is_int(f.sum_base, -1, "kinds that overlap but not in step are not summed");
	r = figures(s, &c);
	agrees(r, "the model at 100 ms agrees");
	ok(r && r->in_step_share < 0.8, "not in step: %.0f %% of the windows hold one count",
	   r ? r->in_step_share * 100 : NAN);
	balanced(r, 1, "a stream");
	el_free(r);
	completions_free(&c);
	free(ops);
}

static int by_time(const void *a, const void *b)
{
	const struct op *x = a, *y = b;

	return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

/*
 * A synced logger's records: each write's flush 2 ms after it, always, and reads at other
 * random times. The write and the flush cannot be told
 * apart (each alone read +- several times its energy): they are fitted as one kernel and
 * given as the record, marked as the pair; the read is still split from them.
 */
/*
 * 300 records at random times (so a 100 ms window holds a varying count of each: the
 * model can tell the read from the record), each a write and its flush delay_ns plus up
 * to spread_ns after it, and 150 reads at other random times, synthesized into s; the ops
 * in time order, their count into *n.
 */
static struct op *records(struct el_series *s, struct completions *c, uint64_t delay_ns,
			  double spread_ns, size_t *n)
{
	size_t nrec = 300, i;
	struct op *ops = xcalloc(3 * nrec, sizeof(*ops));
	uint64_t t;

	rng = 17;
	*n = 0;
	completions_init(c, T0);
	for (i = 0; i < nrec; i++) {
		t = T0 + 100000000ULL + (uint64_t)(uniform() * 29.8e9);
		ops[(*n)++] = (struct op){ t, COMPL_WRITE };
		ops[(*n)++] = (struct op){ t + delay_ns + (uint64_t)(uniform() * spread_ns),
					   COMPL_FLUSH };
		if (i % 2)
			ops[(*n)++] = (struct op){ T0 + 100000000ULL +
						       (uint64_t)(uniform() * 29.8e9),
						   COMPL_READ };
	}
	for (i = 0; i < *n; i++)
		completions_add(c, ops[i].kind, ops[i].t_ns);
	/* synthesize() walks the ops in time order */
	qsort(ops, *n, sizeof(*ops), by_time);
	synthesize(s, ops, *n, 31, OFFSET_NS);
	return ops;
}

static void lockstep(struct el_series *s)
{
	struct result_event_locked *r;
	struct completions c;
	struct el_fit f;
	size_t n;
	struct op *ops = records(s, &c, 2000000ULL, 0, &n);
	double rec_j = cost_j[COMPL_WRITE] + cost_j[COMPL_FLUSH];

	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, NULL, &f), 0, "records in lock-step fitted");
	is_int(f.sum_base, COMPL_WRITE, "the write carries the pair");
	is_int(f.sum_with, COMPL_FLUSH, "with its flush");
	ok(fabs(f.sum_ratio - 1) < 1e-9, "one flush per write (%.3f)", f.sum_ratio);
	ok(fabs(f.sum_j - rec_j) <= f.sum_u95_j, "the record: %.1f +- %.1f uJ against %.1f",
	   f.sum_j * 1e6, f.sum_u95_j * 1e6, rec_j * 1e6);
	ok(f.sum_u95_j < 0.1 * rec_j, "its U95 under 10 %% of it");
	ok(isnan(f.j_per_op[COMPL_WRITE]) && isnan(f.j_per_op[COMPL_FLUSH]),
	   "no split of the pair is given");
	ok(fabs(f.j_per_op[COMPL_READ] - cost_j[COMPL_READ]) <= f.u95_j[COMPL_READ],
	   "the read still split: %.1f +- %.1f uJ against %.1f", f.j_per_op[COMPL_READ] * 1e6,
	   f.u95_j[COMPL_READ] * 1e6, cost_j[COMPL_READ] * 1e6);
	r = figures(s, &c);
	ok(r && r->sum_of && !strcmp(r->sum_of, "write+flush"), "the result marks the pair: %s",
	   r && r->sum_of ? r->sum_of : "-");
	ok(r && isnan(r->write_uj_per_op) && isnan(r->flush_uj_per_op) &&
		   fabs(r->sum_uj_per_op - rec_j * 1e6) <= r->sum_uj_per_op_u95,
	   "and gives the record's %.1f +- %.1f uJ, not its parts", r ? r->sum_uj_per_op : NAN,
	   r ? r->sum_uj_per_op_u95 : NAN);
	ok(r && r->trace_of && !strcmp(r->trace_of, "write+flush"), "the trace is the record's");
	if (r && r->model)
		printf("# model: %s %.1f +- %.1f uJ (%s), read %.1f +- %.1f, write %.1f +- %.1f, "
		       "flush %.1f +- %.1f\n",
		       r->model->sum_of ? r->model->sum_of : "split", r->model->sum_uj_per_op,
		       r->model->sum_uj_per_op_u95, r->model->verdict, r->model->read_uj_per_op,
		       r->model->read_uj_per_op_u95, r->model->write_uj_per_op,
		       r->model->write_uj_per_op_u95, r->model->flush_uj_per_op,
		       r->model->flush_uj_per_op_u95);
	agrees(r, "the model at 100 ms agrees on the record");
	el_free(r);
	completions_free(&c);
	free(ops);
}

/* A flush 1 to 21 ms after its write: the spread tells them apart, and they are split. */
static void jittered_pair(struct el_series *s)
{
	struct completions c;
	struct el_fit f;
	size_t n;
	struct op *ops = records(s, &c, 1000000ULL, 20e6, &n);

	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, NULL, &f), 0,
	       "records whose flush comes 1-21 ms after the write fitted");
	is_int(f.sum_base, -1, "not summed");
	check_kinds(&f, "jittered pair", 0.1);
	completions_free(&c);
	free(ops);
}

/*
 * Reads and writes 100 ms apart, then a job's closing fsync 3 ms after the last write: one
 * flush, too few to fit, whose journal writes draw 12 mJ before it completes. The bins its
 * span reaches are left out, so that current does not go to the last write (+80 uJ on each
 * of the writes before).
 */
static void closing_flush(struct el_series *s)
{
	size_t nops = 301, i, b;
	struct op *ops = xcalloc(nops, sizeof(*ops));
	struct completions c;
	struct el_fit f;
	int k;

	rng = 23;
	completions_init(&c, T0);
	for (i = 0; i + 1 < nops; i++) {
		ops[i].t_ns = T0 + i * 100000000ULL + (uint64_t)(uniform() * 5e7);
		ops[i].kind = i + 2 == nops ? COMPL_WRITE : (int)(uniform() * 2);
	}
	ops[nops - 1] = (struct op){ ops[nops - 2].t_ns + 3000000ULL, COMPL_FLUSH };
	for (i = 0; i < nops; i++)
		completions_add(&c, ops[i].kind, ops[i].t_ns);
	synthesize(s, ops, nops, 31, OFFSET_NS);
	/* 3 W over the 4 ms before the flush shows: 12 mJ */
	b = (ops[nops - 1].t_ns + OFFSET_NS - s->t0_ns) / EL_BIN_NS;
	for (i = b - 4; i < b; i++)
		s->w_sum[i] += 3.0f * s->cnt[i];
	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, NULL, &f), 0,
	       "reads and writes with one closing flush fitted");
	ok(isnan(f.j_per_op[COMPL_FLUSH]), "the one flush is not fitted");
	for (k = COMPL_READ; k <= COMPL_WRITE; k++)
		ok(fabs(f.j_per_op[k] - cost_j[k]) <= f.u95_j[k],
		   "%s: %.1f +- %.1f uJ against %.1f, the flush's current not in it", kind_name[k],
		   f.j_per_op[k] * 1e6, f.u95_j[k] * 1e6, cost_j[k] * 1e6);
	/* the flush's current left in would be misfit: each U95 10 x wider (read +- 98.6,
	 * write 681.9 +- 97.6 uJ) */
	ok(f.u95_j[COMPL_READ] < 0.05 * cost_j[COMPL_READ] &&
		   f.u95_j[COMPL_WRITE] < 0.05 * cost_j[COMPL_WRITE],
	   "each U95 under 5 %% of its figure");
	completions_free(&c);
	free(ops);
}

/* A power that never rises with the completions: no lag to place the kernels by, no figures
 * (an offset 50 ms early and 0 +- 0 uJ per op were published). */
static void no_response(struct el_series *s)
{
	size_t nops = 100;
	struct completions c;
	struct op *ops;
	struct el_fit f;
	uint64_t t;

	rng = 5;
	ops = paced(&c, nops);
	el_series_reset(s);
	for (t = T0; t < T0 + 10 * 1000000000ULL; t += RATE_NS)
		el_series_add(s, t, IDLE_W);
	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, NULL, &f), -ENODATA,
	       "a flat power: no lag found, nothing fitted");
	ok(!event_locked_figures(s, &c, IDLE_W, IDLE_U_W, NULL), "and no figures in the result");
	completions_free(&c);
	free(ops);
}

/*
 * Aligned on a marker that says the meter's clock is OFFSET_NS late: each op's pulse,
 * which starts at its completion, shows from the trace's 0 ms on (the cross-correlation
 * centres it instead, 2 ms later), the charges as before; a marker that gave no offset
 * leaves the cross-correlation with the marker's reason.
 */
static void marker_aligned(struct el_series *s)
{
	size_t nops = 300;
	struct completions c;
	struct el_align al = { .ok = 1, .input = 0, .edges = 2, .offset_s = OFFSET_NS / 1e9,
			       .u95_s = 20e-6, .drift_ppm = NAN };
	struct result_event_locked *r;
	struct el_fit f;
	struct op *ops;
	double in = 0, all = 0;
	int l;

	rng = 3;
	ops = paced(&c, nops);
	synthesize(s, ops, nops, 30, OFFSET_NS);
	is_int(event_locked_fit(s, &c, IDLE_W, IDLE_U_W, &al, &f), 0, "fitted on the marker");
	ok(f.marker && f.lag_s == al.offset_s && f.lag_u_s == al.u95_s,
	   "the marker's offset and U95 used: %.3f +- %.3f ms", f.lag_s * 1e3, f.lag_u_s * 1e3);
	ok(fabs(f.corr_lag_s - (OFFSET_NS + PULSE_NS / 2) / 1e9) <= 0.0015,
	   "the cross-correlation still found the pulse's middle: %.1f ms", f.corr_lag_s * 1e3);
	check_kinds(&f, "on the marker", 0.2);
	for (l = 0; l < EL_TRACE_BINS; l++) {
		all += fabs(f.trace_w[l]);
		if (l >= EL_PRE_BINS && l < EL_PRE_BINS + (int)(PULSE_NS / EL_BIN_NS) + 1)
			in += f.trace_w[l];
	}
	ok(in > 0.8 * all, "the trace's current lies in the %d ms after the completion (%.0f %%)",
	   (int)(PULSE_NS / 1000000), 100 * in / all);
	r = event_locked_figures(s, &c, IDLE_W, IDLE_U_W, &al);
	ok(r && !strcmp(r->alignment, "marker") && r->marker_input &&
		   !strcmp(r->marker_input, "D0") && r->marker_edges == 2 && !r->alignment_note,
	   "the record says marker, D0, 2 edges");
	el_free(r);
	al = (struct el_align){ .ok = 0, .input = -1, .offset_s = NAN, .u95_s = NAN,
				.drift_ppm = NAN, .why = "no edge pairs" };
	r = event_locked_figures(s, &c, IDLE_W, IDLE_U_W, &al);
	ok(r && !strcmp(r->alignment, "correlation") && r->alignment_note &&
		   !strcmp(r->alignment_note, "no edge pairs") && r->offset_s == r->correlation_offset_s,
	   "no offset from the marker: cross-correlation, the marker's reason kept");
	el_free(r);
	free(ops);
	completions_free(&c);
}

/*
 * The meter lost samples mid-job and its clock slipped there (a PPK2 hole of 60 x 64
 * samples counted as its remainder): the second half's pulses show 38.4 ms later. The
 * completions cannot be placed on that clock: no per-kind figures, the balance still.
 */
static void slipped(struct el_series *s)
{
	size_t nops = 300, i;
	struct completions c;
	struct result_event_locked *r;
	struct op *ops, *shown;

	rng = 4;
	ops = paced(&c, nops);
	shown = xcalloc(nops, sizeof(*shown));
	for (i = 0; i < nops; i++) {
		shown[i] = ops[i];
		if (i >= nops / 2)
			shown[i].t_ns += 60 * 640000ULL;
	}
	synthesize(s, shown, nops, 31, OFFSET_NS);
	s->clock_steps = 1; /* energy_feed counts the sample after it (SAMPLE_CLOCK_STEP) */
	r = figures(s, &c);
	ok(r && r->alignment && !strcmp(r->alignment, "not known") && r->alignment_note &&
		   strstr(r->alignment_note, "alignment not known"),
	   "a clock step in the readings: alignment not known (%s)",
	   r && r->alignment_note ? r->alignment_note : "-");
	ok(r && isnan(r->read_uj_per_op) && isnan(r->write_uj_per_op) &&
		   isnan(r->flush_uj_per_op) && isnan(r->read_uj_per_op_u95) && !r->ntrace,
	   "no per-kind figure and no trace given");
	ok(r && r->agrees_with_model == RESULT_NULL_BOOL && !r->check_kind,
	   "no per-kind figure judged against the model");
	ok(r && isfinite(r->ops_energy_uj) && isfinite(r->above_idle_uj) &&
		   r->agrees_with_trace != RESULT_NULL_BOOL,
	   "the ops' energy is still balanced against the trace: %.1f against %.1f mJ",
	   r ? r->ops_energy_uj / 1e3 : NAN, r ? r->above_idle_uj / 1e3 : NAN);
	el_free(r);
	s->clock_steps = 0;
	free(shown);
	free(ops);
	completions_free(&c);
}

int main(void)
{
	struct el_series *s = xcalloc(1, sizeof(*s));

	far_apart(s);
	marker_aligned(s);
	stream(s);
	lockstep(s);
	jittered_pair(s);
	closing_flush(s);
	late_current(s);
	in_step(s);
	in_step_awake(s);
	in_step_threshold(s);
	no_response(s);
	slipped(s);
	free(s);
	return done_testing();
}
