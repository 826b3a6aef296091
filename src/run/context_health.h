/* SPDX-License-Identifier: MIT */
/* A device's own word on its wear and class, and its idle power settings, from sysfs and NVMe admin commands. */
#ifndef IOWATT_CONTEXT_HEALTH_H
#define IOWATT_CONTEXT_HEALTH_H

#include "result/result.h"
#include "run/context_device.h"
#include "run/health_decode.h"

/* Health of the disk at dd (never NULL: what cannot be read is null, `missing` says why). */
struct result_health *context_health(const struct device_dirs *dd);
/* Its runtime PM, NVMe APST and power state (never NULL). */
struct result_power_mgmt *context_power_mgmt(const struct device_dirs *dd);
/* Health of whole disk `disk` under sysfs_root; NULL when sysfs has no such disk. */
struct result_health *context_health_of(const char *sysfs_root, const char *disk);

#endif
