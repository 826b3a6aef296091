/* SPDX-License-Identifier: MIT */
/* The result as a JSON document, walking the key tables; loading and writing result files. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"
#include "result/result_json.h"
#include "result/result_scan.h"
#include "result/result_schema.h"

#define MOD "result"
#define PCT_KEY_LEN 32

static json_t *obj_json(const void *base, const struct result_schema *sc);

/* Text from sysfs or the kernel log is not always UTF-8: such bytes are kept escaped
 * ("\xff") rather than the key being lost. */
static json_t *str_json(const char *s)
{
	json_t *v;
	char *copy;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	copy = text_escape_invalid(s);
	v = json_string(copy);
	free(copy);
	return v ? v : json_null();
}

/* JSON has no NaN: a figure that cannot be computed is null. */
static json_t *real_json(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *pct_json(const struct result_pct *pct, size_t n)
{
	json_t *o = json_object();
	char key[PCT_KEY_LEN];
	size_t i;

	for (i = 0; o && i < n; i++) {
		/* fio's spelling: "99.900000", which plot and compare scripts key on */
		snprintf(key, sizeof(key), "%f", pct[i].pct);
		if (json_object_set_new(o, key, json_integer((json_int_t)pct[i].ns))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *opt_json(const struct result_opt *opt)
{
	switch (opt->type) {
	case RESULT_OPT_INT:
		return json_integer((json_int_t)opt->i);
	case RESULT_OPT_REAL:
		return real_json(opt->d);
	case RESULT_OPT_STR:
		return str_json(opt->s);
	default:
		return json_null();
	}
}

static json_t *opts_json(const struct result_opt *opts, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < n; i++) {
		if (json_object_set_new(o, opts[i].key, opt_json(&opts[i]))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *strs_json(char *const *strs, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++) {
		if (json_array_append_new(a, str_json(strs[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *array_json(const char *elems, size_t n, const struct result_schema *sc)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++) {
		if (json_array_append_new(a, obj_json(elems + i * sc->size, sc))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static size_t count_at(const void *base, const struct result_field *f)
{
	return *(const size_t *)((const char *)base + f->aux);
}

static const void *ptr_at(const void *base, const struct result_field *f)
{
	return *(const void *const *)((const char *)base + f->off);
}

static json_t *enum_json(int v, const struct result_field *f)
{
	return v >= 0 && (size_t)v < f->nnames ? json_string(f->names[v]) : json_null();
}

static json_t *scalar_json(const void *p, const struct result_field *f)
{
	switch (f->type) {
	case RF_STR:
		return str_json(*(char *const *)p);
	case RF_U64:
		return json_integer((json_int_t) * (const uint64_t *)p);
	case RF_UINT:
		return json_integer((json_int_t) * (const unsigned *)p);
	case RF_I64:
		return *(const int64_t *)p == RESULT_NULL_INT ? json_null()
							       : json_integer(*(const int64_t *)p);
	case RF_INT:
		return json_integer(*(const int *)p);
	case RF_BOOL:
		return json_boolean(*(const int *)p);
	case RF_TRI:
		return *(const int *)p < 0 ? json_null() : json_boolean(*(const int *)p);
	case RF_REAL:
		return real_json(*(const double *)p);
	case RF_ENUM:
		return enum_json(*(const int *)p, f);
	case RF_EVKIND:
		return json_string(event_kind_name(*(const int *)p));
	default:
		return NULL;
	}
}

static json_t *field_json(const void *base, const struct result_field *f)
{
	const char *p = (const char *)base + f->off;

	switch (f->type) {
	case RF_OBJ:
		return obj_json(p, f->sub);
	case RF_PTR:
		if (ptr_at(base, f))
			return obj_json(ptr_at(base, f), f->sub);
		return f->absent == RF_EMPTY_OBJ ? json_object() : json_null();
	case RF_ARRAY:
		return array_json(ptr_at(base, f), count_at(base, f), f->sub);
	case RF_STRS:
		return strs_json(ptr_at(base, f), count_at(base, f));
	case RF_PCT:
		return pct_json((const struct result_pct *)p, count_at(base, f));
	case RF_OPTS:
		return opts_json(ptr_at(base, f), count_at(base, f));
	default:
		return scalar_json(p, f);
	}
}

static int omitted(const void *base, const struct result_field *f)
{
	const char *p = (const char *)base + f->off;

	if (f->absent == RF_OMIT_ZERO)
		return *(const uint64_t *)p == 0;
	if (f->absent != RF_OMIT)
		return 0;
	if (f->type == RF_I64)
		return *(const int64_t *)p == RESULT_NULL_INT;
	return *(const void *const *)p == NULL;
}

static json_t *obj_json(const void *base, const struct result_schema *sc)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < sc->nfields; i++) {
		const struct result_field *f = &sc->fields[i];

		if (omitted(base, f))
			continue;
		/* json_object_set_new takes the value even when it fails */
		if (json_object_set_new(o, f->key, field_json(base, f))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

json_t *result_to_json(const struct run_result *r)
{
	json_t *root = obj_json(r, &result_run_schema);

	if (!root)
		log_err(MOD, "cannot build the result document: out of memory");
	return root;
}

int result_write(const char *path, const struct run_result *r)
{
	json_t *root = result_to_json(r);
	int rc;

	if (!root)
		return -ENOMEM;
	rc = result_file_write(path, root);
	json_decref(root);
	return rc;
}

static int check_version(json_t *root, const char *path)
{
	json_t *ver = json_is_object(root) ? json_object_get(root, "schema_version") : NULL;

	if (!json_is_integer(ver)) {
		log_err(MOD, "%s: not an iowatt result (no integer schema_version)", path);
		return -EINVAL;
	}
	if (json_integer_value(ver) > RESULT_SCHEMA_VERSION) {
		log_err(MOD, "%s: schema_version %lld is newer than this iowatt reads (%d): "
			"upgrade iowatt", path, (long long)json_integer_value(ver),
			RESULT_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (json_integer_value(ver) < 1) {
		log_err(MOD, "%s: bad schema_version %lld", path, (long long)json_integer_value(ver));
		return -EINVAL;
	}
	if (!json_is_array(json_object_get(root, "jobs"))) {
		log_err(MOD, "%s: no \"jobs\" array", path);
		return -EINVAL;
	}
	return 0;
}

int result_load(const char *path, struct run_result *out)
{
	json_error_t jerr;
	json_t *root;
	size_t len;
	char *text;
	int rc;

	memset(out, 0, sizeof(*out));
	/* Only what the key tables read reaches jansson (result_scan.c). */
	rc = result_scan_file(path, &text, &len);
	if (rc)
		return rc;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root) {
		log_err(MOD, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	rc = check_version(root, path);
	if (!rc)
		rc = result_from_json(root, path, out);
	json_decref(root);
	return rc;
}

static void paths_of(const struct result_schema *sc, const char *prefix,
		     void (*fn)(const char *path, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < sc->nfields; i++) {
		const struct result_field *f = &sc->fields[i];
		char *path = *prefix ? xasprintf("%s.%s", prefix, f->key) : xstrdup(f->key);
		char *sub;

		fn(path, arg);
		if (f->type == RF_OBJ || f->type == RF_PTR) {
			paths_of(f->sub, path, fn, arg);
		} else if (f->type == RF_ARRAY) {
			sub = xasprintf("%s[]", path);
			paths_of(f->sub, sub, fn, arg);
			free(sub);
		} else if (f->type == RF_PCT || f->type == RF_OPTS) {
			sub = xasprintf("%s.*", path);
			fn(sub, arg);
			free(sub);
		}
		free(path);
	}
}

void result_key_paths(void (*fn)(const char *path, void *arg), void *arg)
{
	paths_of(&result_run_schema, "", fn, arg);
}
