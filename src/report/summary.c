/* SPDX-License-Identifier: MIT */
/* The end-of-run table: one aligned row per job and loop (round.loop with rounds). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results_read.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "core/text.h"
#include "core/units.h"
#include "report/summary.h"
#include "report/summary_grid.h"
#include "report/summary_notes.h"
#include "report/summary_perop.h"
#include "report/summary_rounds.h"

#define CELL 64
#define MIN_NAME_WIDTH 3
/* Significant digits: enough that a 16 MiB-record job's IOPS/mA is not 0.00. */
#define SIG_RATE 3
#define SIG_POWER 3
#define SIG_ENERGY 4
/* Sub-rows (directions, syncs, further meters) are indented under their job. */
#define SUB_INDENT "  "
/* Widths of the row's lead ("%-*s %4u  %-11s" after the name) and performance cells. */
#define ROW_LEAD 18
#define PERF_WIDTH 39
/* The power columns' usual widths (W, current, J/GB) */
#define W_WIDTH 7
#define A_WIDTH 7
#define E_WIDTH 8
/* Marks a U95 that is not the row's J/GB's. */
#define U95_OTHER_MARK "*"
/* Below this a relative uncertainty prints as "<0.1%". */
#define U95_SHOWN_MIN 0.001

/* Which optional columns the table has. */
struct layout {
	int nw;		  /* job column width */
	int power;	  /* any job has power figures */
	int meters;	  /* more than one meter: a meter column, a row per meter */
	int mw;		  /* meter column width */
	int soc, drive;	  /* temperature columns */
	int rounds;	  /* some job ran in rounds: the loop column says round.loop */
	int clat;	  /* some job has no total latency (an older result): every row
			   * shows completion latency, labelled clat, never as "lat" */
	/* Each power column's unit, from its figures over every row: 5 uA is not 0.005 mA */
	struct si_unit w, a, e;
	/* Their widths: the usual ones, wider for a fixed unit's long figures (1.500e9 nA) */
	int ww, aw, ew;
};

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

static const char *fmt_temp(double c, char *buf, size_t len)
{
	if (isnan(c))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", c);
	return buf;
}

/* A figure of a direction; NAN when the job has no such direction (measure). */
#define DIR_NUM(d, field) ((d) ? (double)(d)->field : NAN)

/* Latency of the direction that did most of the I/Os (reads for a 70/30 mix). */
static const struct result_dir *busier_dir(const struct job_result *j)
{
	return DIR_NUM(j->write, total_ios) > DIR_NUM(j->read, total_ios) ? j->write : j->read;
}

static double pct_of(const struct result_lat *l, double p)
{
	size_t i;

	for (i = 0; l && i < l->npct; i++)
		if (l->pct[i].pct == p)
			return (double)l->pct[i].ns;
	return NAN;
}

static double pct(const struct layout *lo, const struct result_dir *d, double p)
{
	return d ? pct_of(lo->clat ? &d->clat : &d->lat, p) : NAN;
}

/* The judged figure is neither J/GB nor IOPS/mA, the row's own columns. */
static int other_figure(const struct result_uncertainty *un)
{
	return un && un->figure && strcmp(un->figure, "j_per_gb") && strcmp(un->figure, "iops_per_ma");
}

/*
 * The judged figure's U95 as a share of it: "0.2%", "<0.1%", "-" when not known, or when
 * the row's figures are "-" (a measure's J/GB): no interval beside a figure not shown.
 */
static const char *fmt_u95(const struct result_validity *v, const struct result_efficiency *e,
			   char *buf, size_t len)
{
	const struct result_uncertainty *un = v ? v->uncertainty : NULL;
	double u = un ? un->u95_rel : NAN;
	int shown = e && (isfinite(e->j_per_gb) ||
			  (isfinite(e->iops_per_ma) && un && un->figure &&
			   !strcmp(un->figure, "iops_per_ma")));

	/* Beside J/GB, an interval of another figure (an energy per operation, the energy
	 * above idle) is marked: the job's verdict line names it. */
	const char *mark = other_figure(un) ? U95_OTHER_MARK : "";

	if (!isfinite(u) || !shown)
		snprintf(buf, len, "-");
	else if (u < U95_SHOWN_MIN)
		snprintf(buf, len, "<%.1f%%%s", U95_SHOWN_MIN * 100, mark);
	else
		snprintf(buf, len, "%.*f%%%s", u < 0.1 ? 1 : 0, u * 100, mark);
	return buf;
}

