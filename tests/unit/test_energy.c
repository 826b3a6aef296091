/* SPDX-License-Identifier: MIT */
/* Energy per phase: exact windows, boundary interpolation, coverage, tail, efficiency, JSON. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/units.h"
#include "result/result_json.h"
#include "energy/energy.h"
#include "run/result_builder.h"
#include "tap.h"

/* A report to hang validity objects on, so that result_free releases their reasons. */
struct result_run_holder {
	struct run_result r;
	struct job_result *j;
};

/* A realistic monotonic origin, so the sums see large timestamps as in a run. */
#define T0 1234567890123ULL

static uint64_t at(double s)
{
	return T0 + (uint64_t)llround(s * 1e9);
}

static void feed(struct energy_job *ej, double t_s, double v, double a, double w)
{
	struct meter_sample s = { .t_ns = at(t_s), .v = v, .a = a, .w = w };

	energy_feed(ej, &s);
}

static int rel_ok(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void test_constant(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	int i;

	/* 5 V x 0.5 A with no W register: W comes from V x A. Windows fall between samples. */
	energy_job_init(&ej, 100 * NS_PER_MS);
	energy_phase_begin(&ej, PHASE_IDLE, at(1.013));
	energy_phase_begin(&ej, PHASE_ACTIVE, at(3.0071));
	for (i = 0; i <= 100; i++) {
		if (i == 73) /* the tail opens between the samples at 7.25 and 7.35 */
			energy_phase_begin(&ej, PHASE_TAIL, at(7.3009));
		if (i == 95)
			energy_phase_end(&ej, PHASE_TAIL, at(9.5));
		feed(&ej, 0.05 + i * 0.1, 5.0, 0.5, NAN);
	}
	energy_summarize(&ej, &es, &pf);
	ok(rel_ok(pf.energy_active_j, 2.5 * (7.3009 - 3.0071), 1e-9),
	   "constant 2.5 W over an exact active window is P x T (%.12g J)", pf.energy_active_j);
	ok(rel_ok(pf.energy_tail_j, 2.5 * (9.5 - 7.3009), 1e-9), "tail energy is P x T");
	ok(rel_ok(es.energy_idle_j, 2.5 * (3.0071 - 1.013), 1e-9), "idle energy is P x T");
	ok(rel_ok(pf.idle_w, 2.5, 1e-9) && rel_ok(pf.active_w, 2.5, 1e-9), "idle and active W");
	ok(rel_ok(pf.charge_mah, 500.0 * (7.3009 - 3.0071) / 3600, 1e-9), "charge in mAh");
	is_dbl(pf.energy_net_j, 0, 1e-9, "net energy of a flat load is zero");
	is_dbl(es.coverage, 1.0, 1e-12, "full coverage");
	is_int(es.samples_active, 43, "samples with timestamps inside the active window");
	is_dbl(pf.active_v, 5.0, 1e-12, "mean V");
	is_dbl(pf.min_v, 5.0, 0, "min V");
	is_dbl(pf.peak_ma, 500.0, 1e-9, "peak mA");
	ok(es.has_voltage, "meter has voltage");
}

static void test_ramp(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	int i;

	/* W = t^2 sampled each second: the trapezoid sum, not the true integral (8/3). */
	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0));
	for (i = 0; i <= 2; i++)
		feed(&ej, i, NAN, NAN, (double)(i * i));
	energy_phase_end(&ej, PHASE_ACTIVE, at(2));
	energy_summarize(&ej, &es, &pf);
	is_dbl(pf.energy_active_j, 3.0, 1e-12, "samples of t^2 give the exact trapezoid sum");
	is_dbl(pf.active_w, 1.5, 1e-12, "time-weighted mean W");
	ok(isnan(pf.charge_mah), "no current: charge is NAN");
}

