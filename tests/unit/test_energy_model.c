/* SPDX-License-Identifier: MIT */
/* The power model on synthetic jobs: known costs recovered, lock-step kinds, the lag grid, coverage, pooling. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/completions.h"
#include "energy/energy_model.h"
#include "energy/energy_pool.h"
#include "tap.h"
#include "test_rng.h"

#define T0 1000000000000ULL
#define VOLTS 5.0
#define IDLE_W (0.090 * VOLTS)
#define NOISE_W 0.005
#define IDLE_U_W 0.0005
#define MAX_OPS 20000
#define MAX_READINGS 512

/* What each kind costs (J): 40, 120, 60 uC at 5 V. */
static const double cost_j[COMPL_KINDS] = { 40e-6 * VOLTS, 120e-6 * VOLTS, 60e-6 * VOLTS };

/* The costs a job's readings show, as a share of cost_j (a job of another device: not 1). */
static double cost_scale = 1;

/* The meter's noise (W), declared as it errs. */
static double noise_w = NOISE_W;

/* Readings whose window held an operation (hidden ones too), as the last series drew them. */
static unsigned readings_caught;

struct op {
	uint64_t t_ns;
	int kind;
	int hidden; /* the device's own (a journal write): in the readings, not the series */
};

struct job {
	struct op ops[MAX_OPS];
	size_t nops;
	struct completions c;
	struct emodel_reading r[MAX_READINGS];
	struct emodel_in in;
};

/* Poisson completions of one kind at rate_hz over [T0, T0 + span_s). */
static void poisson(struct job *j, int kind, double rate_hz, double span_s)
{
	double t = 0;

	for (;;) {
		t += -log(uniform()) / rate_hz;
		if (t >= span_s || j->nops == MAX_OPS)
			return;
		j->ops[j->nops++] = (struct op){ T0 + (uint64_t)(t * 1e9), kind, 0 };
	}
}

/* Records: a write, then its flush flush_after_ns later, at rate_hz. */
static void records(struct job *j, double rate_hz, double span_s, uint64_t flush_after_ns)
{
	double t = 0;

	for (;;) {
		t += -log(uniform()) / rate_hz;
		if (t >= span_s || j->nops + 2 > MAX_OPS)
			return;
		j->ops[j->nops++] = (struct op){ T0 + (uint64_t)(t * 1e9), COMPL_WRITE, 0 };
		j->ops[j->nops++] =
		    (struct op){ T0 + (uint64_t)(t * 1e9) + flush_after_ns, COMPL_FLUSH, 0 };
	}
}

/*
 * Readings every period_ns, each the mean power over window_ns ending lag_ns before its
 * timestamp, with noise; the completions series and the model's input from the ops.
 */
static void readings_held(struct job *j, double span_s, uint64_t period_ns, uint64_t window_ns,
			  uint64_t lag_ns, uint64_t hold_ns);

static void readings(struct job *j, double span_s, uint64_t period_ns, uint64_t window_ns,
		     uint64_t lag_ns)
{
	readings_held(j, span_s, period_ns, window_ns, lag_ns, 0);
}

/* The same from a meter that converts every hold_ns (its window) and shows the last value
 * until the next: the window ends on that grid, at an age that drifts reading by reading. */
static void readings_held(struct job *j, double span_s, uint64_t period_ns, uint64_t window_ns,
			  uint64_t lag_ns, uint64_t hold_ns)
{
	uint64_t t, we, end = T0 + (uint64_t)(span_s * 1e9), phase = (uint64_t)(uniform() * 1e8);
	size_t i, n = 0;
	double e;

	completions_init(&j->c, T0);
	for (i = 0; i < j->nops; i++)
		if (!j->ops[i].hidden)
			completions_add(&j->c, j->ops[i].kind, j->ops[i].t_ns);
	readings_caught = 0;
	for (t = T0 + window_ns + hold_ns + lag_ns + phase; t <= end && n < MAX_READINGS;
	     t += period_ns) {
		we = t - lag_ns;
		if (hold_ns)
			we = T0 + (we - T0) / hold_ns * hold_ns;
		e = 0;
		for (i = 0; i < j->nops; i++)
			if (j->ops[i].t_ns >= we - window_ns && j->ops[i].t_ns < we)
				e += cost_j[j->ops[i].kind] * cost_scale;
		readings_caught += e > 0;
		j->r[n++] = (struct emodel_reading){ t, IDLE_W + e / ((double)window_ns / 1e9) +
							     noise_w * gauss(),
						     noise_w };
	}
	j->in = (struct emodel_in){
		.r = j->r, .n = n, .t0_ns = T0, .t1_ns = end, .ops = &j->c,
		.idle_w = IDLE_W + IDLE_U_W * gauss(), .idle_u_w = IDLE_U_W,
		.gain_rel = 0, .offset_w = 0, .window_ns = window_ns, .lag_ns = (int64_t)lag_ns,
		.period_ns = period_ns,
	};
}

/* A mixed job's 60 s: reads at 30/s, writes at 10/s, flushes at 4/s. */
static void mixed_ops(struct job *j)
{
	j->nops = 0;
	poisson(j, COMPL_READ, 30, 60);
	poisson(j, COMPL_WRITE, 10, 60);
	poisson(j, COMPL_FLUSH, 4, 60);
}

