/* SPDX-License-Identifier: MIT */
/* Each power and efficiency figure's expanded uncertainty, from its phases' parts. */
#ifndef IOWATT_UNCERTAINTY_H
#define IOWATT_UNCERTAINTY_H

#include <stdint.h>

#include "result/result.h"
#include "run/energy.h"

/* Coverage factor: U = k u_c gives about 95 % for a roughly normal combination. */
#define UNC_K 2.0
/* max_uncertainty's default (the job option's), for callers without a job. */
#define UNC_LIMIT 0.05

/* Standard uncertainties (k = 1) of one figure, absolute, in its unit. */
struct unc_budget {
	double gain, offset, resolution, noise, discretisation, baseline;
	int known;
};

/*
 * A figure that is a linear combination of phase integrals of one quantity:
 * sum over phases of coef[p] x integral[p][ch]. Errors that are the same all run (gain,
 * offset) add with their signs, so an offset cancels in an energy net of idle; the rest
 * add in quadrature. The idle phase's random parts are the `baseline` term when the
 * figure also draws on another phase.
 */
void unc_combine(const struct energy_phases *es, int ch, const double coef[PHASE_COUNT],
		 struct unc_budget *b);
/* sqrt of the sum of squares; NAN when not known. */
double unc_standard(const struct unc_budget *b);

/* What names a meter in the dominant term: its model's first word ("UM25C"). */
struct unc_naming {
	const char *model;
	const struct meter_accuracy *acc;
	uint64_t period_ns;
};

/*
 * Fill every _u95 of p and e, from es and their figures (the one place a _u95 is set),
 * and v's uncertainty: the headline figure (j_per_gb, else iops_per_ma, else
 * energy_active_j, else charge_mah), its relative U95 against limit (`uncertain` above
 * it) and its dominant term in words.
 */
void uncertainty_fill(const struct energy_phases *es, uint64_t bytes, uint64_t ios,
		      const struct unc_naming *nm, double limit, struct result_power *p,
		      struct result_efficiency *e, struct result_validity *v);

#endif
