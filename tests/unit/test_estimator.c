/* SPDX-License-Identifier: MIT */
/* The headline's estimator: the model where it knows more, disagreement flagged, no narrower interval for a smaller catch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/estimator.h"
#include "tap.h"

#define ACTIVE_S 60.0
#define IDLE_W 0.45
#define VOLTS 5.0
#define BYTES 1000000ULL
#define IOS 240ULL
#define LIMIT 0.05

/* A job's figures as uncertainty_fill leaves them: integral net_j +- net_u95 above idle. */
struct job {
	struct energy_phases es;
	struct result_power p;
	struct result_efficiency e;
	struct result_validity v;
	struct emodel_fit fit;
};

static void job_init(struct job *j, double net_j, double net_u95)
{
	double act = IDLE_W * ACTIVE_S + net_j;

	memset(j, 0, sizeof(*j));
	j->es.active_s = ACTIVE_S;
	j->p.idle_w = IDLE_W;
	j->p.idle_w_u95 = 0.0005;
	j->p.active_v = VOLTS;
	j->p.energy_tail_net_j = 0;
	j->p.energy_tail_net_j_u95 = 0;
	j->p.energy_net_j = net_j;
	j->p.energy_net_j_u95 = net_u95;
	j->p.energy_active_j = act;
	j->p.energy_active_j_u95 = net_u95;
	j->p.active_w = act / ACTIVE_S;
	j->p.active_ma = j->p.active_w / VOLTS * 1e3;
	j->p.charge_mah = j->p.active_ma * ACTIVE_S / 3600;
	j->e.j_per_gb = act / (BYTES / 1e9);
	j->e.j_per_gb_u95 = net_u95 / (BYTES / 1e9);
	j->e.iops_per_ma = IOS / ACTIVE_S / j->p.active_ma;
	j->e.uj_per_io = act * 1e6 / IOS;
	j->v.valid = 1;
	j->v.uncertainty = xcalloc(1, sizeof(*j->v.uncertainty));
	j->v.uncertainty->figure = xstrdup("j_per_gb");
	j->v.uncertainty->u95_rel = isfinite(net_u95) ? net_u95 / act : NAN;
	j->v.uncertainty->dominant = xstrdup("sampling");
	j->v.uncertain = !(j->v.uncertainty->u95_rel <= LIMIT);
}

/* A synced logger's fit: write+flush in step, 1 mJ a record, 240 records. */
static void fit_init(struct emodel_fit *f, const char *verdict, double net_j, double net_u95)
{
	int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < COMPL_KINDS; k++)
		f->j_per_op[k] = f->u95_j[k] = NAN;
	f->verdict = !strcmp(verdict, "ok") ? EMODEL_OK : EMODEL_POOR_FIT;
	f->verdict = !strcmp(verdict, "not identifiable") ? EMODEL_NOT_IDENTIFIABLE : f->verdict;
	f->sum_base = COMPL_WRITE;
	f->sum_with = COMPL_FLUSH;
	f->sum_ratio = 1;
	f->sum_j = net_j / IOS;
	f->sum_u95_j = net_u95 / IOS;
	f->net_j = net_j;
	f->net_u95_j = net_u95;
	f->readings = 120;
	f->readings_with_ops = 40;
	f->chi2_dof = 1.1;
	f->gain_rel = 0.005;
}

static void job_free(struct job *j)
{
	free(j->p.estimator);
	free(j->v.uncertainty->figure);
	free(j->v.uncertainty->dominant);
	free(j->v.uncertainty);
}

static void apply(struct job *j)
{
	estimator_apply(&j->fit, &j->es, BYTES, IOS, LIMIT, "UM25C", &j->p, &j->e, &j->v);
}

