/* SPDX-License-Identifier: MIT */
/* Efficiency chart data: IOPS per mA per record size and energy per GB per job, per device. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/repeats.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "report/plot.h"

#define MOD "plot"
/*
 * A bar's label reads across over it where its bar's slot is wide enough ("0.767" at
 * 10 pt, ~6.6 px a character), else it stands upright ("0.593  INVALID" at 9 pt), so that
 * a bar needs a line's width, not its label's: 4 devices x 34 jobs wrap into 4 rows, not
 * 10. The axis leaves room over its highest bar for its longest upright label (~6.5 px a
 * character, in a panel's plot height of about EFF_PLOT_PX), never clipped nor run into
 * the title; a label across needs a line's height (EFF_ACROSS_CHARS of that room).
 */
#define EFF_ACROSS_PX_PER_CHAR 6.6
#define EFF_ACROSS_PAD_PX 4.0
#define EFF_ACROSS_CHARS 3
#define EFF_LABEL_PX_PER_CHAR 6.5
#define EFF_LABEL_PAD_PX 14.0
#define EFF_PLOT_PX 230.0
#define EFF_HEADROOM_MIN 0.12
#define EFF_HEADROOM_MAX 0.6

/*
 * The jobs of the chart, grouped by record size: IOPS per mA of 4 KiB and of 16 MiB
 * records differ by three decades, so each record size gets its own panel and axis.
 * J/GB is per byte and shares one axis.
 */
struct eff_jobs {
	const char **names; /* in panel order */
	size_t n;
	uint64_t *bs;	    /* per job */
	size_t *panel;	    /* per job, 0-based */
	size_t npanels;
};

static uint64_t job_bs(const struct rr_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->nres; i++) {
		const struct job_result *j = rr_find_job(&set->res[i], name);

		if (j && set->res[i].has_power)
			return rr_bs(j);
	}
	return 0;
}

/*
 * A job gets bars when a powered result has one of its two figures: a measured command
 * that moved no data has neither, and would be an empty column with a note on nothing.
 */
static int job_powered(const struct rr_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->nres; i++) {
		const struct job_result *j = rr_find_job(&set->res[i], name);

		if (set->res[i].has_power && j &&
		    (rr_eff(j)->iops_per_ma > 0 || rr_eff(j)->j_per_gb > 0))
			return 1;
	}
	return 0;
}

/* Jobs with a bar, grouped by record size in order of first appearance. */
static void eff_jobs_build(struct eff_jobs *ej, const struct rr_set *set)
{
	const char **all = NULL;
	uint64_t *bs;
	size_t nall, i, k, p;

	nall = rr_job_names(set, &all);
	bs = xcalloc(nall + 1, sizeof(*bs));
	ej->names = xcalloc(nall + 1, sizeof(*ej->names));
	ej->bs = xcalloc(nall + 1, sizeof(*ej->bs));
	ej->panel = xcalloc(nall + 1, sizeof(*ej->panel));
	ej->n = ej->npanels = 0;
	for (i = 0; i < nall; i++)
		bs[i] = job_powered(set, all[i]) ? job_bs(set, all[i]) : UINT64_MAX;
	for (i = 0; i < nall; i++) {
		if (bs[i] == UINT64_MAX)
			continue;
		for (k = 0; k < i; k++)
			if (bs[k] == bs[i])
				break;
		if (k < i)
			continue; /* its record size is already grouped */
		p = ej->npanels++;
		for (k = i; k < nall; k++) {
			if (bs[k] != bs[i])
				continue;
			ej->names[ej->n] = all[k];
			ej->bs[ej->n] = bs[k];
			ej->panel[ej->n++] = p;
		}
	}
	free(bs);
	free(all);
}

static void eff_jobs_free(struct eff_jobs *ej)
{
	free(ej->names);
	free(ej->bs);
	free(ej->panel);
}

/* Where a bar goes: its x in its IOPS panel and in the J/GB panel. */
struct bar_pos {
	double x_panel, x_all;
	size_t panel;
};

/* The interval's ends of a figure, NaN where it has none (no error bar is drawn). */
static void put_interval(FILE *fp, double v, double half)
{
	plot_put_num(fp, isfinite(half) ? v - half : NAN);
	plot_put_num(fp, isfinite(half) ? v + half : NAN);
}

/* The highest label of each IOPS panel and of the J/GB panel, and whether a note stands
 * over a bar there: the panels' y ranges leave room for them. */
struct eff_tops {
	double *iops;
	size_t *iops_chars; /* the longest label's characters */
	double jpg;
	size_t jpg_chars;
	struct si_unit jpg_unit; /* the J/GB axis': kJ/GB for figures over 1000 J/GB */
	double slot_iops_px, slot_jpg_px; /* a bar's slot across: a label wider stands upright */
};

