/* SPDX-License-Identifier: MIT */
/* Ranks that an interval cannot tell apart: compare's "indistinguishable at 95 %". */
#include <math.h>

#include "analysis/compare.h"

/*
 * Rows already in rank order. A row whose 95 % interval overlaps that of the first row of
 * the current group is indistinguishable from it and joins the group (tie[i] = that row's
 * rank); the first row that does not overlap starts the next group. Rows without a rank
 * (0) or an interval (NAN) are told apart by their values alone.
 */
void compare_ties(const double *value, const double *half, const int *rank, size_t n, int *tie)
{
	size_t i, lead = n;

	for (i = 0; i < n; i++) {
		tie[i] = 0;
		if (!rank[i])
			continue;
		if (lead < n && isfinite(half[i]) && isfinite(half[lead]) &&
		    fabs(value[i] - value[lead]) <= half[i] + half[lead]) {
			tie[i] = rank[lead];
			continue;
		}
		lead = i;
	}
}
