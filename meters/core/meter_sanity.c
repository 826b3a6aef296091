/* SPDX-License-Identifier: MIT */
/* Readings that cannot be true: outside the meter's declared range, or W that is not V x A. */
#include <math.h>
#include <stdio.h>

#include "meters/meter.h"

/*
 * Rated limits are not the converter's full scale: a reading a little above one is a real
 * reading (a 24 V tester on a 24.3 V supply), one far above it is a corrupt field (0xFFFF
 * read as 655.35 V). Five percent of the limit separates the two.
 */
#define RANGE_MARGIN 0.05
/*
 * Meters that average W and V x A over slightly different windows, or round each on its
 * own, disagree by more than the resolution on a load that changes between conversions;
 * a corrupt field disagrees by far more.
 */
#define VA_REL_TOL 0.05
/* Below any meter's resolution where none is declared: the tolerance is never zero. */
#define FLOOR_V 0.001
#define FLOOR_A 0.0001
#define FLOOR_W 0.001

static double nz(double x)
{
	return isfinite(x) && x > 0 ? x : 0;
}

/* How far a reading of this quantity may sit beyond a limit and still be noise. */
static double slack(const struct meter_acc_q *q, double floor)
{
	double t = 2 * (nz(q->offset) + nz(q->resolution) + 2 * nz(q->noise));

	return t > floor ? t : floor;
}

static int above(double x, double lim, double tol)
{
	return isfinite(lim) && x > lim + fabs(lim) * RANGE_MARGIN + tol;
}

int meter_sample_check(const struct meter_info *in, const struct meter_sample *s, char *why,
		       size_t len)
{
	const struct meter_range *r = &in->range;
	const struct meter_accuracy *acc = &in->accuracy;
	double tv = slack(&acc->v, FLOOR_V), ta = slack(&acc->a, FLOOR_A);
	double tw = slack(&acc->w, FLOOR_W), va, tol;
	/* A signed quantity's limit holds both ways; W is signed where V or A is. */
	unsigned sw = METER_SIGNED_W | METER_SIGNED_V | METER_SIGNED_A;
	double v = in->signed_q & METER_SIGNED_V ? fabs(s->v) : s->v;
	double a = in->signed_q & METER_SIGNED_A ? fabs(s->a) : s->a;
	double w = in->signed_q & sw ? fabs(s->w) : s->w;

	if (isinf(s->v) || isinf(s->a) || isinf(s->w)) {
		snprintf(why, len, "an infinite reading");
		return -1;
	}
	if (above(v, r->v_max, tv)) {
		snprintf(why, len, "%.4g V %s the %s's %.4g V", s->v,
			 s->v < 0 ? "beyond" : "above", in->model, r->v_max);
		return -1;
	}
	if (s->v < -tv && !(in->signed_q & METER_SIGNED_V)) {
		snprintf(why, len, "a negative voltage (%.4g V)", s->v);
		return -1;
	}
	if (above(a, r->a_max, ta)) {
		snprintf(why, len, "%.4g A %s the %s's %.4g A", s->a,
			 s->a < 0 ? "beyond" : "above", in->model, r->a_max);
		return -1;
	}
	/* iowatt measures what a load draws: on a meter that does not declare its current
	 * signed, a current flowing back (a shunt wired the wrong way round, a sign read
	 * wrong) would make energy negative and a J/GB below zero. */
	if (s->a < -ta && !(in->signed_q & METER_SIGNED_A)) {
		snprintf(why, len, "a negative current (%.4g A): current flowing back from the "
			 "load (a shunt wired the wrong way round?)", s->a);
		return -1;
	}
	if (above(w, r->w_max, tw)) {
		snprintf(why, len, "%.4g W %s the %s's %.4g W", s->w,
			 s->w < 0 ? "beyond" : "above", in->model, r->w_max);
		return -1;
	}
	if (s->w < -(tw + nz(fabs(s->v)) * ta) && !(in->signed_q & sw)) {
		snprintf(why, len, "a negative power (%.4g W)", s->w);
		return -1;
	}
	if (!in->frame_vaw || (s->flags & SAMPLE_W_COMPUTED) || !isfinite(s->v) ||
	    !isfinite(s->a) || !isfinite(s->w))
		return 0;
	va = s->v * s->a;
	tol = tw + fabs(s->a) * tv + fabs(s->v) * ta + fabs(va) * VA_REL_TOL;
	if (fabs(s->w - va) > tol) {
		snprintf(why, len, "%.4g W where V x A is %.4g W (%.4g V x %.4g A)", s->w, va, s->v,
			 s->a);
		return -1;
	}
	return 0;
}
