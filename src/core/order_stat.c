/* SPDX-License-Identifier: MIT */
/* The k-th smallest of a long series in linear time, for medians that a sort would make slow. */
#include "core/order_stat.h"

static void swap(float *a, size_t i, size_t j)
{
	float t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/*
 * Hoare's selection with the median of three as pivot: a series of equal values (a meter
 * that holds its reading) partitions evenly, as both scans stop on the pivot's value.
 */
float order_stat_float(float *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		float p;

		if (a[mid] < a[lo])
			swap(a, mid, lo);
		if (a[hi] < a[lo])
			swap(a, hi, lo);
		if (a[hi] < a[mid])
			swap(a, hi, mid);
		p = a[mid];
		for (;;) {
			while (a[i] < p)
				i++;
			while (p < a[j])
				j--;
			if (i >= j)
				break;
			swap(a, i, j);
			i++;
			j--;
		}
		/* a[lo..j] <= p <= a[j+1..hi] */
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return a[k];
}
