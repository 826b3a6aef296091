/* SPDX-License-Identifier: MIT */
/* The device's write endurance against a workload: days until its rated writes, pure maths. */
#ifndef IOWATT_ENDURANCE_H
#define IOWATT_ENDURANCE_H

/* One part of the workload as it reaches the device. */
struct endurance_part {
	double user_bpd;	 /* bytes the workload writes a day (records as whole blocks) */
	double wa, wa_lo, wa_hi; /* write amplification: device bytes / job bytes; its range */
};

#define ENDURANCE_MAX_PARTS 2

struct endurance_in {
	double rated_bytes; /* --endurance: bytes the device may be written in its life (TBW) */
	/* its range where it is an estimate (the device's own wear figure); 0: rated_bytes */
	double rated_lo, rated_hi;
	struct endurance_part part[ENDURANCE_MAX_PARTS];
	unsigned nparts;
	double battery_days, battery_days_u95; /* the battery's life and its 95 % half width */
};

enum endurance_first { ENDS_BATTERY, ENDS_DEVICE, ENDS_UNCLEAR, ENDS_NEVER };

struct endurance {
	double device_bpd, device_bpd_lo, device_bpd_hi; /* bytes reaching the device a day */
	double days, days_lo, days_hi; /* rated_bytes / device_bpd (hi from the lowest WA) */
	int first;		       /* enum endurance_first: which runs out first */
};

/*
 * days = rated / sum(user_bpd x wa) over the parts; the interval from each part's WA range
 * (lo..hi) and the rating's (rated_lo..rated_hi). Which ends first compares the battery's interval with the device's: where
 * they overlap, ENDS_UNCLEAR; nothing written a day, ENDS_NEVER (days infinite).
 */
void endurance_compute(const struct endurance_in *in, struct endurance *out);

#endif
