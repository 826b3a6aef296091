/* SPDX-License-Identifier: MIT */
/* The SoC and drive temperature source, for the registry. */
#ifndef IOWATT_SOURCES_TEMPS_H
#define IOWATT_SOURCES_TEMPS_H

#include "sources/source-internal.h"

extern const struct source_driver source_temps;

#endif
