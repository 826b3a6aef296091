/* SPDX-License-Identifier: MIT */
/* compare's warnings: when the rows of a job were not run or metered alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/log.h"
#include "core/mem.h"

#define MOD "compare"

/* The warning built by xasprintf handed to fn, then freed. */
static void say(compare_warn_fn fn, void *ctx, int info, char *text)
{
	fn(ctx, info, text);
	free(text);
}

/* Keys whose difference does not change the workload. */
static int option_ignored(const char *key)
{
	static const char *const ign[] = { "filename", "directory", "name", "src_file", "src_line" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ign); i++)
		if (!strcmp(key, ign[i]))
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

/* The option keys that differ between two runs of a job, ", "-joined into diff. */
static void option_diff(const struct job_result *ref, const struct job_result *j, char *diff,
			size_t size)
{
	const struct result_opt *o;
	size_t i;

	diff[0] = '\0';
	for (i = 0; i < ref->noptions; i++) {
		o = result_opt_find(j, ref->options[i].key);
		if (!option_ignored(ref->options[i].key) && !(o && same_option(o, &ref->options[i])))
			add_key(diff, size, ref->options[i].key);
	}
	for (i = 0; i < j->noptions; i++)
		if (!option_ignored(j->options[i].key) && !result_opt_find(ref, j->options[i].key))
			add_key(diff, size, j->options[i].key);
}

/* The job ran with different options in two results (the keys named). */
static void warn_options(const struct rr_set *set, const char *name, compare_warn_fn fn, void *ctx)
{
	const struct job_result *ref = NULL;
	const struct rr_result *refr = NULL;
	char diff[256];
	size_t i;

	for (i = 0; i < set->nres; i++) {
		const struct job_result *j = rr_find_job(&set->res[i], name);

		if (!j)
			continue;
		if (!ref) {
			ref = j;
			refr = &set->res[i];
			continue;
		}
		option_diff(ref, j, diff, sizeof(diff));
		if (*diff)
			say(fn, ctx, 0, xasprintf("job '%s' ran with different options in %s and %s "
						  "(%s): its rows are not comparable", name,
						  refr->path, set->res[i].path, diff));
	}
}

/* Results metered by different meters, and every emulated or manual one. */
static void warn_meters(const struct rr_set *set, compare_warn_fn fn, void *ctx)
{
	size_t a;

	for (a = 1; a < set->nres; a++) {
		if (strcmp(set->res[a].meter, set->res[0].meter)) {
			say(fn, ctx, 0, xasprintf("results were metered with different meters (%s in "
						  "%s, %s in %s): meter accuracy and what each "
						  "measured (rail, whole board) may differ",
						  set->res[0].meter, set->res[0].path,
						  set->res[a].meter, set->res[a].path));
			break;
		}
	}
	for (a = 0; a < set->nres; a++) {
		if (set->res[a].emulated)
			say(fn, ctx, 0, xasprintf("%s: power figures come from an EMULATED meter, "
						  "not a measurement", set->res[a].path));
		if (set->res[a].manual)
			say(fn, ctx, 0, xasprintf("%s: power figures were entered by hand (manual "
						  "meter)", set->res[a].path));
	}
}

void compare_warnings(const struct rr_set *set, const struct compare_table *t,
		      compare_warn_fn fn, void *ctx)
{
	const char **names = NULL;
	size_t nnames = rr_job_names(set, &names), i;

	for (i = 0; i < nnames; i++)
		warn_options(set, names[i], fn, ctx);
	free(names);
	warn_meters(set, fn, ctx);
	for (i = 0; i < set->nres; i++)
		if (!set->res[i].has_power)
			say(fn, ctx, 1, xasprintf("%s: no power data (run without a meter): power "
						  "columns are empty", set->res[i].path));
	if (t && *t->rail)
		say(fn, ctx, 0, xasprintf("rows of %s were measured on rails of different voltage "
					  "(3.3 V, 5 V, ...): ranked by %s, not %s, since a mA at "
					  "a higher voltage is more power", t->rail,
					  t->sort->per_w, t->sort->key));
}
