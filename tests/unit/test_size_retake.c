/* SPDX-License-Identifier: MIT */
/* size=auto's retake for precision: how much longer an UNCERTAIN job must run, from its budget. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result/result.h"
#include "plan/size_choice.h"
#include "tap.h"

/* A budget as the run's uncertainty would give it (k = 1 terms), u95 from their sum. */
static struct result_uncertainty budget(double gain, double offset, double disc, double samp,
					double limit)
{
	struct result_uncertainty u;

	memset(&u, 0, sizeof(u));
	u.figure = (char *)"j_per_gb";
	u.limit = limit;
	u.budget.gain = gain;
	u.budget.offset = offset;
	u.budget.discretisation = disc;
	u.budget.sampling = samp;
	u.budget.resolution = u.budget.noise = u.budget.baseline = 0;
	u.u95_rel = 2 * sqrt(gain * gain + offset * offset + disc * disc +
			     (isfinite(samp) ? samp * samp : 0));
	return u;
}

static struct result_validity judged(struct result_uncertainty *u)
{
	struct result_validity v;

	memset(&v, 0, sizeof(v));
	v.valid = 1;
	v.uncertainty = u;
	v.uncertain = u->u95_rel > u->limit;
	return v;
}

/* The U95 the budget predicts after running x times as long. */
static double u95_after(const struct result_uncertainty *u, double x)
{
	const struct result_unc_budget *b = &u->budget;
	double s = isfinite(b->sampling) ? b->sampling : 0;

	return 2 * sqrt(b->gain * b->gain + b->offset * b->offset +
			(b->discretisation * b->discretisation + s * s) / x);
}

int main(void)
{
	/* bench/eta.sh's quick, round 1, RND4K-Q32T1-read at 2 Hz on an SD-speed loop */
	struct result_uncertainty u = budget(0.00065, 0.0023, 0.0083, 0.026, 0.05);
	struct result_validity v = judged(&u);
	double x = size_auto_precision_factor(&v);

	ok(v.uncertain && fabs(u.u95_rel - 0.0546) < 0.0005, "the example is UNCERTAIN: +-%.2f %%",
	   100 * u.u95_rel);
	ok(x > 1.85 && x < 1.93, "sampling-dominated +-5.5 %% against 5 %%: %.3fx as long", x);
	is_dbl(u95_after(&u, x), SIZE_AUTO_RETAKE_AIM * 0.05, 1e-9,
	       "which brings the predicted U95 to 0.8 x the limit exactly");

	v.uncertain = 0;
	ok(size_auto_precision_factor(&v) == 0, "a job within its limit is not run again");
	v.uncertain = 1;
	v.valid = 0;
	ok(size_auto_precision_factor(&v) == 0, "nor is an invalid one (its reasons are not precision)");

	u = budget(0.00065, 0.022, 0.0083, 0.01, 0.05);
	v = judged(&u);
	ok(v.uncertain && size_auto_precision_factor(&v) == 0,
	   "an offset of 2.2 %% (k = 1) alone exceeds the aim: no length helps (+-%.1f %%)",
	   100 * u.u95_rel);

	u = budget(0.00065, 0.0023, 0.01, 0.06, 0.05);
	v = judged(&u);
	x = size_auto_precision_factor(&v);
	ok(v.uncertain && x == 0, "sampling at 6 %% (k = 1) would need over 4x as long: not run again");

	u = budget(0.00065, 0.0023, 0.03, NAN, 0.05);
	v = judged(&u);
	x = size_auto_precision_factor(&v);
	ok(x > 2.2 && x < 2.4, "an unknown sampling term counts as none: discretisation 3 %% -> %.2fx",
	   x);

	u = budget(0.00065, 0.0023, 0.0083, 0.02, 0.05);
	v = judged(&u);
	v.uncertain = 1; /* as idle_uncertain marks it: idle above active, U95 within the limit */
	ok(u.u95_rel < 0.05 && size_auto_precision_factor(&v) == 0,
	   "uncertain for its baseline with U95 +-%.1f %% inside the limit: not run again",
	   100 * u.u95_rel);

	u = budget(0.00065, 0.0023, 0.0083, 0.01, 0.05);
	u.budget.resolution = 0.024; /* a steady low signal: its systematic part stays */
	u.u95_rel = 2 * sqrt(0.00065 * 0.00065 + 0.0023 * 0.0023 + 0.0083 * 0.0083 + 0.01 * 0.01 +
			     0.024 * 0.024);
	v = judged(&u);
	ok(v.uncertain && size_auto_precision_factor(&v) == 0,
	   "resolution 2.4 %% (k = 1) does not average down: no length helps (+-%.1f %%)",
	   100 * u.u95_rel);

	u = budget(0.00065, 0.0023, 0.0083, 0.026, 0.05);
	u.u95_rel = NAN;
	v = judged(&u);
	v.uncertain = 1;
	ok(size_auto_precision_factor(&v) == 0, "an unknown U95 is not a precision to reach");
	v.uncertainty = NULL;
	ok(size_auto_precision_factor(&v) == 0, "nor is a job not judged (older results)");

	{
		/* a fast INA226 first, the 2 Hz UM25C the size was chosen for second */
		struct result_meter_figures m[2];
		struct result_uncertainty uu;
		struct job_result res;
		struct size_choice c;

		memset(m, 0, sizeof(m));
		memset(&res, 0, sizeof(res));
		memset(&c, 0, sizeof(c));
		m[0].spec = (char *)"ina226:/dev/i2c-1";
		m[0].validity.valid = 1;
		m[1].spec = (char *)"um25c:/dev/rfcomm0";
		m[1].validity.samples_active = 9;
		res.meters = m;
		res.nmeters = 2;
		res.validity = &m[0].validity;
		c.meter_index = 1;
		ok(size_auto_retake_validity(&c, &res) == &m[1].validity,
		   "two meters: the retake judges the slow one the size was chosen for");
		c.meter_index = 5;
		ok(size_auto_retake_validity(&c, &res) == res.validity,
		   "and the first meter's when the index is not in the result");
		/* both valid; the fast one's figure over its limit from noise */
		c.meter_index = 1;
		m[1].validity.valid = 1;
		uu = budget(0.00065, 0.0023, 0.0083, 0.026, 0.05);
		m[0].validity = judged(&uu);
		ok(size_auto_retake_validity(&c, &res) == &m[0].validity,
		   "both valid: precision follows the meter whose figure needs the longer run");
	}
	return done_testing();
}
