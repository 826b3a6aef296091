/* SPDX-License-Identifier: MIT */
/* The phases of a result's jobs on its clock, sorted, for labelling each exported sample. */
#include <stdlib.h>

#include "core/mem.h"
#include "report/export.h"

const char *const export_phase_names[EXPORT_PHASES] = { "idle", "active", "tail" };

static int span_cmp(const void *a, const void *b)
{
	const struct export_span *x = a, *y = b;

	return x->t0_ns < y->t0_ns ? -1 : x->t0_ns > y->t0_ns;
}

void export_spans_build(const struct rr_result *r, struct export_spans *sp)
{
	size_t i, k;

	sp->s = xcalloc(r->rep.njobs * EXPORT_PHASES + 1, sizeof(*sp->s));
	sp->n = 0;
	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];
		const struct result_span *ph[EXPORT_PHASES];

		if (!j->phases)
			continue;
		ph[0] = j->phases->idle;
		ph[1] = j->phases->active;
		ph[2] = j->phases->tail;
		for (k = 0; k < EXPORT_PHASES; k++) {
			if (!ph[k] || ph[k]->t_end_ns <= ph[k]->t_start_ns)
				continue;
			sp->s[sp->n++] = (struct export_span){ ph[k]->t_start_ns, ph[k]->t_end_ns,
							       rr_job_name(r, j),
							       export_phase_names[k], (unsigned)k };
		}
	}
	qsort(sp->s, sp->n, sizeof(*sp->s), span_cmp);
}

void export_spans_free(struct export_spans *sp)
{
	free(sp->s);
	sp->s = NULL;
	sp->n = 0;
}

const struct export_span *export_span_at(const struct export_spans *sp, uint64_t t_ns)
{
	size_t lo = 0, hi = sp->n;

	while (lo < hi) { /* the first span starting after t */
		size_t mid = lo + (hi - lo) / 2;

		if (sp->s[mid].t0_ns <= t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && t_ns < sp->s[lo - 1].t1_ns ? &sp->s[lo - 1] : NULL;
}
