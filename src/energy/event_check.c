/* SPDX-License-Identifier: MIT */
/* Event-locked energies per op checked against the power model fitted to the same readings at 100 ms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/energy_model.h"
#include "energy/event_check.h"
#include "energy/uncertainty.h"

#define K COMPL_KINDS
#define TEXT_LEN 256

/*
 * The series as a 10 Hz meter would have read it: the mean of each 100 ms whose 1 ms
 * bins all hold readings, at the end of its window, weighed by the deconvolution's
 * residuals (their RMS, widened by their correlation, over the bins averaged).
 */
static void decimate(const struct el_series *s, const struct result_event_locked *r,
		     struct emodel_readings *mr)
{
	double u_bin = isfinite(r->residual_rms_w) ? r->residual_rms_w : 0;
	struct meter_u u = { .gain = NAN, .offset = NAN, .res = NAN, .step = NAN };
	size_t b, i, full;
	double sum;

	u.noise = u_bin * sqrt(isfinite(r->inflation) ? r->inflation : 1) / sqrt(EL_CHECK_BINS);
	emodel_readings_reset(mr);
	for (b = 0; (b + 1) * EL_CHECK_BINS <= s->n; b++) {
		for (sum = 0, full = 1, i = b * EL_CHECK_BINS; i < (b + 1) * EL_CHECK_BINS; i++) {
			full &= s->cnt[i] > 0;
			sum += s->cnt[i] ? (double)s->w_sum[i] / s->cnt[i] : 0;
		}
		if (full)
			emodel_readings_add(mr, s->t0_ns + (b + 1) * EL_CHECK_BINS * EL_BIN_NS,
					    sum / EL_CHECK_BINS, &u);
	}
}

static const double *el_costs(const struct result_event_locked *r, int u95)
{
	static double c[K];

	c[COMPL_READ] = u95 ? r->read_uj_per_op_u95 : r->read_uj_per_op;
	c[COMPL_WRITE] = u95 ? r->write_uj_per_op_u95 : r->write_uj_per_op;
	c[COMPL_FLUSH] = u95 ? r->flush_uj_per_op_u95 : r->flush_uj_per_op;
	return c;
}

void event_locked_check(struct result_event_locked *r, const struct el_series *s,
			const struct completions *ops, double idle_w, double idle_u_w)
{
	struct emodel_readings *mr = xcalloc(1, sizeof(*mr));
	double el[K], el_u[K], m[K], m_u[K], d, u, worst = -1;
	struct emodel_fit fit;
	unsigned k;

	r->agrees_with_model = RESULT_NULL_BOOL;
	r->difference_uj = r->combined_u95_uj = NAN;
	decimate(s, r, mr);
	r->model = energy_model_figures(mr, ops, s->t0_ns, s->t0_ns + s->n * EL_BIN_NS, idle_w,
					idle_u_w, EL_CHECK_BINS * EL_BIN_NS, &fit);
	free(mr);
	if (!r->model)
		return;
	memcpy(el, el_costs(r, 0), sizeof(el));
	memcpy(el_u, el_costs(r, 1), sizeof(el_u));
	m[COMPL_READ] = r->model->read_uj_per_op;
	m[COMPL_WRITE] = r->model->write_uj_per_op;
	m[COMPL_FLUSH] = r->model->flush_uj_per_op;
	m_u[COMPL_READ] = r->model->read_uj_per_op_u95;
	m_u[COMPL_WRITE] = r->model->write_uj_per_op_u95;
	m_u[COMPL_FLUSH] = r->model->flush_uj_per_op_u95;
	for (k = 0; k < K; k++) {
		if (!isfinite(el[k]) || !isfinite(el_u[k]) || !isfinite(m[k]) || !isfinite(m_u[k]))
			continue;
		d = el[k] - m[k];
		u = hypot(el_u[k], m_u[k]);
		if (r->agrees_with_model == RESULT_NULL_BOOL)
			r->agrees_with_model = 1;
		if (fabs(d) > u)
			r->agrees_with_model = 0;
		/* the kind furthest apart for its interval */
		if (u > 0 && fabs(d) / u > worst) {
			worst = fabs(d) / u;
			free(r->check_kind);
			r->check_kind = xstrdup(emodel_kind_names[k]);
			r->difference_uj = d;
			r->combined_u95_uj = u;
		}
	}
}

void event_locked_judge(const struct result_event_locked *r, struct result_validity *v)
{
	char buf[2 * TEXT_LEN];

	if (!r || r->agrees_with_model != 0)
		return;
	snprintf(buf, sizeof(buf),
		 "event-locked and model disagree: %s %.4g uJ per op apart, beyond their "
		 "combined U95 %.3g uJ",
		 r->check_kind ? r->check_kind : "?", r->difference_uj, r->combined_u95_uj);
	uncertainty_disagreement(v, buf);
}
