/* SPDX-License-Identifier: MIT */
/* What the numbers depend on: host, board, kernel, CPU, the target's device and link. */
#ifndef IOWATT_CONTEXT_H
#define IOWATT_CONTEXT_H

#include "io/target.h"
#include "result/result.h"

/* The result's context (host, device, filesystem, target); sysfs_root "" = real. */
struct result_context *context_collect(const struct target *tg, const char *sysfs_root);

#endif
