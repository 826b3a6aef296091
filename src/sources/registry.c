/* SPDX-License-Identifier: MIT */
/* The explicit list of event sources, in the order they are opened and described. */
#include <stddef.h>

#include "sources/source-internal.h"

/* get_throttled follows rpi_volt: it is only read when rpi_volt is absent. */
const struct source_driver *const source_drivers[] = {
	&source_rpi_volt,
	&source_get_throttled,
	&source_kmsg,
	&source_gpio_uv,
	&source_temps,
	NULL,
};
