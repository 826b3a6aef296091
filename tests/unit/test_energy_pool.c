/* SPDX-License-Identifier: MIT */
/* The pooled per-operation costs on hand-made normal equations: a cost below zero, the jobs' sandwiches. */
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
	return done_testing();
}