/* The job's energy above idle: every op's cost. */
static double net_truth(const struct job *j)
{
	double e = 0;
	size_t i;

	for (i = 0; i < j->nops; i++)
		e += cost_j[j->ops[i].kind];
	return e;
}

static int covers(const struct emodel_fit *f, int k)
{
	return fabs(f->j_per_op[k] - cost_j[k]) <= f->u95_j[k];
}

static void test_known_costs(struct job *j)
{
	struct emodel_fit f;
	int k;

	/* seed 1's flush lands 2.6 of its sigmas off (one run in twenty does; test_coverage
	 * counts those): one run here checks the fit, not its luck */
	rng = 2;
	mixed_ops(j);
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
	is_int(energy_model_fit(&j->in, &f), 0, "a mixed job at 2 Hz: fitted");
	is_str(energy_model_verdict_name(f.verdict), "ok", "its verdict");
	for (k = 0; k < COMPL_KINDS; k++) {
		ok(covers(&f, k), "%s: %.1f +- %.1f uJ against %.1f", emodel_kind_names[k],
		   f.j_per_op[k] * 1e6, f.u95_j[k] * 1e6, cost_j[k] * 1e6);
		ok(f.u95_j[k] < cost_j[k], "%s: its U95 is below the cost itself", emodel_kind_names[k]);
	}
	ok(fabs(f.net_j - net_truth(j)) <= f.net_u95_j, "net %.5f +- %.5f J against %.5f",
	   f.net_j, f.net_u95_j, net_truth(j));
	ok(energy_model_usable(&f), "usable for the headline");
	ok(f.readings > 100, "readings in the span (%zu)", f.readings);
	is_dbl(f.window_s, 0.1, 1e-9, "the declared window");
	ok(f.residual_rms_w < 1.5 * f.noise_rms_w, "residuals %.4f W at noise %.4f W",
	   f.residual_rms_w, f.noise_rms_w);
	completions_free(&j->c);
}

static void test_lockstep(struct job *j)
{
	struct emodel_fit f;

	rng = 7;
	j->nops = 0;
	poisson(j, COMPL_READ, 20, 60);
	records(j, 5, 60, 300000);
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
	is_int(energy_model_fit(&j->in, &f), 0, "a synced logger: fitted");
	is_str(energy_model_verdict_name(f.verdict), "not identifiable", "write and flush in step");
	ok(isnan(f.j_per_op[COMPL_WRITE]) && isnan(f.j_per_op[COMPL_FLUSH]),
	   "neither is given alone");
	ok(f.sum_base >= 0 && f.sum_with >= 0 && f.sum_base != f.sum_with, "the pair is named: %s",
	   f.why);
	is_dbl(f.sum_ratio, 1, 0.05, "one of each per record");
	ok(fabs(f.sum_j - cost_j[COMPL_WRITE] - cost_j[COMPL_FLUSH]) <= f.sum_u95_j,
	   "their sum %.1f +- %.1f uJ against %.1f", f.sum_j * 1e6, f.sum_u95_j * 1e6,
	   (cost_j[COMPL_WRITE] + cost_j[COMPL_FLUSH]) * 1e6);
	ok(covers(&f, COMPL_READ), "the read is still told apart");
	ok(fabs(f.net_j - net_truth(j)) <= f.net_u95_j, "net %.5f +- %.5f J against %.5f",
	   f.net_j, f.net_u95_j, net_truth(j));
	ok(energy_model_usable(&f), "a lock-step pair's sum is usable for the headline");
	completions_free(&j->c);
}

static void test_lag_grid(struct job *j)
{
	struct emodel_fit f;
	int k;

	rng = 11;
	mixed_ops(j);
	readings(j, 60, 500000000ULL, 100000000ULL, 30000000ULL);
	j->in.window_ns = 0; /* the meter declares none */
	j->in.lag_ns = 0;
	is_int(energy_model_fit(&j->in, &f), 0, "readings 30 ms late, nothing declared: fitted");
	ok(f.grid, "over the grid");
	is_dbl(f.lag_s, 0.030, 0.0015, "the lag found (%.3f s)", f.lag_s);
	is_dbl(f.window_s, 0.100, 1e-9, "the window found");
	is_dbl(f.hold_s, 0, 1e-9, "no hold found where the readings hold none");
	for (k = 0; k < COMPL_KINDS; k++)
		ok(covers(&f, k), "%s at the found lag: %.1f +- %.1f uJ", emodel_kind_names[k],
		   f.j_per_op[k] * 1e6, f.u95_j[k] * 1e6);
	completions_free(&j->c);
}

static void test_hold(struct job *j)
{
	struct emodel_fit f;
	int k;

	/* over seeds 1-40 of this job 114 of 120 costs held (95 %); seed 5's read lands 2.2
	 * of its sigmas off: one run here checks the hold, not its luck */
	rng = 2;
	mixed_ops(j);
	/* polled every 507 ms: the age of the value shown drifts over the 100 ms hold */
	readings_held(j, 60, 507000000ULL, 100000000ULL, 0, 100000000ULL);
	j->in.window_ns = 0;
	j->in.period_ns = 500000000ULL;
	is_int(energy_model_fit(&j->in, &f), 0, "a meter holding each value: fitted");
	printf("# hold found %.3f s, lag %.3f s, window %.3f s\n", f.hold_s, f.lag_s, f.window_s);
	for (k = 0; k < COMPL_KINDS; k++)
		ok(covers(&f, k), "%s through the hold: %.1f +- %.1f uJ", emodel_kind_names[k],
		   f.j_per_op[k] * 1e6, f.u95_j[k] * 1e6);
	completions_free(&j->c);
}

