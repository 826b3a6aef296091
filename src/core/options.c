/* SPDX-License-Identifier: MIT */
/* Table-driven parse, range checks and defaults of every option type (as text: options_format.c). */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
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

static int range_ok(const struct opt_desc *d, double v)
{
	if (!d->min && !d->max)
		return 1;
	return v >= d->min && (!d->max || v <= d->max);
}

/*
 * Where a value's error goes and how it reads: opt_set() says "bad size 'x': expected
 * ...", opt_set_for() adds " for 'KEY'", and opt_set_reason() gives the reason alone to a
 * caller that names the option and the value itself ("--seconds 'x': expected ...").
 */
struct why {
	const char *value, *key;
	int reason_only;
	char *buf;
	size_t len;
};

/* LEAD 'VALUE'[ for 'KEY']SEP REASON, or REASON alone; returns rc. */
static int say(const struct why *w, int rc, const char *lead, const char *sep, const char *reason)
{
	if (w->reason_only)
		snprintf(w->buf, w->len, "%s", reason);
	else
		snprintf(w->buf, w->len, "%s%s'%s'%s%s%s%s%s", lead, lead[0] ? " " : "", w->value,
			 w->key ? " for '" : "", w->key ? w->key : "", w->key ? "'" : "", sep, reason);
	return rc;
}

static int range_err(const struct opt_desc *d, const struct why *w)
{
	char lo[32], hi[32], reason[96];

	opt_format_number(d, d->min, lo, sizeof(lo));
	if (d->max)
		opt_format_number(d, d->max, hi, sizeof(hi));
	else if (d->type == OPT_UINT)
		snprintf(hi, sizeof(hi), "%u", UINT32_MAX);
	else
		hi[0] = '\0';
	snprintf(reason, sizeof(reason), "out of range %s..%s", lo, hi);
	return say(w, -ERANGE, "", " ", reason);
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

/* Every comma-separated item of value is a choice (and there is one). */
static int choices_all(const struct opt_choice *c, const char *value)
{
	char item[64];
	size_t n;

	do {
		n = strcspn(value, ",");
		if (!n || n >= sizeof(item))
			return 0;
		memcpy(item, value, n);
		item[n] = '\0';
		if (choice_index(c, item) < 0)
			return 0;
		value += n;
	} while (*value++ == ',');
	return 1;
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
		if (d->bare_unit_ns == NS_PER_US)
			return "expected a time with ns/us/ms/s/m/h (a bare number is "
			       "microseconds, as in fio)";
		return d->bare_unit_ns == NS_PER_MS
			       ? "expected a time with ns/us/ms/s/m/h (a bare number is milliseconds)"
			       : "expected a time with ns/us/ms/s/m/h (a bare number is seconds)";
	case OPT_DOUBLE:
		return "expected a number";
	case OPT_PERCENT:
		return "expected a percentage like 5% or a fraction like 0.05";
	default:
		if (!d->choices)
			return "expected a string";
		choice_list(d->choices, list, sizeof(list));
		snprintf(buf, len, "expected %s %s", d->list ? "a comma-separated list of" : "one of",
			 list);
		return buf;
	}
}

static int bad_value(const struct opt_desc *d, const struct why *w)
{
	char exp[320], lead[32];

	snprintf(lead, sizeof(lead), "bad %s", type_noun(d->type));
	return say(w, -EINVAL, lead, ": ", type_expect(d, exp, sizeof(exp)));
}

