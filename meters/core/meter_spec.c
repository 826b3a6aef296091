/* SPDX-License-Identifier: MIT */
/* Meter specs "DRIVER:CONNECTION[,key=value...]": parsed through the driver's key table into a device. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "meters/core/meter_core.h"

#define MOD "meter"
#define NAMES_LEN 256
#define WHY_LEN 256

/* A table of rows past this cannot say which were given (dev->given has a bit per row). */
#define METER_KEYS_MAX 64

static struct meter_dev *dev_alloc(const struct meter_driver *drv, char *spec, const char *conn,
				   const char *sysfs_root)
{
	struct meter_dev *dev = xcalloc(1, sizeof(*dev));

	dev->drv = drv;
	dev->spec = spec;
	dev->conn = xstrdup(conn ? conn : "");
	dev->sysfs_root = sysfs_root ? sysfs_root : "";
	if (drv && drv->args_size) {
		dev->args = xcalloc(1, drv->args_size);
		opt_apply_defaults(drv->keys, drv->nkeys, dev->args);
	}
	meter_core_init(dev);
	return dev;
}

struct meter_dev *meter_dev_new(const struct meter_driver *drv, const char *conn,
				const char *sysfs_root)
{
	return dev_alloc(drv, xasprintf("%s:%s", drv ? drv->name : "?", conn ? conn : ""), conn,
			 sysfs_root);
}

/* "a, b, c" (or "a,b,c" with sep ","): the names of rows or of drivers, for messages. */
static void add_name(char *buf, size_t len, size_t *used, const char *sep, const char *name)
{
	if (*used < len)
		*used += (size_t)snprintf(buf + *used, len - *used, "%s%s", *used ? sep : "", name);
}

/* A key this driver lacks: the drivers of meters that take it, and what this one takes. */
static int key_unknown(const struct meter_entry *meters, const struct meter_dev *dev,
		       const char *key)
{
	const struct meter_driver *drv = dev->drv, *other;
	char others[NAMES_LEN] = "", own[NAMES_LEN] = "";
	size_t i, n_others = 0, n_own = 0;

	for (i = 0; meters && (other = meters[i].driver); i++)
		if (other != drv && other->keys && opt_find(other->keys, other->nkeys, key))
			add_name(others, sizeof(others), &n_others, ",", other->name);
	for (i = 0; i < drv->nkeys; i++)
		add_name(own, sizeof(own), &n_own, ", ", drv->keys[i].name);
	if (n_others)
		log_err(MOD, "meter '%s': key '%s' does not apply to %s (only to %s; %s accepts: %s)",
			dev->spec, key, drv->name, others, drv->name, n_own ? own : "no keys");
	else
		log_err(MOD, "meter '%s': unknown key '%s' (%s accepts: %s)", dev->spec, key,
			drv->name, n_own ? own : "no keys");
	return -EINVAL;
}

/* One "key=value" item of the spec into dev->args, through the driver's table. */
static int spec_set_key(const struct meter_entry *meters, struct meter_dev *dev, char *item)
{
	const struct meter_driver *drv = dev->drv;
	char *eq = strchr(item, '='), why[WHY_LEN];
	const struct opt_desc *d;
	uint64_t bit;

	if (!eq || eq == item) {
		log_err(MOD, "meter '%s': '%s' is not key=value", dev->spec, item);
		return -EINVAL;
	}
	*eq = '\0';
	d = drv->keys ? opt_find(drv->keys, drv->nkeys, item) : NULL;
	if (!d)
		return key_unknown(meters, dev, item);
	bit = 1ULL << (d - drv->keys);
	if (dev->given & bit) {
		log_err(MOD, "meter '%s': key '%s' given twice", dev->spec, item);
		return -EINVAL;
	}
	if (!eq[1] || opt_set_reason(d, dev->args, eq + 1, why, sizeof(why))) {
		log_err(MOD, "meter '%s': %s=%s: %s (%s)", dev->spec, item, eq + 1,
			eq[1] ? why : "empty value", d->help);
		return -EINVAL;
	}
	dev->given |= bit;
	return 0;
}