/* "3" or "3.2" (round 3, loop 2) when the run had rounds. */
static const char *fmt_run(const struct job_result *j, int rounds, char *buf, size_t len)
{
	if (rounds)
		snprintf(buf, len, "%u.%u", j->round ? j->round : 1, j->loop);
	else
		snprintf(buf, len, "%u", j->loop);
	return buf;
}

/*
 * A meter's name in the table: its driver and the last part of its connection
 * ("um25c:rfcomm0", "ina219:i2c-1@0x40"), enough to tell two meters apart.
 */
static void meter_short(const char *spec, char *buf, size_t len)
{
	const char *colon = spec ? strchr(spec, ':') : NULL, *conn, *slash;
	size_t n;

	if (!spec) {
		snprintf(buf, len, "?");
		return;
	}
	if (!colon || !colon[1]) {
		snprintf(buf, len, "%.*s", (int)(colon ? (size_t)(colon - spec) : strlen(spec)), spec);
		return;
	}
	conn = colon + 1;
	n = strcspn(conn, ",");
	slash = memrchr(conn, '/', n);
	if (slash) {
		n -= (size_t)(slash + 1 - conn);
		conn = slash + 1;
	}
	snprintf(buf, len, "%.*s:%.*s", (int)(colon - spec), spec, (int)n, conn);
}

static int job_name_width(const struct run_result *r)
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

/* A power column's width: its usual one, or its widest figure in its unit. */
static int column_width(const struct si_unit *u, const double *v, size_t n, int sig, int usual)
{
	char c[CELL];
	size_t i;
	int w = usual, k;

	for (i = 0; i < n; i++) {
		k = (int)strlen(si_fmt(u, v[i], sig, c, sizeof(c)));
		if (k > w)
			w = k;
	}
	return w;
}

/* The W, mA and J/GB figures of every row the table prints (a row per meter with several). */
static void plan_units(const struct run_result *r, struct layout *lo)
{
	size_t i, m, n = 0, cap = 1;
	double *w, *a, *e;

	for (i = 0; i < r->njobs; i++)
		cap += 1 + r->jobs[i].nmeters;
	w = xcalloc(cap, sizeof(*w));
	a = xcalloc(cap, sizeof(*a));
	e = xcalloc(cap, sizeof(*e));
	for (i = 0; i < r->njobs; i++) {
		const struct job_result *j = &r->jobs[i];

		for (m = 0; m <= j->nmeters; m++, n++) {
			const struct result_power *p = m ? &j->meters[m - 1].power : j->power;
			const struct result_efficiency *ef =
				m ? &j->meters[m - 1].efficiency : j->efficiency;

			w[n] = p ? p->active_w : NAN;
			a[n] = p ? p->active_ma / 1e3 : NAN;
			e[n] = ef ? ef->j_per_gb : NAN;
		}
	}
	lo->w = si_unit_for(SI_POWER, w, n);
	lo->a = si_unit_for(SI_CURRENT, a, n);
	lo->e = si_unit_for(SI_ENERGY, e, n);
	lo->ww = column_width(&lo->w, w, n, SIG_POWER, W_WIDTH);
	lo->aw = column_width(&lo->a, a, n, SIG_ENERGY, A_WIDTH);
	lo->ew = column_width(&lo->e, e, n, SIG_ENERGY, E_WIDTH);
	free(w);
	free(a);
	free(e);
}

static void plan_layout(const struct run_result *r, struct layout *lo)
{
	char name[CELL];
	size_t i, m;
	int n;

	memset(lo, 0, sizeof(*lo));
	lo->nw = job_name_width(r);
	lo->meters = r->nmeters > 1;
	lo->mw = (int)strlen("meter");
	for (i = 0; i < r->njobs; i++) {
		const struct job_result *j = &r->jobs[i];

		lo->power |= j->power != NULL;
		lo->rounds |= j->round > 1;
		if (busier_dir(j) && busier_dir(j)->total_ios)
			lo->clat |= !busier_dir(j)->lat.npct;
		for (m = 0; lo->meters && m < j->nmeters; m++) {
			meter_short(j->meters[m].spec, name, sizeof(name));
			n = (int)strlen(name);
			if (n > lo->mw)
				lo->mw = n;
		}
		if (j->temperatures) {
			lo->soc |= !isnan(j->temperatures->soc_c.max);
			lo->drive |= !isnan(j->temperatures->drive_c.max);
		}
	}
	plan_units(r, lo);
}

