/* SPDX-License-Identifier: MIT */
/* The plan of a run, printed before it starts and alone with --dry-run. */
#ifndef IOWATT_RUN_PLAN_H
#define IOWATT_RUN_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include "io/job.h"

/*
 * The whole disk under --target ("sda"), from stat alone: nothing is opened or created.
 * 0, or -ENOENT when the path's filesystem has no block device (tmpfs) or does not exist.
 */
int run_plan_disk(const char *target, const char *sysfs_root, char *disk, size_t len);

/*
 * Every job with its mode, block size, depth, threads, size per thread, loops and the
 * bytes it moves in all (size x threads x loops), then the estimated duration: I/O at
 * the speeds the newest earlier result of the same disk in the output directory
 * measured, plus each loop's idle baseline and tail hold when metered.
 */
void run_plan_print(FILE *fp, const struct run_config *cfg, const char *disk);

#endif
