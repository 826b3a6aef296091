/* SPDX-License-Identifier: MIT */
/* The power model of a job: idle plus a cost per read, write and flush, fitted to the readings. */
#ifndef IOWATT_ENERGY_MODEL_H
#define IOWATT_ENERGY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/accuracy.h"
#include "core/completions.h"
#include "result/result.h"

/* The grid searched when the meter declares no window or lag (docs/energy.md). */
#define EMODEL_LAG_MIN_NS (-50 * 1000000LL)
#define EMODEL_LAG_MAX_NS (150 * 1000000LL)
#define EMODEL_LAG_STEP_NS (1000000LL)
/* A fitted kind's column whose spread over the readings is below this share of its mean
 * has no contrast: its cost is not known where the window is not (energy_model.c). */
#define EMODEL_MIN_CONTRAST 0.1
/* ... unless the kind is a steady stream: this share of the quarter-window slices over its
 * span hold a completion of it (energy_model.c, steady_stream). */
#define EMODEL_STREAM_FILL 0.9
/* A held meter's conversion grid's phase is searched in steps of this (ns). */
#define EMODEL_PHASE_STEP_NS (2000000ULL)
/* Two kinds whose weighted, idle-removed columns correlate at least this much cannot be
 * split (a variance inflation of 25): their sum is given. */
#define EMODEL_COLLINEAR_R 0.98
#define EMODEL_WHY_LEN 160
/* The share of the grid's likelihood at points where no window holds a kind (or the job's
 * energy is not known) past which the readings cannot tell its cost: a 95 % interval may
 * leave out no more than 5 % of what the readings allow, and there every cost is allowed. */
#define EMODEL_BLIND_SHARE 0.05
/* Unknowns: idle and one cost per kind. */
#define EMODEL_NP (1 + COMPL_KINDS)
_Static_assert(COMPL_KINDS == RESULT_MODEL_KINDS, "the result prices the kinds the model fits");
/* The headline takes the model only when this many readings' windows hold operations. */
#define EMODEL_MIN_SEEN 5
/* A kind the job did fewer times than this is neither priced nor judged (its cost would
 * rest on one or two readings: a job's one closing fsync came out -7902 +- 21381 uJ); its
 * energy stays in what the operations leave unexplained, which the readings sample. */
#define EMODEL_MIN_OPS 5
/* Operations of kinds no window held, up to this share of all, are priced within bounds
 * in the job's energy; more, and it is not known. */
#define EMODEL_RARE_SHARE 0.01

/* One reading of W: when it was taken (its window ends there, less the lag) and its
 * standard uncertainty from noise and resolution, which weighs it. */
struct emodel_reading {
	uint64_t t_ns;
	double w, u_w;
};

/* Readings kept for the fit per job; past it every 2nd, 4th... (a 2 Hz meter fills it in
 * 34 minutes). */
#define EMODEL_READINGS_MAX 4096

/* The active phase's and tail's readings as energy_feed sees them. */
struct emodel_readings {
	struct emodel_reading r[EMODEL_READINGS_MAX];
	size_t n;
	unsigned stride, skip; /* keep 1 in stride; skip counts down to the next kept */
	double gain_rel_sum;   /* the readings' relative gain uncertainty, summed over n_gain */
	size_t n_gain;
};


struct emodel_in {
	const struct emodel_reading *r;
	size_t n;		 /* ascending t_ns */
	uint64_t t0_ns, t1_ns;	 /* the span fitted: the active phase and the tail */
	const struct completions *ops;
	double idle_w, idle_u_w; /* the idle baseline and its standard uncertainty: the prior */
	double gain_rel;	 /* the meter's gain, relative standard uncertainty */
	double offset_w;	 /* its offset, standard uncertainty (W); cancels against idle's */
	/* Declared window and lag (window 0: not declared, both fitted over the grid). */
	uint64_t window_ns;
	int64_t lag_ns;
	/* Declared hold: each value shown for this long after its window (0: none); fitted
	 * as none or one window where nothing is declared. */
	uint64_t hold_ns;
	uint64_t period_ns;	 /* the meter's period: the grid's windows are at most this */
};

