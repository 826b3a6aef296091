/* SPDX-License-Identifier: MIT */
/* A job's resolved options as the result's "options" object, driven by the option table. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/options.h"
#include "result/result.h"

/*
 * Only the options that mean something for this job: the generic ones and those of the
 * job's engine, as fio lists only the chosen engine's options.
 * Keys are fio's names with values a program can use without parsing: sizes in bytes,
 * booleans 0/1 as fio prints them, choices as strings. Durations get the unit in the
 * key ("idle_ns"), as every time in the result does. "Auto" values are resolved so the
 * file says what ran: end_fsync becomes 0/1, filesize 0 becomes size.
 */
json_t *result_options_json(const struct job_opts *jo)
{
	json_t *o = json_object();
	char key[80];
	size_t i, n;
	const struct opt_desc *table = job_option_table(&n);

	for (i = 0; i < n; i++) {
		const struct opt_desc *d = &table[i];
		const void *p = (const char *)jo + d->off;
		json_t *v = NULL;

		if (!job_option_applies(jo, d))
			continue;
		snprintf(key, sizeof(key), "%s", d->name);
		switch (d->type) {
		case OPT_BOOL:
			if (d->off == offsetof(struct job_opts, end_fsync))
				v = json_integer(job_end_fsync(jo));
			else
				v = *(const int *)p < 0 ? json_null() : json_integer(*(const int *)p);
			break;
		case OPT_ENUM:
			v = json_string(d->choices[*(const int *)p].name);
			break;
		case OPT_UINT:
			v = json_integer((json_int_t) * (const unsigned *)p);
			break;
		case OPT_U64:
		case OPT_SIZE:
			if (d->off == offsetof(struct job_opts, filesize) && !jo->filesize)
				v = json_integer((json_int_t)jo->size);
			else
				v = json_integer((json_int_t) * (const uint64_t *)p);
			break;
		case OPT_DURATION:
			snprintf(key, sizeof(key), "%s_ns", d->name);
			v = json_integer((json_int_t) * (const uint64_t *)p);
			break;
		case OPT_DOUBLE:
		case OPT_PERCENT:
			v = json_real(*(const double *)p);
			break;
		case OPT_STR:
			v = json_string((const char *)p);
			break;
		default:
			continue; /* command-line only types never appear in a job */
		}
		json_object_set_new(o, key, v);
	}
	return o;
}