/*
 * A job of reads and writes closed by one fsync that carries 40 journal writes the series
 * does not see (24 mJ), inside a reading's window: the flush is neither priced nor judged
 * (one reading alone would set its cost), the verdict is the reads' and writes', and the
 * flush's energy is in the job's, from the readings.
 */
static void test_closing_flush(struct job *j)
{
	const struct result_model_normal *nm[1];
	uint64_t seed, t;
	struct emodel_fit f, pooled;
	size_t i;
	int k;

	rng = 2;
	j->nops = 0;
	poisson(j, COMPL_READ, 30, 60);
	poisson(j, COMPL_WRITE, 10, 60);
	seed = rng;
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
	/* the flush 50 ms before the last reading but one: inside its window */
	t = j->in.r[j->in.n - 2].t_ns - 50000000ULL;
	completions_free(&j->c);
	j->ops[j->nops++] = (struct op){ t, COMPL_FLUSH, 0 };
	for (i = 0; i < 40; i++)
		j->ops[j->nops++] = (struct op){ t + i * 100000ULL, COMPL_WRITE, 1 };
	rng = seed; /* the same readings' times and noise */
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
	is_int(energy_model_fit(&j->in, &f), 0, "one closing flush: fitted");
	ok(isnan(f.j_per_op[COMPL_FLUSH]) && isnan(f.u95_j[COMPL_FLUSH]), "the flush is not priced");
	ok(f.verdict != EMODEL_NOT_IDENTIFIABLE, "nor is the model not identifiable for it: %s",
	   energy_model_verdict_name(f.verdict));
	ok(strstr(f.why, "1 flush: too few to price") != NULL, "and says why: %s", f.why);
	ok(f.sum_base < 0, "no pair merged with it");
	for (k = COMPL_READ; k <= COMPL_WRITE; k++)
		ok(covers(&f, k), "%s: %.1f +- %.1f uJ against %.1f", emodel_kind_names[k],
		   f.j_per_op[k] * 1e6, f.u95_j[k] * 1e6, cost_j[k] * 1e6);
	ok(fabs(f.net_j - net_truth(j)) <= f.net_u95_j,
	   "net %.5f +- %.5f J against %.5f, the flush's 0.0243 J in it", f.net_j, f.net_u95_j,
	   net_truth(j));
	ok(energy_model_usable(&f), "usable for the headline");
	is_dbl(f.normal.ops[COMPL_FLUSH], 1, 0, "the pool still counts the flush");
	nm[0] = &f.normal;
	is_int(energy_pool_fit(nm, 1, &pooled), 0, "pooled alone: fitted");
	ok(isnan(pooled.j_per_op[COMPL_FLUSH]) && pooled.verdict != EMODEL_NOT_IDENTIFIABLE,
	   "the pool neither prices its flush nor calls itself not identifiable: %s (%s)",
	   energy_model_verdict_name(pooled.verdict), pooled.why);
	completions_free(&j->c);
}

/*
 * An idle baseline of readings all alike (an emulated meter's flat idle) declares a u of
 * 0. The job's energy is still above that baseline, not above the idle the fit finds: a
 * device's own writes spread over the job (5/s that the series does not see, 0.18 J) lift
 * the fitted idle and stay in the job's energy.
 */
static void test_flat_idle(struct job *j)
{
	struct emodel_fit f;
	size_t i, n;

	rng = 2;
	mixed_ops(j);
	n = j->nops;
	poisson(j, COMPL_WRITE, 5, 60);
	for (i = n; i < j->nops; i++)
		j->ops[i].hidden = 1;
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
	j->in.idle_w = IDLE_W;
	j->in.idle_u_w = 0;
	is_int(energy_model_fit(&j->in, &f), 0, "a flat idle baseline: fitted");
	ok(fabs(f.net_j - net_truth(j)) <= f.net_u95_j,
	   "net %.4f +- %.4f J against %.4f, the unseen writes' 0.18 J in it", f.net_j,
	   f.net_u95_j, net_truth(j));
	ok(fabs(f.idle_w - IDLE_W) < 1e-4, "the baseline holds the fitted idle: %.5f W", f.idle_w);
	completions_free(&j->c);
}

/* The long seeded loops say where they are, so that the runner (which stops a test silent
 * for 45 s as hung) sees them work on a loaded machine. */
static void progress(const char *what, unsigned seed, unsigned of)
{
	if (seed % 5 == 0) {
		printf("# %s: seed %u of %u\n", what, seed, of);
		fflush(stdout);
	}
}

