/* SPDX-License-Identifier: MIT */
/* The meters iowatt knows, one row each: the table the run and the commands pass down. */
#ifndef IOWATT_REGISTRY_H
#define IOWATT_REGISTRY_H

#include "meters/meter.h"

/*
 * Every driver with the emulators of its models, in the order `iowatt meters --help` and
 * `iowatt emulate --help` list them; ended by a row whose driver is NULL. Only the layers
 * above the driver folders (run, cli) use it: the meter core's lookups take it as an
 * argument (meter_parse_spec, meter_driver_find, emu_protocol_find...).
 */
extern const struct meter_entry meter_registry[];

#endif
