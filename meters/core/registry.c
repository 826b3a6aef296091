/* SPDX-License-Identifier: MIT */
/* The explicit list of meter drivers, looked up by the spec's prefix, and their model rows. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "meters/meter-internal.h"

/* Declared here, as libsigrok's drivers.c does, so no driver folder's header is needed. */
extern const struct meter_driver meter_um, meter_um24c, meter_um25c, meter_um34c;
extern const struct meter_driver meter_manual;
extern const struct meter_driver meter_ina219, meter_ina226, meter_ina260;
extern const struct meter_driver meter_hwmon, meter_power_supply, meter_rapl, meter_pmic;
extern const struct meter_driver meter_fnb58, meter_atorch, meter_ppk2;
#ifdef HAVE_NETTLE
extern const struct meter_driver meter_tc66c;
#endif
#ifdef HAVE_SIGROK
extern const struct meter_driver meter_sigrok;
#endif

const struct meter_driver *const meter_drivers[] = {
	&meter_um25c,
	&meter_um24c,
	&meter_um34c,
	&meter_um,
	&meter_fnb58,
#ifdef HAVE_NETTLE
	&meter_tc66c,
#endif
	&meter_atorch,
	&meter_ppk2,
#ifdef HAVE_SIGROK
	&meter_sigrok,
#endif
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

const struct meter_model *meter_driver_model(const struct meter_driver *drv, size_t i)
{
	if (!drv->models || i >= drv->nmodels)
		return NULL;
	return (const struct meter_model *)(const void *)((const char *)drv->models +
							   i * drv->model_size);
}

const struct meter_model *meter_driver_model_by_name(const struct meter_driver *drv,
						     const char *name)
{
	const struct meter_model *m;
	size_t i;

	for (i = 0; (m = meter_driver_model(drv, i)); i++)
		if (!strcasecmp(m->name, name))
			return m;
	return NULL;
}
