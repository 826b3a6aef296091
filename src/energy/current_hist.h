/* SPDX-License-Identifier: MIT */
/* A phase's current readings in constant memory: a log-binned histogram for its percentiles. */
#ifndef IOWATT_CURRENT_HIST_H
#define IOWATT_CURRENT_HIST_H

#include <stdint.h>

/*
 * Bins grow by CHIST_RATIO from CHIST_MIN_A up, one set per sign: 1 nA to 1 kA at 2 %
 * steps, so a percentile is the reading to within 1 % (half a bin), whatever the meter's
 * rate or the phase's length. A bin keeps the sum of its readings too: a percentile is the
 * mean of its bin, exact where a level (a floor, a plateau) fills the bin. Readings below
 * 1 nA in magnitude count as zero.
 */
#define CHIST_MIN_A 1e-9
#define CHIST_RATIO 1.02
#define CHIST_BINS 1400

struct current_hist {
	uint64_t n, zero;
	double min, max; /* exact */
	uint64_t pos[CHIST_BINS], neg[CHIST_BINS];
	double pos_sum[CHIST_BINS], neg_sum[CHIST_BINS];
};

void current_hist_init(struct current_hist *h);
/* Counts the reading a (amps); NAN is ignored. */
void current_hist_add(struct current_hist *h, double a);
/*
 * The q-quantile (0 <= q <= 1) by nearest rank: the mean of the bin holding the
 * ceil(q n)-th smallest reading; q 0 and 1 are min and max exactly. NAN when empty.
 */
double current_hist_quantile(const struct current_hist *h, double q);

#endif
