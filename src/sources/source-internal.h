/* SPDX-License-Identifier: MIT */
/* What an event source driver fills in, and the helpers the watcher gives it. */
#ifndef IOWATT_SOURCE_INTERNAL_H
#define IOWATT_SOURCE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "core/clock.h"
#include "sources/sources.h"

/* open() found nothing to watch here (absent, not asked for, or unreadable and said so). */
#define SOURCE_OFF 1
/* The period of what cannot wake poll(): a fake tree's plain file, a regular log file. */
#define SOURCE_TICK_NS (150 * NS_PER_MS)
/* A short sysfs attribute ("1", "0x50005") and its newline */
#define SOURCE_ATTR_LEN 32

struct source_driver;

/* One open source. The watcher thread calls read(); the main thread only open/start/close. */
struct source {
	const struct source_driver *drv;
	const struct sources_config *cfg;
	struct event_queue *events;
	int fd;			    /* the source's own, -1 for none */
	short poll_events;	    /* POLLIN, POLLPRI for a sysfs attribute; 0: fd not polled */
	uint64_t period_ns;	    /* read() at least this often; 0 = only when fd is ready */
	uint64_t next_ns;
	int on;			    /* the watcher's: cleared when a read failed and it closed */
	void *priv;
};

/*
 * Driver hooks, as for meters (meters/meter-internal.h): all return 0 or -errno after logging once.
 * open(): find what to watch, set fd / poll_events / period_ns; SOURCE_OFF when there is
 * nothing (the watcher drops the source), -errno fails the run (only for what the user
 * named). start() (optional): push what is already set at the start. read(): push what
 * changed, never blocking; called when fd is ready, every period_ns, once after start()
 * and once more after the watcher stopped. -errno there turns the source off for the rest
 * of the run. close(): release (also after a failed read). describe(): print what this
 * machine has for the source, under the desc line of `iowatt meters`, indented by six
 * spaces, without opening anything for long
 * (meters call it scan()); covered is 1 when the source is a fallback (its registry row's
 * fallback_for) and the source it stands in for is here, so it would not be opened.
 * found() (optional, for the description of a source that falls back on this one): 1 when
 * open() would find what to watch, else 0. No stop(), unlike meters: a source owns no
 * thread, the watcher stops and then calls read() once more.
 */
struct source_driver {
	const char *name; /* also the events' "source" */
	const char *desc; /* what it watches, one line for iowatt meters */
	int (*open)(struct source *src);
	int (*start)(struct source *src);
	int (*read)(struct source *src, uint64_t now_ns);
	void (*close)(struct source *src);
	void (*describe)(const char *sysfs_root, int covered, FILE *out);
	int (*found)(const char *sysfs_root);
	const struct source_temps *temps; /* NULL but for the temperature source */
};

/* What the temperature source adds (temps/temps.c): the values behind sources_temps_*. */
struct source_temps {
	void (*reset)(struct source *src);
	void (*get)(struct source *src, struct temps *t);
	size_t (*take)(struct source *src, struct temp_sample **out);
};

/* close() for a source that holds one fd and one allocation in priv. */
void source_std_close(struct source *src);
/* An open() that finds nothing it can watch: src->fd closed if open, priv (its state)
 * freed; returns SOURCE_OFF for open() to return. */
int source_open_off(struct source *src, void *priv);
/* The open source of a driver in the set, or NULL: for a fallback row, at open (the
 * watcher thread alone turns sources off later). */
struct source *source_find(struct sources *set, const struct source_driver *drv);

#endif
