/* SPDX-License-Identifier: MIT */
/* Notes under the end-of-run table: what size=auto chose, what a board-level meter includes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/summary.h"

/*
 * A meter on the board's supply measures the CPU that runs the benchmark as well as the
 * drive: say how much of it there was, from the jobs' own CPU time.
 */
static void print_cpu_note(FILE *fp, const struct run_result *r)
{
	double cpu_s = 0, active_s = 0, per_io = 0;
	size_t i, n = 0;

	for (i = 0; i < r->njobs; i++) {
		const struct job_result *j = &r->jobs[i];

		if (!j->cpu || !j->phases || !j->phases->active || !isfinite(j->cpu->process_s))
			continue;
		cpu_s += j->cpu->process_s;
		active_s += (double)(j->phases->active->t_end_ns - j->phases->active->t_start_ns) / 1e9;
		if (isfinite(j->cpu->per_io_us)) {
			per_io += j->cpu->per_io_us;
			n++;
		}
	}
	for (i = 0; i < r->nmeters; i++) {
		if (!r->meters[i].board_level)
			continue;
		fprintf(fp, "%s measures the board's supply: its figures include the CPU running "
			    "iowatt", r->meters[i].spec ? r->meters[i].spec : "a meter");
		if (active_s > 0)
			fprintf(fp, " (%.0f %% of a core over the active phases, %.3g us of CPU per "
				    "I/O)", cpu_s / active_s * 100, n ? per_io / (double)n : NAN);
		fprintf(fp, "\n");
	}
}

/* size=auto: each job's chosen size and why, once per job and size. */
static void print_sizes(FILE *fp, const struct run_result *r)
{
	const struct job_result *j, *prev;
	size_t i, k;

	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		if (!j->size_auto || !j->jobname)
			continue;
		for (prev = NULL, k = 0; k < i; k++)
			if (r->jobs[k].jobname && !strcmp(r->jobs[k].jobname, j->jobname) &&
			    r->jobs[k].size_auto && r->jobs[k].size_auto->size == j->size_auto->size)
				prev = &r->jobs[k];
		if (!prev)
			fprintf(fp, "size=auto %s: %s\n", j->jobname,
				j->size_auto->reason ? j->size_auto->reason : "?");
	}
}

void summary_print_notes(FILE *fp, const struct run_result *r)
{
	print_cpu_note(fp, r);
	print_sizes(fp, r);
}
