/* SPDX-License-Identifier: MIT */
/* Filling the result from a benchmark job; the result file's name and atomic write. */
#ifndef IOWATT_RESULT_BENCH_H
#define IOWATT_RESULT_BENCH_H

#include <jansson.h>

#include "io/bench.h"
#include "io/job.h"
#include "result/result.h"

/* Resolved job options, keys as fio spells them (duration keys end in _ns). */
void result_job_options(struct job_result *j, const struct job_opts *jo);
/*
 * A job entry as fio reports it: jobname, loop, status, error, options, read, write
 * (io_bytes, bw_bytes, iops, total_ios, runtime ms, clat percentiles), sync, and
 * phases.active from the bench's own start and end.
 */
void result_job_from_bench(struct job_result *j, const struct job_opts *jo, unsigned loop,
			   const struct bench_result *br);
/* "results/iowatt-20261129-204912-quick.json" under dir; caller frees. */
char *result_default_path(const char *dir, const char *stem);
/* Atomic: temp file, fsync, rename. */
int result_file_write(const char *path, json_t *root);

#endif
