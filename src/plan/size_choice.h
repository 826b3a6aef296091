/* SPDX-License-Identifier: MIT */
/* size=auto as data: a short calibration's rate, the size it chooses and why, the retake's arithmetic. */
#ifndef IOWATT_SIZE_CHOICE_H
#define IOWATT_SIZE_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "io/job.h"
#include "result/result.h"

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
/*
 * The checks a calibration passes before its rate is used (docs/results.md, size_auto):
 * at least SIZE_AUTO_MIN_IOS I/Os in at least SIZE_AUTO_MIN_CALIB_NS (one I/O more or less
 * at either end moves the rate by 1/N: 16 keeps that near 6 %), or, for records so large
 * that a second holds few, SIZE_AUTO_LONG_MIN_IOS in SIZE_AUTO_CALIB_MAX_NS; a retry runs
 * long enough for 20 I/Os at the rate seen, at least twice as long, at most
 * SIZE_AUTO_CALIB_MAX_NS); the device quiet before it (nothing in flight and
 * under SIZE_AUTO_QUIET_BYTES moved for SIZE_AUTO_QUIET_NS, waited for up to
 * SIZE_AUTO_QUIET_MAX_NS; after a try the device's other I/O spoilt, four times as long,
 * up to SIZE_AUTO_QUIET_LONG_NS) and no more than SIZE_AUTO_OTHER_BYTES or SIZE_AUTO_OTHER_SHARE of
 * its own bytes of other I/O during it (O_DIRECT jobs: buffered ones move what the cache
 * decides); within SIZE_AUTO_AGREE times (either way) of its reference, the rate of the
 * same device's jobs of the same shape (this run's, else the earlier result's), unless the
 * try before it disagreed too and the two are within SIZE_AUTO_CONSISTENT of each other
 * (the device's rate has moved since). SIZE_AUTO_TRIES in all, then the best is taken
 * and the result says why.
 */
#define SIZE_AUTO_TRIES 4
#define SIZE_AUTO_MIN_IOS 16
#define SIZE_AUTO_MIN_CALIB_NS (500 * NS_PER_MS)
#define SIZE_AUTO_CALIB_MAX_NS (4 * NS_PER_SEC)
#define SIZE_AUTO_LONG_MIN_IOS 3
#define SIZE_AUTO_RETRY_IOS 20
#define SIZE_AUTO_QUIET_NS (250 * NS_PER_MS)
#define SIZE_AUTO_QUIET_LONG_NS (2 * NS_PER_SEC)
#define SIZE_AUTO_QUIET_MAX_NS (5 * NS_PER_SEC)
#define SIZE_AUTO_QUIET_BYTES (64ULL << 10)
#define SIZE_AUTO_OTHER_BYTES (1ULL << 20)
#define SIZE_AUTO_OTHER_SHARE 0.10
#define SIZE_AUTO_AGREE 1.5
#define SIZE_AUTO_CONSISTENT 1.2
#define SIZE_AUTO_WHY_LEN 192
/* Beyond this a size is a typo's or a RAM disk's: capped, and said. */
#define SIZE_AUTO_MAX (1ULL << 40)
#define SIZE_AUTO_REASON_LEN 512

/*
 * What size=auto chose for a job and why: the result's jobs[].size_auto. requested_ns is
 * SECONDS (0: none), meter_ns what the slowest meter needs for ENERGY_MIN_SAMPLES samples
 * with headroom, target_ns the larger, rate the calibration's bytes per second (all
 * threads), size the chosen bytes per thread: bs x 2^k, the smallest at least rate x
 * target / threads.
 */
/* One calibration try (the result's size_auto.tries[]); rejected "" when taken. */
struct size_try {
	double wait_s, seconds, rate_bps;
	uint64_t bytes, ios;
	char rejected[SIZE_AUTO_WHY_LEN];
};

struct size_choice {
	uint64_t requested_ns, meter_ns, target_ns;
	char meter[96];		 /* the slowest meter's spec, "" without one */
	int meter_index;	 /* its index in the session's meters (and a result's), -1 */
	uint64_t meter_period_ns;
	double calib_s;
	uint64_t calib_bytes;
	double rate_bps;
	uint64_t size;
	char from[128];		 /* "calibration", "pattern" (a paced or bursty job: more of its
				  * bursts, plan/meter_fit.h), or the result file whose size was
				  * larger */
	char pattern[SIZE_AUTO_REASON_LEN]; /* "pattern": how many bursts and why */
	int capped;
	/* size_max held a writing job's size: paced to this many I/Os per second per thread
	 * so that it still lasts target_ns (0: not paced) */
	uint64_t pace_iops;
	struct size_try tries[SIZE_AUTO_TRIES];
	unsigned ntries;
	double ref_bps;			  /* what the tries were checked against; 0: nothing */
	char ref[SIZE_AUTO_WHY_LEN];	  /* where ref_bps comes from */
	char note[SIZE_AUTO_WHY_LEN * 2]; /* taken although it failed a check: why; "" */
	/* run again at a size from its first run's own rate (size_auto_retake): that rate,
	 * and what the first run was and did; retake_bps 0: not retaken */
	double retake_bps, retake_s;
	uint64_t retake_size;
	double retake_u95, retake_limit; /* an UNCERTAIN first run's; 0: it was short */
	char retake[1024];
	const char *retake_kept; /* what the result holds of the two: ", the short run left out",
				  * or after an undo "; that run was stopped: the first run kept" */
	unsigned runs_kept; /* loops of this choice in the result: a retake only before any */
};