static void test_boundary_split(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };

	/* 1 W at 0 s, 3 W at 1 s; active from 0.25 s: each part is held at the reading inside
	 * its phase (a line from idle's reading would take the active step's energy low):
	 * idle = 1 * 0.25 = 0.25; active = 3 * 0.75 = 2.25. */
	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	feed(&ej, 0, NAN, NAN, 1.0);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0.25));
	energy_phase_end(&ej, PHASE_ACTIVE, at(1));
	feed(&ej, 1, NAN, NAN, 3.0);
	energy_summarize(&ej, &es, &pf);
	is_dbl(es.energy_idle_j, 0.25, 1e-12, "idle part of a cut segment: idle's reading");
	is_dbl(pf.energy_active_j, 2.25, 1e-12, "active part of a cut segment: its reading");
	is_int(es.samples_idle, 1, "sample at 0 s is idle");
	is_int(es.samples_active, 0, "sample at the active end is not in it (half-open)");

	/* Both ends inside one segment: 2 W at 0 s to 4 W at 4 s, window [1, 2]:
	 * W(1) = 2.5, W(2) = 3, energy 2.75. */
	energy_job_init(&ej, 10 * NS_PER_SEC);
	feed(&ej, 0, NAN, NAN, 2.0);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(1));
	energy_phase_end(&ej, PHASE_ACTIVE, at(2));
	feed(&ej, 4, NAN, NAN, 4.0);
	energy_summarize(&ej, &es, &pf);
	is_dbl(pf.energy_active_j, 2.75, 1e-12, "window inside one segment");
	is_dbl(es.coverage, 1.0, 1e-12, "window inside one short segment is covered");
}

static void test_outside_windows(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	int i;

	energy_job_init(&ej, NS_PER_SEC);
	/* Samples from 0 s; idle opens at 2.5 s, active 5..7.5 s; samples go on to 10 s. */
	for (i = 0; i <= 10; i++) {
		if (i == 3)
			energy_phase_begin(&ej, PHASE_IDLE, at(2.5));
		if (i == 5)
			energy_phase_begin(&ej, PHASE_ACTIVE, at(5));
		if (i == 8)
			energy_phase_end(&ej, PHASE_ACTIVE, at(7.5));
		feed(&ej, i, 5, 0.2, NAN);
	}
	energy_summarize(&ej, &es, &pf);
	is_dbl(es.energy_idle_j, 2.5, 1e-12, "idle from its start, not from the first sample");
	is_dbl(pf.energy_active_j, 2.5, 1e-12, "active ends at its end despite later samples");
	is_int(es.samples_active, 3, "samples at 5, 6, 7 s are active");
	is_int(es.samples_idle, 2, "samples at 3, 4 s are idle");
	is_dbl(pf.energy_tail_j, 0, 0, "no tail opened: zero tail");

	/* Out-of-order samples are dropped and counted. */
	feed(&ej, 9.5, 5, 10, NAN);
	is_int(ej.out_of_order, 1, "an older sample is ignored");
	is_int(ej.late_boundaries, 0, "every boundary came before the samples after it");
	energy_phase_begin(&ej, PHASE_TAIL, at(9));
	is_int(ej.late_boundaries, 1, "a boundary behind the fed samples is counted");
}

static void test_coverage(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	int i;

	/* 10 Hz for 10 s, nothing between 3 s and 5 s: a 2 s segment (> 2 periods). */
	energy_job_init(&ej, 100 * NS_PER_MS);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0));
	for (i = 0; i <= 100; i++)
		if (i <= 30 || i >= 50)
			feed(&ej, i * 0.1, 5, 0.2, NAN);
	energy_phase_end(&ej, PHASE_ACTIVE, at(10));
	energy_summarize(&ej, &es, &pf);
	is_dbl(es.coverage, 0.8, 1e-9, "a 2 s gap in 10 s leaves 80 %% coverage");
	is_dbl(pf.energy_active_j, 10, 1e-9, "the gap is still integrated linearly");

	/* A gap of exactly 2 periods still counts as covered. */
	energy_job_init(&ej, 100 * NS_PER_MS);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0));
	feed(&ej, 0, 5, 0.2, NAN);
	feed(&ej, 0.2, 5, 0.2, NAN);
	energy_phase_end(&ej, PHASE_ACTIVE, at(0.2));
	energy_summarize(&ej, &es, &pf);
	is_dbl(es.coverage, 1.0, 1e-9, "segment of 2 periods is covered");

	/* The active phase starts 1 s before the first sample: that second is uncovered. */
	energy_job_init(&ej, 100 * NS_PER_MS);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0));
	for (i = 10; i <= 100; i++)
		feed(&ej, i * 0.1, 5, 0.2, NAN);
	energy_phase_end(&ej, PHASE_ACTIVE, at(10));
	energy_summarize(&ej, &es, &pf);
	is_dbl(es.coverage, 0.9, 1e-9, "phase start before the sampled span is uncovered");
	is_dbl(pf.energy_active_j, 9, 1e-9, "only the sampled span is integrated");
	ok(isnan(pf.charge_mah) == 0, "charge over the sampled span");
}

