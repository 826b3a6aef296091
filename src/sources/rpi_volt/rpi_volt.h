/* SPDX-License-Identifier: MIT */
/* The Raspberry Pi undervoltage alarm source, for the registry. */
#ifndef IOWATT_SOURCES_RPI_VOLT_H
#define IOWATT_SOURCES_RPI_VOLT_H

#include "sources/source-internal.h"

extern const struct source_driver source_rpi_volt;

#endif
