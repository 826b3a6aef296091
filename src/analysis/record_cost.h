/* SPDX-License-Identifier: MIT */
/* A record priced from the power model: write + its flushes per I/O, and the time awake for it. */
#ifndef IOWATT_RECORD_COST_H
#define IOWATT_RECORD_COST_H

#include "analysis/results_read.h"

struct record_cost {
	double j_per_io, u95_j; /* one I/O of the record with its share of flushes */
	double awake_s;		/* per I/O: its write's and its flushes' mean latency */
	const char *from;	/* "the device's pooled model", "the job's model" */
	const char *verdict;	/* the model's */
	char why[320];		/* -ENOENT: why no model can price it ("" when none fitted) */
};

/*
 * What one I/O of job j's records costs by the power model: its write and the job's
 * flushes per write (fdatasync=1: one), from r's pooled model of j's meter, block size,
 * direct setting and writes per flush where that is ok, else j's own where that is; a
 * write and flush known only as their sum price at the sum's share per write (either kind
 * its base; a verdict not identifiable for that split alone is usable). A price whose U95
 * is above it is not usable.
 * 0, or -ENOENT when j writes nothing or no model can price its write (rc->why says why).
 */
int record_cost_find(const struct rr_result *r, const struct job_result *j, struct record_cost *rc);

#endif