/*
 * The connection is the first comma item unless it holds '=': "manual:idle_ma=85,..."
 * has no connection, "hwmon:ina219" and "um25c:/dev/rfcomm0,interval=1s" do.
 */
static int spec_items(const struct meter_entry *meters, struct meter_dev *dev, char *rest)
{
	char *item, *save = NULL;
	int first = 1, rc;

	for (item = strtok_r(rest, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (first && !strchr(item, '=')) {
			free(dev->conn);
			dev->conn = xstrdup(item);
		} else {
			rc = spec_set_key(meters, dev, item);
			if (rc)
				return rc;
		}
		first = 0;
	}
	return 0;
}

static int check_conn(const struct meter_dev *dev)
{
	const struct meter_driver *drv = dev->drv;

	if (drv->conn_rule == METER_CONN_REQUIRED && !*dev->conn) {
		log_err(MOD, "meter '%s': no connection given: %s (e.g. %s)", dev->spec,
			drv->conn ? drv->conn : "?", drv->example ? drv->example : drv->name);
		return -EINVAL;
	}
	if (drv->conn_rule == METER_CONN_NONE && *dev->conn) {
		log_err(MOD, "meter '%s': %s takes only key=value settings, not '%s' (e.g. %s)",
			dev->spec, drv->name, dev->conn, drv->example ? drv->example : drv->name);
		return -EINVAL;
	}
	return 0;
}

/* The required keys were given, the connection fits the driver, then its own check(). */
static int check_spec(const struct meter_dev *dev)
{
	const struct meter_driver *drv = dev->drv;
	size_t i;
	int rc;

	for (i = 0; i < drv->nkeys; i++) {
		if (drv->keys[i].required && !(dev->given & (1ULL << i))) {
			log_err(MOD, "meter '%s': %s= is required: %s (e.g. %s)", dev->spec,
				drv->keys[i].name, drv->keys[i].help,
				drv->example ? drv->example : drv->name);
			return -EINVAL;
		}
	}
	rc = check_conn(dev);
	if (!rc && drv->check)
		rc = drv->check(dev);
	return rc;
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
	} else if (drv->nkeys > METER_KEYS_MAX) {
		log_err(MOD, "driver %s: %zu keys, more than %d", drv->name, drv->nkeys,
			METER_KEYS_MAX);
		return NULL;
	}
	return drv;
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
	rc = spec_items(meters, dev, rest);
	free(copy);
	if (!rc)
		rc = check_spec(dev);
	if (rc) {
		meter_free(dev);
		return rc;
	}
	*out = dev;
	return 0;
}

int meter_key_given(const struct meter_dev *dev, const void *field)
{
	size_t off = (size_t)((const char *)field - (const char *)dev->args), i;

	for (i = 0; i < dev->drv->nkeys; i++)
		if (dev->drv->keys[i].off == off)
			return !!(dev->given & (1ULL << i));
	return 0;
}

uint64_t meter_spec_interval_ns(const struct meter_dev *dev)
{
	const struct opt_desc *d =
		dev->drv->keys ? opt_find(dev->drv->keys, dev->drv->nkeys, "interval") : NULL;

	return d && d->type == OPT_DURATION ? *(const uint64_t *)(const void *)((const char *)
										 dev->args +
									 d->off)
					    : 0;
}

int meter_spec_accuracy(const struct meter_dev *dev, struct meter_accuracy *out)
{
	const struct meter_model *m = meter_driver_model_by_name(dev->drv, dev->drv->name);

	if (!m && dev->drv->nmodels == 1)
		m = meter_driver_model(dev->drv, 0);
	if (!m || !m->accuracy.source)
		return -ENOENT;
	*out = m->accuracy;
	return 0;
}

void meter_free(struct meter_dev *dev)
{
	if (!dev)
		return;
	meter_core_free(dev);
	if (dev->args)
		opt_free_strings(dev->drv->keys, dev->drv->nkeys, dev->args);
	free(dev->args);
	free(dev->spec);
	free(dev->conn);
	free(dev);
}
