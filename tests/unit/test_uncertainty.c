/* SPDX-License-Identifier: MIT */
/* Measurement uncertainty: per-reading parts, the docs/energy.md worked example by hand, net. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "meters/ina2xx/ina2xx_protocol.h"
#include "energy/energy.h"
#include "energy/uncertainty.h"
#include "tap.h"

#define T0 1234567890123ULL

static uint64_t at(double s)
{
	return T0 + (uint64_t)llround(s * 1e9);
}

/* The UM25C's declared accuracy, as meters/um/um_protocol.c has it. */
static const struct meter_accuracy um25c = {
	.v = { 0.0005, 0.002, 0.001, 0.001 },
	.a = { 0.001, 0.0004, 0.0001, 0.0001 },
	.w = { NAN, NAN, 0.001, 0 },
	.source = "test: UM25C",
};

static void feed(struct energy_job *ej, double t_s, double v, double a, double w)
{
	struct meter_sample s = { .t_ns = at(t_s), .v = v, .a = a, .w = w };

	energy_feed(ej, &s);
}

static void test_reading(void)
{
	struct meter_sample s = { .v = 5.0, .a = 0.3, .w = 1.5 };
	struct meter_u v, a, w;
	struct meter_accuracy none = { .source = NULL };

	meter_sample_u(&um25c, &s, &v, &a, &w);
	/* rectangle +-b: u = b / sqrt(3); step q: u = q / sqrt(12) */
	is_dbl(a.gain, 0.001 * 0.3 / sqrt(3), 1e-15, "A gain: 0.1 %% of 0.3 A / sqrt(3)");
	is_dbl(a.offset, 0.0004 / sqrt(3), 1e-15, "A offset: 4 digits of 0.1 mA / sqrt(3)");
	is_dbl(a.res, 0.0001 / sqrt(12), 1e-15, "A resolution: 0.1 mA / sqrt(12)");
	is_dbl(w.gain, hypot(0.0005, 0.001) * 1.5 / sqrt(3), 1e-15,
	       "W gain: V and A gains in quadrature, of the reading");
	is_dbl(w.offset, hypot(0.0004 * 5.0, 0.002 * 0.3) / sqrt(3), 1e-15,
	       "W offset: A offset x V and V offset x A in quadrature");
	is_dbl(w.step, 0.001, 1e-15, "W of the meter's own register: its 1 mW step");
	is_dbl(w.noise, hypot(0.0001 * 5.0, 0.001 * 0.3), 1e-15, "W noise from V and A noise");
	s.flags = SAMPLE_W_COMPUTED;
	meter_sample_u(&um25c, &s, NULL, NULL, &w);
	is_dbl(w.step, hypot(0.0001 * 5.0, 0.001 * 0.3), 1e-15,
	       "W computed from V x A: the V and A steps carry over");
	meter_sample_u(&none, &s, &v, &a, &w);
	ok(isnan(w.gain) && isnan(a.res) && isnan(v.offset),
	   "a meter that declares nothing: every part unknown");
}

static void test_ranges(void)
{
	struct meter_accuracy r = { .source = "test ranges", .nranges = 2 };
	struct meter_sample s = { .v = NAN, .a = 0.0005, .w = NAN };
	struct meter_u a;

	r.ranges[0] = (struct meter_acc_range){ 0.001, { 0.01, 1e-6, 1e-7, 0 } };
	r.ranges[1] = (struct meter_acc_range){ 1.0, { 0.02, 1e-3, 1e-5, 0 } };
	meter_sample_u(&r, &s, NULL, &a, NULL);
	is_dbl(a.offset, 1e-6 / sqrt(3), 1e-18, "0.5 mA falls in the 1 mA range");
	s.a = 0.5;
	meter_sample_u(&r, &s, NULL, &a, NULL);
	is_dbl(a.offset, 1e-3 / sqrt(3), 1e-15, "0.5 A falls in the 1 A range");
	s.a = 3;
	meter_sample_u(&r, &s, NULL, &a, NULL);
	is_dbl(a.gain, 0.02 * 3 / sqrt(3), 1e-15, "beyond the last range: the last one");
}

