/* SPDX-License-Identifier: MIT */
/* The result's device: a block device's model, sizes and the link it sits behind, from sysfs. */
#ifndef IOWATT_CONTEXT_DEVICE_H
#define IOWATT_CONTEXT_DEVICE_H

#include "result/result.h"

#include <limits.h>
#include <stddef.h>

/* Where a block device's facts are in sysfs (ROOT included); "" where it has none. */
struct device_dirs {
	const char *root;
	char disk[64];
	const char *transport; /* "usb", "nvme", "mmc", ... or NULL */
	char real[PATH_MAX];   /* the block device's own directory */
	char dev[PATH_MAX];    /* its `device`: SCSI device, NVMe controller, MMC card */
	char ctrl[PATH_MAX];   /* NVMe: the controller (/sys/class/nvme/nvmeN) */
	char usb[PATH_MAX];    /* USB: the device above the disk (bridge or stick) */
	char pci[PATH_MAX];    /* NVMe: the drive's PCI function */
};

/* The directories of whole disk `disk`: 0, or -ENOENT when sysfs has no such disk. */
int device_dirs_find(const char *sysfs_root, const char *disk, struct device_dirs *dd);
/* The USB interface's driver above the disk ("uas", "usb-storage"): 0 or -1. */
int device_usb_protocol(const struct device_dirs *dd, char *out, size_t len);

/*
 * The device of block device `disk` (partition `part` or ""): model, transport, sizes
 * and the link it sits behind (usb, pcie, mmc, loop). NULL when sysfs lacks it.
 */
struct result_device *context_device(const char *sysfs_root, const char *disk, const char *part);

#endif
