/* SPDX-License-Identifier: MIT */
/* Driver parameter tables: a spec's keys checked before open(), typed getters with defaults. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/units.h"
#include "meters/core/meter_core.h"

#define MOD "meter"
#define WHY_LEN 200
#define LIST_LEN 256
#define KEY_COLUMN 22

/* Does a comma list of driver names hold name? */
static int name_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static int row_applies(const struct meter_param_desc *d, const struct meter_driver *drv)
{
	return !d->only || name_in_list(d->only, drv->name);
}

const struct meter_param_desc *meter_param_desc(const struct meter_driver *drv, const char *key)
{
	const struct meter_param_desc *d;

	for (d = drv->params; d && d->key; d++)
		if (!strcmp(d->key, key) && row_applies(d, drv))
			return d;
	return NULL;
}

static const struct meter_param_desc *row_any(const struct meter_driver *drv, const char *key)
{
	const struct meter_param_desc *d;

	for (d = drv->params; d && d->key; d++)
		if (!strcmp(d->key, key))
			return d;
	return NULL;
}

/* "140 us", "1.1 ms", "60 s": the shortest exact spelling of a duration bound. */
static const char *fmt_bound_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e6)
		snprintf(buf, len, "%g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%g ms", ns / 1e6);
	else
		snprintf(buf, len, "%g s", ns / 1e9);
	return buf;
}