int opt_takes_value(const struct opt_desc *d)
{
	return d->type != OPT_FLAG && d->type != OPT_NOFLAG && d->type != OPT_COUNT &&
	       d->type != OPT_HELP;
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

static int set_number(const struct opt_desc *d, void *p, const struct why *w)
{
	char reason[64];
	uint64_t u = 0;
	double x = 0;
	int rc;

	switch (d->type) {
	case OPT_UINT:
	case OPT_U64:
		rc = parse_u64(w->value, &u);
		x = (double)u;
		break;
	case OPT_SIZE:
		rc = parse_size(w->value, &u);
		x = (double)u;
		break;
	case OPT_DURATION:
		rc = parse_duration_ns(w->value, d->bare_unit_ns ? d->bare_unit_ns : NS_PER_SEC, &u);
		x = (double)u;
		break;
	case OPT_PERCENT:
		rc = parse_percent(w->value, &x);
		break;
	default:
		rc = parse_double(w->value, &x);
		break;
	}
	if (rc == -ERANGE) {
		snprintf(reason, sizeof(reason), "out of range: too large for a %s",
			 type_noun(d->type));
		return say(w, -ERANGE, "", " ", reason);
	}
	if (rc)
		return bad_value(d, w);
	if (!range_ok(d, x) || (d->type == OPT_UINT && u > UINT32_MAX))
		return range_err(d, w);
	if (d->type == OPT_UINT)
		*(unsigned *)p = (unsigned)u;
	else if (d->type == OPT_DOUBLE || d->type == OPT_PERCENT)
		*(double *)p = x;
	else
		*(uint64_t *)p = u;
	return 0;
}

/* "auto" or "auto:2s" for a size that may be chosen by the run (auto_off). */
static int set_auto(const struct opt_desc *d, void *base, const struct why *w)
{
	uint64_t *at = (uint64_t *)(void *)((char *)base + d->auto_off), ns = OPT_AUTO_BARE;
	const char *value = w->value;
	struct why named = *w;

	if (value[4] && (value[4] != ':' || parse_duration_ns(value + 5, NS_PER_SEC, &ns) ||
			 ns < NS_PER_MS)) {
		named.key = w->key ? w->key : d->name;
		return say(&named, -EINVAL, "bad value", ": ",
			   "expected auto or auto:SECONDS (at least 1ms), e.g. auto:5s");
	}
	*at = ns;
	return 0;
}

/* OPT_FUNC: the option's own parser, which gives the reason alone. */
static int set_func(const struct opt_desc *d, void *base, const struct why *w)
{
	char reason[256];
	int rc;

	reason[0] = '\0';
	rc = d->parse(d, base, w->value, reason, sizeof(reason));
	if (rc)
		return say(w, rc, "bad value", ": ", reason[0] ? reason : "not accepted");
	return 0;
}

static int set_string(const struct opt_desc *d, void *base, const struct why *w)
{
	char reason[64];
	void *p = field(d, base);
	unsigned *count;

	switch (d->type) {
	case OPT_STR:
		if (strlen(w->value) >= d->size) {
			snprintf(reason, sizeof(reason), "too long (at most %zu characters)",
				 d->size - 1);
			return say(w, -EINVAL, "", " is ", reason);
		}
		strcpy((char *)p, w->value);
		return 0;
	case OPT_STRP:
		free(*(char **)p);
		*(char **)p = xstrdup(w->value);
		return 0;
	case OPT_STRREF:
		*(const char **)p = w->value;
		return 0;
	default: /* OPT_STRLIST */
		count = (unsigned *)((char *)base + d->count_off);
		if (*count >= d->size) {
			snprintf(w->buf, w->len, "given more than %zu times", d->size);
			return -EINVAL;
		}
		((char **)p)[(*count)++] = xstrdup(w->value);
		return 0;
	}
}

static int set_value(const struct opt_desc *d, void *base, const struct why *w)
{
	void *p = field(d, base);
	int i, rc;

	if (!w->value && opt_takes_value(d)) {
		snprintf(w->buf, w->len, "needs a value");
		return -EINVAL;
	}
	if (d->type == OPT_SIZE && d->auto_off) {
		if (!strncmp(w->value, "auto", 4))
			return set_auto(d, base, w);
		rc = set_number(d, p, w);
		if (!rc)
			*(uint64_t *)(void *)((char *)base + d->auto_off) = 0;
		return rc;
	}
	/* Any type may list what it takes; an enum's index is the choice. */
	if (d->choices && opt_takes_value(d) &&
	    (d->list ? !choices_all(d->choices, w->value) : choice_index(d->choices, w->value) < 0))
		return bad_value(d, w);
	switch (d->type) {
	case OPT_BOOL:
		if (parse_bool(w->value, (int *)p))
			return bad_value(d, w);
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
	case OPT_HELP:
		return 0;
	case OPT_ENUM:
		i = choice_index(d->choices, w->value);
		*(int *)p = i;
		return 0;
	case OPT_FUNC:
		return set_func(d, base, w);
	case OPT_STR:
	case OPT_STRP:
	case OPT_STRREF:
	case OPT_STRLIST:
		return set_string(d, base, w);
	default:
		return set_number(d, p, w);
	}
}

int opt_set_for(const struct opt_desc *d, void *base, const char *value, const char *key,
		char *err, size_t errlen)
{
	struct why w = { .value = value, .key = key, .buf = err, .len = errlen };

	return set_value(d, base, &w);
}

int opt_set(const struct opt_desc *d, void *base, const char *value, char *err, size_t errlen)
{
	return opt_set_for(d, base, value, NULL, err, errlen);
}

int opt_set_reason(const struct opt_desc *d, void *base, const char *value, char *err,
		   size_t errlen)
{
	struct why w = { .value = value, .reason_only = 1, .buf = err, .len = errlen };

	return set_value(d, base, &w);
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
			*(int *)p = 0;
			break;
		case OPT_ENUM:
			*(int *)p = d->def ? 0 : -1;
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
		case OPT_STRREF:
			*(const char **)p = NULL;
			break;
		case OPT_STRLIST:
		case OPT_FUNC: /* its own layout: the command's zeroing, then def if any */
		case OPT_HELP:
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

void opt_name_normalize(char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			*s = '_';
		else
			*s = (char)tolower((unsigned char)*s);
	}
}
