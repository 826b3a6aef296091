/* SPDX-License-Identifier: MIT */
/* The power a system draws asleep, read from a run of its own (size --sleep-from RESULT[:JOB]). */
#ifndef IOWATT_SLEEP_FIGURE_H
#define IOWATT_SLEEP_FIGURE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/results_read.h"

/*
 * Two runs on supplies further apart than this are two systems: a sleep power measured
 * at 3.3 V says little about a device sized at 5 V (its regulator, its leakage).
 */
#define SLEEP_MAX_V_DIFF 0.05

/*
 * A sleep figure and where it comes from. A measured command (`iowatt measure --idle 0 --
 * sleep 600`) gives its active phase: the command is what the user chose to measure; a
 * benchmark job gives its idle phase (its active phase is I/O).
 */
struct sleep_figure {
	struct rr_set set;	   /* the one result file it comes from */
	const struct rr_result *r; /* set.res[0] */
	const struct job_result *j;
	int phase;		   /* enum phase: PHASE_IDLE or PHASE_ACTIVE */
	double w, w_u95;	   /* mean power over the phase as measured (it may be < 0) */
	double a, a_u95;	   /* mean current over the phase; NAN: unknown */
	int a_derived;		   /* a is w over v (the result has no idle current) */
	double v;		   /* the supply: the meter's mean over the job's active phase */
	double duration_s;
	uint64_t samples;	   /* counted; or duration / interval when samples_estimated */
	int samples_estimated;
	double interval_ms;	   /* the meter's sampling interval; NAN: unknown */
	char meter[96];		   /* "PPK2 on ppk2-5" */
};

/*
 * Load spec, RESULT[:JOB] (a RESULT that exists as a file is taken whole, a colon and
 * all), and read its sleep figure. Without JOB the result must have one job with power
 * data. 0 or -EINVAL (logged, naming the file and the job: no such job, no power data,
 * a failed or invalid job, a phase without a figure).
 */
int sleep_figure_load(const char *spec, struct sleep_figure *sf);
void sleep_figure_free(struct sleep_figure *sf);

/*
 * May sf stand in for the sleep of r, whose supply is v volts? Not when the two supplies
 * differ by more than SLEEP_MAX_V_DIFF (or either is unknown), nor when one is emulated
 * and the other measured unless mix_emulated says so. 0 or -EINVAL (logged, naming both
 * files).
 */
int sleep_figure_check(const struct sleep_figure *sf, const struct rr_result *r, double v,
		       int mix_emulated);

/*
 * The same for every result of set with power data, each at the supply of its job that
 * models a stream of writes (the battery chart's line), else of any job with power. 0 or
 * -EINVAL at the first that may not (logged).
 */
int sleep_figure_check_set(const struct sleep_figure *sf, const struct rr_set *set,
			   int mix_emulated);

/* "FILE, job 'J', idle phase" (the file name cleaned of control characters). */
void sleep_figure_source(const struct sleep_figure *sf, char *buf, size_t len);
/* "600 s, 60000 samples every 10.0 ms" ("about 12 samples" when estimated). */
void sleep_figure_extent(const struct sleep_figure *sf, char *buf, size_t len);

#endif
