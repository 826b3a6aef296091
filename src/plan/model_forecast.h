/* SPDX-License-Identifier: MIT */
/* Before a job runs: the per-operation U95 the power model will reach, from the job's I/O simulated. */
#ifndef IOWATT_MODEL_FORECAST_H
#define IOWATT_MODEL_FORECAST_H

#include <stdint.h>
#include <stdio.h>

#include "core/accuracy.h"
#include "core/completions.h"
#include "io/job.h"
#include "plan/forecast_costs.h"
#include "result/result.h"

/* A reading's noise (W) when the meter declares none before it opens (--dry-run): one
 * digit of a USB tester's 0.1 mA at 5 V and its 1 mW power step, rounded up. */
#define FORECAST_NOISE_W 0.001
/* The faster meter the fix names: its window covers all of the time. */
#define FORECAST_FAST_NS (100 * 1000000ULL)
/* Where the readings fall against the job's pacing is not known before it runs: the fit
 * is simulated with its readings this many equal steps of the period apart. */
#define FORECAST_PHASES 8
/* Fits simulated at the meter's period, at the first phases not in step: one, as the U95
 * of phases that are not in step flips where write and flush are all but in lock-step (the
 * fit sums them at one cost and splits them at twice it: +-118 vs +-221 uJ), and each
 * phase costs a fit; phases in step are counted at every phase, without a fit. */
#define FORECAST_FITS 1
/* Without an earlier result's fit (--costs-from), the residuals the forecast's readings
 * scatter by, over the meter's declared noise, and where that comes from. */
#define FORECAST_MISFIT 1.1
#define FORECAST_MISFIT_FROM                                                              \
	"12 emulated UM25C runs of bench/model-coverage.sh's dithered and logger jobs at 1 "   \
	"and 2 Hz, 0.8 to 9.6 x"
/* A meter whose period is longer than its window converts every window and holds the
 * value (USB testers, iowatt's emulator); its readings come this many parts per million
 * slower than the period (the emulated UM25C was polled every 501.4 ms), so the age of the
 * value each shows drifts. */
#define FORECAST_DRIFT_PPM 2800
/* Each fit simulated this many times, its noise, misfit and conversions drawn anew, the
 * median U95 kept; jobs of more bursts than FORECAST_DRAWS_BURSTS once (their U95 varies
 * less, and each fit of thousands of readings takes a second). */
#define FORECAST_DRAWS 5
#define FORECAST_DRAWS_BURSTS 512
/* A paced job in step is offered the nearest rate within this many of its own that is not. */
#define FORECAST_RATE_SEARCH 16

struct model_forecast {
	int judged;	  /* 0: a stream (the readings see it), or no meter */
	int verdict;	  /* enum emodel_verdict of the simulated fit */
	double u95_uj[COMPL_KINDS]; /* per kind; NAN: the job does none, or only their sum */
	double cost_uj[COMPL_KINDS]; /* what it simulated (costs.uj) */
	int sum_base, sum_with;	     /* a lock-step pair (-1: none), its sum's U95 and cost */
	double sum_u95_uj, sum_cost_uj;
	double worst_rel;    /* the largest U95 over its cost; NAN: none known */
	double limit;	     /* max_uncertainty */
	int uncertain;	     /* worst_rel above it, or not known */
	uint64_t ios;	     /* the job's I/Os (per thread, as paced) */
	uint64_t need_ios;   /* for worst_rel within the limit (U95 goes as 1 / sqrt N); 0: n/a */
	double fast_worst_rel; /* worst_rel at a meter of FORECAST_FAST_NS; NAN: no better */
	uint64_t period_ns;    /* the meter's */
	int step_phases;       /* phases whose readings each hold the same count of ops */
	unsigned step_held_min, step_held_max; /* that count, over the phases in step */
	uint64_t readings, readings_with_ops;
	double noise_w;
	int noise_assumed; /* the meter declared none: FORECAST_NOISE_W */
	const char *noise_from; /* the declared accuracy's source; NULL when assumed */
	struct forecast_costs costs; /* the costs simulated and where they come from */
	/* The fit simulated: residuals over the noise, window, hold and lag (s), and whether
	 * they are assumed (1) or the earlier result's (0). */
	double misfit, window_s, hold_s, lag_s;
	int misfit_assumed, shape_assumed;
};

/*
 * The power model's per-operation U95 for job jo read by a meter of period_ns whose
 * declared accuracy is acc (NULL or unknown: FORECAST_NOISE_W, no gain term): its bursts
 * as meter_fit simulates them, each I/O a completion of its kind (a flush after every
 * fdatasync-th write), readings every period of the costs (forecast_costs_for of src:
 * an earlier result's, NULL or none: assumed) averaged over the meter's window, held as a
 * tester's or as src's fit found, plus noise and that fit's misfit (else FORECAST_MISFIT)
 * drawn from the job's seed, fitted by energy_model_fit itself (the median of draws).
 */
void model_forecast_judge(const struct job_opts *jo, uint64_t period_ns,
			  const struct meter_accuracy *acc, const struct rate_basis *src,
			  struct model_forecast *out);

/* The forecast as the result keeps it (jobs[].meter_fit.model); NULL when not judged. */
struct result_model_forecast *model_forecast_report(const struct model_forecast *f);

/* Phases (of FORECAST_PHASES) at which jo's ops are in step with a meter of period_ns. */
int model_forecast_step_phases(const struct job_opts *jo, uint64_t period_ns);

struct run_config;
/* The plan's section (model_forecast_plan.c): each patterned job's forecast (nothing without a meter or one), and
 * the costs it simulated with where they come from. */
void model_forecast_plan(FILE *fp, const struct run_config *cfg, uint64_t period_ns,
			 const struct meter_accuracy *acc, const struct rate_basis *src);

#endif