static void test_model_chosen(void)
{
	struct job j;

	job_init(&j, 0.15, 0.12);
	j.v.uncertainty->budget.noise = 0.02; /* the readings see it: their noise limits it */
	j.v.uncertainty->budget.sampling = 0.01;
	fit_init(&j.fit, "not identifiable", 0.24, 0.006);
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_INTEGRATION, "a narrower model does not replace an "
	       "integral whose readings see the activity");
	job_free(&j);
	job_init(&j, 0.15, 0.12); /* the readings caught 60 % of it, +-80 % */
	j.v.uncertainty->budget.noise = 0.02;
	j.v.uncertainty->budget.sampling = 0.3;
	fit_init(&j.fit, "not identifiable", 0.24, 0.006);
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_INTEGRATION, "where what the readings miss is the largest "
	       "term, the integral stays: the model's U95 does not yet hold as often");
	is_dbl(j.p.energy_net_j, 0.15, 1e-12, "its energy above idle, the readings'");
	job_free(&j);
	job_init(&j, 0.15, 0.12);
	j.v.uncertainty->budget.sampling = 0.3;
	fit_init(&j.fit, "not identifiable", NAN, NAN); /* a kind no window held */
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_INTEGRATION, "a fit that is not usable leaves the integral");
	job_free(&j);
	job_init(&j, 0.15, NAN); /* aliased: the integral cannot know it */
	fit_init(&j.fit, "not identifiable", 0.24, 0.006);
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_MODEL, "where the integral cannot know, the model gives it");
	is_dbl(j.p.energy_net_j, 0.24, 1e-12, "energy above idle from the model");
	is_dbl(j.p.energy_active_j, IDLE_W * ACTIVE_S + 0.24, 1e-9, "active = idle + model");
	is_dbl(j.e.j_per_gb, (IDLE_W * ACTIVE_S + 0.24) / 1e-3, 1e-6, "J/GB from it");
	ok(j.e.j_per_gb_u95 < 0.12 / 1e-3, "its U95 the model's (%.4g)", j.e.j_per_gb_u95);
	ok(j.e.iops_per_ma > 0 && j.e.iops_per_ma < IOS / ACTIVE_S / (IDLE_W / VOLTS * 1e3),
	   "IOPS/mA follows the model's current (%.4g)", j.e.iops_per_ma);
	is_int(j.v.uncertain, 0, "not uncertain: every figure within 5 %% (%s %.3g)",
	       j.v.uncertainty->figure, j.v.uncertainty->u95_rel);
	ok(strstr(j.v.uncertainty->dominant, "model fit") != NULL, "dominant names the fit: %s",
	   j.v.uncertainty->dominant);
	job_free(&j);
}

static void test_disagree(void)
{
	struct job j;

	job_init(&j, 0.10, 0.01);
	fit_init(&j.fit, "ok", 0.24, 0.006);
	apply(&j);
	is_int(j.v.uncertain, 1, "0.10 +- 0.01 J against 0.24 +- 0.006 J: uncertain");
	ok(!strncmp(j.v.uncertainty->dominant, "model and readings disagree", 27), "says so: %s",
	   j.v.uncertainty->dominant);
	job_free(&j);
	job_init(&j, 0.235, 0.01);
	fit_init(&j.fit, "ok", 0.24, 0.006);
	apply(&j);
	ok(!strstr(j.v.uncertainty->dominant, "disagree"), "within their U95: no disagreement");
	job_free(&j);
}

/*
 * A poor fit beside an integral that sees the activity (a stream at the meter's ceiling):
 * the model's disagreement is said on the model, not the job's verdict; with an ok fit, or
 * where the model carries the headline, it stays the job's.
 */
static void test_poor_fit_disagrees(void)
{
	struct result_energy_model m = { 0 };
	struct job j;

	job_init(&j, 0.20, 0.004);
	j.p.energy_model = &m;
	m.why = xstrdup("residuals 400 x the meter's noise");
	fit_init(&j.fit, "poor fit", 0.24, 0.006);
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_INTEGRATION, "the readings give the headline");
	is_int(j.v.uncertain, 0, "0.20 +- 0.004 J against a poor fit's 0.24 +- 0.006 J: not "
	       "uncertain (%s %.3g)", j.v.uncertainty->figure, j.v.uncertainty->u95_rel);
	ok(!strstr(j.v.uncertainty->dominant, "disagree"), "nor does its reason say so: %s",
	   j.v.uncertainty->dominant);
	ok(m.why && strstr(m.why, "residuals 400 x the meter's noise; its energy above idle") &&
	       strstr(m.why, "disagrees with the readings'"),
	   "the model says it, after its own why: %s", m.why);
	free(m.why);
	job_free(&j);
	job_init(&j, 0.20, 0.004);
	m.why = NULL;
	j.p.energy_model = &m;
	fit_init(&j.fit, "ok", 0.24, 0.006);
	apply(&j);
	is_int(j.v.uncertain, 1, "the same with an ok fit: uncertain");
	ok(!strncmp(j.v.uncertainty->dominant, "model and readings disagree", 27), "says so: %s",
	   j.v.uncertainty->dominant);
	ok(m.why == NULL, "and leaves the model's why alone");
	job_free(&j);
}

