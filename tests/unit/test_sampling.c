/* SPDX-License-Identifier: MIT */
/* The sampling term on synthetic series: aliased, dithered, streaming, edges; the activity bins. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/activity.h"
#include "energy/energy.h"
#include "energy/sampling.h"
#include "energy/uncertainty.h"
#include "tap.h"

#define T0 1000000000000ULL
#define PERIOD (500 * NS_PER_MS)

static uint64_t at(double s)
{
	return T0 + (uint64_t)llround(s * 1e9);
}

/* A deterministic uniform [0, 1) (a 64-bit LCG's top bits), so the tests repeat. */
static double uniform(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*x >> 11) / 9007199254740992.0;
}

static void test_activity(void)
{
	struct activity a, b;
	double total;

	activity_init(&a, T0);
	activity_add(&a, at(0.001), at(0.002));
	is_int(a.n, 1, "an I/O inside one bin: one bin");
	is_dbl(a.w[0], 1, 1e-6, "counted once");
	activity_add(&a, at(0.015), at(0.045));
	is_dbl(a.w[1], 5.0 / 30, 1e-6, "a 30 ms sync spreads over the bins it spans (first)");
	is_dbl(a.w[2], 10.0 / 30, 1e-6, "(second)");
	is_dbl(a.w[4], 5.0 / 30, 1e-6, "(last)");
	is_dbl(activity_total(&a), 2, 1e-6, "the total is the operations");
	/* 65536 bins of 10 ms end at 655.36 s: a later I/O halves the resolution */
	activity_add(&a, at(700), at(700));
	is_int(a.bin_ns, 2 * ACTIVITY_BIN_NS, "past the bound the bins double");
	ok(a.n <= ACTIVITY_MAX_BINS, "and their number stays bounded (%zu)", a.n);
	is_dbl(a.w[0], 1 + 5.0 / 30, 1e-6, "pairs of bins merged");
	is_dbl(activity_total(&a), 3, 1e-6, "nothing lost");
	activity_init(&b, T0);
	activity_add(&b, at(0.001), at(0.001));
	activity_merge(&b, &a);
	is_int(b.bin_ns, a.bin_ns, "a merge takes the wider bins");
	total = activity_total(&b);
	is_dbl(total, 4, 1e-6, "and every operation");
	activity_free(&a);
	activity_free(&b);
}

/* Operations in the bin the last one ended in take a shortcut: it must land where the
 * division would, also after a merge has widened the bins under it. */
static void test_activity_hot_bin(void)
{
	struct activity a, b;

	activity_init(&a, T0);
	activity_add(&a, at(0.031), at(0.032));
	activity_add(&a, at(0.033), at(0.034));
	is_dbl(a.w[3], 2, 1e-6, "two I/Os in one bin: both in it");
	activity_add(&a, at(0.039), at(0.041));
	is_dbl(a.w[3], 2.5, 1e-6, "one that leaves the bin is spread (this one)");
	is_dbl(a.w[4], 0.5, 1e-6, "(the next)");
	activity_add(&a, at(0.035), at(0.036));
	is_dbl(a.w[3], 3.5, 1e-6, "one back in an earlier bin is counted there");
	activity_init(&b, T0);
	activity_add(&b, at(700), at(700));
	activity_merge(&a, &b);
	is_int(a.bin_ns, 2 * ACTIVITY_BIN_NS, "a merge of wider bins widens them");
	activity_add(&a, at(0.037), at(0.038));
	is_dbl(a.w[1], 4.5, 1e-6, "the next I/O lands in the widened bin, not the old index");
	is_dbl(activity_total(&a), 6, 1e-6, "and every operation counts once");
	activity_free(&a);
	activity_free(&b);
}

/* Readings every period from 0 to `secs`, the active phase over all of it. */
static uint64_t *readings(double secs, size_t *n)
{
	uint64_t *t;
	size_t i;

	*n = (size_t)(secs / 0.5) + 1;
	t = xcalloc(*n, sizeof(*t));
	for (i = 0; i < *n; i++)
		t[i] = at(0.5 * (double)i);
	return t;
}

/* Readings over secs and `count` operations of len_s each, k at k x spacing_s + at_s. */
static uint64_t *periodic(double secs, size_t *n, struct activity *a, int count,
			  double spacing_s, double at_s, double len_s)
{
	uint64_t *t = readings(secs, n);
	int k;

	activity_init(a, t[0]);
	for (k = 0; k < count; k++)
		activity_add(a, at(spacing_s * k + at_s), at(spacing_s * k + at_s + len_s));
	return t;
}

static void estimate(const uint64_t *t, size_t n, const struct activity *a, double act_j,
		     struct sampling_est *se)
{
	struct sampling_in in = {
		.t_ns = t, .n = n, .period_ns = PERIOD, .window_ns = SAMPLING_WINDOW_NS,
		.active_ns = t[0], .end_ns = t[n - 1], .act = a, .act_j = act_j,
	};

	sampling_estimate(&in, se);
}

