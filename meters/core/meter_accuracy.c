/* SPDX-License-Identifier: MIT */
/* A reading's standard uncertainty from the accuracy its meter's datasheet declares. */
#include <math.h>

#include "meters/meter.h"

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

const struct meter_acc_q *meter_acc_current(const struct meter_accuracy *acc, double a)
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
static void power_u(const struct meter_accuracy *acc, const struct meter_sample *s,
		    const struct meter_acc_q *qa, struct meter_u *u)
{
	double v = s->v, a = s->a, w = s->w, gv, ga;

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
	if (!(s->flags & SAMPLE_W_COMPUTED) && step_of(acc->w.resolution) > 0)
		u->step = acc->w.resolution;
	else
		u->step = hypot(step_of(qa->resolution) * v, step_of(acc->v.resolution) * a);
	u->res = u->step / SQRT12;
	u->noise = hypot(isfinite(qa->noise) ? qa->noise * v : 0,
			 isfinite(acc->v.noise) ? acc->v.noise * a : 0);
	if (isfinite(acc->w.noise))
		u->noise = hypot(u->noise, acc->w.noise);
}

void meter_sample_u(const struct meter_accuracy *acc, const struct meter_sample *s,
		    struct meter_u *v, struct meter_u *a, struct meter_u *w)
{
	const struct meter_acc_q *qa;

	if (!acc || !acc->source) {
		unknown(v);
		unknown(a);
		unknown(w);
		return;
	}
	qa = meter_acc_current(acc, s->a);
	direct_u(&acc->v, s->v, v);
	direct_u(qa, s->a, a);
	if (w)
		power_u(acc, s, qa, w);
}
