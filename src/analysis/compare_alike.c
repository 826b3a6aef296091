/* SPDX-License-Identifier: MIT */
/* What makes two runs of a job comparable: the workload's options match; size is normalised away. */
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/mem.h"
#include "core/units.h"

/*
 * Keys whose difference leaves per-GB and per-I/O figures comparable: names and places,
 * how long or how often the same work ran (size is judged on its own, below), the seed,
 * and how the run measured (phases, limits). Every other key, a new one included,
 * shapes the workload (rw, bs, iodepth, numjobs, ioengine, direct, syncs, pacing).
 */
static int option_normalised(const char *key)
{
	static const char *const keys[] = {
		"filename", "directory", "name", "src_file", "src_line", "size", "filesize", "size_max",
		"runtime", "loops", "repeat", "repeat_until_steady", "steady", "randseed",
		"rate_dither", "thinktime_dither", "idle", "idle_samples", "idle_max",
		"idle_settle", "tail_tolerance", "tail_hold", "tail_max", "interval",
		"max_uncertainty",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static int same_option(const struct result_opt *a, const struct result_opt *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case RESULT_OPT_INT:
		return a->i == b->i;
	case RESULT_OPT_REAL:
		return a->d == b->d;
	case RESULT_OPT_STR:
		return !strcmp(a->s, b->s);
	default:
		return 1;
	}
}

static void add_key(char *diff, size_t size, const char *key)
{
	size_t len = strlen(diff);

	snprintf(diff + len, size - len, "%s%s", len ? ", " : "", key);
}

void compare_workload_diff(const struct job_result *ref, const struct job_result *j, char *diff,
			   size_t size)
{
	const struct result_opt *o;
	size_t i;

	diff[0] = '\0';
	for (i = 0; i < ref->noptions; i++) {
		o = result_opt_find(j, ref->options[i].key);
		if (!option_normalised(ref->options[i].key) && !(o && same_option(o, &ref->options[i])))
			add_key(diff, size, ref->options[i].key);
	}
	for (i = 0; i < j->noptions; i++)
		if (!option_normalised(j->options[i].key) && !result_opt_find(ref, j->options[i].key))
			add_key(diff, size, j->options[i].key);
}

/* A job's size when the user gave it (0: size=auto chose it, or none). */
static uint64_t given_size(const struct job_result *j)
{
	const struct result_opt *o = result_opt_find(j, "size");

	if (j->size_auto || !o || o->type != RESULT_OPT_INT || o->i <= 0)
		return 0;
	return (uint64_t)o->i;
}

/* Through the page cache (direct=0), the host's memory known. */
static int64_t page_cache_bytes(const struct rr_result *r, const struct job_result *j)
{
	const struct result_opt *o = result_opt_find(j, "direct");
	const struct result_context *c = r->rep.context;

	if (!o || o->type != RESULT_OPT_INT || o->i)
		return 0;
	return c && c->host && c->host->memory_bytes > 0 ? c->host->memory_bytes : 0;
}

int compare_size_matters(const struct rr_result *ra, const struct job_result *a,
			 const struct rr_result *rb, const struct job_result *b, char *why,
			 size_t len)
{
	uint64_t sa = given_size(a), sb = given_size(b);
	int64_t ma = page_cache_bytes(ra, a), mb = page_cache_bytes(rb, b);
	char fa[32], fb[32];

	why[0] = '\0';
	if (!sa || !sb || sa == sb || !ma || !mb)
		return 0;
	if (((int64_t)sa < ma) == ((int64_t)sb < mb))
		return 0;
	snprintf(why, len, "size %s and %s through the page cache (direct=0): one fits in its "
		 "host's memory, the other does not, so one may read from RAM",
		 fmt_size(sa, fa, sizeof(fa)), fmt_size(sb, fb, sizeof(fb)));
	return 1;
}
