/* SPDX-License-Identifier: MIT */
/* The plan of a run, printed before it starts and alone with --dry-run. */
#ifndef IOWATT_RUN_PLAN_H
#define IOWATT_RUN_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/job.h"

/*
 * The whole disk under --target ("sda"), from stat alone: nothing is opened or created.
 * 0, or -ENOENT when the path's filesystem has no block device (tmpfs) or does not exist.
 */
int run_plan_disk(const char *target, const char *sysfs_root, char *disk, size_t len);

struct run_result;
struct size_choice;

/* What the plan's estimates rest on. */
struct plan_basis {
	const struct run_result *rep; /* the earlier result, or this run's so far; NULL: none */
	const char *name;	      /* "the earlier result PATH", "this run's round 1" */
	int metered;		      /* jobs have idle baselines and tails */
	uint64_t period_ns;	      /* the slowest meter's sample period (0: none) */
	int period_known;	      /* 0 before the meters are open (--dry-run) */
	const struct size_choice *sizes; /* this run's calibrations by job; NULL: none yet */
	unsigned rounds_done;	      /* rounds already run: left out */
	uint64_t feed_lag_ns;	      /* how long after its end a phase closes (the run's
				       * SESSION_FEED_LAG_NS): part of every idle baseline */
};

/*
 * Every job with its mode, block size, depth, threads, size per thread, loops and the
 * bytes it moves in all (size x threads x loops), then the estimated duration
 * (run_plan_eta).
 */
void run_plan_print(FILE *fp, const struct run_config *cfg, const char *disk,
		    const struct plan_basis *in);
/*
 * "LEAD: 14 min 20 s (I/O 9 min 02 s; from ...)": per job its I/O at its calibrated rate,
 * else at the rate of its name, else its shape in the basis, else a size=auto's 1 to 2
 * times its target; its idle baseline, tail, calibration and set-up as the basis's
 * loops of its name took them, else from its options (a range: tails settle within 1 to 2
 * times tail_hold). Says what it rests on; "at least" when some I/O time is unknown.
 */
void run_plan_eta(FILE *fp, const struct run_config *cfg, const struct plan_basis *in,
		  const char *lead);

struct rate_basis;
/* The device's earlier result for a run on ro->target (the plan's basis) (its disk's name in disk), read
 * before any I/O: --rates-from must be one. 0 or -errno (logged). */
int run_plan_open_basis(struct rate_basis *b, const struct run_opts *ro, char *disk, size_t len);

#endif
