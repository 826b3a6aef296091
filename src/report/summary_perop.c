/* SPDX-License-Identifier: MIT */
/* The jobs' energy per read, write and flush under the end-of-run table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/op_energy.h"
#include "core/units.h"
#include "report/summary_perop.h"

#define LINE 640

/* The costs of a model or of event-locked averaging, in the order of op_energy_kinds. */
struct costs {
	double v[OP_ENERGY_KINDS], u[OP_ENERGY_KINDS];
	double sum, sum_u, ratio;
	const char *sum_of;
};

#define COSTS_OF(x)                                                                         \
	((struct costs){ { (x)->read_uj_per_op, (x)->write_uj_per_op, (x)->flush_uj_per_op }, \
			 { (x)->read_uj_per_op_u95, (x)->write_uj_per_op_u95,                    \
			   (x)->flush_uj_per_op_u95 },                                           \
			 (x)->sum_uj_per_op, (x)->sum_uj_per_op_u95, (x)->sum_ratio, (x)->sum_of })

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", text);
}

/*
 * "write 776 ±151 µJ"; a cost whose interval holds zero is not told from it (a buffered
 * write costs nothing until its flush: its share of the interval is no figure's); one
 * below zero beyond its interval is no cost at all, the model does not hold there.
 */
static void cost_text(const char *what, double v, double u, char *buf, size_t len)
{
	char a[32], b[32];

	fmt_sig(v, 3, a, sizeof(a));
	fmt_sig(u, 2, b, sizeof(b));
	if (!isfinite(u))
		snprintf(buf, len, "%s %s µJ", what, a);
	else if (v < -u)
		snprintf(buf, len, "%s not known (the fit gives %s ±%s µJ, below zero)", what, a, b);
	else if (fabs(v) <= u)
		snprintf(buf, len, "%s %s ±%s µJ (not told from 0)", what, a, b);
	else
		snprintf(buf, len, "%s %s ±%s µJ", what, a, b);
}

/* Each kind priced, the pair as one; empty when none is. */
static void costs_text(const struct costs *c, char *buf, size_t len)
{
	char one[160], what[64];
	int first, second;
	size_t k;

	buf[0] = '\0';
	if (isfinite(c->sum) && op_energy_pair(c->sum_of, &first, &second)) {
		snprintf(what, sizeof(what), "a %s with its %.2f %s", op_energy_kinds[first],
			 c->ratio, op_energy_kinds_plural[second]);
		cost_text(what, c->sum, c->sum_u, one, sizeof(one));
		append(buf, len, one);
	}
	for (k = 0; k < OP_ENERGY_KINDS; k++) {
		if (!isfinite(c->v[k]))
			continue;
		cost_text(op_energy_kinds[k], c->v[k], c->u[k], one, sizeof(one));
		append(buf, len, one);
	}
}

static int any_per_op(const struct run_result *r, int *emulated)
{
	size_t i;
	int n = 0;

	*emulated = 0;
	for (i = 0; i < r->njobs; i++) {
		const struct result_power *p = r->jobs[i].power;

		if (p && (p->energy_model || p->event_locked)) {
			n++;
			if (r->jobs[i].validity && r->jobs[i].validity->emulated)
				*emulated = 1;
		}
	}
	return n;
}

void summary_print_per_op(FILE *fp, const struct run_result *r)
{
	char text[LINE];
	int emulated;
	size_t i;

	if (!any_per_op(r, &emulated))
		return;
	fprintf(fp, "energy per operation%s (the device's power above idle per completed "
		    "operation, U95; docs/energy.md):\n", emulated ? ", EMULATED meter" : "");
	for (i = 0; i < r->njobs; i++) {
		const struct job_result *j = &r->jobs[i];
		const struct result_power *p = j->power;
		const struct result_energy_model *m = p ? p->energy_model : NULL;
		const struct result_event_locked *el = p ? p->event_locked : NULL;
		struct costs c;
		const char *name = j->jobname ? j->jobname : "?";

		if (el) {
			c = COSTS_OF(el);
			costs_text(&c, text, sizeof(text));
			if (*text)
				fprintf(fp, "  %s loop %u, event-locked on the meter's trace: %s%s%s\n",
					name, j->loop, text,
					el->agrees_with_model == 0 ? " (the 100 ms model disagrees)" : "",
					el->agrees_with_trace == 0
						? " (the ops' energy does not balance the trace's)"
						: "");
		}
		if (!m)
			continue;
		c = COSTS_OF(m);
		costs_text(&c, text, sizeof(text));
		fprintf(fp, "  %s loop %u, power model%s: %s", name, j->loop,
			p->estimator && !strcmp(p->estimator, "model") ? " (the headline's)" : "",
			*text ? text : "no kind priced");
		if (m->verdict && strcmp(m->verdict, "ok"))
			fprintf(fp, " (%s%s%s)", m->verdict, m->why ? ": " : "", m->why ? m->why : "");
		fputc('\n', fp);
	}
}
