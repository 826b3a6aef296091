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
 * Calibrate jo (its size=auto request in requested_ns) on the run's target: run it for at
 * most SIZE_AUTO_CALIB_NS with the meters pumped but no phase open, and choose its size.
 * 0, or -errno (logged) when the job cannot run or moved nothing.
 */
int size_auto_choose(struct run_ctx *rc, const struct job_opts *jo, uint64_t requested_ns,
		     struct size_choice *out);
/*
 * --same-size-as: the largest size any of the result files used for a job of this name
 * (its size_auto or its size option); 0 if none. from names the file.
 */
uint64_t size_auto_from_results(char *const *paths, unsigned n, const char *jobname,
				char *from, size_t fromlen);
/*
 * The run's job j as it runs this round: rc->jobs[j] with size=auto resolved (calibrated
 * now, or once before round 1 with --same-size, and no smaller than --same-size-as
 * results). 0, or -errno (logged) when the calibration could not run.
 */
int size_auto_resolve(struct run_ctx *rc, size_t j);
/* Every size=auto job calibrated before the first measured one (--same-size). */
int size_auto_resolve_all(struct run_ctx *rc);

/* The result's size_auto object. */
struct result_size_auto *size_auto_report(const struct size_choice *c, const struct job_opts *jo);
/* "1 GiB = 2^18 x 4k: 2.5 s at 420 MB/s for 20 samples of um25c:... (100 ms)" */
void size_auto_reason(const struct size_choice *c, const struct job_opts *jo, char *buf,
		      size_t len);

#endif
