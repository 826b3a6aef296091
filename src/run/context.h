/* SPDX-License-Identifier: MIT */
/* What the numbers depend on: host, board, kernel, CPU, the target's device and link. */
#ifndef IOWATT_CONTEXT_H
#define IOWATT_CONTEXT_H

#include "io/target.h"
#include "result/result.h"

/* The result's context (host, device, filesystem, target); sysfs_root "" = real. */
struct result_context *context_collect(const struct target *tg, const char *sysfs_root);
/*
 * The device of block device `disk` (partition `part` or ""): model, transport, sizes
 * and the link it sits behind (usb, pcie, mmc, loop). NULL when sysfs lacks it.
 */
struct result_device *context_device(const char *sysfs_root, const char *disk, const char *part);

#endif
