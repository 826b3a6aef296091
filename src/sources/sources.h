/* SPDX-License-Identifier: MIT */
/* Event sources of a run (undervoltage, throttling, kernel log, GPIO, temperatures). */
#ifndef IOWATT_SOURCES_H
#define IOWATT_SOURCES_H

#include <stdint.h>
#include <stdio.h>

struct event_queue;

/* What the run asks the sources to watch. */
struct sources_config {
	const char *sysfs_root;	     /* "" = real; tests give a fake tree */
	const char *kmsg_path;	     /* "/dev/kmsg", a replay file or FIFO, or NULL/"none" */
	int kmsg_replay;	     /* kmsg_path is a recording: read all of it, not from its end */
	const char *target_blockdev; /* "sda": its USB port's disconnects become events */
	const char *uv_gpio;	     /* --uv-gpio CHIP:LINE[,active_low], or NULL */
	struct event_queue *events;  /* where every source's events go */
};

struct sources;
struct source_driver;

/*
 * One row of a table of sources (src/sources/registry/registry.c has the run's): a driver,
 * and the driver of an earlier row it stands in for, if any (opened only where that one
 * is not). A row whose driver is NULL ends the table.
 */
struct source_entry {
	const struct source_driver *drv;
	const struct source_driver *fallback_for;
};

/*
 * Opens every source of the table this machine has, in the table's order. One that is
 * absent or unreadable is left out with a warning where that matters; -errno only when a
 * source the user asked for by name (--uv-gpio) cannot be watched. *out is NULL then.
 */
int sources_open(const struct sources_config *cfg, const struct source_entry *table,
		 struct sources **out);
/* Pushes what is already set (an alarm raised before the run) and starts the watcher. */
int sources_start(struct sources *s);
/* Stops the watcher promptly; what arrived up to now is still pushed. NULL is fine. */
void sources_stop(struct sources *s);
/* Stops if needed and frees. NULL is fine. */
void sources_close(struct sources *s);

/* Temperatures in degrees C, NAN where absent. reset() starts a new max window. */
struct temps {
	double soc_c, drive_c;
	double soc_max_c, drive_max_c;
};
void sources_temps_reset(struct sources *s);
/* A fresh reading; all NAN when s is NULL. */
void sources_temps_get(struct sources *s, struct temps *t);

/* One reading of the temperature series, on the run's clock (CLOCK_MONOTONIC). */
struct temp_sample {
	uint64_t t_ns;
	double soc_c, drive_c; /* NAN where absent */
};
/*
 * The readings since the last call, oldest first (every periodic reading and every fresh
 * one): *out is allocated (free it), NULL with 0 when there are none or no sensor.
 */
size_t sources_temps_take(struct sources *s, struct temp_sample **out);

/* For `iowatt meters`: each source of the table, what it would watch on this machine. */
void sources_describe(const struct source_entry *table, const char *sysfs_root, FILE *out);

#endif
