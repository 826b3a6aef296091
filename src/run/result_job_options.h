/* SPDX-License-Identifier: MIT */
/* A job's resolved options as the result writes them, keys as fio spells them. */
#ifndef IOWATT_RESULT_JOB_OPTIONS_H
#define IOWATT_RESULT_JOB_OPTIONS_H

#include "io/job.h"
#include "result/result.h"

/* Resolved job options, keys as fio spells them (duration keys end in _ns). */
void result_job_options(struct job_result *j, const struct job_opts *jo);

#endif
