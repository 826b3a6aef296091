/* SPDX-License-Identifier: MIT */
/* Per-phase current percentiles: the histogram against known spreads, and through energy_feed. */
#include <math.h>
#include <stdlib.h>

#include "core/clock.h"
#include "energy/current_hist.h"
#include "energy/energy.h"
#include "tap.h"

static int within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void test_uniform(void)
{
	struct current_hist *h = malloc(sizeof(*h));
	int i;

	current_hist_init(h);
	ok(isnan(current_hist_quantile(h, 0.5)), "empty: no median");
	/* 1..1000 mA, shuffled order does not matter to a histogram */
	for (i = 1000; i >= 1; i--)
		current_hist_add(h, i * 1e-3);
	current_hist_add(h, NAN);
	is_int((int)h->n, 1000, "NAN is not a reading");
	ok(within(current_hist_quantile(h, 0.5), 0.500, 0.01), "median of 1..1000 mA is 500 mA within 1 %% (%.6g)",
	   current_hist_quantile(h, 0.5));
	ok(within(current_hist_quantile(h, 0.01), 0.010, 0.01), "p1 is 10 mA within 1 %% (%.6g)",
	   current_hist_quantile(h, 0.01));
	ok(within(current_hist_quantile(h, 0.99), 0.990, 0.01), "p99 is 990 mA within 1 %% (%.6g)",
	   current_hist_quantile(h, 0.99));
	is_dbl(current_hist_quantile(h, 0), 0.001, 0, "q 0 is the exact min");
	is_dbl(current_hist_quantile(h, 1), 1.000, 0, "q 1 is the exact max");
	free(h);
}

static void test_spikes_and_sign(void)
{
	struct current_hist *h = malloc(sizeof(*h));
	int i;

	/* 0.5 % of readings at 500 mA over a 10 mA floor: p99 stays on the floor, max shows it */
	current_hist_init(h);
	for (i = 0; i < 1000; i++)
		current_hist_add(h, i % 200 == 0 ? 0.5 : 0.010);
	ok(within(current_hist_quantile(h, 0.99), 0.010, 0.01), "0.5 %% spikes: p99 on the floor");
	is_dbl(h->max, 0.5, 0, "... max is the spike");
	/* 2 % of them: p99 is the spike */
	current_hist_init(h);
	for (i = 0; i < 1000; i++)
		current_hist_add(h, i % 50 == 0 ? 0.5 : 0.010);
	ok(within(current_hist_quantile(h, 0.99), 0.5, 0.01), "2 %% spikes: p99 is the spike (%.6g)",
	   current_hist_quantile(h, 0.99));
	/* a signed meter: -200 mA charging half the time, +100 mA the rest, and zeros */
	current_hist_init(h);
	for (i = 0; i < 100; i++)
		current_hist_add(h, i < 50 ? -0.2 : i < 60 ? 0 : 0.1);
	ok(within(current_hist_quantile(h, 0.01), -0.2, 0.01), "negative readings rank first");
	is_dbl(current_hist_quantile(h, 0.55), 0, 0, "zeros between the signs");
	ok(within(current_hist_quantile(h, 0.9), 0.1, 0.01), "then the positive ones");
	free(h);
}

/* Through the energy layer: readings inside each window only. */
static void test_phases(void)
{
	struct energy_job *ej = malloc(sizeof(*ej));
	struct result_ma_stats *st;
	struct meter_sample s = { 0 };
	int i;

	energy_job_init(ej, 10 * NS_PER_MS);
	energy_phase_begin(ej, PHASE_IDLE, 0);
	for (i = 0; i < 300; i++) {
		if (i == 100)
			energy_phase_begin(ej, PHASE_ACTIVE, (uint64_t)i * 10 * NS_PER_MS);
		if (i == 200)
			energy_phase_begin(ej, PHASE_TAIL, (uint64_t)i * 10 * NS_PER_MS);
		s.t_ns = (uint64_t)i * 10 * NS_PER_MS + 5 * NS_PER_MS;
		s.v = 5;
		/* idle 20 mA; active 100..199 mA; tail 30 mA */
		s.a = i < 100 ? 0.020 : i < 200 ? 0.001 * i : 0.030;
		s.w = NAN;
		energy_feed(ej, &s);
	}
	st = energy_ma_stats(ej, PHASE_ACTIVE);
	if (ok(st != NULL, "active phase has stats")) {
		is_int((int)st->n, 100, "100 active readings");
		is_dbl(st->min, 100, 1e-9, "active min 100 mA");
		is_dbl(st->max, 199, 1e-9, "active max 199 mA");
		ok(within(st->median, 149, 0.01), "active median 149 mA within 1 %% (%.4g)", st->median);
		ok(within(st->p99, 198, 0.01), "active p99 198 mA within 1 %% (%.4g)", st->p99);
		free(st);
	}
	st = energy_ma_stats(ej, PHASE_IDLE);
	ok(st && st->n == 100 && st->min == 20 && st->max == 20, "idle: 100 readings of 20 mA");
	free(st);
	st = energy_ma_stats(ej, PHASE_TAIL);
	ok(st && st->n == 100 && within(st->median, 30, 0.01), "tail: median 30 mA");
	free(st);
	free(ej);
}

int main(void)
{
	test_uniform();
	test_spikes_and_sign();
	test_phases();
	return done_testing();
}