/* A job's figures as the run fills them, from its summary, for the tests below. */
struct figures {
	struct energy_phases es;
	struct result_power p;
	struct result_efficiency e;
	struct result_validity v;
};

static void figures_of(struct energy_job *ej, uint64_t bytes, uint64_t ios,
		       const struct unc_naming *nm, struct figures *f)
{
	memset(f, 0, sizeof(*f));
	f->p.meter = xstrdup("um:x");
	energy_summarize(ej, &f->es, &f->p);
	efficiency_compute(&f->es, &f->p, bytes, ios, &f->e);
	uncertainty_fill(&f->es, bytes, ios, nm, 0.05, &f->p, &f->e, &f->v);
}

static void figures_free(struct figures *f)
{
	free(f->v.uncertainty->figure);
	free(f->v.uncertainty->dominant);
	free(f->v.uncertainty);
	free(f->p.meter);
	free(f->p.note);
}

/*
 * docs/energy.md's worked example, term by term with the numbers written out: a UM25C at
 * 2 Hz, 5.000 V, current alternating 0.3000 / 0.3004 A (1.500 / 1.502 W), an active
 * phase of exactly 2 s from 2.0 s to 4.0 s, 1 GB moved.
 */
static void test_worked_example(void)
{
	static const double a_s[5] = { 0.3000, 0.3004, 0.3000, 0.3004, 0.3000 };
	static const double w_i[5] = { 0.25, 0.5, 0.5, 0.5, 0.25 }; /* trapezoid weights, s */
	struct energy_job ej;
	struct figures f;
	struct unc_naming nm = { "UM25C", &um25c, 500 * NS_PER_MS };
	double e_j = 0, gain, off = 0, res2 = 0, noise2 = 0, disc2 = 0, sigma[5], w, b, u_c;
	double q = 0.001, scat0, scat1, dx;
	int i;

	energy_job_init(&ej, 500 * NS_PER_MS);
	energy_job_accuracy(&ej, &um25c);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(2.0));
	for (i = 0; i < 5; i++) {
		if (i == 4)
			energy_phase_begin(&ej, PHASE_TAIL, at(4.0));
		feed(&ej, 2.0 + 0.5 * i, 5.0, a_s[i], 5.0 * a_s[i]);
	}
	energy_phase_end(&ej, PHASE_TAIL, at(4.0));
	figures_of(&ej, 1000000000ULL, 1000, &nm, &f);

	for (i = 0; i < 5; i++) {
		w = 5.0 * a_s[i];
		e_j += w_i[i] * w;
		/* offset bound: 4 digits of 0.1 mA at 5 V, 2 digits of 1 mV at the current */
		b = sqrt(pow(0.0004 * 5.0, 2) + pow(0.002 * a_s[i], 2));
		off += w_i[i] * b / sqrt(3);
		/* the W register's 1 mW step; the readings move 2 mW: it averages out */
		res2 += pow(w_i[i] * q / sqrt(12), 2);
		sigma[i] = sqrt(pow(0.0001 * 5.0, 2) + pow(0.001 * a_s[i], 2));
		noise2 += pow(w_i[i] * sigma[i], 2);
	}
	for (i = 0; i < 4; i++) {
		dx = 5.0 * (a_s[i + 1] - a_s[i]);
		scat0 = sigma[i] * sigma[i] + q * q / 12;
		scat1 = sigma[i + 1] * sigma[i + 1] + q * q / 12;
		disc2 += (dx * dx - scat0 - scat1) * 0.5 * 0.5 / 12;
	}
	gain = e_j * sqrt(0.0005 * 0.0005 + 0.001 * 0.001) / sqrt(3);
	u_c = sqrt(gain * gain + off * off + res2 + noise2 + disc2);

	is_dbl(f.p.energy_active_j, 3.002, 1e-12, "active energy: 3.002 J");
	is_dbl(e_j, 3.002, 1e-12, "the weights sum the same energy");
	is_dbl(gain, 0.00193778, 1e-8, "gain term 1.938 mJ");
	is_dbl(off, 0.00241122, 1e-8, "offset term 2.411 mJ");
	is_dbl(sqrt(res2), 0.000270031, 1e-9, "resolution term 0.270 mJ");
	is_dbl(sqrt(noise2), 0.000545546, 1e-9, "noise term 0.546 mJ");
	is_dbl(sqrt(disc2), 0.000512600, 1e-9, "discretisation term 0.513 mJ");
	is_dbl(f.p.energy_active_j_u95, 2 * u_c, 1e-12, "energy_active_j_u95 = 2 u_c = %.4g J",
	       f.p.energy_active_j_u95);
	is_dbl(f.p.energy_active_j_u95, 0.0063882, 1e-7, "6.39 mJ, as docs/energy.md says");
	is_dbl(f.e.j_per_gb_u95, 2 * u_c, 1e-12, "j_per_gb_u95 on 1 GB is the energy's");
	is_dbl(f.e.uj_per_io_u95, 2 * u_c * 1e6 / 1000, 1e-9, "uj_per_io_u95 per I/O");
	is_dbl(f.p.active_w_u95, 2 * u_c / 2.0, 1e-12, "active_w_u95: the energy's over 2 s");
	ok(f.v.uncertainty && !strcmp(f.v.uncertainty->figure, "j_per_gb"), "headline is j_per_gb");
	/* four segments: every one within two of an end of the phase counts as points */
	is_dbl(f.v.uncertainty->u95_rel, 2 * u_c / 3.002, 1e-12, "relative U95 %.3f %%",
	       f.v.uncertainty->u95_rel * 100);
	ok(!f.v.uncertain, "0.21 %% is under the 5 %% limit: not uncertain");
	is_str(f.v.uncertainty->dominant, "UM25C offset 2.09 mW at 1.5 W mean",
	       "dominant term named with the meter and the mean");
	is_dbl(f.v.uncertainty->budget.offset, off / 3.002, 1e-12, "budget: offset, relative");
	figures_free(&f);
}