/* The logger: a synced record every 0.5 s, 0.3 s after each reading. */
static void test_aliased(void)
{
	struct activity a;
	struct sampling_est se;
	uint64_t *t;
	size_t n;

	t = periodic(64, &n, &a, 128, 0.5, 0.3, 0.005);
	estimate(t, n, &a, 0.0, &se);
	ok(se.evaluated, "a paced job under a 2 Hz meter is judged");
	ok(isnan(se.u_j), "every record at the same phase: its energy cannot be known");
	is_dbl(se.g_min, 0, 1e-12, "at some lag the readings see none of it");
	is_dbl(se.g_max, (double)SAMPLING_PHASES / lround(0.2 * SAMPLING_PHASES), 1e-9,
	       "at another five times its share (a 100 ms window in 500 ms, to a phase step)");
	is_dbl(se.freq_hz, 2, 1e-9, "its rate found from the series");
	is_str(se.why, "activity at 2.00 Hz, meter at 2 Hz: aliased", "and said in words");
	/* the same records 0.01 s later each time: the phase walks through the period */
	activity_free(&a);
	free(t);
	t = periodic(64, &n, &a, 128, 0.504, 0, 0.005);
	estimate(t, n, &a, 1.0, &se);
	ok(isfinite(se.u_j) && se.g_min > SAMPLING_UNSEEN,
	   "a rate 0.8 %% off the meter's walks through every phase: known (u %.3g)", se.u_rel);
	ok(se.u_rel < 0.2, "and the spread is small (%.3g)", se.u_rel);
	activity_free(&a);
	free(t);
}

/*
 * Dithered: each record uniformly within its 0.5 s slot. At N records and a window of
 * w = 0.2 of the period, the share a window sees scatters by sqrt((1 - w) / (w N)).
 */
static void test_dithered(void)
{
	struct activity a;
	struct sampling_est se;
	uint64_t *t, x = 42;
	size_t n;
	double u, theory = sqrt((1 - 0.2) / (0.2 * 400));
	int k;

	t = readings(200, &n);
	activity_init(&a, t[0]);
	for (k = 0; k < 400; k++) {
		u = 0.5 * k + 0.495 * uniform(&x);
		activity_add(&a, at(u), at(u + 0.005));
	}
	estimate(t, n, &a, 2.0, &se);
	ok(isfinite(se.u_j), "dithered records: known");
	ok(se.u_rel > theory / 2 && se.u_rel < theory * 2,
	   "the spread over phases is the sampling's (%.3g; random phases: %.3g)", se.u_rel,
	   theory);
	is_dbl(se.u_j, se.u_rel * 2.0, 1e-12, "the term is that share of the activity's energy");
	ok(fabs(se.u_indep / theory - 1) < 0.1,
	   "each record at its own random phase: the expected spread (%.3g; theory %.3g)",
	   se.u_indep, theory);
	ok(se.u_rel >= se.u_indep, "and the term is at least that");
	estimate(t, n, &a, -0.5, &se);
	is_dbl(se.u_j, 0, 0, "a negative energy above idle scales it to nothing");
	activity_free(&a);
	free(t);
}

/*
 * Records that happen to fill the period evenly (each 0.5 s + 1/400 of it later than the
 * last): the realised phases spread nothing, yet another run's would. The term keeps the
 * spread of records at independent phases, where it would otherwise be the luck of one draw.
 */
static void test_lucky_draw(void)
{
	struct activity a;
	struct sampling_est se;
	uint64_t *t;
	size_t n;
	double theory = sqrt((1 - 0.2) / (0.2 * 400));

	t = periodic(200, &n, &a, 400, 0.5 + 0.5 / 400, 0.001, 0.001);
	estimate(t, n, &a, 2.0, &se);
	ok(isfinite(se.u_j) && se.g_max < 1.2, "records at evenly walking phases: seen fairly (%.3g)",
	   se.g_max);
	ok(fabs(se.u_rel / theory - 1) < 0.1,
	   "the term is the spread of independent phases (%.3g; theory %.3g)", se.u_rel, theory);
	activity_free(&a);
	free(t);
}

/*
 * Work every 50 ms and a heavier burst every 500 ms, read every 504 ms: one cluster, whose
 * phases against the readings walk through the period, so the readings see it fairly.
 * Its floor is its realised spread, not an alias against the nominal 500 ms.
 */
static void test_one_long_cluster(void)
{
	struct activity a;
	struct sampling_est se;
	uint64_t t[130];
	size_t n = 130, k;

	for (k = 0; k < n; k++)
		t[k] = at(0.504 * (double)k);
	activity_init(&a, t[0]);
	for (k = 0; k < 1300; k++) {
		activity_add(&a, at(0.05 * (double)k), at(0.05 * (double)k + 0.001));
		if (k % 10 == 0)
			for (int j = 0; j < 5; j++)
				activity_add(&a, at(0.05 * (double)k), at(0.05 * (double)k + 0.001));
	}
	estimate(t, n, &a, 1.0, &se);
	ok(se.g_min > 0.9 && se.g_max < 1.2, "a burst pattern drifting against the readings is seen "
	   "fairly (g %.2f to %.2f)", se.g_min, se.g_max);
	ok(se.u_rel < 0.1, "and one cluster keeps that small spread (%.3g)", se.u_rel);
	activity_free(&a);
}