static void test_tail(void)
{
	static const double tail_w[] = { 3.0, 2.0, 1.04, 1.03, 0.97, 1.2, 1.0, 1.01, 0.99, 1.0 };
	struct energy_job ej;
	int i, settled[ARRAY_SIZE(tail_w)];
	uint64_t hold = 2 * NS_PER_SEC;

	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	for (i = 0; i <= 10; i++)
		feed(&ej, i, NAN, NAN, 1.0);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(10));
	ok(!energy_tail_settled(&ej, 0.05, hold), "no tail yet: not settled");
	for (i = 10; i < 20; i++)
		feed(&ej, i, NAN, NAN, 3.0);
	energy_phase_begin(&ej, PHASE_TAIL, at(20));
	ok(!energy_tail_settled(&ej, 0.05, hold), "tail opened, no tail sample yet");
	for (i = 0; i < (int)ARRAY_SIZE(tail_w); i++) {
		feed(&ej, 20 + i, NAN, NAN, tail_w[i]);
		settled[i] = energy_tail_settled(&ej, 0.05, hold);
	}
	/* In band (1 W +-5 %) from 22 s; held 2 s at 24 s; 1.2 W at 25 s resets it;
	 * back in band at 26 s, held again at 28 s. */
	ok(!settled[0] && !settled[1] && !settled[2] && !settled[3], "band entered, hold not met");
	ok(settled[4], "settled after 2 s inside the band");
	ok(!settled[5], "a sample leaving the band resets the hold");
	ok(!settled[6] && !settled[7], "hold restarts from the return into the band");
	ok(settled[8] && settled[9], "settled again after the hold");

	/* A wider tolerance accepts 2 W at once. */
	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	feed(&ej, 0, NAN, NAN, 1.0);
	feed(&ej, 1, NAN, NAN, 1.0);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(1));
	energy_tail_settled(&ej, 1.5, hold);
	energy_phase_begin(&ej, PHASE_TAIL, at(2));
	feed(&ej, 2, NAN, NAN, 2.0);
	feed(&ej, 3, NAN, NAN, 2.0);
	ok(!energy_tail_settled(&ej, 1.5, hold), "tolerance 150 %%: 1 s held of 2");
	feed(&ej, 4, NAN, NAN, 2.4);
	ok(energy_tail_settled(&ej, 1.5, hold), "tolerance 150 %%: 2 s held");

	/* Below the idle level is settled: a baseline inflated by a burst during the idle
	 * phase must not hold the tail open until tail_max. */
	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	feed(&ej, 0, NAN, NAN, 1.0);
	feed(&ej, 1, NAN, NAN, 1.4);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(2));
	feed(&ej, 2, NAN, NAN, 3.0);
	energy_phase_begin(&ej, PHASE_TAIL, at(3));
	feed(&ej, 3, NAN, NAN, 0.9);
	feed(&ej, 4, NAN, NAN, 0.9);
	ok(!energy_tail_settled(&ej, 0.05, hold), "below idle: 1 s held of 2");
	feed(&ej, 5, NAN, NAN, 0.9);
	ok(energy_tail_settled(&ej, 0.05, hold), "below idle counts as settled");

	/* A V-less meter is judged by current. */
	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	feed(&ej, 0, NAN, 0.2, NAN);
	feed(&ej, 1, NAN, 0.2, NAN);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(1));
	energy_phase_begin(&ej, PHASE_TAIL, at(2));
	feed(&ej, 2, NAN, 0.5, NAN);
	feed(&ej, 3, NAN, 0.2, NAN);
	feed(&ej, 4, NAN, 0.201, NAN);
	ok(!energy_tail_settled(&ej, 0.05, hold), "current-judged tail: 1 s held");
	feed(&ej, 5, NAN, 0.199, NAN);
	ok(energy_tail_settled(&ej, 0.05, hold), "current-judged tail: settled");
}

