/* SPDX-License-Identifier: MIT */
/* What the numbers depend on: host, board, kernel, CPU, the target's device and link. */
#ifndef IOWATT_CONTEXT_H
#define IOWATT_CONTEXT_H

#include <jansson.h>

#include "bench/target.h"

/* {"host": {...}, "device": {...}, "filesystem": {...}}; sysfs_root "" = real. */
json_t *context_collect(const struct target *tg, const char *sysfs_root);
/*
 * The "device" object of block device `disk` (partition `part` or ""): model, transport,
 * sizes and the link it sits behind (usb, pcie, mmc, loop). NULL when sysfs lacks it.
 */
json_t *context_device_json(const char *sysfs_root, const char *disk, const char *part);

#endif
