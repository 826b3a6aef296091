/* SPDX-License-Identifier: MIT */
/* Pooled costs on hand-made equations: below zero, the jobs' sandwiches, verdicts, sync patterns. */
#include <math.h>
#include <string.h>

#include "core/completions.h"
#include "energy/energy_pool.h"
#include "tap.h"

/*
 * One job's equations for writes alone (readings weighted by the meter's noise): a is the
 * information, b its product with the readings, so the cost is b / a; yy leaves a chi^2
 * per degree of freedom of 1, a fit as good as the meter's noise allows.
 */
static void one_kind(struct result_model_normal *nm, double cost_j)
{
	const double a = 1e8, dof = 50;

	memset(nm, 0, sizeof(*nm));
	nm->valid = 1;
	nm->a[COMPL_WRITE][COMPL_WRITE] = a;
	nm->b[COMPL_WRITE] = a * cost_j;
	nm->yy = a * cost_j * cost_j + dof;
	nm->dof = dof;
	nm->ops[COMPL_WRITE] = 100;
	nm->gain_rel = 0.01;
	nm->readings = 60;
}

/*
 * A logger's equations: writes and flushes of c_j each whose readings correlate at r
 * (idle out) with information a each, too little to split them; as its fit gives them,
 * only their sum where sum_ratio > 0 (ratio flushes per write as its windows counted).
 */
static void logger(struct result_model_normal *nm, double a, double r, double c_j,
		   double sum_ratio)
{
	const double dof = 50;

	memset(nm, 0, sizeof(*nm));
	nm->valid = 1;
	nm->a[COMPL_WRITE][COMPL_WRITE] = nm->a[COMPL_FLUSH][COMPL_FLUSH] = a;
	nm->a[COMPL_WRITE][COMPL_FLUSH] = nm->a[COMPL_FLUSH][COMPL_WRITE] = r * a;
	nm->b[COMPL_WRITE] = nm->b[COMPL_FLUSH] = (1 + r) * a * c_j;
	nm->yy = 2 * (1 + r) * a * c_j * c_j + dof;
	nm->dof = dof;
	nm->ops[COMPL_WRITE] = 128;
	nm->ops[COMPL_FLUSH] = 129;
	nm->gain_rel = 0.01;
	nm->readings = 120;
	if (sum_ratio > 0) {
		nm->sum_pair = 1u << COMPL_WRITE | 1u << COMPL_FLUSH;
		nm->sum_first = COMPL_WRITE;
		nm->sum_ratio = sum_ratio;
	}
}

/* A job's model as the result keeps it: its verdict and write cost (uJ, NAN: not priced
 * alone), its equations the one_kind ones of that cost. */
static char v_ok[] = "ok", v_poor[] = "poor fit", v_ni[] = "not identifiable";
static char why_s[] = "as the test says", k_bs[] = "bs", k_direct[] = "direct",
	    k_fds[] = "fdatasync", spec[] = "um25c:/dev/null", jname[] = "J";

static void job_model(struct result_energy_model *em, char *verdict, double write_uj)
{
	memset(em, 0, sizeof(*em));
	em->verdict = verdict;
	em->why = why_s;
	em->read_uj_per_op = em->flush_uj_per_op = NAN;
	em->write_uj_per_op = write_uj;
	one_kind(&em->normal, isnan(write_uj) ? 0.001 : write_uj * 1e-6);
}

/* Pooled by energy_pool_run: jobs of one meter and block size, buffered with fdatasync
 * fds[i] (direct where direct[i]); the count of pooled models, the first's in *first. */
static size_t pooled(const int64_t *fds, const int *direct, size_t n,
		     struct result_device_model *first)
{
	struct result_opt opts[8][3];
	struct result_meter_figures mf[8];
	struct result_energy_model em[8];
	struct job_result jobs[8];
	struct run_result r;
	size_t i, got;

	memset(&r, 0, sizeof(r));
	memset(jobs, 0, sizeof(jobs));
	memset(mf, 0, sizeof(mf));
	for (i = 0; i < n; i++) {
		opts[i][0] = (struct result_opt){ .key = k_bs, .type = RESULT_OPT_INT, .i = 4096 };
		opts[i][1] = (struct result_opt){ .key = k_direct, .type = RESULT_OPT_INT,
						  .i = direct[i] };
		opts[i][2] = (struct result_opt){ .key = k_fds, .type = RESULT_OPT_INT,
						  .i = fds[i] };
		job_model(&em[i], v_ok, 1000);
		mf[i].spec = spec;
		mf[i].power.energy_model = &em[i];
		jobs[i].jobname = jname;
		jobs[i].status = RESULT_OK;
		jobs[i].options = opts[i];
		jobs[i].noptions = 3;
		jobs[i].meters = &mf[i];
		jobs[i].nmeters = 1;
	}
	r.jobs = jobs;
	r.njobs = n;
	energy_pool_run(&r);
	got = r.nenergy_models;
	if (got)
		*first = (struct result_device_model){ .bs = r.energy_models[0].bs,
						       .direct = r.energy_models[0].direct,
						       .writes_per_flush =
							       r.energy_models[0].writes_per_flush,
						       .jobs = r.energy_models[0].jobs };
	result_device_models_free(&r);
	return got;
}