/* Idle 1 W at 1 Hz, active 3 W, then the tail's samples from 20 s on. */
static void tail_job(struct energy_job *ej, const double *tail_w, int n)
{
	int i;

	energy_job_init(ej, NS_PER_SEC);
	energy_phase_begin(ej, PHASE_IDLE, at(0));
	for (i = 0; i <= 10; i++)
		feed(ej, i, NAN, NAN, 1.0);
	energy_phase_begin(ej, PHASE_ACTIVE, at(10));
	for (i = 11; i < 20; i++)
		feed(ej, i, NAN, NAN, 3.0);
	energy_phase_begin(ej, PHASE_TAIL, at(20));
	for (i = 0; i < n; i++)
		feed(ej, 20 + i, NAN, NAN, tail_w[i]);
}

/* The tail ends where power came back to idle; the hold that proves it is not in it. */
static void test_tail_end(void)
{
	static const double tail_w[] = { 3.0, 2.0, 1.0, 1.0, 1.0, 1.02 };
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	uint64_t end;

	tail_job(&ej, tail_w, 5);
	ok(energy_tail_settled(&ej, 0.05, 2 * NS_PER_SEC), "settled: in the band 22..24 s");
	end = energy_tail_finish(&ej, at(24), 1);
	is_int((int64_t)end, (int64_t)at(22), "the tail ends where power settled (22 s), not "
	       "after the hold");
	feed(&ej, 25, NAN, NAN, tail_w[5]);
	energy_summarize(&ej, &es, &pf);
	is_dbl(es.tail_s, 2, 1e-9, "tail lasts 2 s");
	is_dbl(pf.energy_tail_j, 2.5 + 1.5, 1e-9, "tail energy: trapezoids 20..22 s only");
	is_dbl(pf.energy_tail_net_j, 4 - 1 * 2, 1e-9, "tail above idle = 4 J - 1 W x 2 s");
	is_int(es.samples_tail, 2, "the samples at 20 and 21 s are the tail's");
	is_dbl(pf.energy_net_j, 29 + 4 - 1 * 12, 1e-9, "net = active 29 + tail 4 - 1 W x 12 s");

	/* Never settled: the tail runs to the cut (tail_max), all of it counted. */
	tail_job(&ej, tail_w, 2);
	end = energy_tail_finish(&ej, at(21.5), 0);
	is_int((int64_t)end, (int64_t)at(21.5), "not settled: the tail ends at the cut");
	feed(&ej, 22, NAN, NAN, tail_w[2]);
	energy_summarize(&ej, &es, &pf);
	is_dbl(pf.energy_tail_j, 2.5 + 0.5 * 2.0, 1e-9,
	       "tail to the cut, its last reading held to it");

	/* Settled on the first tail sample: only the piece before it is tail. */
	{
		static const double flat[] = { 1.0, 1.0, 1.0, 1.0 };

		tail_job(&ej, flat, 4);
		energy_tail_finish(&ej, at(23), energy_tail_settled(&ej, 0.05, 2 * NS_PER_SEC));
		energy_summarize(&ej, &es, &pf);
		is_dbl(es.tail_s, 0, 1e-9, "power already at idle when the job ended: no tail");
		is_dbl(pf.energy_tail_net_j, 0, 1e-9, "and nothing above idle");
	}
}

