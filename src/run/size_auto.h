/* SPDX-License-Identifier: MIT */
/* size=auto: a short calibration of the job, then a fixed size long enough for the meters. */
#ifndef IOWATT_SIZE_AUTO_H
#define IOWATT_SIZE_AUTO_H

#include <stdint.h>

#include "core/clock.h"
#include "io/job.h"
#include "result/result.h"

struct run_ctx;

/* How long the calibration runs at most, outside every measurement. */
#define SIZE_AUTO_CALIB_NS (1000 * NS_PER_MS)
/* Without a meter and without SECONDS: the active phase lasts at least this long. */
#define SIZE_AUTO_DEFAULT_NS (2 * NS_PER_SEC)
/*
 * Twice the time the meters need: the rate of a shared or throttled disk moves between
 * the calibration and the job (make demo at load 9 on this project's 2-core machine:
 * calibrated at 4.94 MB/s, ran at 12.4 MB/s), and a quarter to spare left 3 of 8 demo
 * jobs a few samples short.
 */
#define SIZE_AUTO_HEADROOM 2.0
/* Beyond this a size is a typo's or a RAM disk's: capped, and said. */
#define SIZE_AUTO_MAX (1ULL << 40)
#define SIZE_AUTO_REASON_LEN 256

/*
 * What size=auto chose for a job and why: the result's jobs[].size_auto. requested_ns is
 * SECONDS (0: none), meter_ns what the slowest meter needs for ENERGY_MIN_SAMPLES samples
 * with headroom, target_ns the larger, rate the calibration's bytes per second (all
 * threads), size the chosen bytes per thread: bs x 2^k, the smallest at least rate x
 * target / threads.
 */
struct size_choice {
	uint64_t requested_ns, meter_ns, target_ns;
	char meter[96];		 /* the slowest meter's spec, "" without one */
	uint64_t meter_period_ns;
	double calib_s;
	uint64_t calib_bytes;
	double rate_bps;
	uint64_t size;
	char from[128];		 /* "calibration", or the result file whose size was larger */
	int capped;
};

/*
 * The run's job j as it runs this round: rc->jobs[j] with size=auto resolved (calibrated
 * now, or once before round 1 with --same-size, and no smaller than --same-size-as
 * results). 0, or -errno (logged) when the calibration could not run.
 */
int size_auto_resolve(struct run_ctx *rc, size_t j);
/*
 * Each --same-size-as file read as a result before any I/O: one that cannot be read (not
 * a result, unreadable, missing) refuses the run. 0 or -errno (logged, naming the file).
 */
int size_auto_check_results(const struct run_opts *ro);
/* Every size=auto job calibrated before the first measured one (--same-size). */
int size_auto_resolve_all(struct run_ctx *rc);

/* The result's size_auto object. */
struct result_size_auto *size_auto_report(const struct size_choice *c, const struct job_opts *jo);

#endif
