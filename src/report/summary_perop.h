/* SPDX-License-Identifier: MIT */
/* The jobs' energy per read, write and flush under the end-of-run table. */
#ifndef IOWATT_SUMMARY_PEROP_H
#define IOWATT_SUMMARY_PEROP_H

#include <stdio.h>

#include "result/result.h"

/* A line per job whose power model or event-locked averaging priced its operations: each
 * kind's µJ with its U95, a lock-step pair as its sum, a cost not told from zero or below
 * it said as such, the fit's verdict when not ok; nothing when no job has one. */
void summary_print_per_op(FILE *fp, const struct run_result *r);

#endif