/* Whether a label of chars characters reads across in a slot of slot_px: its room over the
 * bar counted in *chars (a line's height across, its length upright). */
static int label_across(size_t *chars, double slot_px)
{
	if (!*chars || (double)*chars * EFF_ACROSS_PX_PER_CHAR + EFF_ACROSS_PAD_PX > slot_px)
		return 0;
	*chars = EFF_ACROSS_CHARS;
	return 1;
}

/* A bar's label: its figure ("" for none) and the note after it, "0.593  INVALID". */
static size_t bar_label(char *text, size_t len, const char *value, const char *note)
{
	snprintf(text, len, "%s%s%s", value, *value && *note ? "  " : "", *value ? note : "");
	return strlen(text);
}

/* A bar's figures: over rounds their mean, with half the 95 % interval as its error bar;
 * a single run's own figure with its measurement uncertainty. 1 if it has an interval. */
static int efficiency_row(FILE *fp, const struct rr_result *r, const struct job_result *j,
			  const struct bar_pos *pos, const double *lo_iops, double lo_jpg,
			  struct eff_tops *tops)
{
	double u_ipm, u_jpg, ipm = result_job_figure(&r->rep, j, "iops_per_ma", &u_ipm);
	double jpg = result_job_figure(&r->rep, j, "j_per_gb", &u_jpg);
	double y1, y2, jpg_base = jpg;
	int valid = rr_valid(j);
	/* the verdict's word, as every table has it; its cause is the page's jobs table's */
	const char *note = valid == 0 ? "INVALID" : rr_uncertain(j) ? "UNCERTAIN" : "";
	char v1[48], v2[48], t1[96], t2[96];
	size_t c1, c2;
	int across1, across2;

	jpg *= tops->jpg_unit.per_base;
	u_jpg *= tops->jpg_unit.per_base;
	fprintf(fp, "%.6f %.6f", pos->x_panel, pos->x_all);
	plot_put_num(fp, ipm);
	plot_put_num(fp, jpg);
	fprintf(fp, " %d %d %zu", valid != 0, r->device_idx + 1, pos->panel + 1);
	/* SI for IOPS per mA (1.43 k); J/GB in the axis' unit; never an exponent */
	fmt_si_label(ipm, v1, sizeof(v1));
	if (isfinite(jpg_base))
		si_fmt(&tops->jpg_unit, jpg_base, 3, v2, sizeof(v2));
	else
		v2[0] = '\0';
	c1 = bar_label(t1, sizeof(t1), v1, note);
	c2 = bar_label(t2, sizeof(t2), v2, note);
	across1 = label_across(&c1, tops->slot_iops_px);
	across2 = label_across(&c2, tops->slot_jpg_px);
	fprintf(fp, " \"%s\" \"%s\" \"%s\"", t1, t2, note);
	/* the value's label sits above the bar, or above its error bar when it has one */
	y1 = ipm > 0 ? (isfinite(u_ipm) ? ipm + u_ipm : ipm) : lo_iops[pos->panel];
	y2 = jpg > 0 ? (isfinite(u_jpg) ? jpg + u_jpg : jpg) : lo_jpg;
	plot_put_num(fp, y1);
	plot_put_num(fp, y2);
	if (isfinite(y1) && y1 > tops->iops[pos->panel])
		tops->iops[pos->panel] = y1;
	if (isfinite(y2) && y2 > tops->jpg)
		tops->jpg = y2;
	if (c1 > tops->iops_chars[pos->panel])
		tops->iops_chars[pos->panel] = c1;
	if (c2 > tops->jpg_chars)
		tops->jpg_chars = c2;
	put_interval(fp, ipm, u_ipm);
	put_interval(fp, jpg, u_jpg);
	/* again where it reads across, else "" (it stands upright) */
	fprintf(fp, " \"%s\" \"%s\"\n", across1 ? t1 : "", across2 ? t2 : "");
	return isfinite(u_ipm) || isfinite(u_jpg);
}

static double decade_below(double v, double none)
{
	return isinf(v) ? none : pow(10, floor(log10(v)));
}