static void print_power(FILE *fp, const struct layout *lo, const char *spec,
			const struct result_power *p, const struct result_efficiency *e,
			const struct result_validity *v, int status)
{
	char c[5][CELL], name[CELL], vd[RR_VERDICT_SHORT];

	if (lo->meters) {
		meter_short(spec, name, sizeof(name));
		fprintf(fp, "  %-*s", lo->mw, name);
	}
	rr_verdict_short(v, status, vd, sizeof(vd));
	fprintf(fp, " %*s %*s %*s %6s %8s  %s", lo->ww,
		si_fmt(&lo->w, p ? p->active_w : NAN, SIG_POWER, c[0], CELL), lo->aw,
		si_fmt(&lo->a, p ? p->active_ma / 1e3 : NAN, SIG_ENERGY, c[1], CELL), lo->ew,
		si_fmt(&lo->e, e ? e->j_per_gb : NAN, SIG_ENERGY, c[2], CELL), fmt_u95(v, e, c[4], CELL),
		fmt_sig(e ? e->iops_per_ma : NAN, SIG_RATE, c[3], CELL), vd);
}

static void print_temps(FILE *fp, const struct layout *lo, const struct job_result *j)
{
	char c[CELL];

	if (lo->soc)
		fprintf(fp, " %6s", fmt_temp(j->temperatures ? j->temperatures->soc_c.max : NAN, c,
					     CELL));
	if (lo->drive)
		fprintf(fp, " %6s",
			fmt_temp(j->temperatures ? j->temperatures->drive_c.max : NAN, c, CELL));
}

/* The performance cells of a row: MB/s, IOPS, p50 and p99 latency. */
static void print_perf(FILE *fp, double mbps, double iops, double p50, double p99)
{
	char c[4][CELL];

	fprintf(fp, " %8s %9s %9s %9s", fmt_sig(mbps, SIG_RATE, c[0], CELL),
		fmt_sig(iops, SIG_RATE, c[1], CELL), fmt_lat(p50, c[2], CELL),
		fmt_lat(p99, c[3], CELL));
}

/* Blank cells up to where the power columns start. */
static void pad_to_power(FILE *fp, const struct layout *lo)
{
	fprintf(fp, "%*s", lo->nw + ROW_LEAD + PERF_WIDTH, "");
	if (lo->soc)
		fprintf(fp, "%7s", "");
	if (lo->drive)
		fprintf(fp, "%7s", "");
}

static void print_sub_dir(FILE *fp, const struct layout *lo, const char *what,
			  const struct result_dir *d)
{
	fprintf(fp, "%-*s %4s  %-11s", lo->nw, what, "", "");
	print_perf(fp, (double)d->bw_bytes / 1e6, d->iops, pct(lo, d, 50), pct(lo, d, 99));
	fputc('\n', fp);
}

/*
 * Under a job that moves both ways, each direction; under a job that syncs, its
 * fdatasync/fsync calls (per second and their latency), which the page-cache write
 * latency above them hides.
 */
static void print_sub_io(FILE *fp, const struct layout *lo, const struct job_result *j)
{
	const struct result_sync *s = j->sync;
	double secs;

	if (j->read && j->write && j->read->total_ios && j->write->total_ios) {
		print_sub_dir(fp, lo, SUB_INDENT "read", j->read);
		print_sub_dir(fp, lo, SUB_INDENT "write", j->write);
	}
	if (!rr_syncs(j))
		return;
	secs = (double)DIR_NUM(j->write, runtime_ms) / 1e3;
	fprintf(fp, "%-*s %4s  %-11s", lo->nw, SUB_INDENT "sync", "", "");
	print_perf(fp, NAN, secs > 0 ? (double)s->total_ios / secs : NAN, pct_of(&s->lat, 50),
		   pct_of(&s->lat, 99));
	fputc('\n', fp);
}

