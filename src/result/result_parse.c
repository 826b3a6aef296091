/* SPDX-License-Identifier: MIT */
/* A result document read into the result, walking the key tables; errors name the key. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"
#include "result/result_json.h"
#include "result/result_schema.h"

#define MOD "result"

/* Where the reader is: "jobs[2].power", for the error message. */
struct rpath {
	const char *origin;
	char buf[256];
	size_t len;
	unsigned long impossible; /* figures read as not known (impossible()) */
};

/*
 * A figure beyond this magnitude is no measurement of a storage device (1e15 W, IOPS,
 * J/GB): a value like 1e308 only overflows a chart's scale or a sum to infinity.
 */
#define RESULT_MAX_FIGURE 1e15
/* The first few impossible figures of a file are named; the rest are counted. */
#define IMPOSSIBLE_NAMED 3

static size_t enter(struct rpath *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static size_t enter(struct rpath *p, const char *fmt, ...)
{
	size_t old = p->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p->buf + old, sizeof(p->buf) - old, fmt, ap);
	va_end(ap);
	p->len = n < 0 ? old : old + (size_t)n;
	if (p->len >= sizeof(p->buf))
		p->len = sizeof(p->buf) - 1;
	return old;
}

static void leave(struct rpath *p, size_t old)
{
	p->len = old;
	p->buf[old] = '\0';
}

static int expected(const struct rpath *p, const char *what)
{
	log_err(MOD, "%s: %s: expected %s", p->origin, p->len ? p->buf : "document", what);
	return -EINVAL;
}

static int read_obj(json_t *o, void *base, const struct result_schema *sc, struct rpath *p);

