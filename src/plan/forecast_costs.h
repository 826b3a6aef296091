/* SPDX-License-Identifier: MIT */
/* The costs per read, write and flush the plan's forecast simulates, and the fit's misfit and window: an earlier result's, else assumed. */
#ifndef IOWATT_FORECAST_COSTS_H
#define IOWATT_FORECAST_COSTS_H

#include <limits.h>

#include "core/completions.h"
#include "io/job.h"
#include "plan/rate_basis.h"

/* Costs the plan assumes per read, write and flush (uJ) where no result gives them: a
 * relative U95 needs a cost (issue 35's card: 40, 120, 60 uC at 5 V). */
#define FORECAST_READ_UJ 200.0
#define FORECAST_WRITE_UJ 600.0
#define FORECAST_FLUSH_UJ 300.0
#define FORECAST_FROM_LEN (PATH_MAX + 160)

/* How a kind's cost was found. */
enum forecast_cost_kind {
	FORECAST_ASSUMED,  /* no result, or it did not price the kind */
	FORECAST_MEASURED, /* the result's own figure */
	FORECAST_SPLIT	   /* a lock-step pair's measured sum, split as the assumed costs */
};

struct forecast_costs {
	double uj[COMPL_KINDS];	    /* what the forecast simulates, all > 0 */
	double u95_uj[COMPL_KINDS]; /* the result's U95 of it; NAN where assumed */
	int how[COMPL_KINDS];	    /* enum forecast_cost_kind */
	char from[FORECAST_FROM_LEN]; /* where they come from, for the plan's line */
	/* The fit the costs came from: its residuals over the meter's noise (NAN: none
	 * known), window, hold and lag (s; window NAN: none known). */
	double misfit, window_s, hold_s, lag_s;
};

/*
 * The costs of jo's operations from s (--costs-from, read by rate_basis_load): its pooled
 * model (energy_models) of jo's block size and direct setting (the one of most readings
 * among meters), else the power.energy_model of s's job of jo's name; a kind it does not
 * price, or prices at or below zero, assumed; a write and flush known only as their sum
 * split in the assumed costs' proportion. s NULL or without a result: all assumed. The
 * fit's misfit is the model's whose costs were taken (a pooled one's, or the job's:
 * residual_rms_w over noise_rms_w), its window, hold and lag the job's of jo's name.
 */
void forecast_costs_for(const struct rate_basis *s, const struct job_opts *jo,
			struct forecast_costs *c);

#endif