static void test_pipeline(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	struct result_efficiency ef;
	int i;

	/* Idle 1 W, active 2 W, tail 1 W, all 5 V; clean steps as two samples at one
	 * instant (the zero-length segment between them carries no energy). */
	energy_job_init(&ej, 500 * NS_PER_MS);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	for (i = 0; i <= 20; i++)
		feed(&ej, i * 0.5, 5, 0.2, NAN);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(10));
	for (i = 20; i < 40; i++)
		feed(&ej, i * 0.5, 5, 0.4, NAN);
	/* As the orchestrator does: the boundary is set before samples at or after it. */
	energy_phase_begin(&ej, PHASE_TAIL, at(20));
	feed(&ej, 20, 5, 0.4, NAN);
	for (i = 40; i <= 44; i++)
		feed(&ej, i * 0.5, 5, 0.2, NAN);
	energy_phase_end(&ej, PHASE_TAIL, at(22));
	energy_summarize(&ej, &es, &pf);
	is_dbl(pf.idle_w, 1, 1e-12, "pipeline idle W");
	is_dbl(pf.active_w, 2, 1e-12, "pipeline active W");
	is_dbl(pf.energy_active_j, 20, 1e-9, "pipeline active J");
	is_dbl(pf.energy_tail_j, 2, 1e-9, "pipeline tail J");
	is_dbl(pf.energy_net_j, 10, 1e-9, "net = 20 + 2 - 1 W x 12 s");
	is_dbl(pf.active_ma, 400, 1e-9, "active mA");
	is_dbl(pf.charge_mah, 4000.0 / 3600, 1e-12, "charge = 400 mA x 10 s");
	is_int(es.samples_active, 20, "20 samples at 2 Hz in 10 s");

	/* 1000 I/Os, 5e8 B in 10 s: 100 IOPS, 50 MB/s. */
	efficiency_compute(&es, &pf, 500000000ULL, 1000, &ef);
	is_dbl(ef.iops_per_ma, 0.25, 1e-12, "IOPS per mA = 100 / 400");
	is_dbl(ef.iops_per_w, 50, 1e-9, "IOPS per W = 100 / 2");
	is_dbl(ef.mbps_per_w, 25, 1e-9, "MB/s per W = 50 / 2");
	is_dbl(pf.energy_tail_net_j, 0, 1e-9, "tail at idle power: nothing above idle");
	is_dbl(ef.j_per_gb, 40, 1e-9, "J/GB = (active 20 + tail above idle 0) / 0.5");
	is_dbl(ef.j_per_gb_net, 20, 1e-9, "J/GB net = 10 / 0.5");
	is_dbl(ef.uj_per_io, 20000, 1e-6, "uJ per I/O = 20 J / 1000");
	is_dbl(ef.uah_per_io, 1111.111111 / 1000, 1e-6, "uAh per I/O");
	is_dbl(ef.uah_per_mb, 1111.111111 / 500, 1e-6, "uAh per MB");

	is_dbl(pf.energy_active_mwh, 20 / 3.6, 1e-9, "mWh = J / 3.6");
	is_dbl(pf.energy_net_j, 10, 1e-9, "net J in the report");
	ok(!pf.note, "no note when the meter has voltage");
	efficiency_compute(&es, &pf, 0, 0, &ef);
	ok(isnan(ef.iops_per_ma) && isnan(ef.j_per_gb) && isnan(ef.uj_per_io) &&
		   isnan(ef.uah_per_mb),
	   "no I/O: efficiency undefined (NAN)");
}

/* A fresh validity for each check; the previous one's reasons are freed. */
static struct result_validity *fresh(struct result_run_holder *h)
{
	result_free(&h->r);
	memset(&h->r, 0, sizeof(h->r));
	h->j = result_add_job(&h->r);
	h->j->validity = xcalloc(1, sizeof(*h->j->validity));
	return h->j->validity;
}