static int read_u64(json_t *v, uint64_t max, uint64_t *out, struct rpath *p)
{
	if (!v) {
		*out = 0;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max)
		return expected(p, "a non-negative integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/*
 * Every string is cleaned on the way in (core/text.h): whatever prints it later, a result
 * file cannot put control characters on a terminal, in a table or in a chart script.
 */
static int read_str(json_t *v, char **out, struct rpath *p)
{
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return expected(p, "a string or null");
	*out = text_clean_dup(json_string_value(v));
	return 0;
}

static int read_enum(json_t *v, const struct result_field *f, int *out, struct rpath *p)
{
	size_t i;

	*out = 0;
	if (!v)
		return 0;
	for (i = 0; json_is_string(v) && i < f->nnames; i++) {
		if (!strcmp(json_string_value(v), f->names[i])) {
			*out = (int)i;
			return 0;
		}
	}
	return expected(p, "one of the documented values");
}

static int read_evkind(json_t *v, int *out, struct rpath *p)
{
	int k;

	for (k = 0; json_is_string(v) && k < EV_KIND_COUNT; k++) {
		if (!strcmp(json_string_value(v), event_kind_name(k))) {
			*out = k;
			return 0;
		}
	}
	return expected(p, "an event kind");
}

static int read_bool(json_t *v, int tri, int *out, struct rpath *p)
{
	if (!v || json_is_null(v)) {
		*out = tri ? RESULT_NULL_BOOL : 0;
		return v && !tri ? expected(p, "true or false") : 0;
	}
	if (!json_is_boolean(v))
		return expected(p, "true or false");
	*out = json_is_true(v);
	return 0;
}

static int read_int(json_t *v, const struct result_field *f, void *at, struct rpath *p)
{
	uint64_t u;
	int rc;

	switch (f->type) {
	case RF_U64:
		return read_u64(v, UINT64_MAX, at, p);
	case RF_UINT:
		rc = read_u64(v, UINT_MAX, &u, p);
		*(unsigned *)at = (unsigned)u;
		return rc;
	case RF_I64:
		*(int64_t *)at = RESULT_NULL_INT;
		if (!v || json_is_null(v))
			return 0;
		if (!json_is_integer(v))
			return expected(p, "an integer or null");
		*(int64_t *)at = json_integer_value(v);
		return 0;
	default: /* RF_INT */
		*(int *)at = 0;
		if (!v)
			return 0;
		if (!json_is_integer(v) || json_integer_value(v) < INT_MIN ||
		    json_integer_value(v) > INT_MAX)
			return expected(p, "an integer");
		*(int *)at = (int)json_integer_value(v);
		return 0;
	}
}

static int read_real(json_t *v, double *out, struct rpath *p)
{
	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return expected(p, "a number or null");
	*out = json_number_value(v);
	return 0;
}

/*
 * A value read back that a measurement cannot have produced is read as not known, as the
 * run drops a reading that cannot be true (meters/core/meter_sanity.c): said once, with
 * the key, and never drawn or summed.
 */
static void impossible(struct rpath *p, const char *what)
{
	if (++p->impossible <= IMPOSSIBLE_NAMED)
		log_warn(MOD, "%s: %s: %s cannot be measured: read as not known", p->origin,
			 p->buf, what);
}

/*
 * Power, current, voltage, energy, efficiency and IOPS are never below zero (the meter
 * core drops a negative reading); figures net of idle are differences and may be. Every
 * figure is finite and within RESULT_MAX_FIGURE.
 */
static int never_negative(const struct result_schema *sc, const char *key)
{
	if (!strcmp(key, "iops"))
		return 1;
	if (sc != &result_power_schema && sc != &result_efficiency_schema)
		return 0;
	return !strstr(key, "_net");
}

static void check_real(double *x, const struct result_schema *sc, const char *key,
		       struct rpath *p)
{
	char what[64];

	if (isnan(*x))
		return;
	if (fabs(*x) > RESULT_MAX_FIGURE) {
		snprintf(what, sizeof(what), "%g (beyond %g)", *x, RESULT_MAX_FIGURE);
		impossible(p, what);
		*x = NAN;
	} else if (*x < 0 && never_negative(sc, key)) {
		snprintf(what, sizeof(what), "a negative value (%g)", *x);
		impossible(p, what);
		*x = NAN;
	}
}

static int read_pct(json_t *v, struct result_pct *pct, size_t *n, struct rpath *p)
{
	const char *key;
	json_t *x;
	char *end;

	*n = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v) || json_object_size(v) > RESULT_MAX_PCT)
		return expected(p, "an object of at most 32 percentiles");
	json_object_foreach(v, key, x) {
		pct[*n].pct = strtod(key, &end);
		if (*end || end == key || !json_is_integer(x) || json_integer_value(x) < 0)
			return expected(p, "percentile keys such as \"99.000000\" with integer values");
		/* No I/O completes in no time: a 0 ns percentile is left out (a log axis
		 * cannot draw it), as is a percentile that is not one. */
		if (!json_integer_value(x) || !(pct[*n].pct > 0 && pct[*n].pct <= 100)) {
			size_t old = enter(p, ".%s", key);

			impossible(p, json_integer_value(x) ? "a percentile outside 0..100"
							    : "a latency of 0 ns");
			leave(p, old);
			continue;
		}
		pct[(*n)++].ns = (uint64_t)json_integer_value(x);
	}
	return 0;
}

static int read_opt(json_t *x, struct result_opt *o)
{
	if (json_is_integer(x)) {
		o->type = RESULT_OPT_INT;
		o->i = json_integer_value(x);
	} else if (json_is_real(x)) {
		o->type = RESULT_OPT_REAL;
		o->d = json_real_value(x);
	} else if (json_is_string(x)) {
		o->type = RESULT_OPT_STR;
		o->s = text_clean_dup(json_string_value(x));
	} else if (json_is_null(x)) {
		o->type = RESULT_OPT_NULL;
	} else {
		return -EINVAL;
	}
	return 0;
}

static int read_opts(json_t *v, struct result_opt **opts, size_t *n, struct rpath *p)
{
	const char *key;
	json_t *x;

	*opts = NULL;
	*n = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return expected(p, "an object");
	*opts = xcalloc(json_object_size(v) + 1, sizeof(**opts));
	json_object_foreach(v, key, x) {
		(*opts)[*n].key = text_clean_dup(key);
		if (read_opt(x, &(*opts)[(*n)++])) {
			enter(p, ".%s", key);
			return expected(p, "a number, a string or null");
		}
	}
	return 0;
}