/* Log axes: bars rise from the decade below the smallest value of each panel. */
static void bar_bottoms(const struct rr_set *set, const struct eff_jobs *ej, double *lo_iops,
			double *lo_jpg, double jpg_per_base)
{
	size_t i, n;

	for (n = 0; n < ej->npanels; n++)
		lo_iops[n] = INFINITY;
	*lo_jpg = INFINITY;
	for (n = 0; n < ej->n; n++) {
		for (i = 0; i < set->nres; i++) {
			const struct job_result *j = rr_find_job(&set->res[i], ej->names[n]);
			const struct result_efficiency *e;

			if (!j || !set->res[i].has_power)
				continue;
			e = rr_eff(j);
			if (e->iops_per_ma > 0)
				lo_iops[ej->panel[n]] = fmin(lo_iops[ej->panel[n]], e->iops_per_ma);
			if (e->j_per_gb > 0)
				*lo_jpg = fmin(*lo_jpg, e->j_per_gb * jpg_per_base);
		}
	}
	for (n = 0; n < ej->npanels; n++)
		lo_iops[n] = decade_below(lo_iops[n], 0.1);
	*lo_jpg = decade_below(*lo_jpg, 1);
}

/*
 * The J/GB panel's title says what j_per_gb integrates: the active phase and the tail's
 * energy above idle; results written before energy_tail_net_j counted the whole tail.
 */
static const char *jpg_title(const struct rr_set *set)
{
	size_t i, k;

	for (i = 0; i < set->nres; i++)
		for (k = 0; k < set->res[i].rep.njobs; k++)
			if (rr_has_power(&set->res[i].rep.jobs[k]) &&
			    isnan(rr_power(&set->res[i].rep.jobs[k])->energy_tail_net_j))
				return "Energy per GB moved: active phase + tail (lower is better)";
	return "Energy per GB moved: active phase + tail above idle (lower is better)";
}

/* Rows of every powered result, job by job; returns whether any bar is invalid, and in
 * *ival whether any has an interval. */
static int write_rows(FILE *fp, const struct rr_set *set, const struct eff_jobs *ej, double w,
		      int *ival, const double *lo_iops, double lo_jpg, struct eff_tops *tops)
{
	struct bar_pos pos;
	size_t n, i, slot, first = 0;
	int invalid = 0;

	fprintf(fp, "# x_panel x_all iops_per_ma j_per_gb valid device panel text1 text2 invalid "
		    "label_y1 label_y2 iops_per_ma_lo iops_per_ma_hi j_per_gb_lo j_per_gb_hi "
		    "text1_across text2_across\n");
	for (n = 0; n < ej->n; n++) {
		if (n && ej->panel[n] != ej->panel[n - 1])
			first = n;
		slot = 0;
		for (i = 0; i < set->nres; i++) {
			const struct rr_result *r = &set->res[i];
			const struct job_result *j;
			double off;

			if (!r->has_power)
				continue;
			j = rr_find_job(r, ej->names[n]);
			off = -0.4 + w * ((double)slot++ + 0.5);
			if (!j)
				continue;
			pos.x_panel = (double)(n - first + 1) + off;
			pos.x_all = (double)(n + 1) + off;
			pos.panel = ej->panel[n];
			*ival |= efficiency_row(fp, r, j, &pos, lo_iops, lo_jpg, tops);
			invalid |= rr_valid(j) == 0;
		}
	}
	return invalid;
}

/* "IOPS per mA, 4 KiB records": each panel names its record size. */
static void panel_meta(FILE *meta, const struct eff_jobs *ej, const double *lo_iops)
{
	char title[96], sz[32];
	size_t p, n, count;

	fprintf(meta, "NPANEL = %zu\narray PFIRST[%zu]\narray PJOBS[%zu]\narray PTITLE[%zu]\n"
		      "array YMIN1[%zu]\n", ej->npanels, ej->npanels, ej->npanels, ej->npanels,
		ej->npanels);
	for (p = 0; p < ej->npanels; p++) {
		count = 0;
		for (n = 0; n < ej->n; n++) {
			if (ej->panel[n] != p)
				continue;
			if (!count++)
				fprintf(meta, "PFIRST[%zu] = %zu\n", p + 1, n + 1);
		}
		for (n = 0; n < ej->n && ej->panel[n] != p; n++)
			;
		if (ej->npanels == 1)
			snprintf(title, sizeof(title), "IOPS per mA (higher is better)");
		else if (ej->bs[n])
			snprintf(title, sizeof(title), "IOPS per mA, %s records",
				 fmt_size(ej->bs[n], sz, sizeof(sz)));
		else
			snprintf(title, sizeof(title), "IOPS per mA, record size unknown");
		fprintf(meta, "PJOBS[%zu] = %zu\nYMIN1[%zu] = %g\nPTITLE[%zu] = ", p + 1, count,
			p + 1, lo_iops[p], p + 1);
		plot_gp_string(meta, title);
		fputc('\n', meta);
	}
}

