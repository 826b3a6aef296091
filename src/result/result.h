/* SPDX-License-Identifier: MIT */
/* The result document: building job entries, writing it atomically, the summary table. */
#ifndef IOWATT_RESULT_H
#define IOWATT_RESULT_H

#include <jansson.h>
#include <stdio.h>

#include "bench/bench.h"
#include "bench/job.h"

#define RESULT_SCHEMA_VERSION 1

/* Resolved job options, keys as fio spells them. */
json_t *result_options_json(const struct job_opts *jo);
/*
 * A job entry: jobname, loop, status, error, options, read{}, write{} (fio keys:
 * io_bytes, bw_bytes, iops, total_ios, runtime ms, clat_ns{min,max,mean,stddev,
 * percentile{"99.000000":...}}), phases.active{t_start_ns,t_end_ns}.
 */
json_t *result_job_json(const struct job_opts *jo, unsigned loop, const struct bench_result *br);
/* "results/iowatt-20261129-204912-quick.json" under dir; caller frees. */
char *result_default_path(const char *dir, const char *stem);
/* Atomic: temp file, fsync, rename. */
int result_write(const char *path, json_t *root);
/* Load and check schema_version (errors name the file). */
int result_load(const char *path, json_t **out);
/* The end-of-run table on stdout. */
void result_print_summary(FILE *fp, json_t *root);

#endif
