/* SPDX-License-Identifier: MIT */
/* Meter specs "DRIVER:CONNECTION[,key=value...]": parsing into a device, and freeing it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "meters/core/meter_core.h"

#define MOD "meter"
#define NAMES_LEN 256

static struct meter_dev *dev_alloc(const struct meter_driver *drv, char *spec, const char *conn,
				   const char *sysfs_root)
{
	struct meter_dev *dev = xcalloc(1, sizeof(*dev));

	dev->drv = drv;
	dev->spec = spec;
	dev->conn = xstrdup(conn ? conn : "");
	dev->sysfs_root = sysfs_root ? sysfs_root : "";
	meter_core_init(dev);
	return dev;
}

struct meter_dev *meter_dev_new(const struct meter_driver *drv, const char *conn,
				const char *sysfs_root)
{
	return dev_alloc(drv, xasprintf("%s:%s", drv ? drv->name : "?", conn ? conn : ""), conn,
			 sysfs_root);
}

static int spec_add_param(struct meter_dev *dev, const char *spec, char *item)
{
	char *eq = strchr(item, '=');
	unsigned i;

	if (!eq || eq == item) {
		log_err(MOD, "meter '%s': '%s' is not key=value", spec, item);
		return -EINVAL;
	}
	*eq = '\0';
	for (i = 0; i < dev->nparams; i++) {
		if (!strcmp(dev->params[i].key, item)) {
			log_err(MOD, "meter '%s': key '%s' given twice", spec, item);
			return -EINVAL;
		}
	}
	if (dev->nparams == METER_MAX_PARAMS) {
		log_err(MOD, "meter '%s': more than %d keys", spec, METER_MAX_PARAMS);
		return -EINVAL;
	}
	dev->params[dev->nparams].key = xstrdup(item);
	dev->params[dev->nparams].val = xstrdup(eq + 1);
	dev->nparams++;
	return 0;
}

/* The driver a spec's prefix names, or NULL after listing the known ones. */
static const struct meter_driver *spec_driver(const struct meter_entry *meters, const char *spec,
					      const char *prefix)
{
	const struct meter_driver *drv = meter_driver_find(meters, prefix);
	char names[NAMES_LEN];

	if (!drv) {
		meter_driver_names(meters, names, sizeof(names));
		log_err(MOD, "meter '%s': unknown driver '%s' (known: %s)", spec, prefix, names);
	}
	return drv;
}

/*
 * The connection is the first comma item unless it holds '=': "manual:idle_ma=85,..."
 * has no connection, "hwmon:ina219" and "um25c:/dev/rfcomm0,interval=1s" do.
 */
static int spec_items(struct meter_dev *dev, const char *spec, char *rest)
{
	char *item, *save = NULL;
	int first = 1, rc;

	for (item = strtok_r(rest, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (first && !strchr(item, '=')) {
			free(dev->conn);
			dev->conn = xstrdup(item);
		} else {
			rc = spec_add_param(dev, spec, item);
			if (rc)
				return rc;
		}
		first = 0;
	}
	return 0;
}

int meter_parse_spec(const struct meter_entry *meters, const char *spec, const char *sysfs_root,
		     struct meter_dev **out)
{
	const struct meter_driver *drv;
	struct meter_dev *dev;
	char *copy, *colon, *rest;
	int rc;

	*out = NULL;
	if (!spec || !*spec) {
		log_err(MOD, "empty meter spec (expected DRIVER:CONNECTION[,key=value...])");
		return -EINVAL;
	}
	copy = xstrdup(spec);
	colon = strchr(copy, ':');
	rest = colon ? colon + 1 : copy + strlen(copy);
	if (colon)
		*colon = '\0';
	drv = spec_driver(meters, spec, copy);
	if (!drv) {
		free(copy);
		return -EINVAL;
	}
	dev = dev_alloc(drv, xstrdup(spec), "", sysfs_root);
	rc = spec_items(dev, spec, rest);
	free(copy);
	if (!rc)
		rc = meter_check_spec(dev);
	if (rc) {
		meter_free(dev);
		return rc;
	}
	*out = dev;
	return 0;
}

void meter_free(struct meter_dev *dev)
{
	unsigned i;

	if (!dev)
		return;
	meter_core_free(dev);
	for (i = 0; i < dev->nparams; i++) {
		free(dev->params[i].key);
		free(dev->params[i].val);
	}
	free(dev->spec);
	free(dev->conn);
	free(dev);
}
