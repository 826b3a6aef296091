/* SPDX-License-Identifier: MIT */
/* What the sysfs-polled board meters share: restarting their ticks, the interval= row. */
#ifndef IOWATT_BOARD_METERS_H
#define IOWATT_BOARD_METERS_H

#include "core/clock.h"
#include "meters/meter-internal.h"

/* start() for meters whose dev->priv begins with struct sysfs_poll: restart the ticks. */
int sysfs_poll_start(struct meter_dev *dev);

#define SYSFS_INTERVAL_MIN_NS NS_PER_MS
#define SYSFS_INTERVAL_MAX_NS (60 * NS_PER_SEC)
/* The interval= row every polled board meter has, into the uint64_t ns at offset; def as
 * text, or NULL (0: not given) with help saying. */
#define SYSFS_INTERVAL_KEY(offset, def_text, help_text)                                  \
	{ .name = "interval", .type = OPT_DURATION, .off = (offset), .def = def_text,    \
	  .bare_unit_ns = NS_PER_MS, .min = SYSFS_INTERVAL_MIN_NS,                       \
	  .max = SYSFS_INTERVAL_MAX_NS, .help = help_text }

#endif
