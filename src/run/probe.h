/* SPDX-License-Identifier: MIT */
/* `iowatt probe`: one meter's live readings, to check the wiring before a run. */
#ifndef IOWATT_PROBE_H
#define IOWATT_PROBE_H

/* What to probe. */
struct probe_opts {
	const char *spec;	/* the meter spec (required) */
	const char *sysfs_root; /* "" for /sys */
	const char *csv_path;	/* every sample into this new file, or NULL */
	double seconds;		/* stop after this long; 0: until a signal */
	int force;		/* replace an existing csv_path */
};

/*
 * Open the meter and print a line per second (per period for slower meters): volts, mA,
 * W, running mWh, samples per second, bad frames, gaps, reconnects, events; then the
 * totals. Runs until a stop signal or o->seconds; *signal is the signal that stopped it
 * (0: none). 0, or -errno (logged): the spec, the meter, the CSV, -ENODATA when the meter
 * gave no reading.
 */
int probe_meter(const struct probe_opts *o, int *signal);

#endif