static void test_validity(void)
{
	struct result_run_holder h = { 0 };
	struct energy_phases es = { 0 };
	struct result_validity *v;
	int valid;

	es.period_ns = 500 * NS_PER_MS;
	es.samples_active = 6;
	es.coverage = 1.0;
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, NULL, v);
	ok(!valid && !v->valid && v->nreasons == 1, "6 samples: invalid, one reason");
	is_str(v->reasons[0],
	       "active phase has 6 samples (< 20): at 2 Hz a job needs >= 10 s; raise size or loops",
	       "samples reason names the rate and the length needed");
	v = fresh(&h);
	energy_validity(&es, 20, 0.95, "try --size 64M or loops", v);
	is_str(v->reasons[0],
	       "active phase has 6 samples (< 20): at 2 Hz a job needs >= 10 s; try --size 64M or loops",
	       "the caller's remedy replaces the generic one");

	es.samples_active = 40;
	es.coverage = 0.8;
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, NULL, v);
	ok(!valid && v->nreasons == 1 && strstr(v->reasons[0], "80.0 %") &&
		   strstr(v->reasons[0], "< 95 %"),
	   "coverage reason: %s", v->nreasons ? v->reasons[0] : "");

	es.samples_active = 3;
	es.coverage = NAN;
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, NULL, v);
	ok(!valid && v->nreasons == 2 && isnan(v->coverage),
	   "both reasons, NAN coverage is not enough and stays NAN");

	/* A stall: 12 samples at 10 Hz over 5 s, half of it without data. The reason names
	 * the gap, not the job's size. */
	es.period_ns = 100 * NS_PER_MS;
	es.samples_active = 12;
	es.active_s = 5.0;
	es.coverage = 0.5;
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, "try --size 64M", v);
	ok(!valid && v->nreasons == 2 &&
		   strstr(v->reasons[0], "the meter gave none for 2.5 s of it") &&
		   strstr(v->reasons[0], "about 25 samples lost") && !strstr(v->reasons[0], "size") &&
		   !strstr(v->reasons[0], "loops"),
	   "after a stall the reason names the gap: %s", v->nreasons ? v->reasons[0] : "");
	es.period_ns = 500 * NS_PER_MS;
	es.active_s = 0;

	es.samples_active = 20;
	es.coverage = 0.95;
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, NULL, v);
	ok(valid && v->valid && v->nreasons == 0 && v->samples_active == 20,
	   "20 samples and 95 %% coverage: valid, no reasons");
	result_free(&h.r);
}

static void test_no_voltage_and_json(void)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	struct result_efficiency ef;
	struct result_run_holder h = { 0 };
	struct result_power *pw;
	json_t *doc, *job, *p, *e, *v;
	int i;

	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_IDLE, at(0));
	energy_phase_begin(&ej, PHASE_ACTIVE, at(2));
	for (i = 0; i <= 30; i++) {
		if (i == 26)
			energy_phase_end(&ej, PHASE_ACTIVE, at(26));
		feed(&ej, i, NAN, 0.5, NAN);
	}
	energy_summarize(&ej, &es, &pf);
	ok(rel_ok(pf.charge_mah, 500.0 * 24 / 3600, 1e-12), "V-less meter: charge holds");
	ok(isnan(pf.energy_active_j) && isnan(pf.active_w) && isnan(pf.energy_net_j),
	   "V-less meter: energy is NAN, no invented volts");
	ok(!es.has_voltage, "summary says the meter has no voltage");
	efficiency_compute(&es, &pf, 1000000, 100, &ef);
	ok(isnan(ef.iops_per_w) && isfinite(ef.iops_per_ma) && isfinite(ef.uah_per_io),
	   "V-less meter: per-mA and per-charge figures only");

	/* Through the serialiser, as the run writes them. */
	memset(&h.r, 0, sizeof(h.r));
	h.j = result_add_job(&h.r);
	pw = h.j->power = xcalloc(1, sizeof(*h.j->power));
	*pw = pf;
	pw->meter = xstrdup("ina219:/dev/i2c-1");
	h.j->efficiency = xcalloc(1, sizeof(*h.j->efficiency));
	*h.j->efficiency = ef;
	h.j->validity = xcalloc(1, sizeof(*h.j->validity));
	energy_validity(&es, 20, 0.95, NULL, h.j->validity);
	doc = result_to_json(&h.r);
	job = json_array_get(json_object_get(doc, "jobs"), 0);
	p = json_object_get(job, "power");
	e = json_object_get(job, "efficiency");
	v = json_object_get(job, "validity");
	ok(json_is_null(json_object_get(p, "energy_active_j")) &&
		   json_is_null(json_object_get(p, "energy_active_mwh")) &&
		   json_is_real(json_object_get(p, "charge_mah")) &&
		   json_is_string(json_object_get(p, "note")),
	   "power JSON: NAN -> null, charge a number, a note says why");
	is_str(json_string_value(json_object_get(p, "meter")), "ina219:/dev/i2c-1", "meter spec");
	{
		static const char *const keys[] = { "meter", "idle_w", "active_w", "active_ma",
			"peak_ma", "active_v", "min_v", "energy_active_j", "energy_active_mwh",
			"energy_tail_j", "energy_tail_mwh", "energy_tail_net_j", "energy_net_j",
			"charge_mah" };
		unsigned k, have = 0;

		for (k = 0; k < ARRAY_SIZE(keys); k++)
			have += json_object_get(p, keys[k]) != NULL;
		is_int(have, ARRAY_SIZE(keys), "power JSON has every documented key");
	}
	is_int(json_object_size(e), 16, "efficiency JSON has 8 figures, each with its u95");
	ok(json_is_null(json_object_get(e, "j_per_gb")) &&
		   json_is_real(json_object_get(e, "iops_per_ma")),
	   "efficiency JSON: null where undefined");
	ok(json_is_true(json_object_get(v, "valid")) &&
		   json_integer_value(json_object_get(v, "samples_active")) == 24 &&
		   json_array_size(json_object_get(v, "reasons")) == 0,
	   "validity JSON");
	json_decref(doc);
	result_free(&h.r);
}

