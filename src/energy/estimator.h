/* SPDX-License-Identifier: MIT */
/* The headline's estimator: the readings' integral or the power model, and the verdict on both. */
#ifndef IOWATT_ESTIMATOR_H
#define IOWATT_ESTIMATOR_H

#include <stdint.h>

#include "result/result.h"
#include "energy/energy.h"
#include "energy/energy_model.h"

#define ESTIMATOR_INTEGRATION "integration"
#define ESTIMATOR_MODEL "model"
/* Per-operation energies are judged when the job's energy above idle is at least this
 * share of its active energy (the share uncertainty.c judges energy_net_j from). */
#define ESTIMATOR_NET_MIN_SHARE 1e-3

/*
 * The energy above idle of the active phase the sampling term scales by: what the readings
 * caught (caught_j), or the model's where it is usable and larger, so a run whose readings
 * caught less does not get a narrower interval (docs/energy.md, "The headline's estimator").
 */
double estimator_sampling_scale_j(double caught_j, const struct emodel_fit *fit,
				  double tail_net_j);

/*
 * Can the model measure a job whose readings are in step with its bursts (aliased): usable,
 * and its operations' energy above zero beyond its U95. A fit that says they cost nothing
 * cannot be told from one made at the lag where every window falls between them.
 */
int estimator_model_sees_aliased(const struct emodel_fit *fit);

/*
 * After uncertainty_fill: where the model is usable and its energy above idle is known
 * better than the integral's (or the integral's cannot be known: aliased), the job's
 * energy, J/GB, IOPS/mA and energy per I/O come from the model (p->estimator says which);
 * the two disagreeing beyond their combined U95 make the job uncertain; the model's
 * per-operation energies are judged against limit with the other figures. model names the
 * meter in the dominant term ("UM25C").
 */
void estimator_apply(const struct emodel_fit *fit, const struct energy_phases *es,
		     uint64_t bytes, uint64_t ios, double limit, const char *model,
		     struct result_power *p, struct result_efficiency *e,
		     struct result_validity *v);

#endif