/* A log axis from lo that leaves room over top for an upright label of chars characters. */
static double axis_top(double lo, double top, size_t chars)
{
	double h = ((double)chars * EFF_LABEL_PX_PER_CHAR + EFF_LABEL_PAD_PX) / EFF_PLOT_PX;

	h = fmin(EFF_HEADROOM_MAX, fmax(EFF_HEADROOM_MIN, h));
	if (!(top > lo) || !(lo > 0))
		return lo * 10;
	/* at least the decade over the top, so that the axis has a labelled tick above its bars */
	return fmax(lo * pow(top / lo, 1 / (1 - h)), pow(10, ceil(log10(top) + 1e-9)));
}

/* YMAX1[p], YMAX2: each panel's top, and the facet layout. */
static void eff_layout(FILE *meta, const struct eff_jobs *ej, const struct plot_facets *f,
		       const size_t *panel_jobs, const double *lo_iops, double lo_jpg,
		       const struct eff_tops *tops)
{
	size_t p;

	fprintf(meta, "array YMAX1[%zu]\n", ej->npanels ? ej->npanels : 1);
	for (p = 0; p < ej->npanels; p++)
		fprintf(meta, "YMAX1[%zu] = %g\n", p + 1,
			axis_top(lo_iops[p], tops->iops[p], tops->iops_chars[p]));
	fprintf(meta, "YMAX2 = %g\n", axis_top(lo_jpg, tops->jpg, tops->jpg_chars));
	plot_facets_meta(meta, f, panel_jobs, ej->npanels, ej->n);
}

int plot_efficiency(struct plot_ctx *ctx, const struct rr_result *r)
{
	const struct rr_set *set = ctx->set;
	struct eff_tops tops = { 0 };
	struct plot_facets f;
	struct eff_jobs ej;
	struct plot_chart ch;
	double w, *lo_iops, lo_jpg;
	size_t npow, *panel_jobs, k;
	FILE *fp;
	int rc, invalid, ival = 0;

	(void)r;
	npow = plot_count_powered(set);
	eff_jobs_build(&ej, set);
	if (!ej.n) {
		eff_jobs_free(&ej);
		return PLOT_EMPTY;
	}
	panel_jobs = xcalloc(ej.npanels + 1, sizeof(*panel_jobs));
	for (k = 0; k < ej.n; k++)
		panel_jobs[ej.panel[k]]++;
	plot_facets(&f, panel_jobs, ej.npanels, ej.n, npow);
	rc = plot_chart_begin(ctx, &ch, NULL, f.width_px, f.height_px);
	if (rc)
		goto out;
	fp = plot_chart_file(&ch, "efficiency.dat");
	if (!fp) {
		plot_chart_abort(&ch);
		rc = -EIO;
		goto out;
	}
	w = 0.8 / (double)npow;
	plot_facets_job_px(&f, panel_jobs, ej.npanels, &tops.slot_iops_px, &tops.slot_jpg_px);
	tops.slot_iops_px *= w;
	tops.slot_jpg_px *= w;
	lo_iops = xcalloc(ej.npanels + 1, sizeof(*lo_iops));
	tops.iops = xcalloc(ej.npanels + 1, sizeof(*tops.iops));
	tops.iops_chars = xcalloc(ej.npanels + 1, sizeof(*tops.iops_chars));
	tops.jpg_unit = plot_jpg_unit(set);
	bar_bottoms(set, &ej, lo_iops, &lo_jpg, tops.jpg_unit.per_base);
	invalid = write_rows(fp, set, &ej, w, &ival, lo_iops, lo_jpg, &tops);
	fclose(fp);
	fprintf(ch.meta, "BOXW = %.6f\nYMIN2 = %g\nHASINVALID = %d\nHASIVAL = %d\n", w * 0.92,
		lo_jpg, invalid, ival);
	plot_gp_set(ch.meta, "JPGTITLE", jpg_title(set));
	fprintf(ch.meta, "JPGUNIT = ");
	plot_gp_string(ch.meta, tops.jpg_unit.text);
	fputs(".'/GB'\n", ch.meta);
	panel_meta(ch.meta, &ej, lo_iops);
	eff_layout(ch.meta, &ej, &f, panel_jobs, lo_iops, lo_jpg, &tops);
	/* the names' room is a row's, not the whole chart's */
	plot_job_tics(ch.meta, ej.names, ej.n, (unsigned)(f.width_px * f.all_rows),
		      ctx->format == PLOT_DUMB);
	free(lo_iops);
	free(tops.iops);
	free(tops.iops_chars);
	rc = plot_chart_run(ctx, &ch);
out:
	free(panel_jobs);
	eff_jobs_free(&ej);
	return rc;
}