/*
 * Each --same-size-as file read as a result before any I/O: one that cannot be read (not
 * a result, unreadable, missing) refuses the run. 0 or -errno (logged, naming the file).
 */
int size_auto_check_results(const struct run_opts *ro);
/*
 * A valid job of the calibrated size whose headline figure came out UNCERTAIN (its U95 above
 * max_uncertainty) mostly through terms that more readings average down runs again longer
 * (size_auto_retake_size): long enough for its U95 to come within SIZE_AUTO_RETAKE_AIM of the
 * limit, if that is at most SIZE_AUTO_RETAKE_MAX_X times as long.
 */
#define SIZE_AUTO_RETAKE_AIM 0.8
#define SIZE_AUTO_RETAKE_MAX_X 4.0
/*
 * How many times longer v's job must run for that, from its budget: noise, discretisation
 * and sampling shrink as 1 / sqrt(readings); gain, offset, baseline and resolution (its
 * systematic part on a steady signal) do not. 0 when v is not valid and uncertain, or longer cannot get there within
 * SIZE_AUTO_RETAKE_MAX_X.
 */
double size_auto_precision_factor(const struct result_validity *v);
/*
 * The figures of res the retake judges: those of the meter c's size was chosen for (the
 * slowest, c->meter_index), since the first meter may be a fast one that saw enough while
 * the slow one did not; when that one is valid, the valid meter whose figure needs the
 * longest run for precision (size_auto_precision_factor), if any needs one. res->validity
 * when the index is not in res.
 */
const struct result_validity *size_auto_retake_validity(const struct size_choice *c,
							const struct job_result *res);
/* The rate that chose c's size: the calibration's, or after a retake the job's own. */
double size_auto_choosing_bps(const struct size_choice *c);

/* The size per thread size=auto chooses for jo at rate_bps (all threads) to last target_ns. */
uint64_t size_auto_size_at(const struct job_opts *jo, double rate_bps, uint64_t target_ns);
/* What jo's size=auto aims at: SECONDS, or what the slowest meter (its period; 0: none)
 * needs, whichever is longer (SIZE_AUTO_DEFAULT_NS with neither). */
uint64_t size_auto_target_ns(const struct job_opts *jo, uint64_t meter_period_ns);

/* The smallest bs x 2^k per thread that lasts c->target_ns at c->rate_bps (all threads
 * together) into c->size; c->capped when SIZE_AUTO_MAX stopped it. A job that writes
 * with a size_max below that size writes size_max, paced (c->pace_iops) to last as long:
 * its bytes written are bounded, its length is not cut. */
void size_auto_fit(const struct job_opts *jo, struct size_choice *c);
/*
 * --same-size-as: the largest size any of the result files used for a job of this name
 * (its size_auto or its size option); 0 if none. from names the file.
 */
uint64_t size_auto_from_results(char *const *paths, unsigned n, const char *jobname,
				char *from, size_t fromlen);
/* "1 GiB = 2^18 x 4k: 3.6 s at 300 MB/s (1 s calibration), 2.5 s for 20 samples of
 * um25c:... (100 ms)": the size's own time first, then the target it had to reach. */
void size_auto_reason(const struct size_choice *c, const struct job_opts *jo, char *buf,
		      size_t len);
/* The job's active phase in seconds; 0 when it has none. */
double size_auto_active_s(const struct job_result *j);
/*
 * The retake's size for the choice c of a job (asked: as the profile gave it; jo: as it
 * ran) whose loop res was just run at c's size; 0 for none (size_auto_retake_size says
 * when).
 */
uint64_t size_auto_retake_plan(const struct size_choice *c, const struct job_opts *asked,
			       const struct job_opts *jo, const struct job_result *res);
/* c resized to size for the retake, with what its first run res was and did in c->retake. */
void size_auto_retake_note(struct size_choice *c, const struct job_result *res, uint64_t size);

/* The result's size_auto object; j: the job of that size as it ran (its I/O time). */
struct result_size_auto *size_auto_report(const struct size_choice *c, const struct job_opts *jo,
					  const struct job_result *j);

#endif
