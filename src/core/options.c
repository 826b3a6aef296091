/* SPDX-License-Identifier: MIT */
/* Table-driven parse, range checks, defaults and formatting of every option type. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/units.h"
#include "core/units.h"

static int name_eq(const char *table_name, const char *norm)
{
	char buf[64];

	if (!table_name || strlen(table_name) >= sizeof(buf))
		return 0;
	strcpy(buf, table_name);
	opt_name_normalize(buf);
	return !strcmp(buf, norm);
}

const struct opt_desc *opt_find(const struct opt_desc *table, size_t n, const char *name)
{
	char norm[64];
	size_t i;

	if (!name || strlen(name) >= sizeof(norm))
		return NULL;
	strcpy(norm, name);
	opt_name_normalize(norm);
	for (i = 0; i < n; i++)
		if (name_eq(table[i].name, norm) || name_eq(table[i].alias, norm))
			return &table[i];
	return NULL;
}

static void *field(const struct opt_desc *d, void *base)
{
	return (char *)base + d->off;
}

static const void *cfield(const struct opt_desc *d, const void *base)
{
	return (const char *)base + d->off;
}

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

static int range_ok(const struct opt_desc *d, double v)
{
	if (!d->min && !d->max)
		return 1;
	return v >= d->min && (!d->max || v <= d->max);
}

static int range_err(const struct opt_desc *d, const char *value, const char *for_key,
		     char *err, size_t errlen)
{
	char lo[32], hi[32];

	opt_format_number(d, d->min, lo, sizeof(lo));
	if (d->max)
		opt_format_number(d, d->max, hi, sizeof(hi));
	else if (d->type == OPT_UINT)
		snprintf(hi, sizeof(hi), "%u", UINT32_MAX);
	else
		hi[0] = '\0';
	snprintf(err, errlen, "'%s'%s%s%s out of range %s..%s", value, for_key ? " for '" : "",
		 for_key ? for_key : "", for_key ? "'" : "", lo, hi);
	return -ERANGE;
}

static void choice_list(const struct opt_choice *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; c->name && used < len; c++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", c->name);
}

static int choice_index(const struct opt_choice *c, const char *value)
{
	int i;

	for (i = 0; c[i].name; i++)
		if (!strcmp(c[i].name, value))
			return i;
	return -1;
}

/* What each type expects, for "bad TYPE 'v' for 'key': expected ..." messages. */
static const char *type_noun(enum opt_type t)
{
	switch (t) {
	case OPT_SIZE:
		return "size";
	case OPT_DURATION:
		return "duration";
	case OPT_UINT:
	case OPT_U64:
	case OPT_DOUBLE:
	case OPT_COUNT:
		return "number";
	case OPT_PERCENT:
		return "percentage";
	default:
		return "value";
	}
}

static const char *type_expect(const struct opt_desc *d, char *buf, size_t len)
{
	char list[256];

	switch (d->type) {
	case OPT_BOOL:
		return "expected 1/0, true/false, yes/no or on/off";
	case OPT_UINT:
	case OPT_U64:
		return "expected a whole number";
	case OPT_SIZE:
		return "expected bytes with an optional suffix: k/m/g/t or KiB/MiB/GiB (base 1024), "
		       "kB/MB/GB (base 1000)";
	case OPT_DURATION:
		return "expected a time with ns/us/ms/s/m/h (a bare number is seconds)";
	case OPT_DOUBLE:
		return "expected a number";
	case OPT_PERCENT:
		return "expected a percentage like 5% or a fraction like 0.05";
	default:
		if (!d->choices)
			return "expected a string";
		choice_list(d->choices, list, sizeof(list));
		snprintf(buf, len, "expected one of %s", list);
		return buf;
	}
}

