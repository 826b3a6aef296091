/* SPDX-License-Identifier: MIT */
/* Filling a job's result from a benchmark job: its resolved options and fio's figures. */
#ifndef IOWATT_RUN_RESULT_FROM_BENCH_H
#define IOWATT_RUN_RESULT_FROM_BENCH_H

#include "io/bench.h"
#include "io/job.h"
#include "result/result.h"

/*
 * A job entry as fio reports it: jobname, loop, status, error, options, read, write
 * (io_bytes, bw_bytes, iops, total_ios, runtime ms, clat and lat percentiles), sync, and
 * phases.active from the bench's own start and end.
 */
void result_job_from_bench(struct job_result *j, const struct job_opts *jo, unsigned loop,
			   const struct bench_result *br);

#endif
