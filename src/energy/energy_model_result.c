/* SPDX-License-Identifier: MIT */
/* The power model's readings as a run collects them, and its fit as the result's figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"

void emodel_readings_reset(struct emodel_readings *mr)
{
	mr->n = mr->n_gain = 0;
	mr->stride = 1;
	mr->skip = 0;
	mr->gain_rel_sum = 0;
}

void emodel_readings_add(struct emodel_readings *mr, uint64_t t_ns, double w,
			 const struct meter_u *u)
{
	size_t i;

	if (mr->skip) {
		mr->skip--;
		return;
	}
	if (mr->n == EMODEL_READINGS_MAX) {
		for (i = 0; i < mr->n / 2; i++)
			mr->r[i] = mr->r[2 * i];
		mr->n /= 2;
		mr->stride *= 2;
	}
	mr->skip = mr->stride - 1;
	mr->r[mr->n++] = (struct emodel_reading){
		t_ns, w, hypot(isfinite(u->noise) ? u->noise : 0, isfinite(u->res) ? u->res : 0)
	};
	if (isfinite(u->gain) && w != 0) {
		mr->gain_rel_sum += fabs(u->gain / w);
		mr->n_gain++;
	}
}

char *emodel_pair_name(int base, int with)
{
	return xasprintf("%s+%s", emodel_kind_names[base], emodel_kind_names[with]);
}

struct result_energy_model *energy_model_figures(const struct emodel_readings *mr,
						 const struct completions *ops, uint64_t t0_ns,
						 uint64_t t1_ns, double idle_w, double idle_u_w,
						 uint64_t period_ns, struct emodel_fit *fit)
{
	struct emodel_in in = {
		.r = mr->r, .n = mr->n, .t0_ns = t0_ns, .t1_ns = t1_ns, .ops = ops,
		.idle_w = idle_w, .idle_u_w = idle_u_w,
		.gain_rel = mr->n_gain ? mr->gain_rel_sum / (double)mr->n_gain : 0,
		.period_ns = period_ns,
	};
	struct result_energy_model *m;
	struct emodel_fit f;

	if (!ops || !mr->n || energy_model_fit(&in, &f)) {
		memset(fit, 0, sizeof(*fit));
		fit->net_j = fit->net_u95_j = NAN;
		return NULL;
	}
	*fit = f;
	m = xcalloc(1, sizeof(*m));
	m->verdict = xstrdup(energy_model_verdict_name(f.verdict));
	m->why = f.why[0] ? xstrdup(f.why) : NULL;
	m->read_uj_per_op = f.j_per_op[COMPL_READ] * 1e6;
	m->read_uj_per_op_u95 = f.u95_j[COMPL_READ] * 1e6;
	m->write_uj_per_op = f.j_per_op[COMPL_WRITE] * 1e6;
	m->write_uj_per_op_u95 = f.u95_j[COMPL_WRITE] * 1e6;
	m->flush_uj_per_op = f.j_per_op[COMPL_FLUSH] * 1e6;
	m->flush_uj_per_op_u95 = f.u95_j[COMPL_FLUSH] * 1e6;
	m->sum_uj_per_op = f.sum_j * 1e6;
	m->sum_uj_per_op_u95 = f.sum_u95_j * 1e6;
	m->sum_ratio = f.sum_ratio;
	m->sum_of = f.sum_base >= 0 ? emodel_pair_name(f.sum_base, f.sum_with) : NULL;
	m->awake_w = NAN;
	m->idle_w = f.idle_w;
	m->idle_w_u95 = f.idle_u95_w;
	m->readings = f.readings;
	m->residual_rms_w = f.residual_rms_w;
	m->noise_rms_w = f.noise_rms_w;
	m->lag_s = f.lag_s;
	m->window_s = f.window_s;
	m->hold_s = f.hold_s;
	m->lag_fitted = f.grid;
	m->energy_net_j = f.net_j;
	m->energy_net_j_u95 = f.net_u95_j;
	m->normal = f.normal;
	return m;
}
