/* SPDX-License-Identifier: MIT */
/* Each kind's current kernel fitted to a fast meter's power by least squares: ops that overlap split apart. */
#ifndef IOWATT_EVENT_DECONV_H
#define IOWATT_EVENT_DECONV_H

#include <stddef.h>

#include "core/completions.h"

/* Kernel taps per kind at most (1 ms each). */
#define ELD_MAX_TAPS 64

struct eld_in {
	/* Mean W per 1 ms bin (NAN: no reading) and the completions of each kind that show
	 * in each bin, m[i * COMPL_KINDS + k], both n long. */
	const double *w;
	const float *m;
	size_t n;
	/* An op showing at bin b adds its kernel to bins b - pre .. b - pre + taps - 1. */
	unsigned taps, pre;
	/* The idle baseline and its standard uncertainty (W): the idle term's prior (not
	 * finite: no prior). */
	double idle_w, idle_u_w;
	double bin_s;
};

struct eld_fit {
	/* Per kind: J per op (its kernel's area) and U95 (k = 2: the fit's covariance at the
	 * residuals' variance, inflated for their correlation); NAN when the kind had too few
	 * ops to fit (under 5: the bins their kernels span are left out of the fit). */
	double j_per_op[COMPL_KINDS], u95_j[COMPL_KINDS];
	double ops[COMPL_KINDS];
	/* W above idle per tap of each kind's kernel. */
	double kernel_w[COMPL_KINDS][ELD_MAX_TAPS];
	double idle_w, idle_u95_w;
	/* Residuals: their RMS, and 1 + 2 x the sum of their autocorrelation over the lags
	 * where its neighbouring pairs stay positive, at least 1 (the variance of a sum over
	 * consecutive bins grows by it: the readings count as that many times fewer). */
	double residual_rms_w, inflation;
	size_t bins;
	/* Two kinds the fit cannot tell apart (a synced record's write and its flush, always
	 * the same few ms apart: their areas' estimates correlate at -0.98 or below), fitted
	 * as one kernel on the kind with more ops (sum_base; -1: none): sum_j is one op of it
	 * with sum_ratio ops of sum_with, and both kinds' j_per_op are NAN; kernel_w[sum_base]
	 * holds the pair's current. */
	int sum_base, sum_with;
	double sum_j, sum_u95_j, sum_ratio;
	/* The correlation of two kinds' areas' estimates in the split fit (NAN: not both
	 * fitted). */
	double area_r[COMPL_KINDS][COMPL_KINDS];
	/* The energy balance over the bins fitted: what the kernels put there (J, U95 from the
	 * fit's covariance) against the readings above the idle prior (J, U95 from the prior's
	 * uncertainty over their span and the residuals' noise); NAN without a prior. */
	double kernels_j, kernels_u95_j, above_idle_j, above_idle_u95_j;
};

/*
 * Fits w[i] = idle + sum over kinds k and taps t of kernel_k[t] x m[(i + pre - t), k] to
 * the bins with readings, a pair in lock-step as one kernel: 0, or -EINVAL (no readings,
 * no ops, too many taps).
 */
int event_deconv_fit(const struct eld_in *in, struct eld_fit *out);

#endif