static int bad_value(const struct opt_desc *d, const char *value, const char *for_key, char *err,
		     size_t errlen)
{
	char exp[320];

	snprintf(err, errlen, "bad %s '%s'%s%s%s: %s", type_noun(d->type), value,
		 for_key ? " for '" : "", for_key ? for_key : "", for_key ? "'" : "",
		 type_expect(d, exp, sizeof(exp)));
	return -EINVAL;
}

int opt_takes_value(const struct opt_desc *d)
{
	return d->type != OPT_FLAG && d->type != OPT_NOFLAG && d->type != OPT_COUNT;
}

static int parse_percent(const char *value, double *out)
{
	char buf[64];
	size_t n = strlen(value);
	double v;

	if (n && value[n - 1] == '%') {
		if (n >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, value, n - 1);
		buf[n - 1] = '\0';
		if (parse_double(buf, &v) || v < 0)
			return -EINVAL;
		*out = v / 100.0;
		return 0;
	}
	/* A bare "5" could mean 5% or 500%: make the user say which. */
	if (parse_double(value, &v) || v < 0 || v > 1)
		return -EINVAL;
	*out = v;
	return 0;
}

static int set_number(const struct opt_desc *d, void *p, const char *value, const char *for_key,
		      char *err, size_t errlen)
{
	uint64_t u = 0;
	double x = 0;
	int rc;

	switch (d->type) {
	case OPT_UINT:
	case OPT_U64:
		rc = parse_u64(value, &u);
		x = (double)u;
		break;
	case OPT_SIZE:
		rc = parse_size(value, &u);
		x = (double)u;
		break;
	case OPT_DURATION:
		rc = parse_duration_ns(value, NS_PER_SEC, &u);
		x = (double)u;
		break;
	case OPT_PERCENT:
		rc = parse_percent(value, &x);
		break;
	default:
		rc = parse_double(value, &x);
		break;
	}
	if (rc == -ERANGE) {
		snprintf(err, errlen, "'%s'%s%s%s out of range: too large for a %s", value,
			 for_key ? " for '" : "", for_key ? for_key : "", for_key ? "'" : "",
			 type_noun(d->type));
		return -ERANGE;
	}
	if (rc)
		return bad_value(d, value, for_key, err, errlen);
	if (!range_ok(d, x) || (d->type == OPT_UINT && u > UINT32_MAX))
		return range_err(d, value, for_key, err, errlen);
	if (d->type == OPT_UINT)
		*(unsigned *)p = (unsigned)u;
	else if (d->type == OPT_DOUBLE || d->type == OPT_PERCENT)
		*(double *)p = x;
	else
		*(uint64_t *)p = u;
	return 0;
}

/* "auto" or "auto:2s" for a size that may be chosen by the run (auto_off). */
static int set_auto(const struct opt_desc *d, void *base, const char *value, const char *key,
		    char *err, size_t errlen)
{
	uint64_t *at = (uint64_t *)(void *)((char *)base + d->auto_off), ns = OPT_AUTO_BARE;

	if (value[4] && (value[4] != ':' || parse_duration_ns(value + 5, NS_PER_SEC, &ns) ||
			 ns < NS_PER_MS)) {
		snprintf(err, errlen, "bad value '%s' for '%s': expected auto or auto:SECONDS "
			 "(at least 1ms), e.g. auto:5s", value, key ? key : d->name);
		return -EINVAL;
	}
	*at = ns;
	return 0;
}