/* Constant power through idle and active: an offset is the same in both and leaves the
 * net energy; the gain scales the net; a steady reading rounds the same way each time. */
static void test_net_and_steady(void)
{
	struct energy_job ej;
	struct figures f;
	struct unc_naming nm = { "UM25C", &um25c, 100 * NS_PER_MS };
	int i;

	energy_job_init(&ej, 100 * NS_PER_MS);
	energy_job_accuracy(&ej, &um25c);
	energy_phase_begin(&ej, PHASE_IDLE, at(0.0));
	for (i = 0; i <= 100; i++) {
		if (i == 50)
			energy_phase_begin(&ej, PHASE_ACTIVE, at(5.0));
		if (i == 100)
			energy_phase_begin(&ej, PHASE_TAIL, at(10.0));
		feed(&ej, 0.1 * i, 5.0, 0.012, 0.060);
	}
	energy_phase_end(&ej, PHASE_TAIL, at(10.0));
	figures_of(&ej, 100000000ULL, 100, &nm, &f);
	/* 60 mW steady: the 1 mW step rounds every reading the same way, u = q/sqrt(12) */
	is_dbl(f.es.unc[PHASE_ACTIVE][UNC_W].res_sys, 5.0 * 0.001 / sqrt(12), 1e-12,
	       "a steady reading's rounding does not average: 5 s x 1 mW / sqrt(12)");
	ok(fabs(f.p.energy_net_j) < 1e-12, "net energy of a constant load is 0");
	ok(f.p.energy_net_j_u95 < f.p.energy_active_j_u95 / 2,
	   "net u95 %.3g J < active u95 %.3g J: the offset cancels", f.p.energy_net_j_u95,
	   f.p.energy_active_j_u95);
	ok(f.v.uncertain == 0 && f.v.uncertainty->u95_rel < 0.05, "12 mA at 5 V: %.2f %% of J/GB",
	   f.v.uncertainty->u95_rel * 100);
	figures_free(&f);
}