static int read_strs(json_t *v, char ***strs, size_t *n, struct rpath *p)
{
	json_t *x;
	size_t i;

	*strs = NULL;
	*n = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_array(v))
		return expected(p, "an array of strings");
	*strs = xcalloc(json_array_size(v) + 1, sizeof(**strs));
	json_array_foreach(v, i, x) {
		if (!json_is_string(x))
			return expected(p, "an array of strings");
		(*strs)[(*n)++] = text_clean_dup(json_string_value(x));
	}
	return 0;
}

static int read_array(json_t *v, const struct result_field *f, void *base, struct rpath *p)
{
	char **elems = (char **)((char *)base + f->off);
	size_t *n = (size_t *)((char *)base + f->aux), i, old;
	json_t *x;
	int rc;

	*elems = NULL;
	*n = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_array(v))
		return expected(p, "an array");
	*elems = xcalloc(json_array_size(v) + 1, f->sub->size);
	json_array_foreach(v, i, x) {
		(*n)++;
		old = enter(p, "[%zu]", i);
		rc = read_obj(x, *elems + i * f->sub->size, f->sub, p);
		leave(p, old);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_ptr(json_t *v, const struct result_field *f, void *base, struct rpath *p)
{
	void **ptr = (void **)((char *)base + f->off);

	*ptr = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (f->absent == RF_EMPTY_OBJ && json_is_object(v) && !json_object_size(v))
		return 0;
	*ptr = xcalloc(1, f->sub->size);
	return read_obj(v, *ptr, f->sub, p);
}

static int read_field(json_t *v, const struct result_field *f, void *base,
		      const struct result_schema *sc, struct rpath *p)
{
	void *at = (char *)base + f->off;
	int rc;

	switch (f->type) {
	case RF_STR:
		return read_str(v, at, p);
	case RF_U64:
	case RF_UINT:
	case RF_I64:
	case RF_INT:
		return read_int(v, f, at, p);
	case RF_BOOL:
	case RF_TRI:
		return read_bool(v, f->type == RF_TRI, at, p);
	case RF_REAL:
		rc = read_real(v, at, p);
		if (!rc)
			check_real(at, sc, f->key, p);
		return rc;
	case RF_ENUM:
		return read_enum(v, f, at, p);
	case RF_EVKIND:
		return read_evkind(v, at, p);
	case RF_OBJ:
		return read_obj(json_is_null(v) ? NULL : v, at, f->sub, p);
	case RF_PTR:
		return read_ptr(v, f, base, p);
	case RF_ARRAY:
		return read_array(v, f, base, p);
	case RF_STRS:
		return read_strs(v, at, (size_t *)((char *)base + f->aux), p);
	case RF_PCT:
		return read_pct(v, at, (size_t *)((char *)base + f->aux), p);
	case RF_OPTS:
		return read_opts(v, at, (size_t *)((char *)base + f->aux), p);
	}
	return expected(p, "a known field type");
}

/* o NULL: the object is absent, every field takes its absent value. */
static int read_obj(json_t *o, void *base, const struct result_schema *sc, struct rpath *p)
{
	size_t i, old;
	int rc;

	if (o && !json_is_object(o))
		return expected(p, "an object");
	for (i = 0; i < sc->nfields; i++) {
		old = enter(p, "%s%s", p->len ? "." : "", sc->fields[i].key);
		rc = read_field(o ? json_object_get(o, sc->fields[i].key) : NULL, &sc->fields[i],
				base, sc, p);
		leave(p, old);
		if (rc)
			return rc;
	}
	return 0;
}

int result_from_json(json_t *root, const char *origin, struct run_result *out)
{
	struct rpath p = { .origin = origin ? origin : "result" };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = read_obj(root, out, &result_run_schema, &p);
	if (rc)
		result_free(out);
	else if (p.impossible > IMPOSSIBLE_NAMED)
		log_warn(MOD, "%s: %lu more figures cannot be measured: read as not known",
			 p.origin, p.impossible - IMPOSSIBLE_NAMED);
	return rc;
}
