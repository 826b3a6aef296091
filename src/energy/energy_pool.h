/* SPDX-License-Identifier: MIT */
/* A device's per-operation costs pooled over its jobs: their normal equations added and solved. */
#ifndef IOWATT_ENERGY_POOL_H
#define IOWATT_ENERGY_POOL_H

#include <errno.h>
#include <stddef.h>

#include "energy/energy_model.h"
#include "result/result.h"

/*
 * The costs shared by the jobs whose fits are nm[0..n) (each with its own idle level):
 * their normal equations added, a pair still in lock-step given as its sum, U95 from the
 * pooled covariance x the misfit over every job (their disagreement included) + the gain.
 * out's idle, lag and window are NAN; out->normal holds the sum. 0, or -EINVAL when
 * nothing can be pooled (out->why says why).
 */
int energy_pool_fit(const struct result_model_normal *const *nm, size_t n, struct emodel_fit *out);

/*
 * out, a pool of the jobs whose models are em[0..n) (named name[]), judged by what they
 * support: a job that fits poorly alone makes it a poor fit; a job that could not price a
 * kind makes it not identifiable where the pool prices that kind no better than +-100 % of
 * the job's lock-step sum (of the cost itself where the job gave none).
 * An out that is not ok already stays as it is.
 */
void energy_pool_judge(const struct result_energy_model *const *em, const char *const *name,
		       size_t n, struct emodel_fit *out);

/* r->energy_models rebuilt: one per meter and block size over r's finished jobs. */
void energy_pool_run(struct run_result *r);

#endif