static void test_aliased(void)
{
	struct job j;

	/* aliased: the integral's U95 cannot be known, the caller left the job valid */
	job_init(&j, 0.02, NAN);
	fit_init(&j.fit, "ok", 0.24, 0.006);
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_MODEL, "an aliased job with an ok fit: from the model");
	ok(isfinite(j.p.energy_net_j_u95) && isfinite(j.e.j_per_gb_u95), "its figures have a U95");
	is_int(j.v.valid, 1, "valid");
	is_int(j.v.uncertain, 0, "and measured, not flagged");
	job_free(&j);
	job_init(&j, 0.02, NAN);
	fit_init(&j.fit, "not identifiable", NAN, NAN);
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_INTEGRATION, "a fit that cannot price the job is not used");
	ok(isnan(j.p.energy_net_j_u95), "the aliased figures stay unknown");
	is_int(j.v.uncertain, 1, "and uncertain");
	job_free(&j);
	job_init(&j, 0.02, NAN);
	fit_init(&j.fit, "ok", 0.24, 0.006);
	j.fit.j_per_op[COMPL_READ] = -2e-4;
	j.fit.u95_j[COMPL_READ] = 1e-4;
	ok(!energy_model_usable(&j.fit), "a cost below zero beyond its U95: not usable");
	fit_init(&j.fit, "poor fit", 0.24, 0.006);
	j.fit.chi2_dof = 20;
	ok(energy_model_usable(&j.fit), "residuals 4.5 x the noise: usable, the misfit is in its "
	   "U95");
	fit_init(&j.fit, "ok", 0.001, 0.002);
	ok(energy_model_usable(&j.fit) && !estimator_model_sees_aliased(&j.fit),
	   "aliased, a fit that says the operations cost nothing measures nothing");
	fit_init(&j.fit, "ok", 0.0, 1e-9);
	j.fit.readings_with_ops = 1;
	ok(!energy_model_usable(&j.fit), "a fit whose windows hold no operation: not usable");
	job_free(&j);
}

static void test_per_op_judged(void)
{
	struct job j;

	job_init(&j, 0.24, 0.006);
	fit_init(&j.fit, "ok", 0.24, 0.012);
	j.fit.sum_u95_j = j.fit.sum_j * 0.2; /* the record's energy known to 20 % */
	apply(&j);
	is_str(j.p.estimator, ESTIMATOR_INTEGRATION, "the readings know the net better");
	is_int(j.v.uncertain, 1, "a per-operation figure at 20 %% is judged: uncertain");
	is_str(j.v.uncertainty->figure, "sum_uj_per_op", "and named");
	is_dbl(j.v.uncertainty->u95_rel, 0.2, 1e-9, "with its U95");
	job_free(&j);
}

/* A buffered write paid at its flush: a cost near zero is judged against the job's energy
 * above idle per operation, not as a share of itself (+-1240 % kept every buffered logger
 * uncertain whatever the meter). */
