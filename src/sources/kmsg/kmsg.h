/* SPDX-License-Identifier: MIT */
/* The kernel log source, for the registry. */
#ifndef IOWATT_SOURCES_KMSG_H
#define IOWATT_SOURCES_KMSG_H

#include "sources/source-internal.h"

extern const struct source_driver source_kmsg;

#endif
