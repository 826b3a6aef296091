/* SPDX-License-Identifier: MIT */
/* Each power and efficiency figure's expanded uncertainty, from its phases' parts. */
#ifndef IOWATT_UNCERTAINTY_H
#define IOWATT_UNCERTAINTY_H

#include <stdint.h>

#include "result/result.h"
#include "energy/energy.h"

/* Coverage factor: U = k u_c gives about 95 % for a roughly normal combination. */
#define UNC_K 2.0
/* max_uncertainty's default (the job option's), for callers without a job. */
#define UNC_LIMIT 0.05

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

/*
 * The idle baseline's verdict, after uncertainty_fill (docs/energy.md, "The idle
 * baseline"): fewer than `need` quiet readings once some were excluded, or idle above
 * active within the U95 of their difference, make the job uncertain; idle above active by
 * more than that makes it not valid. The reason goes to p's idle_baseline, the validity's
 * reasons (not valid) or the front of its dominant term (uncertain).
 */
/* Two estimates of one figure disagree: the job is uncertain, and why (text) goes first
 * in the dominant term, the budget's own largest term after it when its U95 is known. */
void uncertainty_disagreement(struct result_validity *v, const char *why);
void uncertainty_idle_judge(const struct energy_phases *es, unsigned need,
			    struct result_power *p, struct result_validity *v);

#endif
