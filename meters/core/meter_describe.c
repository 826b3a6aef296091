/* SPDX-License-Identifier: MIT */
/* Drivers describing themselves: spec syntax, keys, models and ranges; what each finds here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "meters/core/meter_core.h"

/* The names of the drivers that found nothing, on one line. */
#define SCAN_NONE_LEN 512
/* A driver's keys under its "keys:" heading. */
#define KEY_INDENT 6

void meter_driver_names(const struct meter_entry *meters, char *buf, size_t len)
{
	size_t i, off = 0;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; meters[i].driver && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "", meters[i].driver->name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

/* "4-24 V" / "up to 5 A" / "+-3.2 A": one quantity's limits, "" when unknown. */
static void fmt_limits(double lo, double hi, const char *unit, char *buf, size_t len)
{
	if (isnan(hi))
		buf[0] = '\0';
	else if (!isnan(lo) && lo == -hi)
		snprintf(buf, len, "+-%g %s", hi, unit);
	else if (!isnan(lo) && lo != 0)
		snprintf(buf, len, "%g to %g %s", lo, hi, unit);
	else
		snprintf(buf, len, "0-%g %s", hi, unit);
}

static void describe_model(const struct meter_model *m, FILE *out)
{
	char lim[3][48];
	const char *sep = "";
	size_t i;

	fmt_limits(m->range.v_min, m->range.v_max, "V", lim[0], sizeof(lim[0]));
	fmt_limits(m->range.a_min, m->range.a_max, "A", lim[1], sizeof(lim[1]));
	fmt_limits(NAN, m->range.w_max, "W", lim[2], sizeof(lim[2]));
	fprintf(out, "      %-10s", m->name);
	for (i = 0; i < ARRAY_SIZE(lim); i++) {
		if (!lim[i][0])
			continue;
		fprintf(out, "%s%s", sep, lim[i]);
		sep = ", ";
	}
	if (!*sep)
		fprintf(out, "no limits known");
	if (m->source)
		fprintf(out, " [%s]", m->source);
	fprintf(out, "\n");
	if (m->accuracy.source)
		fprintf(out, "      %-10s accuracy: %s\n", "", m->accuracy.source);
}

static void describe_one(const struct meter_driver *drv, FILE *out)
{
	const struct meter_model *m;
	size_t i;

	fprintf(out, "  %s: %s%s\n", drv->name, drv->desc,
		drv->flags & METER_DRV_PUSH ? " (pushes its readings)" : "");
	if (drv->conn_rule == METER_CONN_NONE) {
		fprintf(out, "    spec: %s:key=value[,key=value...]\n", drv->name);
	} else {
		fprintf(out, "    spec: %s:CONNECTION[,key=value...]\n", drv->name);
		fprintf(out, "    CONNECTION: %s\n", drv->conn ? drv->conn : "?");
	}
	if (drv->example)
		fprintf(out, "    e.g.  %s\n", drv->example);
	if (drv->nkeys) {
		fprintf(out, "    keys:\n");
		opt_print_keys(out, drv->keys, drv->nkeys, KEY_INDENT);
	}
	if (drv->nmodels)
		fprintf(out, "    models (measurable ranges):\n");
	for (i = 0; (m = meter_driver_model(drv, i)); i++)
		describe_model(m, out);
}

void meter_drivers_describe(const struct meter_entry *meters, FILE *out)
{
	size_t i;

	for (i = 0; meters[i].driver; i++)
		describe_one(meters[i].driver, out);
}

/* "  um25c:CONNECTION  interval= timeout= baud=": one line per driver. */
void meter_drivers_summary(const struct meter_entry *meters, FILE *out)
{
	const struct meter_driver *drv;
	char head[64];
	size_t i, k;

	for (i = 0; (drv = meters[i].driver); i++) {
		snprintf(head, sizeof(head), "%s:%s", drv->name,
			 drv->conn_rule == METER_CONN_NONE ? "" : "CONNECTION");
		fprintf(out, "  %-24s", head);
		for (k = 0; k < drv->nkeys; k++)
			fprintf(out, " %s=%s", drv->keys[k].name,
				drv->keys[k].required ? "(required)" : "");
		fprintf(out, "\n");
	}
}

/* A driver's heading only over what it found; those that found nothing on one line. */
void meter_drivers_scan(const struct meter_entry *meters, const char *sysfs_root, FILE *out)
{
	char none[SCAN_NONE_LEN] = "", *buf;
	const struct meter_driver *drv;
	size_t i, len, used = 0;
	FILE *mem;

	for (i = 0; (drv = meters[i].driver); i++) {
		if (!drv->scan)
			continue;
		buf = NULL;
		len = 0;
		mem = open_memstream(&buf, &len);
		if (!mem)
			continue;
		drv->scan(sysfs_root, mem);
		fclose(mem);
		if (len)
			fprintf(out, "%s (%s):\n%s", drv->name, drv->desc, buf);
		else if (used < sizeof(none))
			used += (size_t)snprintf(none + used, sizeof(none) - used, "%s%s",
						 used ? ", " : "", drv->name);
		free(buf);
	}
	if (*none)
		fprintf(out, "Found nothing here: %s (iowatt meters --help: what each reads)\n",
			none);
}
