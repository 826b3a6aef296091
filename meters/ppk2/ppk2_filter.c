/* SPDX-License-Identifier: MIT */
/* The PPK2's spike filter: the samples right after a range switch replaced by a moving average. */
#include <string.h>

#include "meters/ppk2/ppk2_filter.h"

void ppk2_spike_reset(struct ppk2_spike_filter *f, int on)
{
	memset(f, 0, sizeof(*f));
	f->on = on;
}

double ppk2_spike_apply(struct ppk2_spike_filter *f, unsigned range, double amps)
{
	double prev_avg = f->avg, prev_top = f->avg_top;
	int switched;

	if (!f->on)
		return amps;
	if (!f->have) {
		f->avg = f->avg_top = amps;
		f->prev_range = range;
		f->have = 1;
	} else {
		f->avg = PPK2_SPIKE_ALPHA * amps + (1.0 - PPK2_SPIKE_ALPHA) * f->avg;
		f->avg_top = PPK2_SPIKE_ALPHA5 * amps + (1.0 - PPK2_SPIKE_ALPHA5) * f->avg_top;
	}
	switched = range != f->prev_range;
	f->prev_range = range;
	if (!switched && !f->after)
		return amps;
	if (switched) {
		f->in_range = 0;
		f->after = PPK2_SPIKE_SAMPLES;
	} else {
		f->in_range++;
	}
	f->after--;
	f->replaced++;
	if (range != PPK2_SPIKE_TOP_RANGE)
		return f->avg;
	/* The top range's shunt settles slowest: its first samples are left out entirely. */
	if (f->in_range < PPK2_SPIKE_TOP_HOLD) {
		f->avg = prev_avg;
		f->avg_top = prev_top;
	}
	return f->avg_top;
}
