/* SPDX-License-Identifier: MIT */
/* A fast meter's current averaged around each completion: the charge and shape of one operation. */
#ifndef IOWATT_EVENT_LOCKED_H
#define IOWATT_EVENT_LOCKED_H

#include <stddef.h>
#include <stdint.h>

#include "core/completions.h"
#include "result/result.h"

/* The readings are kept as the mean W of each 1 ms, the completions' own bins. */
#define EL_BIN_NS COMPL_BIN_NS
/* At most this many bins from the active phase's start (32 s; the rest is not kept). */
#define EL_MAX_BINS 32768u
/* A meter this fast or faster (1 kS/s) resolves single operations. */
#define EL_MAX_PERIOD_NS 1000000ULL
/* Offsets searched between the completions' clock and the meter's (docs/energy.md). */
#define EL_LAG_MAX_BINS 50
/* The window averaged around each completion as it shows (the offset): this much before
 * and after it; ops closer together than this read each other's energy. */
#define EL_PRE_BINS 25
#define EL_POST_BINS 25
#define EL_TRACE_BINS (EL_PRE_BINS + 1 + EL_POST_BINS)

/* Mean W per 1 ms bin from t0_ns (the first sample fed). */
struct el_series {
	uint64_t t0_ns;
	size_t n;
	float w_sum[EL_MAX_BINS];
	uint16_t cnt[EL_MAX_BINS];
};

struct el_fit {
	/* The meter's clock against the completions': a completion at t shows at t + lag,
	 * within +- lag_u (the cross-correlation's half width at half height); r its peak's
	 * correlation. */
	double lag_s, lag_u_s, r_peak;
	/* Per kind: J per op (the window's energy above idle over its ops) and U95 (from
	 * the spread of the events), ops averaged; NAN / 0 when the kind had none. */
	double j_per_op[COMPL_KINDS], u95_j[COMPL_KINDS];
	double ops[COMPL_KINDS];
	/* The kind with most ops: its mean W above idle at each 1 ms of the window, the
	 * first EL_PRE_BINS before its completion. -1: none. */
	int trace_kind;
	double trace_w[EL_TRACE_BINS];
};

void el_series_reset(struct el_series *s);
/* A reading of W at t_ns (a sample stream of 1 kS/s or more). */
void el_series_add(struct el_series *s, uint64_t t_ns, double w);

/*
 * Aligns ops on s (the lag of the largest cross-correlation of their counts with the
 * power, over +-EL_LAG_MAX_BINS) and averages the power above idle_w around each
 * completion. 0, or -EINVAL when there is nothing to average (no readings, no ops, or
 * completions in bins wider than 1 ms).
 */
int event_locked_fit(const struct el_series *s, const struct completions *ops, double idle_w,
		     struct el_fit *out);
/* The same as a new result record (NULL: nothing to average). */
struct result_event_locked *event_locked_figures(const struct el_series *s,
						 const struct completions *ops, double idle_w);

#endif
