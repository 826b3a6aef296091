/* SPDX-License-Identifier: MIT */
/* A result's jobs paired as read/write tests, and CrystalDiskMark's grid of them as cells. */
#ifndef IOWATT_ANALYSIS_RW_PAIRS_H
#define IOWATT_ANALYSIS_RW_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/compare.h"
#include "core/si_units.h"
#include "result/result.h"

#define RW_TEST_MAX 64
/* A grid row's cells: test, then MB/s, J/GB and IOPS/mA of the read, then of the write. */
#define RW_GRID_CELLS 7

enum { RW_READ, RW_WRITE };

/*
 * A test: one job that only reads and one that only writes, with the same pattern
 * (sequential or random), block size, depth and job count. Its name is the jobs' common
 * stem ("SEQ1M-Q8T1" of SEQ1M-Q8T1-read and -write) or, paired by shape, CrystalDiskMark's
 * ("RND4K-Q32T1"). Each direction is a compare row: the job's first loop, or with rounds
 * the mean over them (compare_row_value).
 */
struct rw_pair {
	char test[RW_TEST_MAX];
	int seq;
	uint64_t bs;
	unsigned depth, threads;
	struct compare_row dir[2]; /* RW_READ, RW_WRITE */
};

/*
 * The tests of r in the order their first job ran: first by name (NAME-read with
 * NAME-write, '-' or '_', of the same shape), then the rest by shape in run order. Caller
 * frees *pairs; the count (0: none, *pairs NULL).
 */
size_t rw_pairs_find(const struct run_result *r, struct rw_pair **pairs);

/* The grid of a result's tests, its J/GB in one unit. */
struct rw_grid {
	struct rw_pair *pairs;
	size_t n;
	struct si_unit e; /* J/GB's unit over every cell */
};

void rw_grid_build(struct rw_grid *g, const struct run_result *r);
void rw_grid_free(struct rw_grid *g);
/* The head cells ("Read MB/s", "Read mJ/GB", ...) and a row's, each figure followed by its
 * verdict mark ('!' invalid, '?' uncertain, ' ' neither); '-' where it is undefined. */
void rw_grid_head(const struct rw_grid *g, char cells[][COMPARE_CELL]);
void rw_grid_row(const struct rw_grid *g, size_t i, char cells[][COMPARE_CELL]);
/* A row's verdict mark ('!' invalid, '?' uncertain, ' ' neither). */
char rw_mark(const struct compare_row *rw);

#endif