static void test_coverage(struct job *j)
{
	struct emodel_fit f;
	unsigned seed, hit = 0, n = 0, k, net_hit = 0, net_n = 0;
	double width = 0;

	for (seed = 1; seed <= 200; seed++) {
		progress(__func__, seed, 200);
		rng = 1000 + seed;
		mixed_ops(j);
		readings(j, 60, 500000000ULL, 100000000ULL, 0);
		if (!energy_model_fit(&j->in, &f) && f.verdict == EMODEL_OK) {
			net_hit += fabs(f.net_j - net_truth(j)) <= f.net_u95_j;
			net_n++;
		}
		if (f.verdict == EMODEL_OK)
			for (k = 0; k < COMPL_KINDS; k++) {
				hit += (unsigned)covers(&f, (int)k);
				width += f.u95_j[k] / cost_j[k];
				n++;
			}
		completions_free(&j->c);
	}
	printf("# coverage over 200 seeds: %u of %u per-op U95 hold the truth (%.1f %%), mean "
	     "U95 %.1f %% of the cost\n", hit, n, 100.0 * hit / n, 100 * width / n);
	ok(n >= 3 * 190, "fits ok in %u of 600", n);
	ok(hit >= 0.93 * n, "U95 holds the truth in >= 93 %% (%.1f %%)", 100.0 * hit / n);
	ok(net_hit >= 0.93 * net_n, "the net energy's U95 holds it in %u of %u", net_hit, net_n);
}

/*
 * A synced logger as ext4 makes it: records at 2/s, paced with 100 % dither; each is a
 * write, one or two journal writes (1.6 on average: the device's, not in iowatt's series)
 * a few ms later, and the flush 10 ms after the write; read by a meter that converts
 * every 100 ms and is polled every 500 ms at a phase of its own (as the emulated UM25C),
 * declaring no window, with a gain error per run.
 */
static void fill_journal_logger(struct job *j, double span_s, double gain_rel)
{
	double t = 0, g = 1 + gain_rel * gauss();
	uint64_t at;
	size_t i, n;
	int extra;

	j->nops = 0;
	for (;;) {
		t += 0.5 * (0.5 + uniform());
		if (t >= span_s || j->nops + 12 > MAX_OPS)
			break;
		at = T0 + (uint64_t)(t * 1e9);
		j->ops[j->nops++] = (struct op){ at, COMPL_WRITE, 0 };
		extra = 1 + (uniform() < 0.6);
		for (n = 0; n < (size_t)extra; n++)
			j->ops[j->nops++] = (struct op){ at + 2000000 + (uint64_t)(uniform() * 6e6),
							 COMPL_WRITE, 1 };
		j->ops[j->nops++] = (struct op){ at + 10000000, COMPL_FLUSH, 0 };
	}
	readings_held(j, span_s, 500000000ULL, 100000000ULL, 0, 100000000ULL);
	for (i = 0; i < j->in.n; i++)
		j->r[i].w *= g;
	j->in.idle_w *= g;
	j->in.gain_rel = gain_rel;
	j->in.window_ns = 0;
	j->in.period_ns = 500000000ULL;
}

static void test_logger_coverage(struct job *j)
{
	struct emodel_fit f;
	unsigned seed, hit = 0, n = 0, net_hit = 0, net_n = 0, given = 0;
	double rec, e, width = 0, e2 = 0, nwidth = 0, ne2 = 0;

	for (seed = 1; seed <= 200; seed++) {
		progress(__func__, seed, 200);
		rng = 9000 + seed;
		fill_journal_logger(j, 30, 0.005);
		/* a record's truth: its write, flush and the journal writes it caused, as the
		 * battery pays them (the run's own mean) */
		rec = net_truth(j) / (double)j->c.total[COMPL_FLUSH];
		if (!energy_model_fit(&j->in, &f) && energy_model_usable(&f)) {
			e = (f.net_j - net_truth(j)) / net_truth(j);
			net_hit += fabs(f.net_j - net_truth(j)) <= f.net_u95_j;
			nwidth += f.net_u95_j / net_truth(j);
			ne2 += e * e;
			net_n++;
			/* a pair the fit split gives the record too (its U95 not: the result
			 * holds no covariance of the two) */
			given += isfinite(f.sum_j) || (isfinite(f.j_per_op[COMPL_WRITE]) &&
						       isfinite(f.j_per_op[COMPL_FLUSH]));
			if (isfinite(f.sum_j)) {
				e = (f.sum_j - rec) / rec;
				hit += fabs(f.sum_j - rec) <= f.sum_u95_j;
				width += f.sum_u95_j / rec;
				e2 += e * e;
				n++;
			}
		}
		completions_free(&j->c);
	}
	printf("# journalled logger, 200 seeds: record U95 holds %u of %u, width %.2f x RMS "
	       "(%.1f %%); net holds %u of %u, width %.2f x RMS (%.1f %%)\n", hit, n,
	       width / n / sqrt(e2 / n), 100 * sqrt(e2 / n), net_hit, net_n,
	       nwidth / net_n / sqrt(ne2 / net_n), 100 * sqrt(ne2 / net_n));
	ok(net_n >= 150, "usable in %u of 200", net_n);
	ok(given >= net_n * 2 / 3, "a record (write and flush, together or split) given in %u of "
	   "%u", given, net_n);
	ok(n >= net_n / 2, "as their sum in %u", n);
	ok(hit >= 0.93 * n, "a record's U95 holds its truth in >= 93 %% (%u of %u)", hit, n);
	ok(width / n <= 3 * sqrt(e2 / n), "its width %.2f x its RMS error",
	   width / n / sqrt(e2 / n));
	ok(net_hit >= 0.93 * net_n, "the net energy's U95 holds it in >= 93 %% (%u of %u)",
	   net_hit, net_n);
	ok(nwidth / net_n <= 3 * sqrt(ne2 / net_n), "its width %.2f x its RMS error",
	   nwidth / net_n / sqrt(ne2 / net_n));
}


