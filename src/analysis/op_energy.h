/* SPDX-License-Identifier: MIT */
/* Energy per operation per device: each result's pooled power models and its jobs' event-locked figures as cells of a small table. */
#ifndef IOWATT_OP_ENERGY_H
#define IOWATT_OP_ENERGY_H

#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/results_read.h"

/* The kinds a cost is given for, in the order of the result's read, write, flush. */
#define OP_ENERGY_KINDS 3
extern const char *const op_energy_kinds[OP_ENERGY_KINDS];
extern const char *const op_energy_kinds_plural[OP_ENERGY_KINDS];
/* A lock-step pair's sum_of ("write+flush"): its first and second kind (indices into
 * op_energy_kinds); 1 when it names two, else 0 with both -1. */
int op_energy_pair(const char *sum_of, int *first, int *second);

/* Device, meter, block size, jobs, read, write, flush, fit. */
#define OP_ENERGY_CELLS 8

/* The pooled model of r for job j's meter, block size and direct setting; NULL: none. */
const struct result_device_model *op_energy_model(const struct rr_result *r,
						  const struct job_result *j);
/* Job j's event-locked figures (power.event_locked) when they price some kind; NULL. */
const struct result_event_locked *op_energy_event_locked(const struct job_result *j);
/* How many rows the set's results give: pooled models and jobs event-locked (0: older
 * results, measure results). */
size_t op_energy_count(const struct rr_set *set);
/* The head: each energy with its unit and interval ("read µJ ±95%"); the count. */
size_t op_energy_head_cells(char cells[][COMPARE_CELL]);
/*
 * Model d of result r as cells: each kind's µJ with its U95, "-" for a kind the device did
 * not do, the lock-step pair as its sum in the first kind's cell marked "†" (the second
 * kind's cell "†"), the fit's verdict. The count.
 */
size_t op_energy_row_cells(const struct rr_result *r, const struct result_device_model *d,
			   char cells[][COMPARE_CELL]);
/* Row `row` of result r, its pooled models first, then each job's event-locked figures
 * (the fit cell "event-locked, job NAME", ", EMULATED" when the meter was): the count of
 * cells, 0 past its last row. */
size_t op_energy_result_row(const struct rr_result *r, size_t row, char cells[][COMPARE_CELL]);
/* Device, meter and fit are text, left-aligned; the rest numbers. */
int op_energy_cell_left(size_t k);
/* What the cells cannot say, one line each: what a "†" sum holds, why a fit is not ok. */
void op_energy_notes(const struct rr_set *set, void (*fn)(void *ctx, const char *text), void *ctx);

#endif
