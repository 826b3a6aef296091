/* SPDX-License-Identifier: MIT */
/* Private helpers shared by the target modules (open, raw-device safety, job preparation). */
#ifndef IOWATT_TARGET_INT_H
#define IOWATT_TARGET_INT_H

#include <stddef.h>

#include "io/target.h"

/* "sda1", "tmpfs at /dev/shm", "ext4 at /mnt/sd": how messages name the target. */
const char *target_where(const struct target *tg, char *buf, size_t len);
/*
 * Refuse a raw device that is mounted, has a mounted partition, is held by another
 * driver or holds a filesystem signature or partition table, unless forced.
 * `writes` only changes the hint: for read-only jobs --force writes nothing.
 */
int target_raw_safety(const struct target *tg, int force, int writes);

#endif
