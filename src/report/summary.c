/* SPDX-License-Identifier: MIT */
/* The end-of-run table: one aligned row per job and loop, from the report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/summary.h"

#define CELL 32
/* The verdict is the row's last column; a longer reason is cut here (the file has it all). */
#define VERDICT_MAX 160
#define MIN_NAME_WIDTH 3
/* Below this a relative uncertainty prints as "<0.1%". */
#define U95_SHOWN_MIN 0.001

static const char *fmt_num(double v, int decimals, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

static const char *fmt_lat(double ns, char *buf, size_t len)
{
	if (isnan(ns) || ns <= 0)
		snprintf(buf, len, "-");
	else if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e4)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e6)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

/* A figure of a direction; NAN when the job has no such direction (measure). */
#define DIR_NUM(d, field) ((d) ? (double)(d)->field : NAN)

/* Latency of the direction that did most of the I/Os (reads for a 70/30 mix). */
static const struct report_dir *busier_dir(const struct job_report *j)
{
	return DIR_NUM(j->write, total_ios) > DIR_NUM(j->read, total_ios) ? j->write : j->read;
}

static double pct(const struct report_dir *d, double p)
{
	size_t i;

	for (i = 0; d && i < d->clat.npct; i++)
		if (d->clat.pct[i].pct == p)
			return (double)d->clat.pct[i].ns;
	return NAN;
}

/* valid, INVALID: first reason. */
static void verdict(const struct job_report *j, char *buf, size_t len)
{
	const struct report_validity *v = j->validity;

	if (!v) {
		snprintf(buf, len, "-");
		return;
	}
	if (v->valid) {
		/* Valid sampling of hand readings or of an emulator is not a measurement. */
		if (v->manual)
			snprintf(buf, len, "valid (MANUAL readings)");
		else if (v->emulated)
			snprintf(buf, len, "valid (EMULATED)");
		else
			snprintf(buf, len, "valid");
		if (v->uncertain && v->uncertainty)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 ", UNCERTAIN: %s +-%.1f %% (%s)", v->uncertainty->figure,
				 v->uncertainty->u95_rel * 100,
				 v->uncertainty->dominant ? v->uncertainty->dominant : "?");
		return;
	}
	snprintf(buf, len, "INVALID%s%s", v->nreasons ? ": " : "", v->nreasons ? v->reasons[0] : "");
}

/* The headline figure's U95 as a share of it: "0.2%", "<0.1%", "-" when not known. */
static const char *fmt_u95(const struct report_validity *v, char *buf, size_t len)
{
	double u = v && v->uncertainty ? v->uncertainty->u95_rel : NAN;

	if (!isfinite(u))
		snprintf(buf, len, "-");
	else if (u < U95_SHOWN_MIN)
		snprintf(buf, len, "<%.1f%%", U95_SHOWN_MIN * 100);
	else
		snprintf(buf, len, "%.*f%%", u < 0.1 ? 1 : 0, u * 100);
	return buf;
}

/* "3" or "3.2" (round 3, loop 2) when the run had rounds. */
static const char *fmt_run(const struct job_report *j, int rounds, char *buf, size_t len)
{
	if (rounds)
		snprintf(buf, len, "%u.%u", j->round ? j->round : 1, j->loop);
	else
		snprintf(buf, len, "%u", j->loop);
	return buf;
}

static int name_width(const struct run_report *r)
{
	size_t i;
	int w = MIN_NAME_WIDTH, n;

	for (i = 0; i < r->njobs; i++) {
		n = (int)strlen(r->jobs[i].jobname ? r->jobs[i].jobname : "");
		if (n > w)
			w = n;
	}
	return w;
}

