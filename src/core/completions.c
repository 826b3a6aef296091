/* SPDX-License-Identifier: MIT */
/* A job's completions per kind (read, write, flush) in fine time bins, for the power model. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/completions.h"

void completions_init(struct completions *c, uint64_t t0_ns)
{
	memset(c, 0, sizeof(*c));
	c->t0_ns = t0_ns;
	c->bin_ns = COMPL_BIN_NS;
}

/* Halve the resolution: pairs of bins become one. */
static void coarsen(struct completions *c)
{
	size_t i;
	unsigned k;

	for (i = 0; i < c->n; i++)
		for (k = 0; k < COMPL_KINDS; k++)
			c->c[i / 2 * COMPL_KINDS + k] =
			    (i % 2 ? c->c[i / 2 * COMPL_KINDS + k] : 0) + c->c[i * COMPL_KINDS + k];
	c->n = (c->n + 1) / 2;
	if (c->c)
		memset(c->c + c->n * COMPL_KINDS, 0, (c->cap - c->n) * COMPL_KINDS * sizeof(*c->c));
	c->bin_ns *= 2;
}

/* Makes the bin of t_ns exist (coarsening first when it is beyond the bound); its index. */
static size_t reach(struct completions *c, uint64_t t_ns)
{
	size_t idx = (size_t)((t_ns - c->t0_ns) / c->bin_ns), cap;

	while (idx >= COMPL_MAX_BINS) {
		coarsen(c);
		idx = (size_t)((t_ns - c->t0_ns) / c->bin_ns);
	}
	if (idx >= c->cap) {
		cap = c->cap ? c->cap : 1024;
		while (cap <= idx)
			cap *= 2;
		if (cap > COMPL_MAX_BINS)
			cap = COMPL_MAX_BINS;
		c->c = xrealloc(c->c, cap * COMPL_KINDS * sizeof(*c->c));
		memset(c->c + c->cap * COMPL_KINDS, 0, (cap - c->cap) * COMPL_KINDS * sizeof(*c->c));
		c->cap = cap;
	}
	if (idx >= c->n)
		c->n = idx + 1;
	return idx;
}

void completions_add(struct completions *c, enum compl_kind kind, uint64_t t_ns)
{
	size_t i;

	if (t_ns < c->t0_ns)
		t_ns = c->t0_ns;
	i = reach(c, t_ns); /* may move c->c */
	c->c[i * COMPL_KINDS + kind] += 1.0f;
	c->total[kind] += 1;
}

void completions_merge(struct completions *into, const struct completions *from)
{
	size_t i, j;
	unsigned k;

	if (!from->n)
		return;
	while (into->bin_ns < from->bin_ns)
		coarsen(into);
	for (i = 0; i < from->n; i++)
		for (k = 0; k < COMPL_KINDS; k++) {
			if (from->c[i * COMPL_KINDS + k] == 0)
				continue;
			j = reach(into, from->t0_ns + (uint64_t)i * from->bin_ns);
			into->c[j * COMPL_KINDS + k] += from->c[i * COMPL_KINDS + k];
			into->total[k] += from->c[i * COMPL_KINDS + k];
		}
}

void completions_free(struct completions *c)
{
	free(c->c);
	memset(c, 0, sizeof(*c));
}
