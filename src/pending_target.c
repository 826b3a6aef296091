/* SPDX-License-Identifier: MIT */
/* Weak stand-ins for functions other branches define, so this branch links on its own. */
#include <math.h>

#include "job.h"
#include "result.h"
#include "stats.h"

/*
 * Each is replaced by the real definition at link time once that branch is merged;
 * the stand-ins do only what the target and result code need meanwhile.
 */
__attribute__((weak)) uint64_t job_extent(const struct job_opts *jo)
{
	return (uint64_t)(jo->numjobs ? jo->numjobs : 1) * (jo->filesize ? jo->filesize : jo->size);
}

__attribute__((weak)) json_t *result_options_json(const struct job_opts *jo)
{
	(void)jo;
	return json_object();
}

__attribute__((weak)) double lat_stddev(const struct lat_stats *ls)
{
	return ls->n > 1 ? sqrt(ls->m2 / (double)(ls->n - 1)) : 0.0;
}

__attribute__((weak)) uint64_t lat_percentile(const struct lat_stats *ls, double p)
{
	(void)p;
	return ls->n ? (uint64_t)ls->mean_ns : 0;
}

__attribute__((weak)) const double lat_default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};
__attribute__((weak)) const size_t lat_default_percentiles_count =
	sizeof(lat_default_percentiles) / sizeof(lat_default_percentiles[0]);
