/* SPDX-License-Identifier: MIT */
/* The Raspberry Pi firmware flags source (get_throttled), for the registry. */
#ifndef IOWATT_SOURCES_GET_THROTTLED_H
#define IOWATT_SOURCES_GET_THROTTLED_H

#include "sources/source-internal.h"

extern const struct source_driver source_get_throttled;

#endif
