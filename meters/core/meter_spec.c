/* SPDX-License-Identifier: MIT */
/* Meter specs "DRIVER:CONNECTION[,key=value...]": parsing, parameters, their checks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "meters/meter.h"

#define MOD "meter"

void meter_driver_names(char *buf, size_t len)
{
	size_t i, off = 0;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; meter_drivers[i] && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "", meter_drivers[i]->name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

struct meter_dev *meter_dev_new(const struct meter_driver *drv, const char *conn,
				const char *sysfs_root)
{
	struct meter_dev *dev = xcalloc(1, sizeof(*dev));

	dev->drv = drv;
	dev->conn = xstrdup(conn ? conn : "");
	dev->spec = xasprintf("%s:%s", drv ? drv->name : "?", dev->conn);
	dev->sysfs_root = sysfs_root ? sysfs_root : "";
	return dev;
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

/*
 * The connection is the first comma item unless it holds '=': "manual:idle_ma=85,..."
 * has no connection, "hwmon:ina219" and "um25c:/dev/rfcomm0,interval=1s" do.
 */
int meter_parse_spec(const char *spec, const char *sysfs_root, struct meter_dev **out)
{
	const struct meter_driver *drv;
	struct meter_dev *dev;
	char *copy, *colon, *rest, *item, *save = NULL;
	char names[256];
	int first = 1, rc = 0;

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
	drv = meter_driver_find(copy);
	if (!drv) {
		meter_driver_names(names, sizeof(names));
		log_err(MOD, "meter '%s': unknown driver '%s' (known: %s)", spec, copy, names);
		free(copy);
		return -EINVAL;
	}
	dev = meter_dev_new(drv, "", sysfs_root);
	free(dev->spec);
	dev->spec = xstrdup(spec);
	for (item = strtok_r(rest, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (first && !strchr(item, '=')) {
			free(dev->conn);
			dev->conn = xstrdup(item);
		} else {
			rc = spec_add_param(dev, spec, item);
			if (rc)
				break;
		}
		first = 0;
	}
	free(copy);
	if (rc) {
		meter_free(dev);
		return rc;
	}
	*out = dev;
	return 0;
}

const char *meter_param(const struct meter_dev *dev, const char *key)
{
	unsigned i;

	for (i = 0; i < dev->nparams; i++)
		if (!strcmp(dev->params[i].key, key))
			return dev->params[i].val;
	return NULL;
}

int meter_check_params(const struct meter_dev *dev, const char *const *known)
{
	char list[256];
	size_t off;
	unsigned i, k;
	int n;

	for (i = 0; i < dev->nparams; i++) {
		for (k = 0; known && known[k]; k++)
			if (!strcmp(known[k], dev->params[i].key))
				break;
		if (known && known[k])
			continue;
		list[0] = '\0';
		off = 0;
		for (k = 0; known && known[k] && off < sizeof(list); k++) {
			n = snprintf(list + off, sizeof(list) - off, "%s%s", k ? ", " : "",
				     known[k]);
			if (n < 0)
				break;
			off += (size_t)n;
		}
		log_err(MOD, "meter '%s': unknown key '%s' (%s accepts: %s)", dev->spec,
			dev->params[i].key, dev->drv->name, list[0] ? list : "no keys");
		return -EINVAL;
	}
	return 0;
}

void meter_free(struct meter_dev *dev)
{
	unsigned i;

	if (!dev)
		return;
	if (dev->core)
		meter_close(dev);
	for (i = 0; i < dev->nparams; i++) {
		free(dev->params[i].key);
		free(dev->params[i].val);
	}
	free(dev->spec);
	free(dev->conn);
	free(dev);
}
