/* SPDX-License-Identifier: MIT */
/* The power model's least squares inside: its design, a solution and how far it can be off. */
#ifndef IOWATT_ENERGY_MODEL_LSQ_H
#define IOWATT_ENERGY_MODEL_LSQ_H

#include <stddef.h>
#include <stdint.h>

#include "energy/energy_model.h"

#define NP EMODEL_NP
/* A row's leverage is capped here so 1 / (1 - h) stays finite where one reading alone sets
 * a cost (the declared noise then bounds that cost's U95). */
#define EMODEL_LEVERAGE_MAX 0.9

/* The design at one window and lag: rows of [1, rate of each kind] for the readings whose
 * window lies in the span. */
struct design {
	size_t n;
	double *x; /* n * NP */
	double *y, *s;
	int64_t *end;	 /* each row's window end (ns): rows whose windows overlap share energy */
	uint64_t span_ns; /* window and hold: how far back a reading sees */
	unsigned unpriced; /* bit k: the job did fewer than EMODEL_MIN_OPS of kind k, no column */
	/* 0: the rows whose window holds an unpriced op are left out (the fit's design); 1:
	 * kept (the sample of what the operations leave unexplained, their energy in it) */
	int keep_unpriced;
};

/* One weighted least-squares fit over the columns cols[0..m) (0 is idle). */
struct solution {
	unsigned m, cols[NP];
	double p[NP], cov[NP][NP], chi2;
	/* rob: the covariance the residuals themselves give (sandwich); sel: the spread of
	 * the estimates over the windows and lags the readings do not tell apart */
	double rob[NP][NP], sel[NP][NP];
	double meat[NP][NP]; /* rob's middle over every column, fitted or not (for the pool) */
	/* the spread of the job's energy above idle over the windows and lags the readings do
	 * not tell apart, whatever columns each fitted (J^2; NAN: not known) */
	double net_sel;
	/* the likelihood's share at the grid's points that price no kind k (no window there
	 * holds one) and at those where the job's energy above idle is not known: a share
	 * that no interval can leave out (EMODEL_BLIND_SHARE) means the readings cannot tell */
	double uncaught[COMPL_KINDS], net_unknown;
	size_t dof;
	int ok;
};

/* One point of the window and lag grid as fitted: its chi^2 per dof and estimates. */
struct grid_point {
	double score;
	double net_j; /* the job's energy above idle at this point (NAN: not known) */
	double p[NP];
	unsigned m, cols[NP];
	int base;
	unsigned priced; /* bit k: kind k has a cost here (fitted, or in a pair's sum) */
};

/* Cumulative completions per kind at each bin edge (energy_model_design.c). */
double *emodel_cumulate(const struct completions *ops);
/* The design at one window, lag and hold (its grid at phase_ns after t0) from the
 * cumulative completions cum. */
void emodel_design_build(const struct emodel_in *in, const double *cum, uint64_t win_ns,
			int64_t lag_ns, uint64_t hold_ns, uint64_t phase_ns, struct design *d);
/* The job's operations of the kinds it did often enough to price (EMODEL_MIN_OPS). */
double emodel_priced_ops(const struct emodel_in *in);
/* The sum of column c over the design's rows. */
double emodel_column_sum(const struct design *d, unsigned c);
/* The columns to fit: idle and each kind seen; of a pair in step (or named by force) one. */
void emodel_choose_cols(const struct design *d, struct solution *so, int *base, int *with,
			unsigned force);
/* The weighted least-squares fit of so's columns over d (with the idle prior), residuals
 * into res, the residuals' covariance into so->rob. */
void emodel_fit_cols(const struct emodel_in *in, const struct design *d, struct solution *so,
		     double *res);

/* The coverage factor of a spread estimated from nu degrees of freedom (k = 2 at infinity). */
double emodel_coverage_k(double nu);
/* The covariance the residuals res[] of so over d give, into so->rob (docs/energy.md). */
void emodel_robust_cov(const struct emodel_in *in, const struct design *d, struct solution *so,
		      const double *res);
/* The variance of the figure sum g_i p_i: max(noise x misfit, residuals x (k95/2)^2) + grid. */
double emodel_fig_var(const struct solution *so, const double *g, double infl, double k95);
/* The grid's spread about its best point b into sel, each point weighed by its likelihood;
 * that of the energy above idle about best_net_j into b's net_sel. */
void emodel_selection_spread(const struct grid_point *gp, size_t ngp, struct solution *b,
			     int base, double best_score, double best_net_j, size_t dof);

/* The grid's best point and what the fit needs of it. */
struct grid_best {
	struct solution so;
	uint64_t win_ns, hold_ns, phase_ns; /* win_ns 0: nothing could be fitted */
	int64_t lag_ns;
	int base, with;
	double score, net_j;
};

/* The search over the window, hold and lag (one point where they are declared). */
struct grid_space {
	uint64_t wins[4];
	unsigned nw;
	int64_t lo, hi, step;
	int grid;
};

/* The space of the search: the grid's windows and lags, or the meter's declared point. */
void emodel_grid_space(const struct emodel_in *in, struct grid_space *sp);
/* Fits every point of sp (a pair merged where force names it) and keeps the best in gb,
 * with the spread of its neighbours' estimates (energy_model_grid.c). */
void emodel_grid_search(const struct emodel_in *in, const struct grid_space *sp,
			const double *cum, struct design *d, double *res, double floor_w,
			unsigned force, struct grid_best *gb);
/* Raises each row's noise to at least floor_w (a reading never claims better than it). */
void emodel_design_floor(struct design *d, double floor_w);

/* The first fitted kind whose column hardly varies and is no steady stream, or -1
 * (energy_model_ident.c). */
int emodel_flat_column(const struct emodel_in *in, const struct design *d,
		       const struct solution *so, uint64_t window_ns);
/* Drops the costs of kinds the readings may have caught none of; the worst such, or -1. */
int emodel_uncaught_kinds(const struct solution *so, int base, int with, struct emodel_fit *out);
/* The bits of a split pair the readings cannot place energy between, or 0. */
unsigned emodel_unsplittable(const struct emodel_fit *f);

#endif
