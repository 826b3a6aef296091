/* SPDX-License-Identifier: MIT */
/* What the numbers depend on: host, board, kernel, CPU, the target's device and link. */
#ifndef IOWATT_CONTEXT_H
#define IOWATT_CONTEXT_H

#include <jansson.h>

#include "target.h"

/* {"host": {...}, "device": {...}, "filesystem": {...}}; sysfs_root "" = real. */
json_t *context_collect(const struct target *tg, const char *sysfs_root);

#endif