/* A UM24C (1 mA steps, 0.8 % + 3 digits) at 12 mA: well over 5 %, and it says why. */
static void test_uncertain(void)
{
	static const struct meter_accuracy um24c = {
		.v = { 0.002, 0.01, 0.01, 0.01 },
		.a = { 0.008, 0.003, 0.001, 0.001 },
		.w = { NAN, NAN, 0.001, 0 },
		.source = "test: UM24C",
	};
	struct energy_job ej;
	struct figures f;
	struct unc_naming nm = { "UM24C", &um24c, 500 * NS_PER_MS };
	int i;

	energy_job_init(&ej, 500 * NS_PER_MS);
	energy_job_accuracy(&ej, &um24c);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0.0));
	for (i = 0; i <= 20; i++)
		feed(&ej, 0.5 * i, 5.0, 0.012, 0.060);
	energy_phase_end(&ej, PHASE_ACTIVE, at(10.0));
	figures_of(&ej, 100000000ULL, 100, &nm, &f);
	ok(f.v.uncertain, "UM24C at 12 mA: J/GB known to %.1f %% only: uncertain",
	   f.v.uncertainty->u95_rel * 100);
	is_str(f.v.uncertainty->dominant, "UM24C offset 15 mW at 60 mW mean",
	       "the 3-digit offset dominates, named with the mean");
	figures_free(&f);
}

static void test_ina(void)
{
	struct ina_request req = { .model = INA219, .shunt_ohm = 0.1, .max_current_a = 3.2 };
	struct meter_accuracy acc;
	struct ina_setup s;
	char err[200];

	ok(!ina_setup_compute(&req, &s, err, sizeof(err)), "INA219 0.1 Ohm 3.2 A sets up");
	ina_accuracy(&s, &acc);
	is_int(s.pga_mv, 320, "3.2 A over 0.1 Ohm needs PGA /8");
	is_dbl(acc.a.offset, 200e-6 / 0.1, 1e-12, "PGA /8: 200 uV offset over 0.1 Ohm = 2 mA");
	is_dbl(acc.a.resolution, 80e-6 / 0.1, 1e-12,
	       "12-bit ADC at PGA /8 steps 80 uV: 0.8 mA, coarser than the 0.1 mA LSB");
	req.max_current_a = 0.4;
	req.adc = "avg16";
	ok(!ina_setup_compute(&req, &s, err, sizeof(err)), "INA219 0.4 A, avg16");
	ina_accuracy(&s, &acc);
	is_dbl(acc.a.offset, 100e-6 / 0.1, 1e-12, "PGA /1: 100 uV over 0.1 Ohm = 1 mA");
	is_dbl(acc.a.noise, acc.a.resolution / 4, 1e-15, "16 conversions averaged: noise / 4");
	req = (struct ina_request){ .model = INA226, .shunt_ohm = 0.002, .max_current_a = 20 };
	ok(!ina_setup_compute(&req, &s, err, sizeof(err)), "INA226 sets up");
	ina_accuracy(&s, &acc);
	is_dbl(acc.a.offset, 10e-6 / 0.002, 1e-12, "INA226: 10 uV over 2 mOhm = 5 mA");
	is_dbl(acc.v.offset, 7.5e-3, 1e-12, "INA226 bus offset 7.5 mV");
}

/* The active phase's discretisation term (k = 1, J) for readings every period_s, the
 * current alternating 300 / 350 mA at 5 V (a load that really moves), over 10 s. */
