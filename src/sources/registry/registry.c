/* SPDX-License-Identifier: MIT */
/* The registry of event sources: one row per source, from each source's header. */
#include <stddef.h>

#include "sources/get_throttled/get_throttled.h"
#include "sources/gpio_uv/gpio_uv.h"
#include "sources/kmsg/kmsg.h"
#include "sources/registry/registry.h"
#include "sources/rpi_volt/rpi_volt.h"
#include "sources/temps/temps.h"

/* get_throttled stands in for rpi_volt: read only where rpi_volt is absent (its reads
 * WARN in dmesg, and rpi_volt's alarm is the better signal). */
const struct source_entry source_registry[] = {
	{ &source_rpi_volt, NULL },
	{ &source_get_throttled, &source_rpi_volt },
	{ &source_kmsg, NULL },
	{ &source_gpio_uv, NULL },
	{ &source_temps, NULL },
	{ NULL, NULL },
};
