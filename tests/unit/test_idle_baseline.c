/* SPDX-License-Identifier: MIT */
/* Robust idle baselines: the diskstats watch, quiet readings, Huber's level, the verdicts. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"
#include "energy/energy.h"
#include "energy/idle_baseline.h"
#include "run/idle_watch.h"
#include "energy/uncertainty.h"
#include "tap.h"

#define T0 1000000000000ULL
#define SEC 1000000000ULL

/* The UM25C's declared accuracy, as meters/um/um_protocol.c has it. */
static const struct meter_accuracy um25c = {
	.v = { 0.0005, 0.002, 0.001, 0.001 },
	.a = { 0.001, 0.0004, 0.0001, 0.0001 },
	.w = { NAN, NAN, 0.001, 0 },
	.source = "test: UM25C",
};

static void test_huber(void)
{
	double x[41], u, scale, t;
	size_t i;

	for (i = 0; i < 40; i++)
		x[i] = 1.0 + 0.01 * ((double)(i % 5) - 2); /* 0.98 .. 1.02, mean 1.0 */
	t = idle_huber(x, 40, 0, &u, &scale);
	is_dbl(t, 1.0, 1e-12, "symmetric scatter: Huber's level is the mean");
	/* sd 0.0141: sd / sqrt(n) = 0.0022; the sandwich errs wide on readings in coarse
	 * steps (a step's readings sit just beyond k and weigh nothing in its denominator) */
	ok(u > 0.5 * 0.0141 / sqrt(40) && u < 2.5 * 0.0141 / sqrt(40),
	   "its uncertainty about sd / sqrt(n) (%g)", u);
	for (i = 0; i < 40; i++)
		x[i] = 1.0 + 0.01 * ((double)(i % 5) - 2);
	x[40] = 3.0; /* one reading of a burst the watch missed */
	t = idle_huber(x, 41, 0, &u, &scale);
	ok(fabs(t - 1.0) < 0.002, "one reading at 3x idle moves the level by %.4f (the mean: %.4f)",
	   t - 1.0, 2.0 / 41);
	for (i = 0; i < 20; i++)
		x[i] = 0.457;
	x[20] = 4.0;
	t = idle_huber(x, 21, 0.0005, &u, &scale);
	ok(fabs(t - 0.457) < 0.0005 && scale == 0.0005,
	   "equal readings and a spike: the declared noise floors the scale, level %.5f", t);
	t = idle_huber(x, 0, 0, &u, &scale);
	ok(isnan(t), "no readings: no level");
}

/* The target was busy in [2 s, 3 s] of the idle phase. */
static int busy_2_3(const void *arg, uint64_t t0, uint64_t t1)
{
	(void)arg;
	return t0 <= T0 + 3 * SEC && t1 >= T0 + 2 * SEC;
}

static void test_estimate(void)
{
	static struct idle_readings ir;
	struct meter_u u = { 0.0003, 0.0012, 0.0003, 0.0006, 0.001 };
	struct idle_estimate est;
	uint64_t t;

	idle_readings_reset(&ir);
	/* 2 Hz over 10 s: idle 0.5 W, 2.0 W while busy and for 1 s after */
	for (t = T0; t < T0 + 10 * SEC; t += SEC / 2)
		idle_readings_add(&ir, t, t >= T0 + 2 * SEC && t <= T0 + 4 * SEC ? 2.0 : 0.5, &u);
	idle_estimate(&ir, busy_2_3, NULL, SEC + SEC / 2, 10.0, &est);
	/* excluded: readings at 2.0 .. 4.5 s (busy within 1.5 s before them) */
	ok(est.excluded == 6 && est.quiet == 14, "6 readings within reach excluded, 14 quiet (%llu, %llu)",
	   (unsigned long long)est.excluded, (unsigned long long)est.quiet);
	is_dbl(est.w, 0.5, 1e-12, "the level is the quiet readings' 0.5 W");
	ok(est.terms.known && est.terms.noise2 > 0 && est.terms.offset > 0,
	   "its parts: declared offset, noise at least the declared over sqrt(n)");
	is_dbl(est.terms.offset, 10.0 * 0.0012, 1e-9, "offset as an integral over the 10 s span");
	idle_estimate(&ir, NULL, NULL, SEC, 10.0, &est);
	ok(est.quiet == 20 && est.excluded == 0, "without a watch every reading is quiet");
	idle_estimate(&ir, busy_2_3, NULL, 20 * SEC, 10.0, &est);
	ok(est.quiet == 4 && !est.all, "a longer reach excludes more (%llu quiet)",
	   (unsigned long long)est.quiet);

	idle_readings_reset(&ir);
	for (t = 0; t < 3 * IDLE_READINGS_MAX; t++)
		idle_readings_add(&ir, T0 + t * 1000000ULL, 0.5, &u);
	ok(ir.n <= IDLE_READINGS_MAX && ir.n >= IDLE_READINGS_MAX / 2 && ir.seen == 3 * IDLE_READINGS_MAX,
	   "a fast meter's readings are thinned, bounded (%zu kept of %llu)", ir.n,
	   (unsigned long long)ir.seen);
}

