/* SPDX-License-Identifier: MIT */
/* Options as text, as a user would write them ("4k", "100ms", "auto:5s"): help, results. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/options.h"

/* Largest exact suffix, so help and results read as a user would type the value. */
static const char *fmt_size_short(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "tgmk";
	unsigned i;

	for (i = 0; i < 4 && v; i++) {
		uint64_t unit = 1ULL << (10 * (4 - i));

		if (v % unit == 0) {
			snprintf(buf, len, "%" PRIu64 "%c", v / unit, sfx[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static const char *fmt_duration_short(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *sfx;
		uint64_t ns;
	} units[] = { { "h", 3600 * NS_PER_SEC }, { "m", 60 * NS_PER_SEC }, { "s", NS_PER_SEC },
		      { "ms", NS_PER_MS },	  { "us", NS_PER_US },	     { "ns", 1 } };
	size_t i;

	if (!ns) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns, units[i].sfx);
			break;
		}
	}
	return buf;
}

static void fmt_auto(uint64_t ns, char *buf, size_t len)
{
	char d[32];

	if (ns == OPT_AUTO_BARE)
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "auto:%s", fmt_duration_short(ns, d, sizeof(d)));
}

const char *opt_format_number(const struct opt_desc *d, double v, char *buf, size_t len)
{
	switch (d->type) {
	case OPT_SIZE:
		return fmt_size_short((uint64_t)v, buf, len);
	case OPT_DURATION:
		return fmt_duration_short((uint64_t)v, buf, len);
	case OPT_PERCENT:
		snprintf(buf, len, "%g%%", v * 100.0);
		return buf;
	default:
		snprintf(buf, len, "%.15g", v);
		return buf;
	}
}

const char *opt_format(const struct opt_desc *d, const void *base, char *buf, size_t len)
{
	const void *p = (const char *)base + d->off;
	const char *const *list;
	unsigned i, count;
	size_t used = 0;
	int v;

	switch (d->type) {
	case OPT_BOOL:
		v = *(const int *)p;
		if (v < 0)
			snprintf(buf, len, "auto");
		else
			snprintf(buf, len, "%d", v);
		break;
	case OPT_FLAG:
	case OPT_NOFLAG:
	case OPT_COUNT:
		snprintf(buf, len, "%d", *(const int *)p);
		break;
	case OPT_ENUM:
		v = *(const int *)p;
		snprintf(buf, len, "%s", v >= 0 ? d->choices[v].name : "");
		break;
	case OPT_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)p);
		break;
	case OPT_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)p);
		break;
	case OPT_SIZE:
		if (d->auto_off && *(const uint64_t *)(const void *)((const char *)base + d->auto_off))
			fmt_auto(*(const uint64_t *)(const void *)((const char *)base + d->auto_off),
				 buf, len);
		else
			fmt_size_short(*(const uint64_t *)p, buf, len);
		break;
	case OPT_DURATION:
		fmt_duration_short(*(const uint64_t *)p, buf, len);
		break;
	case OPT_DOUBLE:
	case OPT_PERCENT:
		opt_format_number(d, *(const double *)p, buf, len);
		break;
	case OPT_STR:
		snprintf(buf, len, "%s", (const char *)p);
		break;
	case OPT_STRP:
	case OPT_STRREF:
		snprintf(buf, len, "%s", *(char *const *)p ? *(char *const *)p : "");
		break;
	case OPT_FUNC: /* what it parsed into is its own business */
	case OPT_HELP:
		buf[0] = '\0';
		break;
	case OPT_STRLIST:
		list = p;
		count = *(const unsigned *)((const char *)base + d->count_off);
		buf[0] = '\0';
		for (i = 0; i < count && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
						 list[i]);
		break;
	}
	return buf;
}
