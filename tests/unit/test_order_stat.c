/* SPDX-License-Identifier: MIT */
/* The k-th smallest by selection against a sort, on series a meter gives (held, noisy, tied). */
#include <stdlib.h>
#include <string.h>

#include "core/order_stat.h"
#include "tap.h"

static int cmp(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* Every k of a series of n drawn by kind: 0 noise, 1 a few levels held (ties), 2 sorted,
 * 3 sorted backwards, 4 all equal. */
static int check(unsigned kind, size_t n, unsigned seed)
{
	float *a = malloc(n * sizeof(*a)), *s = malloc(n * sizeof(*s)), *w = malloc(n * sizeof(*w));
	size_t i, k;
	int bad = 0;

	srand(seed);
	for (i = 0; i < n; i++)
		a[i] = kind == 0   ? (float)rand() / (float)RAND_MAX
		       : kind == 1 ? (float)(rand() % 3)
		       : kind == 2 ? (float)i
		       : kind == 3 ? (float)(n - i)
				   : 7.0f;
	memcpy(s, a, n * sizeof(*a));
	qsort(s, n, sizeof(*s), cmp);
	for (k = 0; k < n; k++) {
		memcpy(w, a, n * sizeof(*a));
		if (order_stat_float(w, n, k) != s[k])
			bad++;
	}
	free(a);
	free(s);
	free(w);
	return bad;
}

int main(void)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 17, 64, 257 };
	static const char *const kinds[] = { "noise", "three held levels", "sorted", "backwards",
					     "all equal" };
	unsigned kind, seed;
	size_t z;

	for (kind = 0; kind < 5; kind++) {
		int bad = 0;

		for (z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
			for (seed = 1; seed <= 5; seed++)
				bad += check(kind, sizes[z], seed);
		ok(bad == 0, "%s: every k of 1..257 values is the sorted series' (%d wrong)",
		   kinds[kind], bad);
	}
	return done_testing();
}
