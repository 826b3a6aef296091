/* SPDX-License-Identifier: MIT */
/* The device's write endurance against a workload: days until its rated writes, pure maths. */
#include <math.h>
#include <string.h>

#include "analysis/endurance.h"

void endurance_compute(const struct endurance_in *in, struct endurance *out)
{
	double b_lo, b_hi, r_lo = in->rated_lo > 0 ? in->rated_lo : in->rated_bytes;
	double r_hi = in->rated_hi > 0 ? in->rated_hi : in->rated_bytes;
	unsigned i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < in->nparts && i < ENDURANCE_MAX_PARTS; i++) {
		const struct endurance_part *p = &in->part[i];

		out->device_bpd += p->user_bpd * p->wa;
		out->device_bpd_lo += p->user_bpd * p->wa_lo;
		out->device_bpd_hi += p->user_bpd * p->wa_hi;
	}
	if (!(out->device_bpd > 0)) {
		out->days = out->days_lo = out->days_hi = INFINITY;
		out->first = ENDS_NEVER;
		return;
	}
	out->days = in->rated_bytes / out->device_bpd;
	out->days_lo = r_lo / out->device_bpd_hi;
	out->days_hi = out->device_bpd_lo > 0 ? r_hi / out->device_bpd_lo : INFINITY;
	b_lo = in->battery_days - (isnan(in->battery_days_u95) ? 0 : in->battery_days_u95);
	b_hi = in->battery_days + (isnan(in->battery_days_u95) ? 0 : in->battery_days_u95);
	if (b_hi < out->days_lo)
		out->first = ENDS_BATTERY;
	else if (out->days_hi < b_lo)
		out->first = ENDS_DEVICE;
	else
		out->first = ENDS_UNCLEAR;
}