static void print_row(FILE *fp, const struct layout *lo, const struct job_result *j)
{
	const struct result_dir *dir = busier_dir(j);
	double iops = DIR_NUM(j->read, iops) + DIR_NUM(j->write, iops);
	double mbps = (DIR_NUM(j->read, bw_bytes) + DIR_NUM(j->write, bw_bytes)) / 1e6;
	char run[CELL];
	size_t m;

	fprintf(fp, "%-*s %4s  %-11s", lo->nw, j->jobname ? j->jobname : "?",
		fmt_run(j, lo->rounds, run, sizeof(run)), result_status_name(j->status));
	print_perf(fp, mbps, iops, pct(lo, dir, 50), pct(lo, dir, 99));
	print_temps(fp, lo, j);
	if (lo->power && lo->meters && j->nmeters)
		print_power(fp, lo, j->meters[0].spec, &j->meters[0].power,
			    &j->meters[0].efficiency, &j->meters[0].validity, j->status);
	else if (lo->power)
		print_power(fp, lo, j->power ? j->power->meter : NULL, j->power, j->efficiency,
			    j->validity, j->status);
	fputc('\n', fp);
	for (m = 1; lo->power && lo->meters && m < j->nmeters; m++) {
		pad_to_power(fp, lo);
		print_power(fp, lo, j->meters[m].spec, &j->meters[m].power,
			    &j->meters[m].efficiency, &j->meters[m].validity, j->status);
		fputc('\n', fp);
	}
	print_sub_io(fp, lo, j);
}

/* The meters by name: which figures came from what. */
static void print_meters(FILE *fp, const struct run_result *r, const struct layout *lo)
{
	char name[CELL];
	size_t m;

	for (m = 0; lo->power && m < r->nmeters; m++) {
		meter_short(r->meters[m].spec, name, sizeof(name));
		fprintf(fp, "meter %s: %s%s%s, %s\n", name, r->meters[m].model ? r->meters[m].model : "?",
			r->meters[m].emulated ? " [EMULATED]" : "",
			r->meters[m].manual ? " [MANUAL]" : "", r->meters[m].spec ? r->meters[m].spec : "?");
	}
}

/* The power columns' heads: each its unit, right-aligned by characters (µ is 2 bytes). */
static void print_power_head(FILE *fp, const struct layout *lo)
{
	char e[CELL];

	snprintf(e, sizeof(e), "%s/GB", lo->e.text);
	fprintf(fp, " %*s %*s %*s %6s %8s  %s", lo->ww + (int)text_extra_bytes(lo->w.text), lo->w.text,
		lo->aw + (int)text_extra_bytes(lo->a.text), lo->a.text, lo->ew + (int)text_extra_bytes(e), e, "U95 %",
		"IOPS/mA", "verdict");
}

static void print_header(FILE *fp, const struct run_result *r, const struct layout *lo)
{
	fputc('\n', fp);
	if (r->emulated)
		fprintf(fp, "figures from an EMULATED meter: they describe no real hardware\n");
	if (r->manual)
		fprintf(fp, "figures from MANUAL readings typed in from a display, not sampled\n");
	print_meters(fp, r, lo);
	fprintf(fp, "MB = 10^6 bytes; %s, p50/p99 of the busier direction%s\n",
		lo->clat ? "clat: completion latency, from the kernel having the request"
			 : "lat: total latency, from the submit call to the completion",
		lo->soc || lo->drive ? "; temperatures: the highest during the job, C" : "");
	fprintf(fp, "%-*s %4s  %-11s %8s %9s %9s %9s", lo->nw, "job", lo->rounds ? "rnd" : "loop",
		"status", "MB/s", "IOPS", lo->clat ? "p50 clat" : "p50 lat",
		lo->clat ? "p99 clat" : "p99 lat");
	if (lo->soc)
		fprintf(fp, " %6s", "SoC C");
	if (lo->drive)
		fprintf(fp, " %6s", "disk C");
	if (lo->power && lo->meters)
		fprintf(fp, "  %-*s", lo->mw, "meter");
	if (lo->power)
		print_power_head(fp, lo);
	fputc('\n', fp);
}

/* The whole of a verdict that is not plainly valid, under the table (its row has the
 * word and the cause in a few words). */
static void print_verdict_text(FILE *fp, const struct job_result *j)
{
	const struct result_validity *v = j->nmeters ? &j->meters[0].validity : j->validity;
	char text[RR_REASONS_MAX], name[CELL];
	size_t m;

	for (m = 0; m < (j->nmeters ? j->nmeters : 1); m++) {
		if (j->nmeters)
			v = &j->meters[m].validity;
		if (!v || (strcmp(rr_verdict_word(v, j->status), "INVALID") &&
			   strcmp(rr_verdict_word(v, j->status), "UNCERTAIN")))
			continue;
		rr_verdict_text(v, j->status, text, sizeof(text));
		name[0] = '\0';
		if (j->nmeters > 1)
			meter_short(j->meters[m].spec, name, sizeof(name));
		fprintf(fp, "%s loop %u%s%s: %s: %s\n", j->jobname ? j->jobname : "?", j->loop,
			*name ? " " : "", name, rr_verdict_word(v, j->status), text);
	}
}

