/* SPDX-License-Identifier: MIT */
/* What `iowatt compare` shares with its matrix view: metrics by key, cells, formats. */
#ifndef IOWATT_COMPARE_H
#define IOWATT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/results_read.h"

enum compare_format { FMT_TABLE, FMT_MD, FMT_CSV };

struct column;

/* A metric by its key (the --by names), NULL if there is none. */
const struct column *compare_column(const char *key);
const char *compare_column_key(const struct column *c);
/* Its unit as the table shows it ("MB/s"). */
const char *compare_column_head(const struct column *c);
/* The job's figure in the result's units; NAN where it has none. */
double compare_value(const struct column *c, const struct job_result *j);
/* The figure as table and markdown print it ("-" when missing). */
void compare_cell(const struct column *c, const struct job_result *j, char *buf, size_t len);
/* A CSV field, quoted where it needs to be, then ',' or a newline when last. */
void compare_csv_str(FILE *fp, const char *s, int last);

/*
 * Rows value[0..n) in rank order (rank 0: not ranked), half their 95 % intervals: tie[i]
 * is the rank of the row i cannot be told apart from (their intervals overlap), else 0
 * (compare_rank.c).
 */
void compare_ties(const double *value, const double *half, const int *rank, size_t n, int *tie);

/* On stderr: the job ran with different options in two results (the keys named). */
void compare_warn_options(const struct rr_set *set, const char *name);
/* On stderr: results metered by different meters, and every emulated or manual one. */
void compare_warn_meters(const struct rr_set *set);

/*
 * iozone's view of a record sweep, one table per result: a row per record size (bs), a
 * column per operation (write, rewrite, read, reread, randread, randwrite, then any
 * other), each cell the metric of that job's first loop.
 */
void compare_print_matrix(FILE *fp, const struct rr_set *set, const struct column *metric,
			  int fmt);

#endif
