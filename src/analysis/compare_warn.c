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

/*
 * The job ran another workload in a later result than in its first (the keys named): that
 * row is not ranked with the first's (compare_rows.c); or sizes that a cache holds one of
 * and not the other. Other differences (a size=auto size, loops, phases) are no warning.
 */
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
		compare_workload_diff(ref, j, diff, sizeof(diff));
		if (*diff)
			say(fn, ctx, 0, xasprintf("job '%s' ran another workload in %s than in %s "
						  "(%s): its row is not ranked with the first's",
						  name, set->res[i].path, refr->path, diff));
		else if (compare_size_matters(refr, ref, &set->res[i], j, diff, sizeof(diff)))
			say(fn, ctx, 0, xasprintf("job '%s' in %s and %s: %s", name, refr->path,
						  set->res[i].path, diff));
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
