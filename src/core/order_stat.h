/* SPDX-License-Identifier: MIT */
/* The k-th smallest of a long series in linear time, for medians that a sort would make slow. */
#ifndef IOWATT_ORDER_STAT_H
#define IOWATT_ORDER_STAT_H

#include <stddef.h>

/* The k-th smallest (from 0) of a[0..n), n > k, no NaN; a is reordered. */
float order_stat_float(float *a, size_t n, size_t k);

#endif
