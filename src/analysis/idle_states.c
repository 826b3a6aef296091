/* SPDX-License-Identifier: MIT */
/* The idle-states profile's figures: idle power against the pause before it, the wake cost of the first I/O, and the break-even pause. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/idle_states.h"
#include "core/mem.h"

/* An interval the meter did not declare counts as none in the comparison. */
static double known(double u95)
{
	return isnan(u95) ? 0 : u95;
}

static int by_gap(const void *a, const void *b)
{
	const struct idle_state_row *x = a, *y = b;

	return x->gap_s < y->gap_s ? -1 : x->gap_s > y->gap_s;
}

/*
 * A job whose one fault is an active phase with too few readings: the record itself is a
 * few milliseconds, shorter than any meter's period, but its wake and settling fill the
 * tail, which the meter does see. Its idle baseline and net energy stand; its J/GB does not.
 */
static int only_short_active(const struct job_result *j)
{
	const struct result_validity *v = j->validity;

	return v && v->nreasons == 1 && !strncmp(v->reasons[0], "active phase has ", 17) &&
	       j->status == RESULT_OK;
}

/* How long the target had been left alone when job i's I/O began: since the previous job's
 * last I/O, or (the first job) its idle phase. */
static double gap_before(const struct rr_result *r, size_t i)
{
	const struct result_phases *ph = r->rep.jobs[i].phases, *prev;

	if (!ph || !ph->active)
		return NAN;
	prev = i ? r->rep.jobs[i - 1].phases : NULL;
	if (prev && prev->active && ph->active->t_start_ns > prev->active->t_end_ns)
		return (double)(ph->active->t_start_ns - prev->active->t_end_ns) / 1e9;
	return result_span_s(ph->idle);
}

int idle_states_from(const struct rr_result *r, struct idle_states *is)
{
	const struct idle_state_row *x;
	double de, dp;
	size_t i;

	memset(is, 0, sizeof(*is));
	is->r = r;
	is->break_even_s = is->break_even_u95_s = NAN;
	is->rows = xcalloc(r->rep.njobs + 1, sizeof(*is->rows));
	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];
		const struct result_power *pw = rr_power(j);
		struct idle_state_row *row = &is->rows[is->n];

		if (!rr_has_power(j) || isnan(pw->idle_w) || isnan(pw->energy_net_j))
			continue;
		row->job = rr_job_name(r, j);
		row->gap_s = gap_before(r, i);
		if (isnan(row->gap_s))
			continue;
		row->idle_w = pw->idle_w;
		row->idle_w_u95 = pw->idle_w_u95;
		row->wake_j = pw->energy_net_j;
		row->wake_j_u95 = pw->energy_net_j_u95;
		row->io_s = j->write && j->write->lat.mean_ns > 0
				    ? (j->write->lat.mean_ns +
				       (j->sync && j->sync->lat.mean_ns > 0 ? j->sync->lat.mean_ns : 0)) / 1e9
				    : NAN;
		row->valid = rr_valid(j) == 1;
		row->event = !row->valid && only_short_active(j);
		row->valid |= row->event;
		is->n++;
	}
	if (is->n < 2) {
		idle_states_free(is);
		return -ENODATA;
	}
	qsort(is->rows, is->n, sizeof(*is->rows), by_gap);
	for (i = 0; i < is->n; i++) {
		x = &is->rows[i];
		if (!x->valid)
			continue;
		if (!is->awake)
			is->awake = x;
		if (!is->deep || x->idle_w < is->deep->idle_w)
			is->deep = x;
	}
	if (!is->awake || !is->deep || is->deep == is->awake)
		return 0;
	dp = is->awake->idle_w - is->deep->idle_w;
	is->saving_w = dp;
	/* A lower state only when the difference stands out of both levels' intervals. */
	if (dp <= 0 || dp <= hypot(known(is->awake->idle_w_u95), known(is->deep->idle_w_u95)))
		return 0;
	de = is->deep->wake_j - is->awake->wake_j;
	is->break_even_s = fmax(de, 0) / dp;
	/* First-order propagation of both wakes' and both levels' U95. */
	is->break_even_u95_s = hypot(hypot(is->deep->wake_j_u95, is->awake->wake_j_u95) / dp,
				     fmax(de, 0) / (dp * dp) *
					     hypot(is->awake->idle_w_u95, is->deep->idle_w_u95));
	return 0;
}

void idle_states_free(struct idle_states *is)
{
	free(is->rows);
	is->rows = NULL;
	is->n = 0;
	is->awake = is->deep = NULL;
}

const struct idle_state_row *idle_states_reached(const struct idle_states *is, double pause_s)
{
	const struct idle_state_row *at = is->awake;
	size_t i;

	for (i = 0; i < is->n; i++)
		if (is->rows[i].valid && is->rows[i].gap_s <= pause_s)
			at = &is->rows[i];
	return at;
}

static void put_u95(double u)
{
	if (isnan(u))
		printf("        ");
	else
		printf(" +-%-5.2g", u);
}

int idle_states_print(const struct rr_set *set, double record_gap_s)
{
	struct idle_states is;
	size_t i, k, shown = 0;

	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];

		if (idle_states_from(r, &is)) {
			printf("%s: fewer than two jobs with power figures after an idle phase: no "
			       "idle states (run configs/idle-states.ini)\n\n", r->label);
			continue;
		}
		shown++;
		printf("%s: idle power after a pause, and the first I/O's cost above it\n", r->label);
		printf("  %-18s %9s %10s %8s %10s %8s\n", "job", "pause s", "idle mW", "", "wake mJ",
		       "");
		for (k = 0; k < is.n; k++) {
			const struct idle_state_row *x = &is.rows[k];

			printf("  %-18.18s %9.1f %10.2f", x->job, x->gap_s, x->idle_w * 1e3);
			put_u95(x->idle_w_u95 * 1e3);
			printf(" %10.3f", x->wake_j * 1e3);
			put_u95(x->wake_j_u95 * 1e3);
			printf("%s\n", x->event ? "  (an event: the I/O shorter than a reading, its "
						  "wake in the tail)"
				      : x->valid ? ""
						 : "  not valid: left out below");
		}
		if (isnan(is.break_even_s)) {
			printf("  no lower idle state seen: the idle power after %.0f s is not below the "
			       "one after %.0f s beyond their intervals; a pause saves nothing a wake "
			       "would cost\n\n",
			       is.deep ? is.deep->gap_s : NAN, is.awake ? is.awake->gap_s : NAN);
			idle_states_free(&is);
			continue;
		}
		printf("  a lower state after %.0f s saves %.2f mW; its wake costs %.3f mJ more: "
		       "break-even pause %.1f s",
		       is.deep->gap_s, is.saving_w * 1e3, (is.deep->wake_j - is.awake->wake_j) * 1e3,
		       is.break_even_s);
		if (!isnan(is.break_even_u95_s))
			printf(" (+-%.1f s)", is.break_even_u95_s);
		printf("\n");
		if (!isnan(record_gap_s))
			printf("  records every %.0f s: %s\n", record_gap_s,
			       record_gap_s < is.deep->gap_s
				       ? "shorter than the pause that reaches the lower state: the device "
					 "stays in its shallower one"
			       : record_gap_s > is.break_even_s
				       ? "longer than the break-even: the lower state pays for its wake"
				       : "shorter than the break-even: each wake from the lower state "
					 "costs more than it saves");
		printf("\n");
		idle_states_free(&is);
	}
	return shown ? 0 : -ENODATA;
}