static void test_streaming_and_edges(void)
{
	struct activity a;
	struct sampling_est se;
	struct sampling_in in;
	uint64_t *t;
	size_t n;
	int k;

	t = periodic(20, &n, &a, 2000, 0.01, 0, 0.01);
	estimate(t, n, &a, 5.0, &se);
	ok(se.evaluated && se.u_rel < 0.01, "a stream busy all the time: no sampling error (%.3g)",
	   se.u_rel);
	ok(!isfinite(se.freq_hz), "and no burst rate");
	/* 100 of the 2100 operations after the last reading */
	for (k = 0; k < 100; k++)
		activity_add(&a, at(20.1), at(20.1));
	estimate(t, n, &a, 5.0, &se);
	is_dbl(se.edge_share, 100.0 / 2100, 1e-6, "activity after the last reading is the edge share");
	is_dbl(se.u_rel, se.edge_share / sqrt(3), 0.01, "a rectangle: all of it or none");
	in = (struct sampling_in){ .t_ns = t, .n = n, .period_ns = 10 * NS_PER_MS,
				   .window_ns = SAMPLING_WINDOW_NS, .act = &a, .act_j = 1 };
	sampling_estimate(&in, &se);
	ok(!se.evaluated, "a meter as fast as the bins: not judged");
	in.period_ns = PERIOD;
	in.act = NULL;
	sampling_estimate(&in, &se);
	ok(!se.evaluated, "no activity series (measure): not judged");
	activity_free(&a);
	free(t);
}

/* The term in the budget: its own name, in quadrature, and unknown makes the job flagged. */
static void test_budget(void)
{
	static const struct meter_accuracy acc = {
		.v = { 0.0005, 0.002, 0.001, 0.001 }, .a = { 0.001, 0.0004, 0.0001, 0.0001 },
		.w = { NAN, NAN, 0.001, 0 }, .source = "test",
	};
	struct unc_naming nm = { "UM25C", &acc, PERIOD };
	struct energy_job ej;
	struct energy_phases es;
	struct result_power p;
	struct result_efficiency e;
	struct result_validity v;
	double u0, u1;
	int i, pass;

	energy_job_init(&ej, PERIOD);
	energy_job_accuracy(&ej, &acc);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	for (i = 0; i <= 60; i++) {
		struct meter_sample s = { .t_ns = at(0.5 * i), .v = 5, .a = 0.09, .w = 0.45 };

		if (i == 20)
			energy_phase_begin(&ej, PHASE_ACTIVE, at(10));
		if (i == 60)
			energy_phase_begin(&ej, PHASE_TAIL, at(30));
		energy_feed(&ej, &s);
	}
	energy_phase_end(&ej, PHASE_TAIL, at(30));
	for (pass = 0; pass < 3; pass++) {
		memset(&p, 0, sizeof(p));
		memset(&e, 0, sizeof(e));
		memset(&v, 0, sizeof(v));
		energy_summarize(&ej, &es, &p);
		efficiency_compute(&es, &p, 1000000, 100, &e);
		es.sampling_why = "activity at 2.00 Hz, meter at 2 Hz: aliased";
		es.sampling_u[UNC_W] = pass == 0 ? 0 : pass == 1 ? 0.5 : NAN;
		uncertainty_fill(&es, 1000000, 100, &nm, 0.05, &p, &e, &v);
		if (pass == 0) {
			u0 = p.energy_active_j_u95;
			is_dbl(v.uncertainty->budget.sampling, 0, 0, "no term: 0 in the budget");
		} else if (pass == 1) {
			u1 = p.energy_active_j_u95;
			is_dbl(u1, 2 * hypot(u0 / 2, 0.5), 1e-9,
			       "the term adds in quadrature to the active energy's U95");
			is_dbl(v.uncertainty->budget.sampling * p.energy_active_j, 0.5, 1e-9,
			       "and is in the budget under its own name");
			is_str(v.uncertainty->dominant, es.sampling_why,
			       "where it dominates, the dominant term says why");
			ok(v.uncertain, "and the figure is uncertain (%.3g %%)",
			   v.uncertainty->u95_rel * 100);
		} else {
			ok(isnan(p.energy_active_j_u95) && isnan(e.j_per_gb_u95),
			   "energy that cannot be known: its figures' U95 unknown");
			ok(isfinite(p.idle_w_u95), "the idle figure keeps its own");
			ok(v.uncertain && !strcmp(v.uncertainty->dominant, es.sampling_why),
			   "flagged, saying why");
			ok(isnan(v.uncertainty->budget.sampling), "the budget's term is null");
		}
		free(v.uncertainty->figure);
		free(v.uncertainty->dominant);
		free(v.uncertainty);
		free(p.note);
	}
}

int main(void)
{
	test_activity();
	test_activity_hot_bin();
	test_aliased();
	test_dithered();
	test_lucky_draw();
	test_one_long_cluster();
	test_streaming_and_edges();
	test_budget();
	return done_testing();
}