static void choice_list(const struct meter_param_desc *d, const char *sep, char *buf, size_t len)
{
	size_t off = 0, i;
	int n;

	buf[0] = '\0';
	for (i = 0; d->choices && d->choices[i] && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%s", i ? sep : "", d->choices[i]);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

int meter_param_check_value(const struct meter_param_desc *d, const char *val, char *why,
			    size_t len)
{
	char a[32], b[32], list[LIST_LEN];
	uint64_t ns;
	double x;
	long l;
	size_t i;

	if (!*val) {
		snprintf(why, len, "empty value");
		return -EINVAL;
	}
	switch (d->type) {
	case METER_PT_STRING:
		return 0;
	case METER_PT_INT:
		if (!parse_int(val, (long)d->min, (long)d->max, &l))
			return 0;
		snprintf(why, len, "expected a whole number from %g to %g", d->min, d->max);
		return -EINVAL;
	case METER_PT_DOUBLE:
		if (!parse_double(val, &x) && x >= d->min && x <= d->max)
			return 0;
		snprintf(why, len, "expected a number from %g to %g", d->min, d->max);
		return -EINVAL;
	case METER_PT_DURATION:
		if (!parse_duration_ns(val, d->unit_ns, &ns) && (double)ns >= d->min &&
		    (double)ns <= d->max)
			return 0;
		snprintf(why, len, "expected a duration from %s to %s",
			 fmt_bound_ns(d->min, a, sizeof(a)), fmt_bound_ns(d->max, b, sizeof(b)));
		return -EINVAL;
	case METER_PT_CHOICE:
		for (i = 0; d->choices && d->choices[i]; i++)
			if (!strcmp(d->choices[i], val))
				return 0;
		choice_list(d, ", ", list, sizeof(list));
		snprintf(why, len, "expected one of %s", list);
		return -EINVAL;
	}
	snprintf(why, len, "bad parameter type");
	return -EINVAL;
}

/* "interval, timeout, baud": the keys that apply to drv. */
static void key_list(const struct meter_driver *drv, char *buf, size_t len)
{
	const struct meter_param_desc *d;
	size_t off = 0;
	int n;

	buf[0] = '\0';
	for (d = drv->params; d && d->key && off < len; d++) {
		if (!row_applies(d, drv) || meter_param_desc(drv, d->key) != d)
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", d->key);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static int check_key(const struct meter_dev *dev, const struct meter_param *p)
{
	const struct meter_driver *drv = dev->drv;
	const struct meter_param_desc *d = meter_param_desc(drv, p->key), *other;
	char why[WHY_LEN], list[LIST_LEN];

	if (!d) {
		other = row_any(drv, p->key);
		if (other) {
			log_err(MOD, "meter '%s': key '%s' does not apply to %s (only to %s)",
				dev->spec, p->key, drv->name, other->only);
			return -EINVAL;
		}
		key_list(drv, list, sizeof(list));
		log_err(MOD, "meter '%s': unknown key '%s' (%s accepts: %s)", dev->spec, p->key,
			drv->name, list[0] ? list : "no keys");
		return -EINVAL;
	}
	if (meter_param_check_value(d, p->val, why, sizeof(why))) {
		log_err(MOD, "meter '%s': %s=%s: %s (%s)", dev->spec, p->key, p->val, why, d->help);
		return -EINVAL;
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

int meter_check_spec(const struct meter_dev *dev)
{
	const struct meter_param_desc *d;
	unsigned i;
	int rc;

	for (i = 0; i < dev->nparams; i++) {
		rc = check_key(dev, &dev->params[i]);
		if (rc)
			return rc;
	}
	for (d = dev->drv->params; d && d->key; d++) {
		if ((d->flags & METER_PARAM_REQUIRED) && row_applies(d, dev->drv) &&
		    !meter_param(dev, d->key)) {
			log_err(MOD, "meter '%s': %s= is required: %s (e.g. %s)", dev->spec, d->key,
				d->help, dev->drv->example ? dev->drv->example : dev->drv->name);
			return -EINVAL;
		}
	}
	rc = check_conn(dev);
	if (!rc && dev->drv->check)
		rc = dev->drv->check(dev);
	return rc;
}

const char *meter_param(const struct meter_dev *dev, const char *key)
{
	unsigned i;

	for (i = 0; i < dev->nparams; i++)
		if (!strcmp(dev->params[i].key, key))
			return dev->params[i].val;
	return NULL;
}

/* The value or the default. A key outside the table is the driver's bug, not the user's. */
static const char *value_of(const struct meter_dev *dev, const char *key,
			    const struct meter_param_desc **row)
{
	const struct meter_param_desc *d = meter_param_desc(dev->drv, key);
	const char *v;

	if (!d) {
		log_err(MOD, "%s: driver asks for key '%s' missing from its table", dev->spec, key);
		abort();
	}
	v = meter_param(dev, key);
	*row = d;
	return v ? v : d->def;
}

const char *meter_param_str(const struct meter_dev *dev, const char *key)
{
	const struct meter_param_desc *d;

	return value_of(dev, key, &d);
}

long meter_param_int(const struct meter_dev *dev, const char *key)
{
	const struct meter_param_desc *d;
	const char *s = value_of(dev, key, &d);
	long v;

	return s && !parse_int(s, LONG_MIN, LONG_MAX, &v) ? v : 0;
}

double meter_param_double(const struct meter_dev *dev, const char *key)
{
	const struct meter_param_desc *d;
	const char *s = value_of(dev, key, &d);
	double v;

	return s && !parse_double(s, &v) ? v : NAN;
}

uint64_t meter_param_ns(const struct meter_dev *dev, const char *key)
{
	const struct meter_param_desc *d;
	const char *s = value_of(dev, key, &d);
	uint64_t v;

	return s && !parse_duration_ns(s, d->unit_ns, &v) ? v : 0;
}

uint64_t meter_spec_interval_ns(const struct meter_dev *dev)
{
	return meter_param_desc(dev->drv, "interval") ? meter_param_ns(dev, "interval") : 0;
}

const char *const meter_supply_names[] = { "drive", "board", NULL };

int meter_param_board(const struct meter_dev *dev)
{
	const char *s = meter_param_str(dev, "supply");

	return s ? !strcmp(s, "board") : -1;
}

/* One parameter for --help: "interval=DURATION  poll period (default 500ms)". */
void meter_param_describe(const struct meter_param_desc *d, FILE *out)
{
	char kv[LIST_LEN + 64], list[LIST_LEN];
	const char *type = "TEXT";

	switch (d->type) {
	case METER_PT_INT:
		type = "N";
		break;
	case METER_PT_DOUBLE:
		type = "X";
		break;
	case METER_PT_DURATION:
		type = "DURATION";
		break;
	case METER_PT_CHOICE:
		choice_list(d, "|", list, sizeof(list));
		type = list;
		break;
	case METER_PT_STRING:
		break;
	}
	snprintf(kv, sizeof(kv), "%s=%s", d->key, type);
	if (strlen(kv) > KEY_COLUMN)
		fprintf(out, "      %s\n      %-*s %s", kv, KEY_COLUMN, "", d->help);
	else
		fprintf(out, "      %-*s %s", KEY_COLUMN, kv, d->help);
	if (d->def)
		fprintf(out, " (default %s)", d->def);
	if (d->flags & METER_PARAM_REQUIRED)
		fprintf(out, " (required)");
	fprintf(out, "\n");
}