static void write_stats(const char *path, unsigned long long rd, unsigned long long inflight)
{
	FILE *fp = fopen(path, "w");

	fprintf(fp, "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0\n");
	fprintf(fp, "   7       3 loop3 %llu 0 %llu 4 100 0 800 20 %llu 30 34 0 0 0 0 2 0\n", rd,
		rd * 8, inflight);
	fclose(fp);
}

static void test_watch(void)
{
	char root[] = "/tmp/iowatt-idle-XXXXXX", dir[64], path[96];
	struct idle_watch w;
	struct diskstats ds;

	if (!mkdtemp(root)) {
		ok(0, "temp dir");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/proc", root);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/proc/diskstats", root);
	write_stats(path, 10, 0);
	ok(!diskstats_read(path, "loop3", &ds) && ds.reads == 10 && ds.writes == 100 &&
		   ds.in_flight == 0 && ds.io_ms == 30 && ds.flushes == 2,
	   "diskstats: reads, writes, in flight, io ms and flushes (field 16)");
	idle_watch_init(&w, "loop3", root);
	idle_watch_reset(&w, T0);
	idle_watch_poll(&w, T0 + SEC);
	ok(!idle_watch_busy(&w, T0, T0 + SEC), "counters unchanged: not busy");
	write_stats(path, 11, 0);
	idle_watch_poll(&w, T0 + 2 * SEC);
	ok(idle_watch_busy(&w, T0 + SEC + SEC / 2, T0 + SEC + SEC / 2) &&
		   !idle_watch_busy(&w, T0, T0 + SEC - 1),
	   "a completed read: busy since the poll before");
	write_stats(path, 11, 1);
	idle_watch_poll(&w, T0 + 3 * SEC);
	idle_watch_poll(&w, T0 + 4 * SEC);
	ok(w.n == 1 && idle_watch_busy(&w, T0 + 3 * SEC + 1, T0 + 3 * SEC + 2),
	   "an I/O in flight: busy, one span with the read before it");
	write_stats(path, 11, 0);
	idle_watch_poll(&w, T0 + 5 * SEC);
	idle_watch_poll(&w, T0 + 6 * SEC);
	ok(!idle_watch_busy(&w, T0 + 5 * SEC + 1, T0 + 6 * SEC), "quiet again after it");
	idle_watch_free(&w);
	idle_watch_init(&w, "loop9", root);
	idle_watch_reset(&w, T0);
	ok(!idle_watch_on(&w), "a disk not in the file: the watch is off (every reading quiet)");
	idle_watch_free(&w);
	remove(path);
	rmdir(dir);
	rmdir(root);
}

static void feed(struct energy_job *ej, uint64_t t, double w)
{
	struct meter_sample s = { .t_ns = t, .v = 5.0, .a = w / 5.0, .w = w };

	energy_feed(ej, &s);
}

