/* SPDX-License-Identifier: MIT */
/* A job's wear: what reached the whole device over the job, against what the job wrote. */
#ifndef IOWATT_RUN_WEAR_H
#define IOWATT_RUN_WEAR_H

#include <limits.h>
#include <stdint.h>

#include "core/diskstats.h"
#include "result/result.h"

struct wear_probe {
	char disk[64]; /* "" : nothing to watch */
	const char *root;
	char diskstats_path[PATH_MAX];
	int have_ds0, have_ds1;
	struct diskstats ds0, ds1;
	uint64_t t0_ns, t1_ns;
	struct result_health *h0, *h1;
};

/* Counters and health of whole disk `disk` ("" for none) as the job starts. */
void wear_start(struct wear_probe *w, const char *sysfs_root, const char *disk);
/* ... and as it ends (after its tail: the writes the job left cached count). */
void wear_stop(struct wear_probe *w);
/* The job's wear for job_bytes written, or NULL without a disk; resets the probe. */
struct result_wear *wear_result(struct wear_probe *w, uint64_t job_bytes);

#endif
