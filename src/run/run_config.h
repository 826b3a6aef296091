/* SPDX-License-Identifier: MIT */
/* A run's jobs: a profile's sections or one inline job, the command line's job flags over each. */
#ifndef IOWATT_RUN_CONFIG_H
#define IOWATT_RUN_CONFIG_H

#include <stddef.h>

#include "core/options.h"
#include "io/job.h"

/* A job option given on the command line, kept until the jobs it applies to exist. */
struct job_setting {
	const struct opt_desc *d; /* a row of job_option_table() */
	const char *value;	  /* as given; NULL for a flag */
};

/*
 * run: cfg->run.profile's jobs (found by name as profile_find does, only the sections
 * cfg->run.jobs_filter names), or one job named after what it does when there is no
 * profile; then set over every job, and each job checked. 0 or -EINVAL (logged, naming
 * the option or FILE:LINE).
 */
int run_config_jobs(struct run_config *cfg, const struct job_setting *set, size_t nset);
/* measure: one job named after cfg->cmd_argv[0], with set over it. 0 or -EINVAL (logged). */
int run_config_measure_job(struct run_config *cfg, const struct job_setting *set, size_t nset);
/* Frees the run options' strings, the jobs and the command; cfg is all zero after. */
void run_config_free(struct run_config *cfg);

#endif