/* measure: where a command's I/O figures came from, or that it has none. */
static void print_io_source(FILE *fp, const struct job_result *j)
{
	const char *name = j->jobname ? j->jobname : "?";

	if (!j->command)
		return;
	if (!j->io_source)
		fprintf(fp, "%s: no I/O figures (give --target for the device's counters, or run "
			    "fio with --output-format=json)\n", name);
	else if (!strcmp(j->io_source, "fio"))
		fprintf(fp, "%s: I/O figures from fio's JSON; the active phase is fio's own run, "
			    "its file layout before it left out\n", name);
	else
		fprintf(fp, "%s: I/O figures from the target's /proc/diskstats over the active "
			    "phase (all I/O of that device; no latencies)\n", name);
}

/* What the largest term of a job's judged figure is, in a word: "sampling", "model fit". */
static const char *term_class(const struct job_result *j)
{
	static const char *const names[] = { "gain", "offset", "resolution", "noise",
					     "time discretisation", "idle baseline", "sampling" };
	const struct result_uncertainty *u = j->validity ? j->validity->uncertainty : NULL;
	const struct result_unc_budget *b;
	double best = -1;
	size_t k, i;

	const char *d;

	if (!u || !u->dominant)
		return NULL;
	if (strstr(u->dominant, "model and readings disagree"))
		return "model and readings disagree";
	if (strstr(u->dominant, "event-locked and model disagree"))
		return "event-locked and model disagree";
	/* "idle baseline: ...; largest term: model fit: ...": the reason first, the term after */
	d = strstr(u->dominant, "largest term: ");
	d = d ? d + strlen("largest term: ") : u->dominant;
	if (!strncmp(d, "model fit", 9))
		return "model fit";
	if (strstr(d, "(model)"))
		return "gain";
	b = &u->budget;
	if (isnan(b->sampling) && strstr(d, "aliased"))
		return "sampling";
	const double t[] = { b->gain, b->offset, b->resolution, b->noise, b->discretisation,
			     b->baseline, b->sampling };

	for (i = 0, k = 0; i < ARRAY_SIZE(t); i++)
		if (t[i] > best) {
			best = t[i];
			k = i;
		}
	return best > 0 ? names[k] : NULL;
}

/* The U95 column's footnote: what it is, and the largest terms behind it with their jobs. */
static void print_u95_note(FILE *fp, const struct run_result *r)
{
	const char *seen[16];
	unsigned count[16];
	size_t n = 0, i, k;
	const char *c;

	for (i = 0; i < r->njobs; i++) {
		if (!(c = term_class(&r->jobs[i])))
			continue;
		for (k = 0; k < n && strcmp(seen[k], c); k++)
			;
		if (k == n && n < ARRAY_SIZE(seen)) {
			seen[n] = c;
			count[n++] = 0;
		}
		if (k < n)
			count[k]++;
	}
	fprintf(fp, "U95 %%: the judged figure's measurement uncertainty at 95 %% (k = 2) as a "
		    "share of it (the least well known of J/GB, energy above idle and energy per "
		    "operation; else IOPS/mA, active energy or charge; " U95_OTHER_MARK ": not "
		    "J/GB's, the verdict line names it)");
	for (k = 0; k < n; k++)
		fprintf(fp, "%s%s (%u job%s)", k ? ", " : "; largest term: ", seen[k], count[k],
			count[k] == 1 ? "" : "s");
	fprintf(fp, " (docs/energy.md)\n");
}

void summary_print_summary(FILE *fp, const struct run_result *r)
{
	struct layout lo;
	size_t i;

	if (!r->njobs)
		return;
	plan_layout(r, &lo);
	print_header(fp, r, &lo);
	for (i = 0; i < r->njobs; i++)
		print_row(fp, &lo, &r->jobs[i]);
	for (i = 0; i < r->njobs; i++)
		print_verdict_text(fp, &r->jobs[i]);
	summary_print_per_op(fp, r);
	for (i = 0; i < r->njobs; i++)
		print_io_source(fp, &r->jobs[i]);
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].error)
			fprintf(fp, "%s loop %u: %s\n", r->jobs[i].jobname ? r->jobs[i].jobname : "?",
				r->jobs[i].loop, r->jobs[i].error);
	if (lo.power)
		print_u95_note(fp, r);
	summary_print_grid(fp, r);
	summary_print_notes(fp, r);
	summary_print_rounds(fp, r, lo.nw);
}
