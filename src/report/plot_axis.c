/* SPDX-License-Identifier: MIT */
/* Chart axes a reader reads without exponents: the unit an axis of power or energy is drawn in, the step of a linear axis. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/si_units.h"
#include "report/plot.h"

/* The unit the tables' rule (and --units) gives every powered job's figure of the set. */
static struct si_unit set_unit(const struct rr_set *set, enum si_quantity q,
			       double (*figure)(const struct job_result *))
{
	double *v;
	size_t i, k, n = 0, cap = 0;
	struct si_unit u;

	for (i = 0; i < set->nres; i++)
		cap += set->res[i].rep.njobs;
	v = xcalloc(cap + 1, sizeof(*v));
	for (i = 0; i < set->nres; i++)
		for (k = 0; k < set->res[i].rep.njobs; k++)
			if (set->res[i].has_power && rr_has_power(&set->res[i].rep.jobs[k]))
				v[n++] = figure(&set->res[i].rep.jobs[k]);
	u = si_unit_for(q, v, n);
	free(v);
	return u;
}

static double job_j_per_gb(const struct job_result *j)
{
	return rr_eff(j)->j_per_gb;
}

static double job_active_w(const struct job_result *j)
{
	return rr_power(j)->active_w;
}

struct si_unit plot_jpg_unit(const struct rr_set *set)
{
	return set_unit(set, SI_ENERGY, job_j_per_gb);
}

struct si_unit plot_power_unit(const struct rr_set *set)
{
	return set_unit(set, SI_POWER, job_active_w);
}

/* Pixels a tick label's character takes at the charts' 12 pt font, and the gap between labels. */
#define TICK_CHAR_PX 7.5
#define TICK_GAP_CHARS 2

double plot_axis_step(double max, double axis_px)
{
	static const double nice[] = { 1, 2, 5 };
	char last[48], first[48];
	double step, decade, chars;
	int i;

	if (!(max > 0) || !isfinite(max) || !(axis_px > 0))
		return 1;
	/* from about ten ticks up, until the labels of the longest kind fit side by side */
	decade = pow(10, floor(log10(max / 10)));
	for (i = 0;; i++) {
		step = nice[i % 3] * decade * pow(10, i / 3);
		if (step * 10 < max)
			continue;
		/* the longest label: the last tick's digits or the step's decimals */
		snprintf(last, sizeof(last), "%.10g", floor(max / step) * step);
		snprintf(first, sizeof(first), "%.10g", step);
		chars = (double)(strlen(last) > strlen(first) ? strlen(last) : strlen(first));
		if ((max / step + 1) * (chars + TICK_GAP_CHARS) * TICK_CHAR_PX <= axis_px ||
		    step >= max)
			return step;
	}
}
