/* SPDX-License-Identifier: MIT */
/* Write saturation chart data: each round's MB/s, IOPS, W and J/GB against the GB written so far. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/plot.h"

#define WSAT_WIDTH_PX 1200
#define WSAT_HEIGHT_PX 900
#define WSAT_TITLE_LEN 400

/* What the lines hold, for the key and the panels. */
struct wsat_seen {
	int power, window, invalid;
	struct si_unit jpg_unit, w_unit;
};

/*
 * One line: every round of job `name`, at the bytes the whole run had written by the end of
 * it (the fill and other jobs before it count: the device wore from them too). Columns: GB
 * written, MB/s, IOPS, W (active), J/GB, valid, in the steady window.
 */
static void wsat_line(FILE *fp, const struct rr_result *r, const char *name,
		      const struct result_steady *st, struct wsat_seen *seen)
{
	double written = 0;
	size_t i;

	fprintf(fp, "# %s: %s\n", r->label, name);
	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];
		unsigned round = j->round ? j->round : 1;
		int in_window;

		if (j->write)
			written += (double)j->write->io_bytes;
		if (!j->jobname || strcmp(j->jobname, name) || !(rr_bw_bytes(j) > 0))
			continue;
		in_window = st->reached && st->first_round && round >= st->first_round &&
			    round <= st->last_round;
		fprintf(fp, "%.6g", written / 1e9);
		plot_put_num(fp, rr_bw_bytes(j) / 1e6);
		plot_put_num(fp, rr_iops(j));
		plot_put_num(fp, rr_has_power(j) ? rr_power(j)->active_w * seen->w_unit.per_base
						 : NAN);
		plot_put_num(fp, rr_has_power(j) ? rr_eff(j)->j_per_gb * seen->jpg_unit.per_base
						 : NAN);
		fprintf(fp, " %d %d\n", rr_valid(j) != 0, in_window);
		seen->power |= rr_has_power(j);
		seen->window |= in_window;
		seen->invalid |= rr_valid(j) == 0;
	}
	fprintf(fp, "\n\n");
}

/* "DEV job: steady (IOPS) at rounds 7-11" or "... not steady after 24 rounds". */
static void line_title(FILE *meta, size_t n, const struct rr_result *r, const char *name,
		       const struct result_steady *st)
{
	char t[WSAT_TITLE_LEN];

	if (st->reached)
		snprintf(t, sizeof(t), "%s %s: steady (%s) at rounds %u-%u", r->label, name,
			 st->metric ? st->metric : "?", st->first_round, st->last_round);
	else if (st->first_round)
		snprintf(t, sizeof(t), "%s %s: not steady (%s; closest rounds %u-%u: range %.0f %%, "
			 "slope %.0f %%)", r->label, name, st->metric ? st->metric : "?",
			 st->first_round, st->last_round, st->range_rel * 100, st->slope_rel * 100);
	else
		snprintf(t, sizeof(t), "%s %s: no verdict (fewer valid rounds than a window)", r->label,
			 name);
	fprintf(meta, "LTITLE[%zu] = ", n);
	plot_gp_string(meta, t);
	fputc('\n', meta);
}

/* Every job with a steady verdict (steady=) is a line. */
static size_t wsat_count(const struct rr_set *set)
{
	size_t i, k, n = 0;

	for (i = 0; i < set->nres; i++)
		for (k = 0; k < set->res[i].rep.nsummary; k++)
			n += set->res[i].rep.summary[k].jobname && set->res[i].rep.summary[k].steady;
	return n;
}

/* The lines into wsat.dat, their device and title into meta. */
static void wsat_lines(FILE *fp, FILE *meta, const struct rr_set *set, struct wsat_seen *seen)
{
	size_t i, k, n = 0;

	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];

		for (k = 0; k < r->rep.nsummary; k++) {
			const struct result_job_summary *s = &r->rep.summary[k];

			if (!s->jobname || !s->steady)
				continue;
			wsat_line(fp, r, s->jobname, s->steady, seen);
			n++;
			fprintf(meta, "LDEV[%zu] = %d\n", n, r->device_idx + 1);
			line_title(meta, n, r, s->jobname, s->steady);
		}
	}
}

int plot_wsat(struct plot_ctx *ctx, const struct rr_result *r)
{
	struct wsat_seen seen = { 0 };
	struct plot_chart ch;
	size_t nlines = wsat_count(ctx->set);
	FILE *fp;
	int rc;

	(void)r;
	if (!nlines)
		return PLOT_EMPTY;
	seen.jpg_unit = plot_jpg_unit(ctx->set);
	seen.w_unit = plot_power_unit(ctx->set);
	rc = plot_chart_begin(ctx, &ch, NULL, WSAT_WIDTH_PX, WSAT_HEIGHT_PX);
	if (rc)
		return rc;
	fp = plot_chart_file(&ch, "wsat.dat");
	if (!fp) {
		plot_chart_abort(&ch);
		return -EIO;
	}
	fprintf(fp, "# gb_written MB/s IOPS W (WUNIT) J/GB (JPGUNIT) valid in_window; an index "
		    "block per device and job\n");
	fprintf(ch.meta, "NLINES = %zu\narray LDEV[%zu]\narray LTITLE[%zu]\n", nlines, nlines,
		nlines);
	wsat_lines(fp, ch.meta, ctx->set, &seen);
	fclose(fp);
	fprintf(ch.meta, "HASPOWER = %d\nHASWINDOW = %d\nHASINVALID = %d\nJPGUNIT = ", seen.power,
		seen.window, seen.invalid);
	plot_gp_string(ch.meta, seen.jpg_unit.text);
	fputs(".'/GB'\nWUNIT = ", ch.meta);
	plot_gp_string(ch.meta, seen.w_unit.text);
	fputc('\n', ch.meta);
	return plot_chart_run(ctx, &ch);
}
