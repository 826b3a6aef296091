/* SPDX-License-Identifier: MIT */
/* CrystalDiskMark's grid under the end-of-run table. */
#ifndef IOWATT_SUMMARY_GRID_H
#define IOWATT_SUMMARY_GRID_H

#include <stdio.h>

#include "result/result.h"

/* Read | Write per test (analysis/rw_pairs.h: MB/s, J/GB, IOPS/mA, each with its verdict
 * mark); nothing when no two jobs pair up as a read and a write. */
void summary_print_grid(FILE *fp, const struct run_result *r);

#endif
