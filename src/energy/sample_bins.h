/* SPDX-License-Identifier: MIT */
/* Decimation of a fast meter's samples into fixed time bins with min, mean and max. */
#ifndef IOWATT_SAMPLE_BINS_H
#define IOWATT_SAMPLE_BINS_H

#include <stdint.h>

#include "core/sample.h"

/* A meter is binned when at least this many of its samples fall in one bin. */
#define SAMPLE_BINS_MIN_PER_BIN 10

/* One quantity over a bin: NAN where no sample had it. */
struct bin_stat {
	double min, mean, max;
};

/* A finished bin, as the samples CSV writes it. */
struct sample_bin {
	uint64_t t_ns; /* the bin's start: a multiple of the bin width */
	uint64_t n;    /* samples in it */
	struct bin_stat v, a, w;
	uint32_t flags; /* every sample's flags, or'ed */
};

struct bin_acc {
	double sum, min, max;
	uint64_t n;
};

struct sample_binner {
	uint64_t bin_ns;
	uint64_t t_ns; /* start of the open bin */
	uint64_t n;    /* 0: no open bin */
	struct bin_acc v, a, w;
	uint32_t flags;
};

/* Whether a meter sampling every period_ns is binned at bin_ns (0 period: unknown, not). */
int sample_bins_wanted(uint64_t period_ns, uint64_t bin_ns);
void sample_binner_init(struct sample_binner *b, uint64_t bin_ns);
/* Adds s. A sample past the open bin closes it: 1 and the bin in *done, else 0. Samples
 * come in time order (the meter core guarantees it). */
int sample_binner_add(struct sample_binner *b, const struct meter_sample *s,
		      struct sample_bin *done);
/* Closes the open bin: 1 and the bin in *done, 0 if there is none. */
int sample_binner_flush(struct sample_binner *b, struct sample_bin *done);

#endif