/* A job with idle at idle_w and active at active_w (2 Hz, 10 s each), judged. */
static void judged(double idle_w, double active_w, int (*busy)(const void *, uint64_t, uint64_t),
		   struct result_power *p, struct result_validity *v)
{
	static struct energy_job ej;
	struct energy_phases es;
	struct result_efficiency e;
	struct unc_naming nm = { "UM25C", &um25c, SEC / 2 };
	uint64_t t;

	memset(p, 0, sizeof(*p));
	memset(v, 0, sizeof(*v));
	energy_job_init(&ej, SEC / 2);
	energy_job_accuracy(&ej, &um25c);
	energy_job_idle_watch(&ej, busy, NULL, SEC + SEC / 2);
	energy_phase_begin(&ej, PHASE_IDLE, T0);
	energy_phase_begin(&ej, PHASE_ACTIVE, T0 + 10 * SEC);
	energy_phase_begin(&ej, PHASE_TAIL, T0 + 20 * SEC);
	energy_phase_end(&ej, PHASE_TAIL, T0 + 20 * SEC);
	for (t = T0; t <= T0 + 20 * SEC; t += SEC / 2)
		feed(&ej, t, t < T0 + 10 * SEC ? (busy && t >= T0 + 2 * SEC && t < T0 + 4 * SEC
						   ? 3.0 : idle_w)
					 : active_w);
	energy_summarize(&ej, &es, p);
	efficiency_compute(&es, p, 1000000000ULL, 1000, &e);
	v->reasons = xcalloc(1, sizeof(char *));
	v->valid = 1;
	uncertainty_fill(&es, 1000000000ULL, 1000, &nm, 0.05, p, &e, v);
	p->idle_baseline = xcalloc(1, sizeof(*p->idle_baseline));
	uncertainty_idle_judge(&es, 8, p, v);
}

static void clear(struct result_power *p, struct result_validity *v)
{
	size_t i;

	for (i = 0; i < v->nreasons; i++)
		free(v->reasons[i]);
	free(v->reasons);
	if (v->uncertainty) {
		free(v->uncertainty->figure);
		free(v->uncertainty->dominant);
		free(v->uncertainty);
	}
	free(p->idle_baseline->reason);
	free(p->idle_baseline);
	free(p->note);
}

static void test_verdicts(void)
{
	struct result_power p;
	struct result_validity v;

	judged(0.5, 1.5, busy_2_3, &p, &v);
	ok(v.valid && !v.uncertain && !p.idle_baseline->reason,
	   "a burst in the idle phase, excluded: valid, no idle reason");
	is_dbl(p.idle_w, 0.5, 1e-9, "the baseline is the quiet 0.5 W (the mean would be 0.75)");
	clear(&p, &v);

	judged(0.5, 0.4, NULL, &p, &v);
	ok(!v.valid && v.nreasons && strstr(v.reasons[v.nreasons - 1], "above active") &&
		   strstr(v.reasons[v.nreasons - 1], "beyond"),
	   "idle 0.5 W above active 0.4 W: not valid, and why (%s)",
	   v.nreasons ? v.reasons[v.nreasons - 1] : "-");
	ok(p.idle_baseline->reason && strstr(p.idle_baseline->reason, "above active"),
	   "the reason is in the idle record too");
	clear(&p, &v);

	judged(0.5, 0.4995, NULL, &p, &v);
	ok(v.valid && v.uncertain && v.uncertainty && strstr(v.uncertainty->dominant, "within"),
	   "idle 0.5 W above active 0.4995 W, within the interval: UNCERTAIN (%s)",
	   v.uncertainty && v.uncertainty->dominant ? v.uncertainty->dominant : "-");
	clear(&p, &v);

	judged(0.5, 0.5005, NULL, &p, &v);
	ok(v.valid && !p.idle_baseline->reason, "idle just below active: no verdict");
	clear(&p, &v);
}

int main(void)
{
	test_huber();
	test_estimate();
	test_watch();
	test_verdicts();
	return done_testing();
}