/* Idle, active and tail of 1 s each at 100 Hz, 0.5 W; samples at1 and at2 (-1: none)
 * carry `flags` and `dropped` readings before them. */
static void three_phases(struct energy_job *ej, int at1, int at2, uint32_t flags,
			 uint32_t dropped)
{
	struct meter_sample s;
	int i;

	energy_job_init(ej, 10 * NS_PER_MS);
	energy_phase_begin(ej, PHASE_IDLE, at(0.0));
	energy_phase_begin(ej, PHASE_ACTIVE, at(1.0));
	energy_phase_begin(ej, PHASE_TAIL, at(2.0));
	energy_phase_end(ej, PHASE_TAIL, at(3.0));
	for (i = 0; i < 300; i++) {
		s = (struct meter_sample){ .t_ns = at(0.005 + i * 0.01), .v = 5, .a = 0.1,
					   .w = 0.5 };
		if (i == at1 || i == at2) {
			s.flags = flags;
			s.dropped_before = dropped;
		}
		energy_feed(ej, &s);
	}
}

/* A hole of lost samples (ring full, or the device's counter skipped) invalidates every
 * phase it overlaps, and only those. */
static void test_losses(void)
{
	struct result_run_holder h = { 0 };
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	struct result_validity *v;
	struct meter_sample s;
	int valid;

	/* two holes inside the active phase */
	three_phases(&ej, 150, 160, SAMPLE_AFTER_LOSS, 0);
	energy_summarize(&ej, &es, &pf);
	ok(es.losses[PHASE_ACTIVE] == 2 && !es.losses[PHASE_IDLE] && !es.losses[PHASE_TAIL],
	   "two holes are counted in the active phase only (%llu %llu %llu)",
	   (unsigned long long)es.losses[0], (unsigned long long)es.losses[1],
	   (unsigned long long)es.losses[2]);
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, NULL, v);
	ok(!valid && v->nreasons == 1 && strstr(v->reasons[0], "lost 2 time(s) in the active"),
	   "lost samples invalidate the job: %s", v->nreasons ? v->reasons[0] : "");

	/* A hole that spans the idle/active boundary hits both. */
	energy_job_init(&ej, 10 * NS_PER_MS);
	energy_phase_begin(&ej, PHASE_IDLE, at(0.0));
	energy_phase_begin(&ej, PHASE_ACTIVE, at(1.0));
	feed(&ej, 0.95, 5, 0.1, 0.5);
	s = (struct meter_sample){ .t_ns = at(1.05), .v = 5, .a = 0.1, .w = 0.5,
				   .flags = SAMPLE_AFTER_LOSS };
	energy_feed(&ej, &s);
	energy_summarize(&ej, &es, &pf);
	ok(es.losses[PHASE_IDLE] == 1 && es.losses[PHASE_ACTIVE] == 1,
	   "a hole across a boundary hits both phases");
	result_free(&h.r);
}

