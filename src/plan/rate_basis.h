/* SPDX-License-Identifier: MIT */
/* What a device did before: the earlier result a run's ETA, calibration checks and cost forecast rely on. */
#ifndef IOWATT_RATE_BASIS_H
#define IOWATT_RATE_BASIS_H

#include <limits.h>
#include <stddef.h>

#include "io/job.h"
#include "result/result.h"

/* The earlier result of this run's device: --rates-from, else the newest in the output
 * directory whose context names the same disk. */
struct rate_basis {
	struct run_result rep;
	char path[PATH_MAX];
	int have;
};

/*
 * given (--rates-from, NULL: none) is read as a result, whatever its device: the user
 * chose it; -errno (logged, naming the option and the file) when it cannot be. Else the
 * newest of the first RATE_BASIS_MAX_FILES results in dir whose device is disk; files
 * that do not load are none of this run's business and stay quiet. 0 without one too.
 */
int rate_basis_open(struct rate_basis *b, const char *given, const char *dir, const char *disk);
/* path read as a result into b (the user chose it, whatever its device): 0, or -errno
 * logged naming option ("--costs-from") and the file. */
int rate_basis_load(struct rate_basis *b, const char *path, const char *option);
void rate_basis_close(struct rate_basis *b);

/*
 * Does result job j run the same I/O as jo: rw, bs, iodepth, threads, direct and pacing
 * (rate_iops) as its options say? Its name and size may differ: the rate does not
 * depend on them.
 */
int rate_same_shape(const struct job_result *j, const struct job_opts *jo);
/* Bytes per second a finished job moved (read and written); 0 when it has none. */
double rate_of_job(const struct job_result *j);
/*
 * The median rate of rep's finished jobs of jo's shape (same_name: and jo's name); 0
 * when none. *n counts them.
 */
double rate_median(const struct run_result *rep, const struct job_opts *jo, int same_name,
		   unsigned *n);

#endif
