/* SPDX-License-Identifier: MIT */
/* The result's device: a block device's model, sizes and the link it sits behind, from sysfs. */
#ifndef IOWATT_CONTEXT_DEVICE_H
#define IOWATT_CONTEXT_DEVICE_H

#include "result/result.h"

/*
 * The device of block device `disk` (partition `part` or ""): model, transport, sizes
 * and the link it sits behind (usb, pcie, mmc, loop). NULL when sysfs lacks it.
 */
struct result_device *context_device(const char *sysfs_root, const char *disk, const char *part);

#endif
