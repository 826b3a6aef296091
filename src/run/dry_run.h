/* SPDX-License-Identifier: MIT */
/* --dry-run (dry_run.c). */
#ifndef IOWATT_DRY_RUN_H
#define IOWATT_DRY_RUN_H

#include "io/job.h"

/* The plan and the meter fit on stdout: the target is looked at, never opened; the meters'
 * specs are parsed for their intervals, never opened. 0 or -errno (logged). */
int run_dry(const struct run_config *cfg);

#endif
