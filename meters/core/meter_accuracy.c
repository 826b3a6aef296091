/* SPDX-License-Identifier: MIT */
/* A sample's standard uncertainty from the accuracy its meter's datasheet declares. */
#include "meters/meter.h"

void meter_sample_u(const struct meter_accuracy *acc, const struct meter_sample *s,
		    struct meter_u *v, struct meter_u *a, struct meter_u *w)
{
	accuracy_reading_u(acc, s->v, s->a, s->w, !(s->flags & SAMPLE_W_COMPUTED), v, a, w);
}