/*
 * Records at 2/s, in step with the readings (paced) or at a random point of their half
 * second (dithered): a write, a journal write 3-7 ms later that iowatt does not see, the
 * flush 10 ms after the write; read by a meter that converts every 100 ms and shows its
 * last conversion, polled every poll_ns (the emulated UM25C drifts 1.4 ms a reading
 * against its conversions), declaring no window, noise 0.6 mW, gain 0.5 %.
 */
static void fill_paced_logger(struct job *j, double span_s, int dither, uint64_t poll_ns)
{
	double t = uniform() * 0.5, g = 1 + 0.005 * gauss();
	uint64_t at;
	size_t i;

	j->nops = 0;
	for (;;) {
		t += dither ? 0.5 * (0.5 + uniform()) : 0.5;
		if (t >= span_s || j->nops + 3 > MAX_OPS)
			break;
		at = T0 + (uint64_t)(t * 1e9) + (dither ? 0 : (uint64_t)(uniform() * 4e6));
		j->ops[j->nops++] = (struct op){ at, COMPL_WRITE, 0 };
		j->ops[j->nops++] =
		    (struct op){ at + 3000000 + (uint64_t)(uniform() * 4e6), COMPL_WRITE, 1 };
		j->ops[j->nops++] = (struct op){ at + 10000000, COMPL_FLUSH, 0 };
	}
	noise_w = 0.0006;
	readings_held(j, span_s, poll_ns, 100000000ULL, 1000000ULL, 100000000ULL);
	noise_w = NOISE_W;
	for (i = 0; i < j->in.n; i++)
		j->r[i].w *= g;
	j->in.idle_w *= g;
	j->in.gain_rel = 0.005;
	j->in.window_ns = 0;
	j->in.period_ns = 500000000ULL;
}

/* Over seeds: the model's net energy where usable, and where it would carry an aliased
 * job's headline (usable, above zero by more than its U95). */
struct net_cover {
	unsigned n, hit, high_miss, carried, carried_hit;
	double width, e2;
};

static void paced_cover(struct job *j, int dither, uint64_t poll_ns, unsigned seeds,
			struct net_cover *nc)
{
	struct emodel_fit f;
	unsigned seed;
	double e, truth;

	memset(nc, 0, sizeof(*nc));
	for (seed = 1; seed <= seeds; seed++) {
		progress(__func__, seed, seeds);
		rng = 5000 + seed;
		fill_paced_logger(j, 30, dither, poll_ns);
		truth = net_truth(j);
		if (!energy_model_fit(&j->in, &f) && energy_model_usable(&f)) {
			e = (f.net_j - truth) / truth;
			nc->n++;
			nc->hit += fabs(f.net_j - truth) <= f.net_u95_j;
			nc->high_miss += f.net_j - truth > f.net_u95_j;
			nc->width += f.net_u95_j / truth;
			nc->e2 += e * e;
			if (f.net_j > f.net_u95_j) {
				nc->carried++;
				nc->carried_hit += fabs(f.net_j - truth) <= f.net_u95_j;
			}
		}
		completions_free(&j->c);
	}
}

static void test_paced_in_step(struct job *j)
{
	struct net_cover d, p;
	double rms;

	paced_cover(j, 1, 501400000ULL, 60, &d);
	rms = sqrt(d.e2 / d.n);
	printf("# dithered records, drifting held meter, 60 seeds: net U95 holds %u of %u (%u "
	       "misses high), width %.2f x RMS (%.1f %%)\n", d.hit, d.n, d.high_miss,
	       d.width / d.n / rms, 100 * rms);
	ok(d.n >= 55, "dithered: usable in %u of 60", d.n);
	ok(d.hit >= 0.93 * d.n, "dithered: the net's U95 holds it in >= 93 %% (%u of %u)", d.hit,
	   d.n);
	ok(d.width / d.n <= 3 * rms && d.width / d.n < 0.6,
	   "dithered: its width %.2f x the RMS error, %.0f %% of the net: not blown up",
	   d.width / d.n / rms, 100 * d.width / d.n);
	paced_cover(j, 0, 501400000ULL, 60, &p);
	printf("# records in step, drifting held meter, 60 seeds: usable %u, carried %u, held "
	       "by its U95 %u\n", p.n, p.carried, p.carried_hit);
	ok(p.carried_hit >= 0.9 * p.carried,
	   "in step: where the model would carry the headline its U95 holds the net in %u of %u",
	   p.carried_hit, p.carried);
	paced_cover(j, 0, 500000000ULL, 60, &p);
	printf("# records in step, meter polled in step, 60 seeds: usable %u, carried %u, held "
	       "by its U95 %u\n", p.n, p.carried, p.carried_hit);
	ok(p.carried_hit >= 0.9 * p.carried,
	   "in step without drift: carried %u, held %u", p.carried, p.carried_hit);
}

/* A figure and its U95 that hold the truth, or no figure. */
static int holds_or_none(double v, double u95, double truth)
{
	return isnan(v) || fabs(v - truth) <= u95;
}

