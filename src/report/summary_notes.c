/* SPDX-License-Identifier: MIT */
/* Notes under the end-of-run table: size=auto, a board-level meter, energy out, event floods, leftovers. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/events.h"
#include "report/summary_notes.h"

/* Kinds and sources of repeated events the summary names one by one; more are counted. */
#define FLOODS_MAX 16

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

/* The share of a job's bytes that are writes, from its options. */
static double write_share(const struct job_result *j)
{
	const struct result_opt *rw = result_opt_find(j, "rw");
	const struct result_opt *mix = result_opt_find(j, "rwmixread");

	if (!rw || !rw->s)
		return 0;
	if (!strcmp(rw->s, "randrw"))
		return mix && mix->type == RESULT_OPT_INT ? (100.0 - (double)mix->i) / 100 : 0.5;
	return !strcmp(rw->s, "write") || !strcmp(rw->s, "randwrite") || !strcmp(rw->s, "rewrite");
}

static uint64_t opt_int(const struct job_result *j, const char *key)
{
	const struct result_opt *o = result_opt_find(j, key);

	return o && o->type == RESULT_OPT_INT && o->i > 0 ? (uint64_t)o->i : 0;
}

/* A size choice seen in an earlier entry of the same job (a round, a loop): its
 * calibration ran once. */
static int choice_seen(const struct run_result *r, size_t i)
{
	const struct job_result *j = &r->jobs[i];
	size_t k;

	for (k = 0; k < i; k++)
		if (r->jobs[k].jobname && !strcmp(r->jobs[k].jobname, j->jobname) &&
		    r->jobs[k].size_auto && r->jobs[k].size_auto->size == j->size_auto->size)
			return 1;
	return 0;
}

/* size=auto: each job's chosen size and why, once per job and size. */
static void print_sizes(FILE *fp, const struct run_result *r)
{
	const struct job_result *j;
	size_t i;

	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		if (!j->size_auto || !j->jobname)
			continue;
		if (!choice_seen(r, i))
			fprintf(fp, "size=auto %s: %s\n", j->jobname,
				j->size_auto->reason ? j->size_auto->reason : "?");
	}
}

/*
 * What the run wrote to the target: the jobs' writes and size=auto's calibrations (its
 * tries, rejected ones included), and the bound on the file's layout, which the result
 * does not count: a newcomer's first question about a benchmark on their own disk.
 */
static void print_written(FILE *fp, const struct run_result *r)
{
	uint64_t jobs = 0, extent = 0, e;
	double calib = 0, retaken = 0;
	char a[32], b[32], c[32], d[32];
	size_t i, t;

	for (i = 0; i < r->njobs; i++) {
		const struct job_result *j = &r->jobs[i];

		if (j->command) /* measure: the command's writes are its own business */
			continue;
		if (j->write)
			jobs += j->write->io_bytes;
		e = opt_int(j, "filesize") * (opt_int(j, "numjobs") ? opt_int(j, "numjobs") : 1);
		if (e > extent)
			extent = e;
		if (!j->size_auto || !j->jobname || choice_seen(r, i))
			continue;
		for (t = 0; t < j->size_auto->ntries; t++)
			calib += write_share(j) * (double)j->size_auto->tries[t].bytes;
		/* a retake's first run is not in the result; it was smaller than the retake */
		if (j->size_auto->retake)
			retaken += write_share(j) * (double)j->size_auto->size *
				   (double)(opt_int(j, "numjobs") ? opt_int(j, "numjobs") : 1);
	}
	if (!jobs && !(calib > 0))
		return;
	fprintf(fp, "written: %s (the jobs %s, size=auto's calibrations %s)",
		fmt_size(jobs + (uint64_t)calib, a, sizeof(a)), fmt_size(jobs, b, sizeof(b)),
		fmt_size((uint64_t)calib, c, sizeof(c)));
	if (retaken > 0)
		fprintf(fp, "; the first runs of jobs run again (size=auto retake) wrote less than "
			    "%s more", fmt_size((uint64_t)retaken, d, sizeof(d)));
	if (extent)
		fprintf(fp, "; laying out the file before reads writes at most %s more",
			fmt_size(extent, d, sizeof(d)));
	fprintf(fp, "\n");
}

struct flood {
	const struct result_event *first;
	uint64_t count, t_last_ns;
	int coalesced;
};

static double since_start_s(const struct run_result *r, uint64_t t_ns)
{
	return t_ns > r->t0_ns ? (double)(t_ns - r->t0_ns) / 1e9 : 0;
}

/*
 * Events of one kind from one source that came in a flood (a meter dropping a reading
 * every few samples, a flapping supply): coalesced in the result (count, t_last_ns, per
 * phase), one line each here with how many in the whole run and when.
 */
static void print_floods(FILE *fp, const struct run_result *r)
{
	struct flood fl[FLOODS_MAX];
	size_t i, k, n = 0, more = 0;

	for (i = 0; i < r->nevents; i++) {
		const struct result_event *ev = &r->events[i];

		for (k = 0; k < n; k++)
			if (fl[k].first->kind == ev->kind && !strcmp(fl[k].first->source, ev->source))
				break;
		if (k == n) {
			if (n == FLOODS_MAX) {
				more += result_event_count(ev);
				continue;
			}
			fl[n++] = (struct flood){ ev, 0, 0, 0 };
		}
		fl[k].coalesced |= ev->count > 1;
		fl[k].count += result_event_count(ev);
		if (result_event_last_ns(ev) > fl[k].t_last_ns)
			fl[k].t_last_ns = result_event_last_ns(ev);
	}
	for (k = 0; k < n; k++)
		if (fl[k].coalesced)
			fprintf(fp, "events: %" PRIu64 " x %s from %s, +%.1f s to +%.1f s; the first: "
				    "%s\n", fl[k].count, event_kind_name(fl[k].first->kind),
				fl[k].first->source, since_start_s(r, fl[k].first->t_ns),
				since_start_s(r, fl[k].t_last_ns), fl[k].first->text);
	if (more)
		fprintf(fp, "events: %" PRIu64 " more of other kinds and sources (the result lists "
			    "them)\n", more);
}