int opt_set_for(const struct opt_desc *d, void *base, const char *value, const char *key,
		char *err, size_t errlen)
{
	void *p = field(d, base);
	unsigned *count;
	int i, rc;

	if (!value && opt_takes_value(d)) {
		snprintf(err, errlen, "needs a value");
		return -EINVAL;
	}
	if (d->type == OPT_SIZE && d->auto_off) {
		if (!strncmp(value, "auto", 4))
			return set_auto(d, base, value, key, err, errlen);
		rc = set_number(d, p, value, key, err, errlen);
		if (!rc)
			*(uint64_t *)(void *)((char *)base + d->auto_off) = 0;
		return rc;
	}
	switch (d->type) {
	case OPT_BOOL:
		if (parse_bool(value, (int *)p))
			return bad_value(d, value, key, err, errlen);
		return 0;
	case OPT_FLAG:
		*(int *)p = 1;
		return 0;
	case OPT_NOFLAG:
		*(int *)p = 0;
		return 0;
	case OPT_COUNT:
		(*(int *)p)++;
		return 0;
	case OPT_ENUM:
		i = choice_index(d->choices, value);
		if (i < 0)
			return bad_value(d, value, key, err, errlen);
		*(int *)p = i;
		return 0;
	case OPT_STR:
		if (d->choices && choice_index(d->choices, value) < 0)
			return bad_value(d, value, key, err, errlen);
		if (strlen(value) >= d->size) {
			snprintf(err, errlen, "'%s' is too long (at most %zu characters)", value,
				 d->size - 1);
			return -EINVAL;
		}
		strcpy((char *)p, value);
		return 0;
	case OPT_STRP:
		free(*(char **)p);
		*(char **)p = xstrdup(value);
		return 0;
	case OPT_STRLIST:
		count = (unsigned *)((char *)base + d->count_off);
		if (*count >= d->size) {
			snprintf(err, errlen, "given more than %zu times", d->size);
			return -EINVAL;
		}
		((char **)p)[(*count)++] = xstrdup(value);
		return 0;
	default:
		return set_number(d, p, value, key, err, errlen);
	}
}

int opt_set(const struct opt_desc *d, void *base, const char *value, char *err, size_t errlen)
{
	return opt_set_for(d, base, value, NULL, err, errlen);
}

void opt_apply_defaults(const struct opt_desc *table, size_t n, void *base)
{
	char err[256];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct opt_desc *d = &table[i];
		void *p = field(d, base);

		switch (d->type) {
		case OPT_BOOL:
			*(int *)p = d->def ? 0 : -1;
			break;
		case OPT_FLAG:
		case OPT_NOFLAG:
		case OPT_COUNT:
		case OPT_ENUM:
			*(int *)p = 0;
			break;
		case OPT_UINT:
			*(unsigned *)p = 0;
			break;
		case OPT_U64:
		case OPT_SIZE:
		case OPT_DURATION:
			*(uint64_t *)p = 0;
			break;
		case OPT_DOUBLE:
		case OPT_PERCENT:
			*(double *)p = 0;
			break;
		case OPT_STR:
			*(char *)p = '\0';
			break;
		case OPT_STRP:
			free(*(char **)p);
			*(char **)p = NULL;
			break;
		case OPT_STRLIST:
			break;
		}
		/* A flag's def only documents the unset state for --help. */
		if (d->def && opt_takes_value(d) && opt_set(d, base, d->def, err, sizeof(err)))
			log_err("options", "built-in default of '%s': %s", d->name, err);
	}
}

void opt_free_strings(const struct opt_desc *table, size_t n, void *base)
{
	unsigned i, *count;
	size_t k;

	for (k = 0; k < n; k++) {
		const struct opt_desc *d = &table[k];
		char **p = field(d, base);

		if (d->type == OPT_STRP) {
			free(*p);
			*p = NULL;
		} else if (d->type == OPT_STRLIST) {
			count = (unsigned *)((char *)base + d->count_off);
			for (i = 0; i < *count; i++) {
				free(p[i]);
				p[i] = NULL;
			}
			*count = 0;
		}
	}
}

const char *opt_format(const struct opt_desc *d, const void *base, char *buf, size_t len)
{
	const void *p = cfield(d, base);
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
		snprintf(buf, len, "%s", v >= 0 ? d->choices[v].name : "?");
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
		snprintf(buf, len, "%s", *(char *const *)p ? *(char *const *)p : "");
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

void opt_name_normalize(char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			*s = '_';
		else
			*s = (char)tolower((unsigned char)*s);
	}
}
