/* SPDX-License-Identifier: MIT */
/* Owning the result's memory: free and deep copy by the key tables, growing the job list. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "result/result.h"
#include "result/result_schema.h"

static void free_obj(void *base, const struct result_schema *sc);

static void free_list(const struct result_field *f, void *base)
{
	void **at = (void **)((char *)base + f->off);
	size_t n = *(size_t *)((char *)base + f->aux), i;

	for (i = 0; *at && i < n; i++) {
		if (f->type == RF_ARRAY) {
			free_obj((char *)*at + i * f->sub->size, f->sub);
		} else if (f->type == RF_STRS) {
			free(((char **)*at)[i]);
		} else {
			free(((struct result_opt *)*at)[i].key);
			free(((struct result_opt *)*at)[i].s);
		}
	}
	free(*at);
}

static void free_obj(void *base, const struct result_schema *sc)
{
	size_t i;

	for (i = 0; i < sc->nfields; i++) {
		const struct result_field *f = &sc->fields[i];
		void *at = (char *)base + f->off;

		switch (f->type) {
		case RF_STR:
			free(*(char **)at);
			break;
		case RF_OBJ:
			free_obj(at, f->sub);
			break;
		case RF_PTR:
			if (*(void **)at)
				free_obj(*(void **)at, f->sub);
			free(*(void **)at);
			break;
		case RF_ARRAY:
		case RF_STRS:
		case RF_OPTS:
			free_list(f, base);
			break;
		default:
			break;
		}
	}
}

void result_free(struct run_result *r)
{
	if (!r)
		return;
	free_obj(r, &result_run_schema);
	memset(r, 0, sizeof(*r));
}

static void clone_obj(void *dst, const void *src, const struct result_schema *sc);

static void *clone_block(const void *src, size_t n, const struct result_field *f)
{
	size_t size = f->type == RF_STRS ? sizeof(char *)
		      : f->type == RF_OPTS ? sizeof(struct result_opt) : f->sub->size, i;
	char *dst;

	if (!src)
		return NULL;
	dst = xcalloc(n + 1, size);
	memcpy(dst, src, n * size);
	for (i = 0; i < n; i++) {
		if (f->type == RF_ARRAY) {
			clone_obj(dst + i * size, (const char *)src + i * size, f->sub);
		} else if (f->type == RF_STRS) {
			((char **)(void *)dst)[i] = xstrdup(((char *const *)src)[i]);
		} else {
			struct result_opt *o = &((struct result_opt *)(void *)dst)[i];

			o->key = xstrdup(o->key);
			o->s = o->s ? xstrdup(o->s) : NULL;
		}
	}
	return dst;
}

/* dst already holds a byte copy of src: give it its own strings, objects and arrays. */
static void clone_obj(void *dst, const void *src, const struct result_schema *sc)
{
	size_t i;

	for (i = 0; i < sc->nfields; i++) {
		const struct result_field *f = &sc->fields[i];
		void **at = (void **)((char *)dst + f->off);
		const void *from = (const char *)src + f->off;

		switch (f->type) {
		case RF_STR:
			*at = *at ? xstrdup(*at) : NULL;
			break;
		case RF_OBJ:
			clone_obj(at, from, f->sub);
			break;
		case RF_PTR:
			if (*at) {
				*at = xmalloc(f->sub->size);
				memcpy(*at, *(void *const *)from, f->sub->size);
				clone_obj(*at, *(void *const *)from, f->sub);
			}
			break;
		case RF_ARRAY:
		case RF_STRS:
		case RF_OPTS:
			*at = clone_block(*(void *const *)from, *(const size_t *)((const char *)src + f->aux),
					  f);
			break;
		default:
			break;
		}
	}
}

static void *dup_obj(const void *src, const struct result_schema *sc)
{
	void *dst;

	if (!src)
		return NULL;
	dst = xmalloc(sc->size);
	memcpy(dst, src, sc->size);
	clone_obj(dst, src, sc);
	return dst;
}

void result_meters_free(struct run_result *r)
{
	size_t i;

	for (i = 0; r->meters && i < r->nmeters; i++)
		free_obj(&r->meters[i], &result_meter_schema);
	free(r->meters);
	r->meters = NULL;
	r->nmeters = 0;
}

void result_device_models_free(struct run_result *r)
{
	size_t i;

	for (i = 0; r->energy_models && i < r->nenergy_models; i++)
		free_obj(&r->energy_models[i], &result_device_model_schema);
	free(r->energy_models);
	r->energy_models = NULL;
	r->nenergy_models = 0;
}

struct result_power *result_power_dup(const struct result_power *p)
{
	return dup_obj(p, &result_power_schema);
}

struct result_efficiency *result_efficiency_dup(const struct result_efficiency *e)
{
	return dup_obj(e, &result_efficiency_schema);
}

static void reals_unknown(void *base, const struct result_schema *sc)
{
	size_t i;

	memset(base, 0, sc->size);
	for (i = 0; i < sc->nfields; i++)
		if (sc->fields[i].type == RF_REAL)
			*(double *)(void *)((char *)base + sc->fields[i].off) = NAN;
}

void result_power_unknown(struct result_power *p)
{
	reals_unknown(p, &result_power_schema);
}

void result_efficiency_unknown(struct result_efficiency *e)
{
	reals_unknown(e, &result_efficiency_schema);
}

struct result_validity *result_validity_dup(const struct result_validity *v)
{
	return dup_obj(v, &result_validity_schema);
}

void result_validity_add(struct result_validity *v, const char *reason)
{
	v->reasons = xrealloc(v->reasons, (v->nreasons + 1) * sizeof(*v->reasons));
	v->reasons[v->nreasons++] = xstrdup(reason);
}

struct job_result *result_add_job(struct run_result *r)
{
	struct job_result *j;

	r->jobs = xrealloc(r->jobs, (r->njobs + 1) * sizeof(*r->jobs));
	j = &r->jobs[r->njobs++];
	memset(j, 0, sizeof(*j));
	j->exit_status = j->exit_signal = RESULT_NULL_INT;
	return j;
}

void result_job_free(struct job_result *j)
{
	free_obj(j, &result_job_schema);
	memset(j, 0, sizeof(*j));
}

void result_drop_last_job(struct run_result *r)
{
	if (r->njobs)
		result_job_free(&r->jobs[--r->njobs]);
}

const struct result_opt *result_opt_find(const struct job_result *j, const char *key)
{
	size_t i;

	for (i = 0; j->options && i < j->noptions; i++)
		if (!strcmp(j->options[i].key, key))
			return &j->options[i];
	return NULL;
}