int main(void)
{
	struct result_model_normal nm;
	const struct result_model_normal *p = &nm;
	struct emodel_fit f;
	double u95;

	one_kind(&nm, 0.010);
	ok(!energy_pool_fit(&p, 1, &f), "a write of 10 mJ pools");
	is_dbl(f.j_per_op[COMPL_WRITE], 0.010, 1e-9, "its cost recovered");
	ok(f.u95_j[COMPL_WRITE] > 0 && f.u95_j[COMPL_WRITE] < 0.001, "with a U95 of %g J",
	   f.u95_j[COMPL_WRITE]);
	is_int(f.verdict, EMODEL_OK, "a positive cost that fits the noise: ok");

	one_kind(&nm, -0.010);
	ok(!energy_pool_fit(&p, 1, &f), "a write of -10 mJ pools");
	is_dbl(f.j_per_op[COMPL_WRITE], -0.010, 1e-9, "its cost recovered as it is");
	is_int(f.verdict, EMODEL_POOR_FIT, "a cost below zero beyond its U95: poor fit");
	ok(strstr(f.why, "write costs -10000") && strstr(f.why, "below zero"), "and why: %s", f.why);

	/* the job's sandwich: residuals 3x the noise where they fall, from 4 dof */
	one_kind(&nm, 0.010);
	ok(!energy_pool_fit(&p, 1, &f), "made without the job's sandwich");
	u95 = f.u95_j[COMPL_WRITE];
	nm.robust = 1;
	nm.meat[COMPL_WRITE][COMPL_WRITE] = 9 * nm.a[COMPL_WRITE][COMPL_WRITE];
	nm.rob_dof = 4;
	ok(!energy_pool_fit(&p, 1, &f), "with it");
	ok(f.u95_j[COMPL_WRITE] > 3 * u95, "the sandwich x Student's t widens the U95 (%g J, "
	   "the misfit alone %g J)", f.u95_j[COMPL_WRITE], u95);
	nm.sel[COMPL_WRITE][COMPL_WRITE] = 1e-6;
	ok(!energy_pool_fit(&p, 1, &f), "with the grid's spread");
	ok(f.u95_j[COMPL_WRITE] > 2e-3, "it adds (%g J)", f.u95_j[COMPL_WRITE]);

	one_kind(&nm, -0.00001);
	ok(!energy_pool_fit(&p, 1, &f), "a write of -10 uJ pools");
	is_int(f.verdict, EMODEL_OK, "a cost below zero within its U95 (%g +- %g J): ok",
	       f.j_per_op[COMPL_WRITE], f.u95_j[COMPL_WRITE]);

	/* the pool is never better than what its jobs support */
	{
		struct result_energy_model em[2];
		const struct result_energy_model *emp[2] = { &em[0], &em[1] };
		const char *names[2] = { "LOG", "MIXW" };
		const struct result_model_normal *nmp[2] = { &em[0].normal, &em[1].normal };

		job_model(&em[0], v_ok, 10000);
		job_model(&em[1], v_poor, 10000);
		ok(!energy_pool_fit(nmp, 2, &f), "two jobs pool");
		is_int(f.verdict, EMODEL_OK, "their pooled equations agree: ok");
		energy_pool_judge(emp, names, 2, &f);
		is_int(f.verdict, EMODEL_POOR_FIT, "one of them fits poorly alone: the pool too");
		ok(strstr(f.why, "MIXW fits poorly") != NULL, "and says which: %s", f.why);

		job_model(&em[1], v_ok, 10000);
		ok(!energy_pool_fit(nmp, 2, &f), "two jobs that fit");
		energy_pool_judge(emp, names, 2, &f);
		is_int(f.verdict, EMODEL_OK, "both ok: the pool ok");

		/* a job that could not price its write, and a pool that knows it to +-300 % */
		job_model(&em[0], v_ni, NAN);
		em[0].normal.a[COMPL_WRITE][COMPL_WRITE] = 1e4;
		em[0].normal.b[COMPL_WRITE] = 1e4 * 0.001;
		em[1] = em[0];
		em[1].verdict = v_ni;
		ok(!energy_pool_fit(nmp, 2, &f), "two jobs that could not price a write");
		is_int(f.verdict, EMODEL_OK, "their pooled equations alone: ok (%g +- %g J)",
		       f.j_per_op[COMPL_WRITE], f.u95_j[COMPL_WRITE]);
		energy_pool_judge(emp, names, 2, &f);
		is_int(f.verdict, EMODEL_NOT_IDENTIFIABLE, "judged: not identifiable");
		ok(strstr(f.why, "LOG could not tell its write") != NULL, "why: %s", f.why);
		/* what the jobs knew was their record, write + flush: 30 mJ */
		em[0].sum_uj_per_op = em[1].sum_uj_per_op = 30000;
		ok(!energy_pool_fit(nmp, 2, &f), "again");
		energy_pool_judge(emp, names, 2, &f);
		is_int(f.verdict, EMODEL_OK, "a write known to +-25 mJ splits a record of 30 mJ: ok");
	}

	/* a logger that could not split its write from its flush (their U95 each above their
	 * sum, though their windows' counts correlate at 0.95 only): a pool of it alone gives
	 * the sum, as the job did, not a split it does not know */
	{
		struct result_model_normal lg, mix;
		const struct result_model_normal *two[2] = { &lg, &mix };
		double sum;

		logger(&lg, 1e6, 0.95, 0.0012, 0);
		p = &lg;
		ok(!energy_pool_fit(&p, 1, &f), "a logger its fit split pools");
		ok(f.sum_base < 0 && isfinite(f.j_per_op[COMPL_WRITE]), "split as its fit split it "
		   "(write %g +- %g J)", f.j_per_op[COMPL_WRITE], f.u95_j[COMPL_WRITE]);
		logger(&lg, 1e6, 0.95, 0.0012, 0.97);
		ok(!energy_pool_fit(&p, 1, &f), "a logger that gave only write+flush pools");
		ok(f.sum_base == COMPL_WRITE && f.sum_with == COMPL_FLUSH,
		   "as the job's sum: write with its flushes (%d+%d)", f.sum_base, f.sum_with);
		ok(isnan(f.j_per_op[COMPL_WRITE]) && isnan(f.j_per_op[COMPL_FLUSH]),
		   "neither priced alone");
		/* the merged column's cost: b_w / a_ww */
		sum = lg.b[COMPL_WRITE] / lg.a[COMPL_WRITE][COMPL_WRITE];
		is_dbl(f.sum_j, sum, 1e-12, "the sum as the job's column gives it (%g J)", f.sum_j);
		ok(f.sum_u95_j > 0 && f.sum_u95_j < sum, "with a U95 below it (%g J)", f.sum_u95_j);
		is_dbl(f.sum_ratio, 0.97, 1e-12, "the job's flushes per write, not the ops' 129/128");
		is_int(f.verdict, EMODEL_NOT_IDENTIFIABLE, "not identifiable, as the job");
		ok(strstr(f.why, "cannot be told apart in any job") && strstr(f.why, "only a write"),
		   "why: %s", f.why);

		/* a job that moves them apart still splits them */
		logger(&mix, 1e9, 0.3, 0.0012, 0);
		ok(!energy_pool_fit(two, 2, &f), "with a mixed job");
		ok(f.sum_base < 0 && fabs(f.j_per_op[COMPL_FLUSH] - 0.0012) < f.u95_j[COMPL_FLUSH],
		   "split: the flush %g +- %g J", f.j_per_op[COMPL_FLUSH], f.u95_j[COMPL_FLUSH]);
		/* a second logger that summed the pair too: still their sum */
		logger(&mix, 1e6, 0.9, 0.0012, 0.8);
		mix.sum_first = COMPL_FLUSH; /* 0.8 writes per flush: 1.25 flushes per write */
		ok(!energy_pool_fit(two, 2, &f), "with a logger that summed flush+write");
		ok(f.sum_base == COMPL_WRITE, "the sum of the first job's first kind");
		is_dbl(f.sum_ratio, (0.97 * 128 + 1.25 * 128) / 256, 1e-12,
		       "its ratio the jobs' own, weighted by their writes (%g)", f.sum_ratio);
	}

	/* buffered flushes that carry other numbers of writes are pooled apart */
	{
		const int64_t fds[3] = { 1, 4, 1 };
		const int buffered[3] = { 0, 0, 0 }, direct[3] = { 1, 1, 1 };
		struct result_device_model d;

		is_int((int)pooled(fds, buffered, 3, &d), 2,
		       "buffered jobs of fdatasync 1, 4, 1: two pools");
		ok(d.writes_per_flush == 1 && d.jobs == 2, "the first of the two with 1 write a flush "
		   "(%llu jobs)", (unsigned long long)d.jobs);
		is_int((int)pooled(fds, direct, 3, &d), 1, "direct: one pool (a flush carries none)");
		ok(d.writes_per_flush == 0 && d.jobs == 3, "of the 3 jobs, writes per flush 0");
	}
	return done_testing();
}
