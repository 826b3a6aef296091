/* SPDX-License-Identifier: MIT */
/* The PPK2's spike filter after a range switch, as Nordic's and IRNAS's software apply it. */
#ifndef IOWATT_PPK2_FILTER_H
#define IOWATT_PPK2_FILTER_H

#include <stdint.h>

/*
 * Nordic (pc-nrfconnect-ppk, serialDevice.ts getAdcResult, on by default) and IRNAS
 * (ppk2-api-python, get_adc_result) keep two exponential moving averages of every
 * converted sample: alpha 0.18, and alpha5 0.06 for the highest range (4). The sample of
 * a range switch and the two after it (samples 3, counting the switch) are replaced by
 * the average of their range; in range 4 the first two samples after the switch are not
 * averaged in at all (both averages keep their previous value), so the shunt switch's
 * transient never reaches the output.
 */
#define PPK2_SPIKE_ALPHA 0.18
#define PPK2_SPIKE_ALPHA5 0.06
#define PPK2_SPIKE_SAMPLES 3
#define PPK2_SPIKE_TOP_RANGE 4
#define PPK2_SPIKE_TOP_HOLD 2 /* range 4: samples kept out of both averages */

struct ppk2_spike_filter {
	int on;
	int have;		/* the averages hold a value */
	double avg, avg_top;	/* alpha's and alpha5's */
	unsigned prev_range;
	unsigned after;		/* samples still to replace since the last switch */
	unsigned in_range;	/* samples in this range since the switch */
	uint64_t replaced;	/* samples the filter replaced */
};

/* A fresh filter (at each stream start, as Nordic resets it on AVERAGE_START). */
void ppk2_spike_reset(struct ppk2_spike_filter *f, int on);
/* The amps to report for a sample of amps read in range; amps itself when off. */
double ppk2_spike_apply(struct ppk2_spike_filter *f, unsigned range, double amps);

#endif
