/* SPDX-License-Identifier: MIT */
/* The report page's jobs of each result: what ran, its validity, its power figures in the units they call for, and its events. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "core/units.h"
#include "report/html.h"

#define NS_PER_S_F 1e9
/* Significant digits of a power cell, at every scale (as compare's table) */
#define SIG_POWER_CELL 3

/*
 * A power column of a result's job table: the figure in its base unit (A, W, Ah, J/GB),
 * its head around the unit chosen ("peak %s": "peak µA"), and that unit, chosen from the
 * column's figures over the table's jobs, or the one --units fixed: a sleep current of
 * 5 µA reads 5.02 µA, not 0.005 mA.
 */
struct power_col {
	const char *head;
	enum si_quantity q;
	double (*get)(const struct job_result *j);
	struct si_unit unit;
};

static double active_w(const struct job_result *j)
{
	return j->power ? j->power->active_w : NAN;
}

static double active_a(const struct job_result *j)
{
	return j->power ? j->power->active_ma / 1e3 : NAN;
}

static double peak_a(const struct job_result *j)
{
	return j->power ? j->power->peak_ma / 1e3 : NAN;
}

static double idle_w(const struct job_result *j)
{
	return j->power ? j->power->idle_w : NAN;
}

static double charge_ah(const struct job_result *j)
{
	return j->power ? j->power->charge_mah / 1e3 : NAN;
}

static double j_per_gb(const struct job_result *j)
{
	return j->efficiency ? j->efficiency->j_per_gb : NAN;
}

static const struct power_col power_cols[] = {
	{ "%s", SI_POWER, active_w, { 0 } },	  { "%s", SI_CURRENT, active_a, { 0 } },
	{ "peak %s", SI_CURRENT, peak_a, { 0 } }, { "idle %s", SI_POWER, idle_w, { 0 } },
	{ "%s", SI_CHARGE, charge_ah, { 0 } },	  { "%s/GB", SI_ENERGY, j_per_gb, { 0 } },
};

/* Each column's unit from the result's jobs, and the heads; none when no job was metered. */
static void power_heads(FILE *fp, struct power_col *cols, const struct run_result *rep)
{
	double *v = xcalloc(rep->njobs + 1, sizeof(*v));
	char head[32];
	size_t c, k;

	for (c = 0; c < ARRAY_SIZE(power_cols); c++) {
		for (k = 0; k < rep->njobs; k++)
			v[k] = cols[c].get(&rep->jobs[k]);
		cols[c].unit = si_unit_for(cols[c].q, v, rep->njobs);
		snprintf(head, sizeof(head), cols[c].head, cols[c].unit.text);
		fputs("<th>", fp);
		html_text(fp, head);
		fputs("</th>", fp);
	}
	free(v);
}

static void power_cells(FILE *fp, const struct power_col *cols, const struct job_result *j)
{
	char cell[48];
	size_t c;

	for (c = 0; c < ARRAY_SIZE(power_cols); c++)
		fprintf(fp, "<td class=\"num\">%s</td>",
			si_fmt(&cols[c].unit, cols[c].get(j), SIG_POWER_CELL, cell, sizeof(cell)));
}

static void job_events(FILE *fp, const struct rr_result *r, const struct job_result *j)
{
	size_t k;

	for (k = 0; k < j->nevents; k++) {
		const struct result_event *ev = &j->events[k];

		fprintf(fp, "%s%s at %.1f s", k ? "; " : "", event_kind_name(ev->kind),
			((double)ev->t_ns - (double)r->rep.t0_ns) / NS_PER_S_F);
		/* a flood coalesced: how many, until when */
		if (result_event_count(ev) > 1)
			fprintf(fp, " x %" PRIu64 " to %.1f s", result_event_count(ev),
				((double)result_event_last_ns(ev) - (double)r->rep.t0_ns) / NS_PER_S_F);
		if (ev->text && *ev->text) {
			fputs(" (", fp);
			html_text(fp, ev->text);
			fputs(")", fp);
		}
	}
}

/* The job's size option ("1 GiB"), "-" when it has none. */
static const char *job_size(const struct job_result *j, char *buf, size_t len)
{
	const struct result_opt *o = result_opt_find(j, "size");

	if (!o || o->type != RESULT_OPT_INT || o->i <= 0)
		return "-";
	return fmt_size((uint64_t)o->i, buf, len);
}

/* The verdict in a word and its cause, coloured: red invalid, amber uncertain, green
 * valid; the whole text is the reasons column's. */
static void verdict_cell(FILE *fp, const struct job_result *j)
{
	char verdict[RR_VERDICT_SHORT];
	int valid = rr_valid(j);

	rr_verdict_short(j->validity, j->status, verdict, sizeof(verdict));
	fprintf(fp, "<td class=\"%s\">", valid == 0 ? "bad" : rr_uncertain(j) ? "unc" : valid > 0 ? "ok" : "");
	html_text(fp, verdict);
	fputs("</td>", fp);
}

static void job_row(FILE *fp, const struct rr_result *r, const struct job_result *j,
		    const struct power_col *cols)
{
	char reasons[RR_REASONS_MAX], bs[32], size[32];

	fputs("<tr><td>", fp);
	html_text(fp, rr_job_name(r, j));
	fputs("</td><td>", fp);
	html_text(fp, rr_rw(j));
	fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>%s",
		rr_bs(j) ? fmt_size(rr_bs(j), bs, sizeof(bs)) : "-", job_size(j, size, sizeof(size)),
		result_status_name(j->status));
	if (j->error) {
		fputs(": ", fp);
		html_text(fp, j->error);
	}
	fputs("</td>", fp);
	verdict_cell(fp, j);
	if (j->validity && !isnan(j->validity->coverage))
		fprintf(fp, "<td class=\"num\">%" PRIu64 "</td><td class=\"num\">%.0f %%</td>",
			j->validity->samples_active, j->validity->coverage * 100);
	else
		fputs("<td class=\"num\">-</td><td class=\"num\">-</td>", fp);
	power_cells(fp, cols, j);
	rr_reasons(j, reasons, sizeof(reasons));
	fputs("<td>", fp);
	html_text(fp, reasons);
	fputs("</td><td>", fp);
	job_events(fp, r, j);
	fputs("</td></tr>\n", fp);
}

void html_jobs(FILE *fp, const struct rr_set *set)
{
	struct power_col cols[ARRAY_SIZE(power_cols)];
	size_t i, k;

	fputs("<section id=\"jobs\">\n<h2>Jobs and their validity</h2>\n", fp);
	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];

		memcpy(cols, power_cols, sizeof(cols));
		fputs("<h3>", fp);
		html_text(fp, r->label);
		fputs(" <small>", fp);
		html_text(fp, html_base_name(r->path));
		fputs("</small></h3>\n<div class=\"wide\"><table class=\"grid\">\n<thead><tr><th>job</th><th>rw</th>"
		      "<th>bs</th><th>size</th><th>status</th><th>verdict</th><th>samples</th><th>coverage</th>",
		      fp);
		power_heads(fp, cols, &r->rep);
		fputs("<th>reasons</th><th>events</th></tr></thead>\n<tbody>\n", fp);
		for (k = 0; k < r->rep.njobs; k++)
			job_row(fp, r, &r->rep.jobs[k], cols);
		fputs("</tbody></table></div>\n", fp);
	}
	fputs("</section>\n", fp);
}