/* A kind of a record given alone: its truth is its own cost with none, some or all of the
 * record's unseen journal write (which lands by the write or by the flush): the U95 must
 * reach that span. */
static int lone_holds(double v, double u95, int k, double rec)
{
	return v + u95 >= cost_j[k] && v - u95 <= rec;
}

/*
 * Records in step with a meter polled in step: at most phases no reading's window ever
 * holds one, and the readings are idle throughout. A window at another lag that holds
 * every record fits them as well at a cost of nothing, and the costs and the job's energy
 * must not be given from it with an interval that leaves the truth out.
 */
static void test_never_caught(struct job *j)
{
	struct emodel_fit f;
	unsigned seed, blind = 0, wrong = 0, given = 0, said = 0;
	double rec, truth, w, f_, u;

	for (seed = 1; seed <= 30; seed++) {
		progress(__func__, seed, 30);
		rng = 5000 + seed;
		fill_paced_logger(j, 30, 0, 500000000ULL);
		if (readings_caught) {
			completions_free(&j->c);
			continue;
		}
		blind++;
		truth = net_truth(j);
		rec = truth / (double)j->c.total[COMPL_FLUSH];
		energy_model_fit(&j->in, &f);
		w = f.j_per_op[COMPL_WRITE];
		f_ = f.j_per_op[COMPL_FLUSH];
		/* a split record: its write and flush added, U95s added (no covariance kept) */
		u = f.u95_j[COMPL_WRITE] + f.u95_j[COMPL_FLUSH];
		given += isfinite(f.net_j) || isfinite(f.sum_j) || isfinite(w) || isfinite(f_);
		wrong += !holds_or_none(f.net_j, f.net_u95_j, truth) ||
			 !holds_or_none(f.sum_j, f.sum_u95_j, rec) ||
			 (isfinite(w) && isfinite(f_) && !holds_or_none(w + f_, u, rec)) ||
			 (isfinite(w) && isnan(f_) && !lone_holds(w, f.u95_j[COMPL_WRITE],
								   COMPL_WRITE, rec)) ||
			 (isfinite(f_) && isnan(w) && !lone_holds(f_, f.u95_j[COMPL_FLUSH],
								   COMPL_FLUSH, rec));
		said += f.verdict == EMODEL_NOT_IDENTIFIABLE;
		completions_free(&j->c);
	}
	printf("# records no reading caught, 30 seeds: %u blind runs, %u with a figure, %u "
	       "wrong\n", blind, given, wrong);
	ok(blind >= 10, "in step, most runs' readings catch no record (%u of 30)", blind);
	is_int(wrong, 0, "none of them gives a figure whose U95 leaves the truth out");
	is_int(said, blind, "each says the costs are not identifiable");
}

/*
 * A steady stream (writes every 10 ms, 2 ms of jitter) read at 1 Hz by a meter holding
 * 100 ms conversions, nothing declared: every window holds about ten writes whatever its
 * length, so the flat column says nothing of the window and the cost is the mean rise over
 * the rate. Records in step with the readings (one in each 500 ms window) stay not
 * identifiable.
 */
static void test_stream(struct job *j)
{
	struct emodel_fit f;
	double t;

	rng = 7;
	j->nops = 0;
	for (t = 0.005; t < 30 && j->nops < MAX_OPS; t += 0.010)
		j->ops[j->nops++] =
		    (struct op){ T0 + (uint64_t)((t + 0.002 * (uniform() - 0.5)) * 1e9), COMPL_WRITE,
				 0 };
	readings_held(j, 30, 1000700000ULL, 100000000ULL, 0, 100000000ULL);
	j->in.window_ns = 0;
	j->in.period_ns = 1000000000ULL;
	is_int(energy_model_fit(&j->in, &f), 0, "a stream at 1 Hz: fitted");
	ok(f.verdict != EMODEL_NOT_IDENTIFIABLE, "its cost does not hang on the window: %s (%s)",
	   energy_model_verdict_name(f.verdict), f.why);
	ok(covers(&f, COMPL_WRITE), "write %.1f +- %.1f uJ against %.1f", f.j_per_op[COMPL_WRITE] * 1e6,
	   f.u95_j[COMPL_WRITE] * 1e6, cost_j[COMPL_WRITE] * 1e6);
	ok(isfinite(f.net_j) && fabs(f.net_j - net_truth(j)) <= f.net_u95_j,
	   "net %.4f +- %.4f J against %.4f", f.net_j, f.net_u95_j, net_truth(j));
	completions_free(&j->c);

	j->nops = 0;
	for (t = 0.25; t < 30 && j->nops < MAX_OPS; t += 0.5)
		j->ops[j->nops++] = (struct op){ T0 + (uint64_t)(t * 1e9), COMPL_WRITE, 0 };
	readings(j, 30, 500000000ULL, 500000000ULL, 0);
	j->in.window_ns = 0;
	j->in.lag_ns = 0;
	is_int(energy_model_fit(&j->in, &f), 0, "records in step at 2 Hz: fitted");
	is_str(energy_model_verdict_name(f.verdict), "not identifiable", "records in step: %s",
	       f.why);
	completions_free(&j->c);
}

/* Fits the jobs of fills[0..n) (each fills j's ops and readings) into fits[] and their
 * equations, then pools them. */
typedef void (*job_fill)(struct job *j);