static void test_near_zero_judged(void)
{
	struct job j;
	double per_op;

	job_init(&j, 0.24, 0.006);
	fit_init(&j.fit, "ok", 0.24, 0.006);
	j.fit.sum_base = j.fit.sum_with = -1;
	j.fit.sum_j = j.fit.sum_u95_j = NAN;
	j.fit.j_per_op[COMPL_WRITE] = 12e-6; /* 12 +- 155 uJ */
	j.fit.u95_j[COMPL_WRITE] = 155e-6;
	j.fit.j_per_op[COMPL_FLUSH] = 2.0 * 0.24 / IOS; /* a flush every other write */
	j.fit.u95_j[COMPL_FLUSH] = 0.01 * j.fit.j_per_op[COMPL_FLUSH];
	apply(&j);
	per_op = 0.24 / IOS;
	is_str(j.v.uncertainty->figure, "write_uj_per_op", "the write is the least well known");
	is_dbl(j.v.uncertainty->u95_rel, 155e-6 / per_op, 1e-9,
	       "its U95 over the job's energy per operation (%.3g), not over 12 uJ (%.0f)",
	       j.v.uncertainty->u95_rel, 155.0 / 12);
	ok(strstr(j.v.uncertainty->dominant, "a cost near zero") != NULL, "and says so: %s",
	   j.v.uncertainty->dominant);
	job_free(&j);
}

/* A cost below the job's energy per operation but known apart from zero (a write beside
 * the awake time every operation pays) is judged as a share of itself, not called "near
 * zero". */
static void test_small_cost_judged(void)
{
	struct job j;

	job_init(&j, 0.24, 0.006);
	fit_init(&j.fit, "ok", 0.24, 0.006);
	j.fit.sum_base = j.fit.sum_with = -1;
	j.fit.sum_j = j.fit.sum_u95_j = NAN;
	j.fit.j_per_op[COMPL_WRITE] = 0.5 * 0.24 / IOS; /* half the job's energy per op */
	j.fit.u95_j[COMPL_WRITE] = 0.2 * j.fit.j_per_op[COMPL_WRITE];
	apply(&j);
	is_str(j.v.uncertainty->figure, "write_uj_per_op", "the write is judged");
	is_dbl(j.v.uncertainty->u95_rel, 0.2, 1e-9, "as a share of itself (%.3g), not of the job's energy per operation (0.1)",
	       j.v.uncertainty->u95_rel);
	ok(strstr(j.v.uncertainty->dominant, "near zero") == NULL, "and not called near zero: %s",
	   j.v.uncertainty->dominant);
	job_free(&j);
}

/* The sampling term scales by what the readings caught, or the model's where larger: a
 * smaller catch gives no smaller interval. */
static void test_catch(void)
{
	struct emodel_fit f;
	double prev = 0, caught, scale, u95_prev = 0;
	int i;

	fit_init(&f, "ok", 0.24, 0.006);
	for (i = 10; i >= 1; i--) {
		caught = 0.03 * i;
		scale = estimator_sampling_scale_j(caught, &f, 0);
		ok(scale >= 0.24 - 1e-12 && scale >= caught, "caught %.2f J: scaled by %.3f J",
		   caught, scale);
		if (caught < 0.24)
			ok(scale >= prev - 1e-12, "no smaller scale for less caught");
		prev = scale;
	}
	is_dbl(estimator_sampling_scale_j(0.1, NULL, 0), 0.1, 0, "without a model: the catch");
	/* A relative sampling spread of 30 % over that scale, a model known to +-0.09 J: the
	 * headline's U95 does not shrink as the catch does, and a catch far below the model's
	 * figure is flagged. */
	for (i = 10; i >= 1; i--) {
		struct job j;

		caught = 0.024 * i;
		job_init(&j, caught, 0.3 * estimator_sampling_scale_j(caught, &f, 0));
		fit_init(&j.fit, "ok", 0.24, 0.09);
		apply(&j);
		ok(j.p.energy_net_j_u95 >= u95_prev - 1e-12, "catch %.3f J: U95 %.4g J, not below %.4g",
		   caught, j.p.energy_net_j_u95, u95_prev);
		if (0.24 - caught > hypot(0.09, 0.3 * 0.24))
			is_int(j.v.uncertain, 1, "catch %.3f J of 0.24: flagged", caught);
		u95_prev = j.p.energy_net_j_u95;
		job_free(&j);
	}
}

int main(void)
{
	test_model_chosen();
	test_disagree();
	test_poor_fit_disagrees();
	test_aliased();
	test_per_op_judged();
	test_near_zero_judged();
	test_small_cost_judged();
	test_catch();
	return done_testing();
}
