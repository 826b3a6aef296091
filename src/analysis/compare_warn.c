/* SPDX-License-Identifier: MIT */
/* compare's warnings: when the rows of a job were not run, metered or carded alike. */
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

static const struct result_health *health_of(const struct rr_result *r)
{
	const struct result_context *c = r->rep.context;

	return c && c->device ? c->device->health : NULL;
}

static const struct result_power_mgmt *pm_of(const struct rr_result *r)
{
	const struct result_context *c = r->rep.context;

	return c && c->device ? c->device->power_management : NULL;
}

/* A context field that changes the figures, and what a difference in it means. */
struct context_field {
	const char *what;
	const char *(*get)(const struct rr_result *r, char *buf, size_t len);
	const char *why;
};

static const char *app_class(const struct rr_result *r, char *buf, size_t len)
{
	const struct result_health *h = health_of(r);

	(void)buf, (void)len;
	return h ? h->app_class : NULL;
}

/* "C10 U3 V30": the classes that rate sequential writing. */
static const char *speed_classes(const struct rr_result *r, char *buf, size_t len)
{
	const struct result_health *h = health_of(r);

	if (!h || (!h->speed_class && !h->uhs_grade && !h->video_class))
		return NULL;
	snprintf(buf, len, "%s %s %s", h->speed_class ? h->speed_class : "-",
		 h->uhs_grade ? h->uhs_grade : "-", h->video_class ? h->video_class : "-");
	return buf;
}

static const char *usb_protocol(const struct rr_result *r, char *buf, size_t len)
{
	const struct result_health *h = health_of(r);

	(void)buf, (void)len;
	return h ? h->usb_protocol : NULL;
}

/* "auto 2000 ms" / "APST on": the settings that decide how deep the device sleeps. */
static const char *sleep_setting(const struct rr_result *r, char *buf, size_t len)
{
	const struct result_power_mgmt *p = pm_of(r);

	if (!p || (!p->control && p->apst_enabled == RESULT_NULL_BOOL))
		return NULL;
	snprintf(buf, len, "runtime PM %s", p->control ? p->control : "-");
	if (p->autosuspend_delay_ms != RESULT_NULL_INT)
		snprintf(buf + strlen(buf), len - strlen(buf), " after %lld ms",
			 (long long)p->autosuspend_delay_ms);
	if (p->apst_enabled != RESULT_NULL_BOOL)
		snprintf(buf + strlen(buf), len - strlen(buf), ", APST %s",
			 p->apst_enabled ? "on" : "off");
	return buf;
}

static const char *card_serial(const struct rr_result *r, char *buf, size_t len)
{
	const struct result_health *h = health_of(r);

	(void)buf, (void)len;
	return h ? h->serial_hash : NULL;
}

static const struct context_field context_fields[] = {
	{ "SD application class differs", app_class,
	  "Linux queues commands to an A2 card only on some hosts, so small random I/O differs "
	  "by class: not the same card" },
	{ "SD speed classes differ", speed_classes, "rated for other sequential write speeds" },
	{ "USB protocol differs", usb_protocol, "UAS queues commands, bulk-only (bot) does not" },
	{ "idle power settings differ", sleep_setting, "idle and wake-up figures depend on them" },
};

/*
 * The device's class and settings differ between results: always worth a line, and for
 * two results of one device (the same label) a sign they are not the same card. Compared
 * with the first result that has the field.
 */
static void warn_context(const struct rr_set *set, compare_warn_fn fn, void *ctx)
{
	char b0[96], b1[96];
	const char *v0, *v1;
	size_t f, a, first;

	for (f = 0; f < ARRAY_SIZE(context_fields); f++) {
		const struct context_field *cf = &context_fields[f];

		for (first = 0; first < set->nres; first++)
			if (cf->get(&set->res[first], b0, sizeof(b0)))
				break;
		if (first == set->nres)
			continue;
		v0 = cf->get(&set->res[first], b0, sizeof(b0));
		for (a = first + 1; a < set->nres; a++) {
			v1 = cf->get(&set->res[a], b1, sizeof(b1));
			if (v1 && strcmp(v0, v1)) {
				say(fn, ctx, 0, xasprintf("%s: %s in %s, %s in %s (%s)", cf->what,
							  v0, set->res[first].path, v1,
							  set->res[a].path, cf->why));
				break;
			}
		}
	}
	for (a = 0; a < set->nres; a++)
		for (first = a + 1; first < set->nres; first++) {
			v0 = card_serial(&set->res[a], b0, sizeof(b0));
			v1 = card_serial(&set->res[first], b1, sizeof(b1));
			if (set->res[a].device_idx == set->res[first].device_idx && v0 && v1 &&
			    strcmp(v0, v1))
				say(fn, ctx, 0, xasprintf("%s and %s are named as one device but their "
							  "cards' serials differ (#%s, #%s): not the "
							  "same card", set->res[a].path,
							  set->res[first].path, v0, v1));
		}
}

/* Whether a result discarded anything: a job with rw=trim or trim_before=1. */
static int trimmed(const struct rr_result *r)
{
	const struct result_opt *o;
	size_t i;

	for (i = 0; i < r->rep.njobs; i++) {
		o = result_opt_find(&r->rep.jobs[i], "rw");
		if (o && o->type == RESULT_OPT_STR && o->s && !strcmp(o->s, "trim"))
			return 1;
		o = result_opt_find(&r->rep.jobs[i], "trim_before");
		if (o && o->type == RESULT_OPT_INT && o->i)
			return 1;
	}
	return 0;
}

/* A device writes (and draws) differently once told which blocks are free: one result
 * that trimmed and one that did not are not the same state of the device. */
static void warn_trim(const struct rr_set *set, compare_warn_fn fn, void *ctx)
{
	size_t i, first = 0;
	int t0 = set->nres ? trimmed(&set->res[0]) : 0;

	for (i = 1; i < set->nres; i++) {
		if (trimmed(&set->res[i]) == t0)
			continue;
		say(fn, ctx, 0, xasprintf("%s discarded blocks (rw=trim or trim_before=1) and %s "
					  "did not: a device writes and draws differently after a "
					  "trim, so their write figures are not of the same state",
					  t0 ? set->res[first].path : set->res[i].path,
					  t0 ? set->res[i].path : set->res[first].path));
		return;
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
	warn_context(set, fn, ctx);
	warn_trim(set, fn, ctx);
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
