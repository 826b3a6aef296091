/* SPDX-License-Identifier: MIT */
/* The costs per read, write and flush the plan's forecast simulates, and the fit's misfit and window: an earlier result's, else assumed. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "plan/forecast_costs.h"

static const double assumed_uj[COMPL_KINDS] = { FORECAST_READ_UJ, FORECAST_WRITE_UJ,
						FORECAST_FLUSH_UJ };
static const char *const kind_names[COMPL_KINDS] = { "read", "write", "flush" };

/* The pooled model of jo's block size and direct setting with the most readings. */
static const struct result_device_model *pooled_for(const struct run_result *rep,
						    const struct job_opts *jo)
{
	const struct result_device_model *best = NULL, *d;
	size_t i;

	for (i = 0; i < rep->nenergy_models; i++) {
		d = &rep->energy_models[i];
		if (d->bs == jo->bs && d->direct == (jo->direct != 0) &&
		    (!best || d->readings > best->readings))
			best = d;
	}
	return best;
}

/* The power.energy_model of rep's job named as jo (the first that has one). */
static const struct result_energy_model *job_model_for(const struct run_result *rep,
						       const struct job_opts *jo)
{
	size_t i;

	for (i = 0; i < rep->njobs; i++)
		if (rep->jobs[i].jobname && !strcmp(rep->jobs[i].jobname, jo->name) &&
		    rep->jobs[i].power && rep->jobs[i].power->energy_model)
			return rep->jobs[i].power->energy_model;
	return NULL;
}

static int kind_of(const char *name, size_t len)
{
	int k;

	for (k = 0; k < COMPL_KINDS; k++)
		if (strlen(kind_names[k]) == len && !strncmp(name, kind_names[k], len))
			return k;
	return -1;
}

/* One kind's measured cost where it is above zero. */
static void take(struct forecast_costs *c, int k, double uj, double u95)
{
	if (!(uj > 0))
		return;
	c->uj[k] = uj;
	c->u95_uj[k] = u95;
	c->how[k] = FORECAST_MEASURED;
}

/* sum_of "base+with": sum = c_base + ratio x c_with, split as the assumed costs are. */
static void take_sum(struct forecast_costs *c, const char *sum_of, double sum, double u95,
		     double ratio)
{
	const char *plus = sum_of ? strchr(sum_of, '+') : NULL;
	int b = plus ? kind_of(sum_of, (size_t)(plus - sum_of)) : -1;
	int w = plus ? kind_of(plus + 1, strlen(plus + 1)) : -1;
	double share;

	if (b < 0 || w < 0 || b == w || !(sum > 0) || !(ratio > 0) || c->how[b] || c->how[w])
		return;
	share = sum / (assumed_uj[b] + ratio * assumed_uj[w]);
	c->uj[b] = assumed_uj[b] * share;
	c->uj[w] = assumed_uj[w] * share;
	c->u95_uj[b] = assumed_uj[b] * u95 / (assumed_uj[b] + ratio * assumed_uj[w]);
	c->u95_uj[w] = assumed_uj[w] * u95 / (assumed_uj[b] + ratio * assumed_uj[w]);
	c->how[b] = c->how[w] = FORECAST_SPLIT;
}

static int any_measured(const struct forecast_costs *c)
{
	int k;

	for (k = 0; k < COMPL_KINDS; k++)
		if (c->how[k] != FORECAST_ASSUMED)
			return 1;
	return 0;
}

static void assumed(struct forecast_costs *c)
{
	int k;

	for (k = 0; k < COMPL_KINDS; k++) {
		c->uj[k] = assumed_uj[k];
		c->u95_uj[k] = NAN;
		c->how[k] = FORECAST_ASSUMED;
	}
}

/* The device as the result names it: the user's --label, else its disk ("loop1"). */
static const char *device_of(const struct run_result *rep)
{
	const struct result_device *d = rep->context ? rep->context->device : NULL;

	if (rep->label)
		return rep->label;
	return d && d->name ? d->name : "a device not named";
}

/* The misfit of the model the costs came from (pooled d, else the job's m), and the window,
 * hold and lag of the job of jo's name, where it has a model that found them. */
static void fit_shape(const struct rate_basis *s, const struct job_opts *jo,
		      const struct result_device_model *d, const struct result_energy_model *m,
		      struct forecast_costs *c)
{
	const struct result_energy_model *own = job_model_for(&s->rep, jo);

	if (d && d->misfit > 0)
		c->misfit = d->misfit;
	else if (m && m->noise_rms_w > 0 && m->residual_rms_w >= 0)
		c->misfit = m->residual_rms_w / m->noise_rms_w;
	if (!own || !(own->window_s > 0))
		return;
	c->window_s = own->window_s;
	c->hold_s = own->hold_s >= 0 ? own->hold_s : 0;
	c->lag_s = isfinite(own->lag_s) ? own->lag_s : 0;
}

void forecast_costs_for(const struct rate_basis *s, const struct job_opts *jo,
			struct forecast_costs *c)
{
	const struct result_device_model *d = NULL;
	const struct result_energy_model *m = NULL;
	char bs[32];

	memset(c, 0, sizeof(*c));
	assumed(c);
	c->misfit = c->window_s = c->hold_s = c->lag_s = NAN;
	if (!s || !s->have) {
		snprintf(c->from, sizeof(c->from), "assumed (no earlier result's: --costs-from "
			 "RESULT takes a device's measured ones)");
		return;
	}
	d = pooled_for(&s->rep, jo);
	if (d) {
		take(c, COMPL_READ, d->read_uj_per_op, d->read_uj_per_op_u95);
		take(c, COMPL_WRITE, d->write_uj_per_op, d->write_uj_per_op_u95);
		take(c, COMPL_FLUSH, d->flush_uj_per_op, d->flush_uj_per_op_u95);
		take_sum(c, d->sum_of, d->sum_uj_per_op, d->sum_uj_per_op_u95, d->sum_ratio);
	}
	if (!any_measured(c) && (m = job_model_for(&s->rep, jo))) {
		d = NULL;
		take(c, COMPL_READ, m->read_uj_per_op, m->read_uj_per_op_u95);
		take(c, COMPL_WRITE, m->write_uj_per_op, m->write_uj_per_op_u95);
		take(c, COMPL_FLUSH, m->flush_uj_per_op, m->flush_uj_per_op_u95);
		take_sum(c, m->sum_of, m->sum_uj_per_op, m->sum_uj_per_op_u95, m->sum_ratio);
	}
	fit_shape(s, jo, any_measured(c) ? d : NULL, any_measured(c) ? m : NULL, c);
	fmt_size(jo->bs, bs, sizeof(bs));
	if (!any_measured(c))
		snprintf(c->from, sizeof(c->from), "assumed: %s prices no %s %s operation of %s",
			 s->path, bs, jo->direct ? "direct" : "buffered", device_of(&s->rep));
	else if (d)
		snprintf(c->from, sizeof(c->from), "%s: %s's pooled model (%s, %s, %" PRIu64
			 " job%s, %s)", s->path, device_of(&s->rep), bs,
			 jo->direct ? "direct" : "buffered", d->jobs, d->jobs == 1 ? "" : "s",
			 d->verdict ? d->verdict : "?");
	else
		snprintf(c->from, sizeof(c->from), "%s: %s's job %s (its model, %s)", s->path,
			 device_of(&s->rep), jo->name, m->verdict ? m->verdict : "?");
}