static void print_power(FILE *fp, const struct job_report *j)
{
	const struct report_power *p = j->power;
	const struct report_efficiency *e = j->efficiency;
	char c[5][CELL], v[VERDICT_MAX];

	verdict(j, v, sizeof(v));
	fprintf(fp, " %7s %7s %8s %6s %8s  %s", fmt_num(p ? p->active_w : NAN, 3, c[0], CELL),
		fmt_num(p ? p->active_ma : NAN, 1, c[1], CELL),
		fmt_num(e ? e->j_per_gb : NAN, 1, c[2], CELL), fmt_u95(j->validity, c[4], CELL),
		fmt_num(e ? e->iops_per_ma : NAN, 2, c[3], CELL), v);
}

static void print_row(FILE *fp, const struct job_report *j, int nw, int power, int rounds)
{
	const struct report_dir *dir = busier_dir(j);
	double iops = DIR_NUM(j->read, iops) + DIR_NUM(j->write, iops);
	double mbps = (DIR_NUM(j->read, bw_bytes) + DIR_NUM(j->write, bw_bytes)) / 1e6;
	char c[5][CELL];

	fprintf(fp, "%-*s %4s  %-11s %8s %9s %9s %9s", nw, j->jobname ? j->jobname : "?",
		fmt_run(j, rounds, c[4], CELL), report_status_name(j->status),
		fmt_num(mbps, 1, c[0], CELL),
		fmt_num(iops, iops < 100 ? 1 : 0, c[1], CELL), fmt_lat(pct(dir, 50), c[2], CELL),
		fmt_lat(pct(dir, 99), c[3], CELL));
	if (power)
		print_power(fp, j);
	fputc('\n', fp);
}

static void print_header(FILE *fp, const struct run_report *r, int nw, int power, int rounds)
{
	fputc('\n', fp);
	if (r->emulated)
		fprintf(fp, "figures from an EMULATED meter: they describe no real hardware\n");
	if (r->manual)
		fprintf(fp, "figures from MANUAL readings typed in from a display, not sampled\n");
	fprintf(fp, "MB = 10^6 bytes; latency: completion, p50/p99 of the busier direction\n");
	fprintf(fp, "%-*s %4s  %-11s %8s %9s %9s %9s", nw, "job", rounds ? "rnd" : "loop",
		"status", "MB/s", "IOPS", "p50 lat", "p99 lat");
	if (power)
		fprintf(fp, " %7s %7s %8s %6s %8s  %s", "W", "mA", "J/GB", "+-95%", "IOPS/mA",
			"verdict");
	fputc('\n', fp);
}

/*
 * A meter on the board's supply measures the CPU that runs the benchmark as well as the
 * drive: say how much of it there was, from the jobs' own CPU time.
 */
static void print_cpu_note(FILE *fp, const struct run_report *r)
{
	double cpu_s = 0, active_s = 0, per_io = 0;
	size_t i, n = 0;

	for (i = 0; i < r->njobs; i++) {
		const struct job_report *j = &r->jobs[i];

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
static void print_sizes(FILE *fp, const struct run_report *r)
{
	const struct job_report *j, *prev;
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

void report_print_summary(FILE *fp, const struct run_report *r)
{
	int power = 0, rounds = 0, nw;
	size_t i;

	if (!r->njobs)
		return;
	for (i = 0; i < r->njobs; i++) {
		power |= r->jobs[i].power != NULL;
		rounds |= r->jobs[i].round > 1;
	}
	nw = name_width(r);
	print_header(fp, r, nw, power, rounds);
	for (i = 0; i < r->njobs; i++)
		print_row(fp, &r->jobs[i], nw, power, rounds);
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].error)
			fprintf(fp, "%s loop %u: %s\n", r->jobs[i].jobname ? r->jobs[i].jobname : "?",
				r->jobs[i].loop, r->jobs[i].error);
	if (power)
		fprintf(fp, "+-95%%: the J/GB's measurement uncertainty (k = 2) from the meter's "
			    "declared accuracy (docs/energy.md)\n");
	print_cpu_note(fp, r);
	print_sizes(fp, r);
	report_print_rounds(fp, r, nw);
}
