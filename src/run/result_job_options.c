/* SPDX-License-Identifier: MIT */
/* A job's resolved options into the result, driven by the job option table. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/mem.h"
#include "core/options.h"
#include "run/result_job_options.h"

static void set_int(struct result_opt *o, int64_t v)
{
	o->type = RESULT_OPT_INT;
	o->i = v;
}

/* One option's value; 0 when the type never appears in a job (command-line only). */
static int opt_value(const struct job_opts *jo, const struct opt_desc *d, struct result_opt *o)
{
	const void *p = (const char *)jo + d->off;

	switch (d->type) {
	case OPT_BOOL:
		if (d->off == offsetof(struct job_opts, end_fsync))
			set_int(o, job_end_fsync(jo));
		else if (*(const int *)p >= 0)
			set_int(o, *(const int *)p);
		return 1; /* RESULT_OPT_NULL when unset */
	case OPT_ENUM:
		o->type = RESULT_OPT_STR;
		o->s = xstrdup(d->choices[*(const int *)p].name);
		return 1;
	case OPT_UINT:
		set_int(o, *(const unsigned *)p);
		return 1;
	case OPT_U64:
	case OPT_SIZE:
		/* the region it works in; a size=auto not chosen yet (its calibration failed)
		 * says that region as its size, as before it was to run */
		if (d->off == offsetof(struct job_opts, filesize) ||
		    (d->off == offsetof(struct job_opts, size) && jo->size_auto_ns && !jo->size))
			set_int(o, (int64_t)job_region(jo));
		else
			set_int(o, (int64_t) * (const uint64_t *)p);
		return 1;
	case OPT_DURATION:
		set_int(o, (int64_t) * (const uint64_t *)p);
		return 1;
	case OPT_DOUBLE:
	case OPT_PERCENT:
		o->type = RESULT_OPT_REAL;
		o->d = *(const double *)p;
		return 1;
	case OPT_STR:
		o->type = RESULT_OPT_STR;
		o->s = xstrdup((const char *)p);
		return 1;
	default:
		return 0;
	}
}

/*
 * Only the options that mean something for this job: the generic ones and those of the
 * job's engine, as fio lists only the chosen engine's options.
 * Keys are fio's names with values a program can use without parsing: sizes in bytes,
 * booleans 0/1 as fio prints them, choices as strings. Durations get the unit in the
 * key ("idle_ns"), as every time in the result does. "Auto" values are resolved so the
 * file says what ran: end_fsync becomes 0/1, filesize 0 becomes size.
 */
void result_job_options(struct job_result *j, const struct job_opts *jo)
{
	size_t i, n;
	const struct opt_desc *table = job_option_table(&n);

	j->options = xcalloc(n + 1, sizeof(*j->options));
	j->noptions = 0;
	for (i = 0; i < n; i++) {
		const struct opt_desc *d = &table[i];
		struct result_opt *o = &j->options[j->noptions];

		if (!job_option_applies(jo, d) || !opt_value(jo, d, o))
			continue;
		o->key = d->type == OPT_DURATION ? xasprintf("%s_ns", d->name) : xstrdup(d->name);
		j->noptions++;
	}
}
