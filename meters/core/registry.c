/* SPDX-License-Identifier: MIT */
/* The explicit list of meter drivers, looked up by the spec's prefix. */
#include <stddef.h>
#include <string.h>

#include "meters/meter.h"

/* Serial testers and hand readings (meters/um.c, meters/manual.c). */
extern const struct meter_driver meter_um, meter_um24c, meter_um25c, meter_um34c;
extern const struct meter_driver meter_manual;
extern const struct meter_driver meter_ina219, meter_ina226, meter_ina260;
extern const struct meter_driver meter_hwmon, meter_power_supply, meter_rapl, meter_pmic;

const struct meter_driver *const meter_drivers[] = {
	&meter_um25c,
	&meter_um24c,
	&meter_um34c,
	&meter_um,
	&meter_manual,
	&meter_ina219,
	&meter_ina226,
	&meter_ina260,
	&meter_hwmon,
	&meter_power_supply,
	&meter_rapl,
	&meter_pmic,
	NULL,
};

const struct meter_driver *meter_driver_find(const char *name)
{
	size_t i;

	for (i = 0; meter_drivers[i]; i++)
		if (!strcmp(meter_drivers[i]->name, name))
			return meter_drivers[i];
	return NULL;
}
