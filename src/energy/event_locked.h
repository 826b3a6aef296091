/* SPDX-License-Identifier: MIT */
/* A fast meter's power aligned on the completions: each kind's charge and the shape of one operation. */
#ifndef IOWATT_EVENT_LOCKED_H
#define IOWATT_EVENT_LOCKED_H

#include <stddef.h>
#include <stdint.h>

#include "core/completions.h"
#include "energy/event_marker.h"
#include "result/result.h"

/* The readings are kept as the mean W of each 1 ms, the completions' own bins. */
#define EL_BIN_NS COMPL_BIN_NS
/* At most this many bins from the active phase's start (32 s; the rest is not kept). */
#define EL_MAX_BINS 32768u
/* A meter this fast or faster (1 kS/s) resolves single operations. */
#define EL_MAX_PERIOD_NS 1000000ULL
/* Offsets searched between the completions' clock and the meter's (docs/energy.md). */
#define EL_LAG_MAX_BINS 50
/* Each kind's kernel spans this much before and after a completion as it shows (the
 * offset): an op's current must lie within it (docs/energy.md). */
#define EL_PRE_BINS 25
#define EL_POST_BINS 25
#define EL_TRACE_BINS (EL_PRE_BINS + 1 + EL_POST_BINS)

/* Mean W per 1 ms bin from t0_ns (the first sample fed). */
struct el_series {
	uint64_t t0_ns;
	size_t n;
	float w_sum[EL_MAX_BINS];
	uint16_t cnt[EL_MAX_BINS];
	/* Readings fed just after the meter's clock was set again (SAMPLE_CLOCK_STEP: a PPK2
	 * after a hole its counter tells only modulo 64 samples, or a move of over 0.5 ms):
	 * one offset cannot place the completions on both sides. */
	unsigned clock_steps;
};

struct el_fit {
	/* The meter's clock against the completions': a completion at t shows at t + lag,
	 * within +- lag_u (the cross-correlation's half width at half height); r its peak's
	 * correlation. */
	double lag_s, lag_u_s, r_peak;
	/* 1: lag_s is the marker's offset (lag_u_s its U95), not the cross-correlation's;
	 * corr_lag_s what the cross-correlation found either way (NAN: no peak). */
	int marker;
	double corr_lag_s;
	/* Per kind: J per op (its kernel's area, fitted by least squares with the other
	 * kinds' and its neighbours' kernels, energy/event_deconv.h) and U95; ops fitted;
	 * NAN / 0 when the kind had none. */
	double j_per_op[COMPL_KINDS], u95_j[COMPL_KINDS];
	double ops[COMPL_KINDS];
	/* Two kinds always in step, fitted as one kernel (event_deconv.h): one op of sum_base
	 * with sum_ratio of sum_with costs sum_j (U95 sum_u95_j), their j_per_op NAN; -1: none. */
	int sum_base, sum_with;
	double sum_j, sum_u95_j, sum_ratio;
	/* The idle term fitted with the baseline as its prior, the residuals' RMS and the
	 * variance's inflation for their correlation. */
	double idle_w, idle_u95_w, residual_rms_w, inflation;
	/* The kernels' energy in the bins fitted against the readings' above the idle
	 * baseline there, each with its U95 (J; event_deconv.h). */
	double kernels_j, kernels_u95_j, above_idle_j, above_idle_u95_j;
	/* The kind with most ops (a pair's carrier: the pair's current): its kernel, W above
	 * idle at each 1 ms of the window, the first EL_PRE_BINS before its completion (ops
	 * far apart: their mean). -1: none. */
	int trace_kind;
	double trace_w[EL_TRACE_BINS];
};

void el_series_reset(struct el_series *s);
/* A reading of W at t_ns (a sample stream of 1 kS/s or more). */
void el_series_add(struct el_series *s, uint64_t t_ns, double w);

/*
 * Aligns ops on s (al's offset when al is ok: a marker's edges on the meter's digital
 * inputs; else the lag of the largest cross-correlation of their counts with the power,
 * over +-EL_LAG_MAX_BINS) and fits each kind's kernel around the completions as
 * they show, with idle_w (standard uncertainty idle_u_w) the idle term's prior. 0, or
 * -EINVAL when there is nothing to fit (no readings, no ops, completions in bins wider
 * than 1 ms, or kernels the data cannot tell), -ENODATA when the power rises with the
 * completions at no lag (nothing to place the kernels by).
 */
int event_locked_fit(const struct el_series *s, const struct completions *ops, double idle_w,
		     double idle_u_w, const struct el_align *al, struct el_fit *out);
/* The same as a new result record (NULL: nothing to fit); energy/event_check.h checks it
 * against the power model. */
struct result_event_locked *event_locked_figures(const struct el_series *s,
						 const struct completions *ops, double idle_w,
						 double idle_u_w, const struct el_align *al);

#endif
