/* SPDX-License-Identifier: MIT */
/* size=auto in a run: calibrate each job on the target, resize it, retake a loop that came out short. */
#ifndef IOWATT_SIZE_AUTO_H
#define IOWATT_SIZE_AUTO_H

#include <stddef.h>
#include <stdint.h>

#include "io/job.h"
#include "plan/size_choice.h"
#include "result/result.h"

struct run_ctx;

/*
 * The run's job j as it runs this round: rc->jobs[j] with size=auto resolved (calibrated
 * now, or once before round 1 with --same-size, and no smaller than --same-size-as
 * results). 0, or -errno (logged) when the calibration could not run.
 */
int size_auto_resolve(struct run_ctx *rc, size_t j);

/*
 * A calibration can be wrong in a way no check before the job sees: the device ran the job
 * much faster than it ran the calibration (a throttle that had been draining, a cache that
 * warmed), so the job ended before its meter could take ENERGY_MIN_SAMPLES samples. res is
 * the job's loop just run at the calibrated size: if it finished, is not valid for want of
 * samples, and was shorter than those samples take, the size its own rate needs (larger
 * than the calibrated one); if it is valid but UNCERTAIN, the size size_auto_precision_factor
 * asks for; else 0. Once per size=auto choice, before any loop of it is in the result.
 */
uint64_t size_auto_retake_size(const struct run_ctx *rc, size_t j, const struct job_result *res);

/* Resize job j to size (from size_auto_retake_size), saying why in the log and, through
 * size_auto_report, in the result's size_auto.retake. */
void size_auto_retake(struct run_ctx *rc, size_t j, const struct job_result *res, uint64_t size);

/* The retake did not finish (stopped, failed): job j back to the choice before it, whose
 * first run the result keeps; kept (a string literal) ends the retake string saying so. */
void size_auto_retake_undo(struct run_ctx *rc, size_t j, const struct size_choice *before,
			   const char *kept);

/* Every size=auto job calibrated before the first measured one (--same-size). */
int size_auto_resolve_all(struct run_ctx *rc);

#endif