/* Readings dropped as impossible before a sample count in the phases their hole overlaps,
 * go into the result per phase, and make the phase invalid with a reason that says so. */
static void test_out_of_range(void)
{
	struct result_run_holder h = { 0 };
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	struct result_validity *v;
	int valid;

	/* 3 readings dropped before sample 150, inside the active phase */
	three_phases(&ej, 150, -1, SAMPLE_AFTER_DROP, 3);
	energy_summarize(&ej, &es, &pf);
	ok(es.out_of_range[PHASE_ACTIVE] == 3 && !es.out_of_range[PHASE_IDLE] &&
		   !es.out_of_range[PHASE_TAIL],
	   "3 dropped readings count in the active phase only");
	v = fresh(&h);
	valid = energy_validity(&es, 20, 0.95, NULL, v);
	ok(!valid && v->nreasons == 1 &&
		   strstr(v->reasons[0], "3 meter reading(s) in the active phase could not be true"),
	   "the phase is not valid and says why: %s", v->nreasons ? v->reasons[0] : "");
	ok(pf.out_of_range.active == 3 && !pf.out_of_range.idle && !pf.out_of_range.tail,
	   "the result's power.out_of_range carries them per phase");
	free(pf.note);
	result_free(&h.r);
}

/* Size advice a person types; none for a failed job. */
static void test_remedy(void)
{
	struct job_opts jo;
	char buf[128];
	const char *r;

	job_defaults(&jo);
	jo.bs = 16 * MIB;
	jo.size = 96 * MIB;
	/* 96 MiB in 1 s at 2 Hz: 20 samples need 10 s, x1.25 -> 1200 MiB -> 2 GiB. */
	r = job_remedy(&jo, RESULT_OK, 0, jo.size, 1.0, 500 * NS_PER_MS, buf, sizeof(buf));
	is_str(r, "try --size 2G", "a power of two, in G");
	r = job_remedy(&jo, RESULT_OK, 0, jo.size, 4.0, 500 * NS_PER_MS, buf, sizeof(buf));
	is_str(r, "try --size 512M", "a power of two, in M (300 MiB wanted)");
	jo.bs = 2300;
	jo.size = 2300 * 1000;
	/* 2.3 MB in 1 s: 28.75 MB wanted; whole MB of whole 2300 B records: 23 MB x 2. */
	r = job_remedy(&jo, RESULT_OK, 0, jo.size, 1.0, 500 * NS_PER_MS, buf, sizeof(buf));
	is_str(r, "try --size 46MB", "bs=2300: 23 MB holds whole records; doubled to enough");
	ok(46 * MB % 2300 == 0, "and 46 MB is a multiple of bs");
	r = job_remedy(&jo, RESULT_FAILED, 0, 4096, 0.001, 500 * NS_PER_MS, buf, sizeof(buf));
	ok(r && !strstr(r, "--size") && strstr(r, "failed"), "a failed job gets no size advice");
	r = job_remedy(&jo, RESULT_INTERRUPTED, 1, 4096, 0.1, 500 * NS_PER_MS, buf, sizeof(buf));
	ok(r && !strstr(r, "size") && strstr(r, "interrupted"), "a stopped job neither: %s", r);
	r = job_remedy(NULL, RESULT_OK, 0, 4096, 0.5, 500 * NS_PER_MS, buf, sizeof(buf));
	ok(r && !strstr(r, "size") && !strstr(r, "loops"), "measure (no job): %s", r);
}

int main(void)
{
	test_constant();
	test_ramp();
	test_boundary_split();
	test_outside_windows();
	test_coverage();
	test_tail();
	test_tail_end();
	test_pipeline();
	test_validity();
	test_losses();
	test_out_of_range();
	test_no_voltage_and_json();
	test_remedy();
	return done_testing();
}