/*
 * A signed meter saw energy flow out of the device (a battery discharging into the
 * supply, a load feeding back): the table's energy is the net; both directions are said.
 */
static void print_energy_out(FILE *fp, const struct run_result *r)
{
	const struct result_meter_figures *m;
	size_t i, k;

	for (i = 0; i < r->njobs; i++)
		for (k = 0; k < r->jobs[i].nmeters; k++) {
			m = &r->jobs[i].meters[k];
			if (!(m->power.energy_active_out_j > 0))
				continue;
			fprintf(fp, "%s: energy into the device %.4g J, out of it %.4g J (net %.4g J) "
				    "from %s\n", r->jobs[i].jobname ? r->jobs[i].jobname : "?",
				m->power.energy_active_in_j, m->power.energy_active_out_j,
				m->power.energy_active_j, m->spec ? m->spec : "a meter");
		}
}

/* measure: processes the command left running when it returned (its group, or started with
 * setsid outside it). */
static void print_descendants(FILE *fp, const struct run_result *r)
{
	const struct job_result *j;
	size_t i;

	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		if (!j->descendants)
			continue;
		fprintf(fp, "%s: %" PRIu64 " process(es) the command started still ran when it "
			    "returned: %s\n", j->jobname ? j->jobname : "?",
			j->descendants->running,
			j->descendants->ended ? "ended with the command"
					      : "left running (--kill-descendants ends them)");
	}
}

/* The job's I/Os (or bytes: io_bytes) over both directions; 0 for a command without I/O figures. */
#define JOB_SUM(j, field)                                                                   \
	(((j)->read ? (double)(j)->read->field : 0) + ((j)->write ? (double)(j)->write->field : 0))

/*
 * A "-" in IOPS/mA or J/GB is a figure that is undefined, never one hidden: say why, once
 * per job (a current near zero or below it is no reason; only no I/O, no current or
 * energy known, or a current of exactly 0 are).
 */
static void print_undefined(FILE *fp, const struct run_result *r)
{
	const struct job_result *j;
	char why[2][96];
	size_t i;

	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		if (!j->power || !j->efficiency)
			continue;
		why[0][0] = why[1][0] = '\0';
		if (isnan(j->efficiency->iops_per_ma))
			snprintf(why[0], sizeof(why[0]), "IOPS/mA: %s",
				 !(JOB_SUM(j, total_ios) > 0) ? "no I/O counted"
				 : isnan(j->power->active_ma) ? "no current known"
							       : "the current averaged exactly 0");
		if (isnan(j->efficiency->j_per_gb))
			snprintf(why[1], sizeof(why[1]), "J/GB: %s",
				 !(JOB_SUM(j, io_bytes) > 0) ? "no bytes moved"
						       : "no energy known (no voltage)");
		if (*why[0] || *why[1])
			fprintf(fp, "%s loop %u: - is undefined, not hidden: %s%s%s\n",
				j->jobname ? j->jobname : "?", j->loop, why[0],
				*why[0] && *why[1] ? "; " : "", why[1]);
	}
}

/* Paced jobs that did not keep their rate. */
static void print_pace(FILE *fp, const struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].pace)
			fprintf(fp, "%s loop %u: pace: %s\n",
				r->jobs[i].jobname ? r->jobs[i].jobname : "?", r->jobs[i].loop,
				r->jobs[i].pace);
}

/* Where a marker was driven: how event-locked placed the completions on the meter's clock. */
static void print_alignment(FILE *fp, const struct run_result *r)
{
	const struct result_event_locked *e;
	const struct job_result *j;
	size_t i;

	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		e = j->power ? j->power->event_locked : NULL;
		if (!e || !e->alignment)
			continue;
		if (!strcmp(e->alignment, "marker"))
			fprintf(fp, "%s loop %u: event-locked on the marker (%s, %" PRIu64 " edges): "
				    "the meter's clock %+.3f +- %.3f ms\n",
				j->jobname ? j->jobname : "?", j->loop,
				e->marker_input ? e->marker_input : "?", e->marker_edges,
				e->offset_s * 1e3, e->offset_u_s * 1e3);
		else if (!strcmp(e->alignment, "not known"))
			fprintf(fp, "%s loop %u: event-locked: %s\n", j->jobname ? j->jobname : "?",
				j->loop, e->alignment_note ? e->alignment_note : "alignment not known");
		else if (e->alignment_note)
			fprintf(fp, "%s loop %u: event-locked by cross-correlation, not the marker: "
				    "%s\n", j->jobname ? j->jobname : "?", j->loop,
				e->alignment_note);
	}
}

void summary_print_notes(FILE *fp, const struct run_result *r)
{
	print_pace(fp, r);
	print_alignment(fp, r);
	print_undefined(fp, r);
	print_cpu_note(fp, r);
	print_sizes(fp, r);
	print_written(fp, r);
	print_energy_out(fp, r);
	print_floods(fp, r);
	print_descendants(fp, r);
}
