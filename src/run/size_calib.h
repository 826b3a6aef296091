/* SPDX-License-Identifier: MIT */
/* size=auto's calibration: a job timed on the run's target until its rate holds. */
#ifndef IOWATT_SIZE_CALIB_H
#define IOWATT_SIZE_CALIB_H

#include "io/job.h"
#include "plan/size_choice.h"

struct run_ctx;

/*
 * Calibrate jo on the run's target: on a quiet device, checked and retried
 * as plan/size_choice.h says; fills c's rate_bps, calib_s, calib_bytes, tries, ref and note. 0, or -errno
 * (logged) when the job cannot run or no try moved anything.
 */
int size_calib_run(struct run_ctx *rc, size_t j, const struct job_opts *jo, struct size_choice *c);

#endif