static double disc_of(uint64_t period_ns, double period_s, double jitter_s)
{
	struct energy_job ej;
	struct energy_phases es;
	struct result_power p;
	double t = 0;
	int i = 0;

	energy_job_init(&ej, period_ns);
	energy_job_accuracy(&ej, &um25c);
	energy_phase_begin(&ej, PHASE_ACTIVE, at(0.0));
	while (t < 10.0 - 1e-9) {
		double a = i % 2 ? 0.35 : 0.30;

		feed(&ej, t, 5.0, a, 5.0 * a);
		t += period_s + (i % 2 ? jitter_s : -jitter_s);
		i++;
	}
	feed(&ej, 10.0, 5.0, 0.30, 1.5);
	energy_phase_end(&ej, PHASE_ACTIVE, at(10.0));
	memset(&p, 0, sizeof(p));
	energy_summarize(&ej, &es, &p);
	return sqrt(es.unc[PHASE_ACTIVE][UNC_W].disc2);
}

/*
 * docs/energy.md, time discretisation: a meter that holds each value 100 ms and is read
 * every 100 ms reads each value once, and the inner segments' errors telescope: only the
 * two segments at either end of the phase count. Polls 2 ms off (98 / 102 ms) cross an
 * update with probability 2 %: 12 x 0.02 = 24 % of the point readings' variance. At 2 Hz
 * every segment holds steps at unknown times: all of it.
 */
static void test_window(void)
{
	double d10 = disc_of(100 * NS_PER_MS, 0.1, 0), d2 = disc_of(500 * NS_PER_MS, 0.5, 0);
	double dj = disc_of(100 * NS_PER_MS, 0.1, 0.002), scat, real, pts;

	/* every segment 250 mW apart, less the readings' scatter */
	scat = pow(0.0001 * 5.0, 2) + pow(0.001 * 0.30, 2) + 0.001 * 0.001 / 12 +
	       pow(0.0001 * 5.0, 2) + pow(0.001 * 0.35, 2) + 0.001 * 0.001 / 12;
	real = 0.25 * 0.25 - scat;
	is_dbl(d10, sqrt(4 * real * 0.1 * 0.1 / 12), 1e-9,
	       "10 Hz on 100 ms values: the 96 inner segments add nothing, the 4 at the ends %.3g J",
	       d10);
	is_dbl(d2, sqrt(20 * real * 0.5 * 0.5 / 12), 1e-9,
	       "2 Hz: every segment as point readings, %.4g J", d2);
	/* 100 segments of 98 or 102 ms (the last 100 ms short of 10 s: 98 ms), 4 of them ends */
	pts = 0;
	{
		double t = 0, len;
		int i = 0, n = 0, edge;

		while (t < 10.0 - 1e-9) {
			len = 0.1 + (i % 2 ? 0.002 : -0.002);
			if (t + len > 10.0)
				len = 10.0 - t;
			n++;
			t += len;
			i++;
		}
		t = 0;
		for (i = 0; i < n; i++) {
			len = 0.1 + (i % 2 ? 0.002 : -0.002);
			if (t + len > 10.0)
				len = 10.0 - t;
			edge = i < 2 || i >= n - 2;
			pts += real * len * len / 12 *
			       (edge ? 1 : fmin(12 * fabs(len - 0.1) / 0.1, 1));
			t += len;
		}
	}
	is_dbl(dj, sqrt(pts), 1e-9, "10 Hz, polls 2 ms off: 24 %% of the inner variance, %.3g J",
	       dj);
	ok(dj > d10 && dj < d2 / 2, "between the locked meter's %.3g J and 2 Hz's %.3g J", d10, d2);
}

int main(void)
{
	test_window();
	test_reading();
	test_ranges();
	test_worked_example();
	test_net_and_steady();
	test_uncertain();
	test_ina();
	return done_testing();
}
