/* SPDX-License-Identifier: MIT */
/* A meter's declared accuracy and one reading's standard uncertainty from it (GUM type B). */
#include <math.h>

#include "core/accuracy.h"
#include "core/sample.h"

/* GUM 4.3.7: a bound +-b with nothing known inside it is a rectangle, u = b / sqrt(3);
 * rounding to a step q is a rectangle of half-width q / 2, u = q / sqrt(12). */
#define SQRT3 1.7320508075688772
#define SQRT12 3.4641016151377544

static double bound_u(double b)
{
	return isfinite(b) ? b / SQRT3 : 0;
}

static double step_of(double q)
{
	return isfinite(q) && q > 0 ? q : 0;
}

const struct meter_acc_q *accuracy_current(const struct meter_accuracy *acc, double a)
{
	unsigned i;

	for (i = 0; i < acc->nranges; i++)
		if (fabs(a) <= acc->ranges[i].a_max || i + 1 == acc->nranges)
			return &acc->ranges[i].a;
	return &acc->a;
}

static void unknown(struct meter_u *u)
{
	if (u)
		u->gain = u->offset = u->res = u->noise = u->step = NAN;
}

/* A quantity read directly: V or A. */
static void direct_u(const struct meter_acc_q *q, double x, struct meter_u *u)
{
	if (!u)
		return;
	if (!isfinite(x)) {
		unknown(u);
		return;
	}
	u->gain = bound_u(q->gain) * fabs(x);
	u->offset = bound_u(q->offset);
	u->step = step_of(q->resolution);
	u->res = u->step / SQRT12;
	u->noise = isfinite(q->noise) ? q->noise : 0;
}

/*
 * W = V x A to first order: relative gains add in quadrature (the two channels' errors
 * are independent of each other), an offset in A weighs V and one in V weighs A. A meter
 * that reports its own power rounds it to its register's step; one whose power iowatt
 * computes carries the V and A steps.
 */
static void power_u(const struct meter_accuracy *acc, double v, double a, double w, int w_own,
		    const struct meter_acc_q *qa, struct meter_u *u)
{
	double gv, ga;

	if (!isfinite(w) || !isfinite(v) || !isfinite(a)) {
		unknown(u);
		return;
	}
	if (isfinite(acc->w.gain)) {
		u->gain = bound_u(acc->w.gain) * fabs(w);
		u->offset = bound_u(acc->w.offset);
	} else {
		gv = isfinite(acc->v.gain) ? acc->v.gain : 0;
		ga = isfinite(qa->gain) ? qa->gain : 0;
		u->gain = bound_u(hypot(gv, ga)) * fabs(w);
		u->offset = hypot(bound_u(qa->offset) * v, bound_u(acc->v.offset) * a);
	}
	if (w_own && step_of(acc->w.resolution) > 0)
		u->step = acc->w.resolution;
	else
		u->step = hypot(step_of(qa->resolution) * v, step_of(acc->v.resolution) * a);
	u->res = u->step / SQRT12;
	u->noise = hypot(isfinite(qa->noise) ? qa->noise * v : 0,
			 isfinite(acc->v.noise) ? acc->v.noise * a : 0);
	if (isfinite(acc->w.noise))
		u->noise = hypot(u->noise, acc->w.noise);
}

void accuracy_reading_u(const struct meter_accuracy *acc, double v, double a, double w, int w_own,
			struct meter_u *uv, struct meter_u *ua, struct meter_u *uw)
{
	const struct meter_acc_q *qa;

	if (!acc || !acc->source) {
		unknown(uv);
		unknown(ua);
		unknown(uw);
		return;
	}
	qa = accuracy_current(acc, a);
	direct_u(&acc->v, v, uv);
	direct_u(qa, a, ua);
	if (uw)
		power_u(acc, v, a, w, w_own, qa, uw);
}

double accuracy_u_combined(const struct meter_u *u)
{
	return sqrt(u->gain * u->gain + u->offset * u->offset + u->res * u->res +
		    u->noise * u->noise);
}

void meter_sample_u(const struct meter_accuracy *acc, const struct meter_sample *s,
		    struct meter_u *v, struct meter_u *a, struct meter_u *w)
{
	accuracy_reading_u(acc, s->v, s->a, s->w, !(s->flags & SAMPLE_W_COMPUTED), v, a, w);
}
