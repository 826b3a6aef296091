/* SPDX-License-Identifier: MIT */
/* Signed meters: negative readings kept where declared, energy split into and out of the device, the summary's line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "meters/meter.h"
#include "report/summary_notes.h"
#include "result/result.h"
#include "energy/energy.h"
#include "tap.h"

#define T0 1234567890123ULL

static int check(unsigned signed_q, double v, double a, double w, char *why, size_t len)
{
	struct meter_info in;
	struct meter_sample s = { .v = v, .a = a, .w = w, .flags = SAMPLE_W_COMPUTED };

	memset(&in, 0, sizeof(in));
	snprintf(in.model, sizeof(in.model), "bench supply");
	in.range = (struct meter_range){ 0, 20, -5, 5, 100 };
	in.accuracy.v.gain = in.accuracy.a.gain = in.accuracy.w.gain = NAN;
	in.signed_q = signed_q;
	why[0] = '\0';
	return meter_sample_check(&in, &s, why, len);
}

static void test_sanity(void)
{
	char why[128];

	ok(check(0, -1, 0.1, -0.1, why, sizeof(why)) == -1 && strstr(why, "negative voltage"),
	   "unsigned meter: -1 V is impossible (%s)", why);
	ok(check(0, 5, -0.5, -2.5, why, sizeof(why)) == -1 && strstr(why, "negative current"),
	   "unsigned meter: -0.5 A is impossible (%s)", why);
	is_int(check(METER_SIGNED_V, -1, 0.1, -0.1, why, sizeof(why)), 0,
	       "signed V: -1 V is a reading (so is the -0.1 W it makes)");
	is_int(check(METER_SIGNED_A, 5, -0.5, -2.5, why, sizeof(why)), 0,
	       "signed A: -0.5 A (current flowing back) is a reading");
	ok(check(METER_SIGNED_V, -25, 0.1, -2.5, why, sizeof(why)) == -1 && strstr(why, "-25 V beyond the bench supply's 20 V"),
	   "signed V: the 20 V limit holds both ways (-25 V: %s)", why);
	ok(check(METER_SIGNED_A, 5, 0.5, 2.5, why, sizeof(why)) == 0,
	   "signed A: a positive reading as before");
}

/* W of 3, 3, -1, -1 at 0, 1, 2, 3 s: in 3 + 1.125 J (the line crosses zero at 1.75 s),
 * out 0.125 + 1 J, net 3 J, by hand. */
static void test_energy_split(void)
{
	static const double w[] = { 3, 3, -1, -1 };
	struct energy_job ej;
	struct energy_phases es;
	struct result_power pf = { 0 };
	struct meter_sample s;
	size_t i;

	energy_job_init(&ej, NS_PER_SEC);
	energy_phase_begin(&ej, PHASE_ACTIVE, T0);
	for (i = 0; i < 4; i++) {
		s = (struct meter_sample){ .t_ns = T0 + i * NS_PER_SEC, .v = NAN, .a = NAN,
					   .w = w[i] };
		energy_feed(&ej, &s);
	}
	energy_phase_end(&ej, PHASE_ACTIVE, T0 + 3 * NS_PER_SEC);
	energy_summarize(&ej, &es, &pf);
	is_dbl(pf.energy_active_j, 3.0, 1e-12, "net energy: the signed trapezoid sum");
	is_dbl(pf.energy_active_in_j, 4.125, 1e-12, "into the device: 3 + 1.125 J");
	is_dbl(pf.energy_active_out_j, 1.125, 1e-12, "out of it: 0.125 + 1 J");
	free(pf.note);
}

static char *notes_of(double in_j, double out_j)
{
	struct run_result r;
	struct job_result *j;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	memset(&r, 0, sizeof(r));
	j = result_add_job(&r);
	j->jobname = xstrdup("charge");
	j->meters = xcalloc(1, sizeof(*j->meters));
	j->nmeters = 1;
	j->meters[0].spec = xstrdup("sigrok:demo");
	j->meters[0].power.energy_active_in_j = in_j;
	j->meters[0].power.energy_active_out_j = out_j;
	j->meters[0].power.energy_active_j = in_j - out_j;
	summary_print_notes(fp, &r);
	fclose(fp);
	result_free(&r);
	return text;
}

static void test_summary_line(void)
{
	char *t = notes_of(4.125, 1.125);

	ok(strstr(t, "charge: energy into the device 4.125 J, out of it 1.125 J (net 3 J) from "
		     "sigrok:demo\n") != NULL, "energy flowed out: the summary gives both "
		     "directions and the net");
	free(t);
	t = notes_of(4.125, 0);
	ok(!strstr(t, "out of it"), "none flowed out: no such line");
	free(t);
}

int main(void)
{
	test_sanity();
	test_energy_split();
	test_summary_line();
	return done_testing();
}
