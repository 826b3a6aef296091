/* SPDX-License-Identifier: MIT */
/* What the sysfs-polled board meters share: restarting their ticks, the interval= row, INA accuracy. */
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

/* What a caller calls TI's figures for each chip, in the units its readings come in. */
struct board_ina_sources {
	const char *ina219, *ina226, *ina260;
};

/*
 * The datasheet accuracy (meters/ina-datasheet.h) of a kernel-driven INA chip called
 * name ("ina219", "ina226", "ina260"), its shunt in ohms (NAN: unknown, which leaves the
 * shunt-based chips undeclared) and the INA219's shunt offset at the PGA the kernel left
 * it at. Other names: acc untouched.
 */
void board_ina_accuracy(const char *name, double shunt_ohm, double ina219_offset_v,
			const struct board_ina_sources *src, struct meter_accuracy *acc);

#endif
