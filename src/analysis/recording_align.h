/* SPDX-License-Identifier: MIT */
/* A recording from another tool placed on a result's clock (by the edges of its active phases) and the result's phases measured from it. */
#ifndef IOWATT_ANALYSIS_RECORDING_ALIGN_H
#define IOWATT_ANALYSIS_RECORDING_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/results_read.h"
#include "result/recording.h"

struct recording_alignment {
	int64_t offset_ns;  /* the run-clock time of the recording's first point */
	double u95_s;	    /* expanded uncertainty of the offset */
	unsigned edges;	    /* phase edges inside the recording that placed it */
	double spread_s;    /* their standard deviation around the offset */
	double runner_up;   /* the best score away from the peak, as a share of the peak's */
	double source_period_s; /* how often the recording's source gave a new value */
	int given;	    /* --offset: not searched */
};

/*
 * Finds where rec sits on r's clock: the offset whose recording steps up at every active
 * phase's start and down at its end the most (window means on both sides of each edge),
 * then each edge's own best shift near it, whose mean and spread give the offset and its
 * U95. 0; -ENODATA when no edge falls inside the recording; -EDOM (said) when another
 * offset scores within 20 % of the best (a recording that repeats itself): give --offset.
 */
int recording_align(const struct recording *rec, const struct rr_result *r,
		    struct recording_alignment *al);

/* One phase of a job as the recording saw it. */
struct recording_phase {
	double seconds; /* of the phase the recording covers */
	double mean_ma, min_ma, max_ma;
	double charge_mc;
};

struct recording_job {
	const char *name;
	struct recording_phase idle, active, tail; /* seconds 0: not covered */
	double volts;	      /* the voltage the energies use */
	/* NAN where not known, and where the recording misses part of the active phase or
	 * the tail (a part's energy over all the job's bytes would read low) */
	double active_j, tail_net_j, net_j, j_per_gb;
	double meter_active_ma; /* the run's own meter, for comparison; NAN without */
};

/* The phases of job j measured from rec placed at offset_ns; volts: the supply (NAN: the
 * job's own meter's active_v, else energies are NAN). */
void recording_measure_job(const struct recording *rec, int64_t offset_ns,
			   const struct rr_result *r, const struct job_result *j, double volts,
			   struct recording_job *out);

#endif