static int pool_jobs(struct job *j, const job_fill *fills, size_t n, struct emodel_fit *fits,
		     struct emodel_fit *pooled)
{
	const struct result_model_normal *nm[8];
	size_t i;

	for (i = 0; i < n; i++) {
		fills[i](j);
		energy_model_fit(&j->in, &fits[i]);
		nm[i] = &fits[i].normal;
		completions_free(&j->c);
	}
	return energy_pool_fit(nm, n, pooled);
}

static void fill_mixed(struct job *j)
{
	mixed_ops(j);
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
}

/* A synced logger: reads, and 5 records a second of a write and its flush 0.3 ms later. */
static void fill_logger(struct job *j)
{
	j->nops = 0;
	poisson(j, COMPL_READ, 20, 60);
	records(j, 5, 60, 300000);
	readings(j, 60, 500000000ULL, 100000000ULL, 0);
}

static int pooled_covers(const struct emodel_fit *f, int k)
{
	return fabs(f->j_per_op[k] - cost_j[k]) <= f->u95_j[k];
}

static void test_pool_tighter(struct job *j)
{
	const job_fill fills[3] = { fill_mixed, fill_mixed, fill_mixed };
	struct emodel_fit fits[3], p;
	int k;

	rng = 21;
	is_int(pool_jobs(j, fills, 3, fits, &p), 0, "three mixed jobs of one device: pooled");
	is_str(energy_model_verdict_name(p.verdict), "ok", "the pool's verdict");
	for (k = 0; k < COMPL_KINDS; k++) {
		double best = fmin(fits[0].u95_j[k], fmin(fits[1].u95_j[k], fits[2].u95_j[k]));

		ok(pooled_covers(&p, k), "%s pooled: %.1f +- %.1f uJ against %.1f",
		   emodel_kind_names[k], p.j_per_op[k] * 1e6, p.u95_j[k] * 1e6, cost_j[k] * 1e6);
		ok(p.u95_j[k] < 0.75 * best, "%s: pooled U95 %.1f uJ, the best job's %.1f",
		   emodel_kind_names[k], p.u95_j[k] * 1e6, best * 1e6);
	}
	is_int((long)p.readings,
	       (long)(fits[0].readings + fits[1].readings + fits[2].readings),
	       "every job's readings count");
}

static void test_pool_splits_lockstep(struct job *j)
{
	const job_fill fills[2] = { fill_logger, fill_mixed };
	const job_fill loggers[2] = { fill_logger, fill_logger };
	struct emodel_fit fits[2], p;
	int k;

	rng = 31;
	is_int(pool_jobs(j, fills, 2, fits, &p), 0, "a logger and a mixed job: pooled");
	is_str(energy_model_verdict_name(fits[0].verdict), "not identifiable",
	       "the logger alone cannot split write and flush");
	is_str(energy_model_verdict_name(p.verdict), "ok", "pooled it can: %s", p.why);
	for (k = 0; k < COMPL_KINDS; k++)
		ok(pooled_covers(&p, k), "%s: %.1f +- %.1f uJ against %.1f", emodel_kind_names[k],
		   p.j_per_op[k] * 1e6, p.u95_j[k] * 1e6, cost_j[k] * 1e6);
	ok(p.u95_j[COMPL_WRITE] <= fits[1].u95_j[COMPL_WRITE],
	   "the write's U95 %.1f uJ no wider than the mixed job's own %.1f",
	   p.u95_j[COMPL_WRITE] * 1e6, fits[1].u95_j[COMPL_WRITE] * 1e6);

	rng = 37;
	is_int(pool_jobs(j, loggers, 2, fits, &p), 0, "two loggers: pooled");
	is_str(energy_model_verdict_name(p.verdict), "not identifiable", "still in step: %s", p.why);
	ok(fabs(p.sum_j - cost_j[COMPL_WRITE] - cost_j[COMPL_FLUSH]) <= p.sum_u95_j,
	   "a record's write+flush %.1f +- %.1f uJ against %.1f", p.sum_j * 1e6,
	   p.sum_u95_j * 1e6, (cost_j[COMPL_WRITE] + cost_j[COMPL_FLUSH]) * 1e6);
	is_dbl(p.sum_ratio, 1, 0.01, "one flush per write");
}

/* A job of a device that costs twice as much: the pool says its jobs disagree. */
static void fill_mixed_double(struct job *j)
{
	cost_scale = 2;
	fill_mixed(j);
	cost_scale = 1;
}

static void test_pool_disagree(struct job *j)
{
	const job_fill fills[2] = { fill_mixed, fill_mixed_double };
	struct emodel_fit fits[2], p;

	rng = 41;
	is_int(pool_jobs(j, fills, 2, fits, &p), 0, "jobs that disagree: pooled");
	ok(p.chi2_dof > 1.5, "their disagreement shows as misfit (chi2/dof %.2f)", p.chi2_dof);
	ok(p.u95_j[COMPL_READ] > fits[0].u95_j[COMPL_READ],
	   "and widens the U95 (%.1f uJ, a job's own %.1f)", p.u95_j[COMPL_READ] * 1e6,
	   fits[0].u95_j[COMPL_READ] * 1e6);
}

