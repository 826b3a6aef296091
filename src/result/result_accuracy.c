/* SPDX-License-Identifier: MIT */
/* A meter's declared accuracy as the result keeps it, and back, for charts and readers. */
#include <math.h>
#include <string.h>

#include "core/mem.h"
#include "result/result.h"

struct result_accuracy *result_accuracy_from(const struct meter_accuracy *acc)
{
	struct result_accuracy *ra;
	unsigned i;

	if (!acc || !acc->source)
		return NULL;
	ra = xcalloc(1, sizeof(*ra));
	ra->source = xstrdup(acc->source);
	ra->v = acc->v;
	ra->a = acc->a;
	ra->w = acc->w;
	ra->ranges = xcalloc(acc->nranges + 1, sizeof(*ra->ranges));
	for (i = 0; i < acc->nranges; i++) {
		ra->ranges[i].a_max = acc->ranges[i].a_max;
		ra->ranges[i].a = acc->ranges[i].a;
	}
	ra->nranges = acc->nranges;
	return ra;
}

void result_accuracy_get(const struct result_accuracy *ra, struct meter_accuracy *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!ra || !ra->source)
		return;
	out->source = ra->source;
	out->v = ra->v;
	out->a = ra->a;
	out->w = ra->w;
	for (i = 0; i < ra->nranges && i < METER_ACC_RANGES; i++) {
		out->ranges[i].a_max = ra->ranges[i].a_max;
		out->ranges[i].a = ra->ranges[i].a;
	}
	out->nranges = (unsigned)(i);
}
