/* SPDX-License-Identifier: MIT */
/* Undervoltage / throttling flag sources and temperatures, watched by one thread. */
#ifndef IOWATT_FLAGS_H
#define IOWATT_FLAGS_H

#include <stdint.h>
#include <stdio.h>

struct event_queue;

struct flag_sources;

struct flags_config {
	const char *sysfs_root; /* "" = real; tests give a fake tree */
	const char *kmsg_path;	/* "/dev/kmsg", a replay file, or NULL/"none" */
	const char *target_blockdev; /* "sda": its USB port's disconnects become events */
	int replay;		/* kmsg_path is a recorded file: read all of it, do not seek to end */
	struct event_queue *events; /* where the events go */
};

/*
 * Find the sources this machine has (rpi_volt hwmon in0_lcrit_alarm, the firmware's
 * get_throttled attribute, /dev/kmsg, thermal zones, the drive's NVMe/drivetemp hwmon)
 * and start a thread that turns them into events (events.h) as they happen.
 */
int flags_start(const struct flags_config *cfg, struct flag_sources **out);
void flags_stop(struct flag_sources *fs);
/* Print the sources found (iowatt meters). */
void flags_list(const char *sysfs_root, FILE *out);

/* Temperatures in degrees C, NAN where absent. reset() starts a new max window. */
struct temps {
	double soc_c, drive_c;
	double soc_max_c, drive_max_c;
};
void flags_temps_reset(struct flag_sources *fs);
void flags_temps_get(struct flag_sources *fs, struct temps *t);

#endif
