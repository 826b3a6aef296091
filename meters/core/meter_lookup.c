/* SPDX-License-Identifier: MIT */
/* Looking a driver up by name in a table of meters, its keys, and a model up in its rows. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "meters/meter-internal.h"

const struct meter_driver *meter_driver_find(const struct meter_entry *meters, const char *name)
{
	size_t i;

	for (i = 0; meters[i].driver; i++)
		if (!strcmp(meters[i].driver->name, name))
			return meters[i].driver;
	return NULL;
}

const struct opt_desc *meter_driver_keys(const struct meter_entry *meters, const char *name,
				       size_t *n)
{
	const struct meter_driver *drv = meter_driver_find(meters, name);

	*n = drv ? drv->nkeys : 0;
	return drv ? drv->keys : NULL;
}

int meter_driver_serial(const struct meter_entry *meters, const char *name)
{
	const struct meter_driver *drv = meter_driver_find(meters, name);

	return drv && (drv->flags & METER_DRV_SERIAL);
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
