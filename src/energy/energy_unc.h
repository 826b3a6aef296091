/* SPDX-License-Identifier: MIT */
/* Uncertainty sums of one phase's integrals, fed segment by segment alongside the energy. */
#ifndef IOWATT_ENERGY_UNC_H
#define IOWATT_ENERGY_UNC_H

#include <stdint.h>

#include "core/accuracy.h"
#include "core/sample.h"

/* The quantities a phase integrates: V (for its mean), A (charge), W (energy). */
enum unc_ch { UNC_V, UNC_A, UNC_W, UNC_CH_COUNT };

/*
 * Sums over one phase for one quantity X, in X times seconds (J for W, C for A). A sample
 * enters its integral with weight w_i (its share of the trapezoids on either side) and
 * brings its standard uncertainties u_i (struct meter_u):
 *   gain, offset  sum of w_i u_i: errors that are the same all run add linearly;
 *   res_lin       sum of w_i u_res_i: quantisation where the signal does not move past one
 *                 step, so every reading rounds the same way;
 *   res_sq        sum of (w_i u_res_i)^2: quantisation that averages out;
 *   noise_sq      sum of (w_i u_noise_i)^2;
 *   disc_sq       per segment (dX L)^2 / 12 with the random scatter's expected share of
 *                 dX^2 taken out: what integrating at the meter's rate may miss; where the
 *                 meter holds each value for window_s and is read about as often, only
 *                 the share 12 |L - window| / window of it (at most all), except within
 *                 UNC_EDGE_SEGMENTS of either end of the phase;
 *   dx_sq, step_sq, nseg: for telling the two quantisation cases apart.
 */
#define UNC_EDGE_SEGMENTS 2

struct unc_sums {
	double gain, offset, res_lin, res_sq, noise_sq, disc_sq;
	/* The last UNC_EDGE_SEGMENTS segments' point-reading terms: the phase's last ones
	 * count whole (their windowed share goes to disc_sq only once newer ones follow). */
	double edge_full[UNC_EDGE_SEGMENTS], edge_win[UNC_EDGE_SEGMENTS];
	unsigned nedge;
	double dx_sq, step_sq;
	uint64_t nseg;
	int known; /* at least one sample had a declared accuracy */
};

/* A phase's sums for every quantity, and the sample whose weight is still growing. */
struct unc_phase {
	struct unc_sums ch[UNC_CH_COUNT];
	struct meter_u pend[UNC_CH_COUNT];
	uint64_t pend_t_ns;
	double pend_w_s;
	int pend_valid;
	double window_s; /* how long the meter holds a value (0: not known), set at init */
};

/* A sample's uncertainties, worked out once when it arrives. */
struct unc_sample {
	struct meter_u u[UNC_CH_COUNT];
	double x[UNC_CH_COUNT]; /* its V, A, W (NAN where missing) */
};

void unc_sample_of(const struct meter_accuracy *acc, const struct meter_sample *s,
		   struct unc_sample *out);
/*
 * The segment s0 -> s1, of len_s seconds, integrated over [a_s, b_s] of it (offsets
 * from s0) into the phase. Segments come in time order.
 */
void unc_segment(struct unc_phase *up, uint64_t t0_ns, const struct unc_sample *s0,
		 uint64_t t1_ns, const struct unc_sample *s1, double len_s, double a_s, double b_s);
/* The last sample's weight is final once the phase is over: add it. Idempotent. */
void unc_phase_close(struct unc_phase *up);

/* One phase integral's uncertainty parts, absolute, in the integral's unit. */
struct unc_terms {
	double gain, offset; /* systematic: same sign in every phase of the run */
	double res_sys;	     /* systematic within this phase only */
	double res_rand2, noise2, disc2; /* variances, independent of other phases */
	double step;	     /* rms reading step, for naming the term */
	int known;
};

void unc_terms_of(const struct unc_sums *s, struct unc_terms *t);

#endif