enum emodel_verdict { EMODEL_NONE = 0, EMODEL_OK, EMODEL_POOR_FIT, EMODEL_NOT_IDENTIFIABLE };

struct emodel_fit {
	enum emodel_verdict verdict;
	/* Per kind: J per operation and its U95 (k = 2); NAN when the kind is absent or
	 * cannot be told apart (then sum_* hold it with the kind it moves with). */
	double j_per_op[COMPL_KINDS], u95_j[COMPL_KINDS];
	/* A pair in lock-step: the cost of one op of kind sum_base with its share of
	 * sum_with's ops (sum_ratio of them per op); NAN when no pair is merged. */
	double sum_j, sum_u95_j, sum_ratio;
	int sum_base, sum_with; /* -1: none */
	double idle_w, idle_u95_w;
	/* The job's energy above idle by the model, its costs times its completions, and its
	 * U95; NAN when a kind it did has no cost. */
	double net_j, net_u95_j;
	double gain_rel; /* the meter's gain (relative standard uncertainty) in every U95 */
	size_t readings;
	size_t readings_with_ops; /* readings whose window holds half an operation or more */
	double residual_rms_w, noise_rms_w, chi2_dof;
	double lag_s, window_s, hold_s;
	int grid; /* 1: window and lag fitted over the grid */
	char why[EMODEL_WHY_LEN];
	struct result_model_normal normal; /* for the device's pooled fit */
};

/* Why a pair is given as its sum, in out->why: how the two kinds' counts went together
 * ("move together"), and that only one of base with its sum_ratio of with can be known. */
void emodel_say_pair(struct emodel_fit *out, const char *how, int base, int with);
void emodel_readings_reset(struct emodel_readings *mr);
/* A reading of W at t_ns with its standard uncertainties (weight: noise and resolution). */
void emodel_readings_add(struct emodel_readings *mr, uint64_t t_ns, double w,
			 const struct meter_u *u);

/*
 * The model over the readings in mr for a job whose active phase and tail were [t0_ns,
 * t1_ns] and whose completions were ops, with the idle baseline idle_w (u: its standard
 * uncertainty) as its prior, for a meter of period_ns declaring no window: a new result
 * record (NULL when there is nothing to fit), and the fit itself into *fit (verdict
 * EMODEL_NONE when there was nothing to fit).
 */
/* A lock-step pair's name as results give it, "write+flush" (the caller frees it). */
char *emodel_pair_name(int base, int with);
struct result_energy_model *energy_model_figures(const struct emodel_readings *mr,
						 const struct completions *ops, uint64_t t0_ns,
						 uint64_t t1_ns, double idle_w, double idle_u_w,
						 uint64_t period_ns, struct emodel_fit *fit);
/* Can the headline be drawn from the fit: ok, or not identifiable with the job's energy
 * still known (a lock-step pair's sum, a rare kind no window held), no cost below zero
 * beyond its U95, and enough readings that hold operations. */
int energy_model_usable(const struct emodel_fit *f);

/* Fits the model (docs/energy.md, "The power model"); returns 0, or -EINVAL when there is
 * nothing to fit (out->verdict EMODEL_NONE, out->why says why). */
int energy_model_fit(const struct emodel_in *in, struct emodel_fit *out);
const char *energy_model_verdict_name(enum emodel_verdict v);
/* Solves the m x m system a p = b (m <= EMODEL_NP) by Cholesky at unit diagonal, its
 * inverse into inv; -1 when a pivot is too small to trust (columns nearly dependent). */
int energy_model_solve(double a[EMODEL_NP][EMODEL_NP], const double *b, unsigned m, double *p,
		       double inv[EMODEL_NP][EMODEL_NP]);
extern const char *const emodel_kind_names[COMPL_KINDS];

#endif