static void test_pool_coverage(struct job *j)
{
	const job_fill fills[3] = { fill_mixed, fill_mixed, fill_mixed };
	struct emodel_fit fits[3], p;
	unsigned seed, hit = 0, n = 0, k;
	double width = 0, e2 = 0;

	for (seed = 1; seed <= 60; seed++) {
		progress(__func__, seed, 60);
		rng = 5000 + seed;
		if (pool_jobs(j, fills, 3, fits, &p) || p.verdict != EMODEL_OK)
			continue;
		for (k = 0; k < COMPL_KINDS; k++) {
			hit += (unsigned)pooled_covers(&p, (int)k);
			width += p.u95_j[k] / cost_j[k];
			e2 += pow((p.j_per_op[k] - cost_j[k]) / cost_j[k], 2);
			n++;
		}
	}
	printf("# pooled over 3 jobs, 60 seeds: %u of %u per-op U95 hold the truth (%.1f %%), "
	       "mean U95 %.1f %% of the cost, %.2f x RMS\n", hit, n, 100.0 * hit / n,
	       100 * width / n, width / n / sqrt(e2 / n));
	ok(n >= 3 * 57, "pools ok in %u of 180", n);
	ok(hit >= 0.93 * n, "pooled U95 holds the truth in >= 93 %% (%.1f %%)", 100.0 * hit / n);
	ok(width / n <= 3 * sqrt(e2 / n), "its width %.2f x its RMS error",
	   width / n / sqrt(e2 / n));
}

/*
 * A sparse device's jobs pooled: reads, writes and flushes at 2/s each, apart, and each
 * flush makes the device write its journal once or twice (1.6 on average, not in the
 * series), read as the emulated UM25C (fill_journal_logger) is: the misfit sits in the
 * readings that caught a flush, as in one logger job, so the pool must say it alike. A
 * flush's truth is its own cost and the journal writes it caused over the pool.
 */
static double pool_hidden, pool_flushes;

static void fill_journal_sparse(struct job *j)
{
	double g = 1 + 0.005 * gauss();
	size_t i, n = 0, nf;

	j->nops = 0;
	poisson(j, COMPL_READ, 2, 30);
	poisson(j, COMPL_WRITE, 2, 30);
	poisson(j, COMPL_FLUSH, 2, 30);
	nf = j->nops;
	for (i = 0; i < nf && j->nops + 2 <= MAX_OPS; i++) {
		if (j->ops[i].kind != COMPL_FLUSH)
			continue;
		pool_flushes++;
		for (n = 1 + (uniform() < 0.6); n > 0; n--, pool_hidden++)
			j->ops[j->nops++] = (struct op){ j->ops[i].t_ns + 2000000 +
								 (uint64_t)(uniform() * 6e6),
							 COMPL_WRITE, 1 };
	}
	readings_held(j, 30, 500000000ULL, 100000000ULL, 0, 100000000ULL);
	for (i = 0; i < j->in.n; i++)
		j->r[i].w *= g;
	j->in.idle_w *= g;
	j->in.gain_rel = 0.005;
	j->in.window_ns = 0;
}

static void test_pool_journal_coverage(struct job *j)
{
	const job_fill fills[3] = { fill_journal_sparse, fill_journal_sparse,
				    fill_journal_sparse };
	struct emodel_fit fits[3], p;
	unsigned seed, hit = 0, n = 0, k;
	double truth, e2 = 0, width = 0;

	for (seed = 1; seed <= 60; seed++) {
		progress(__func__, seed, 60);
		rng = 7000 + seed;
		pool_hidden = pool_flushes = 0;
		if (pool_jobs(j, fills, 3, fits, &p) || p.verdict == EMODEL_NOT_IDENTIFIABLE)
			continue;
		for (k = 0; k < COMPL_KINDS; k++) {
			truth = cost_j[k] + (k == COMPL_FLUSH ? cost_j[COMPL_WRITE] * pool_hidden /
								      pool_flushes
							       : 0);
			hit += fabs(p.j_per_op[k] - truth) <= p.u95_j[k];
			width += p.u95_j[k] / truth;
			e2 += pow((p.j_per_op[k] - truth) / truth, 2);
			n++;
		}
	}
	printf("# sparse journalled device pooled over 3 jobs, 60 seeds: per-op U95 holds %u of "
	       "%u, width %.2f x RMS (%.1f %%)\n", hit, n, width / n / sqrt(e2 / n),
	       100 * sqrt(e2 / n));
	ok(n >= 3 * 54, "pooled in %u of 180", n);
	ok(hit >= 0.93 * n, "its U95 holds the truth in >= 93 %% (%u of %u)", hit, n);
	ok(width / n <= 3 * sqrt(e2 / n), "its width %.2f x its RMS error",
	   width / n / sqrt(e2 / n));
}

int main(void)
{
	struct job *j = xcalloc(1, sizeof(*j));

	test_known_costs(j);
	test_lockstep(j);
	test_lag_grid(j);
	test_hold(j);
	test_closing_flush(j);
	test_flat_idle(j);
	test_coverage(j);
	test_logger_coverage(j);
	test_paced_in_step(j);
	test_never_caught(j);
	test_stream(j);
	test_pool_tighter(j);
	test_pool_splits_lockstep(j);
	test_pool_disagree(j);
	test_pool_coverage(j);
	test_pool_journal_coverage(j);
	free(j);
	return done_testing();
}
