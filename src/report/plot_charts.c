/* SPDX-License-Identifier: MIT */
/* Data and meta for the comparison charts: efficiency, perf-vs-power, latency, battery. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "report/plot.h"

#define MOD "plot"
#define PERF_MBPS_MIN_BS 65536 /* at or above: the job is about bandwidth, below: IOPS */

static void put_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(fp, " NaN");
	else
		fprintf(fp, " %.9g", v);
}

/*
 * Labels are plotted from text columns, "" where there is nothing to say, at real
 * coordinates: gnuplot 5.4.4 crashes on a "with labels" plot whose points are all NaN.
 */
static void put_label(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(fp, " \"\"");
	else
		fprintf(fp, " \"%.3g\"", v);
}

/* Results that carry power; the others are named once and left out. */
static size_t count_powered(const struct plot_ctx *ctx, const char *chart)
{
	size_t i, n = 0;

	for (i = 0; i < ctx->set->nres; i++) {
		if (ctx->set->res[i].has_power)
			n++;
		else
			log_info(MOD, "%s: %s has no power data: left out of this chart", chart,
				 ctx->set->res[i].path);
	}
	if (!n)
		log_info(MOD, "%s: skipped: no result has power data (run with a meter)", chart);
	return n;
}

static void short_name(const char *label, char *buf, size_t len)
{
	size_t n = strcspn(label, "(");

	while (n && label[n - 1] == ' ')
		n--;
	if (!n)
		n = strlen(label);
	if (n > 22)
		snprintf(buf, len, "%.20s..", label);
	else
		snprintf(buf, len, "%.*s", (int)n, label);
}

static void efficiency_row(FILE *fp, const struct rr_result *r, const struct job_report *j,
			   double x, const double lo[2])
{
	const struct report_efficiency *e = rr_eff(j);
	int valid = rr_valid(j);

	fprintf(fp, "%.6f", x);
	put_num(fp, e->iops_per_ma);
	put_num(fp, e->j_per_gb);
	fprintf(fp, " %u %d ", plot_device_rgb((unsigned)r->device_idx), valid != 0);
	plot_data_string(fp, r->label);
	put_label(fp, e->iops_per_ma);
	put_label(fp, e->j_per_gb);
	fprintf(fp, " \"%s\"", valid == 0 ? "invalid" : "");
	put_num(fp, e->iops_per_ma > 0 ? e->iops_per_ma : lo[0]);
	put_num(fp, e->j_per_gb > 0 ? e->j_per_gb : lo[1]);
	fputc('\n', fp);
}

/* Log axes: bars rise from the decade below the smallest value of each metric. */
static void bar_bottoms(const struct rr_set *set, double lo[2])
{
	size_t i, n;

	lo[0] = lo[1] = INFINITY;
	for (i = 0; i < set->nres; i++) {
		for (n = 0; n < set->res[i].rep.njobs && set->res[i].has_power; n++) {
			const struct report_efficiency *e = rr_eff(&set->res[i].rep.jobs[n]);

			if (e->iops_per_ma > 0)
				lo[0] = fmin(lo[0], e->iops_per_ma);
			if (e->j_per_gb > 0)
				lo[1] = fmin(lo[1], e->j_per_gb);
		}
	}
	lo[0] = isinf(lo[0]) ? 0.1 : pow(10, floor(log10(lo[0])));
	lo[1] = isinf(lo[1]) ? 1 : pow(10, floor(log10(lo[1])));
}

int plot_efficiency(struct plot_ctx *ctx)
{
	const struct rr_set *set = ctx->set;
	const char **names = NULL;
	struct plot_chart ch;
	size_t nnames, npow, n, i, slot;
	double w, lo[2];
	FILE *fp;
	int rc;

	npow = count_powered(ctx, "efficiency");
	if (!npow)
		return 0;
	nnames = rr_job_names(set, &names);
	rc = plot_chart_begin(ctx, &ch, "efficiency", "efficiency", 1200, 960);
	if (rc)
		goto out;
	fp = plot_chart_file(&ch, "efficiency.dat");
	if (!fp) {
		plot_chart_abort(&ch);
		rc = -EIO;
		goto out;
	}
	w = 0.8 / (double)npow;
	bar_bottoms(set, lo);
	fprintf(fp, "# x iops_per_ma j_per_gb rgb valid device text1 text2 invalid label_y1 label_y2\n");
	for (n = 0; n < nnames; n++) {
		slot = 0;
		for (i = 0; i < set->nres; i++) {
			const struct rr_result *r = &set->res[i];
			const struct job_report *j;

			if (!r->has_power)
				continue;
			j = rr_find_job(r, names[n]);
			if (j)
				efficiency_row(fp, r, j, (double)(n + 1) - 0.4 + w * ((double)slot + 0.5),
					       lo);
			slot++;
		}
	}
	fclose(fp);
	fprintf(ch.meta, "NJOBS = %zu\nBOXW = %.6f\nVALROT = %d\nYMIN1 = %g\nYMIN2 = %g\n", nnames,
		w * 0.92, npow * nnames > 24, lo[0], lo[1]);
	plot_job_xtics(ch.meta, names, nnames, 1200, ctx->format == PLOT_DUMB);
	rc = plot_chart_run(ctx, &ch, "efficiency");
out:
	free(names);
	return rc;
}

struct pt {
	double x, y;
	int valid;
	int place; /* label: 1 right, 2 below, 3 above */
};

static int pt_cmp(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->y > q->y ? -1 : p->y < q->y;
}

/* Pareto front for "less power, more performance": sweep by power, keep new maxima. */
static size_t pareto(struct pt *pts, size_t n, struct pt *front)
{
	double best = -INFINITY;
	size_t i, k = 0;

	qsort(pts, n, sizeof(*pts), pt_cmp);
	for (i = 0; i < n; i++) {
		if (!pts[i].valid || isnan(pts[i].x) || isnan(pts[i].y))
			continue;
		if (pts[i].y > best) {
			front[k++] = pts[i];
			best = pts[i].y;
		}
	}
	return k;
}

/*
 * Label placement from screen-like distances (x as a share of the axis, y in decades as
 * a share of the log axis): a point with a close neighbour labels above when it is the
 * higher one, below otherwise; a lone point labels to the right, or to the left near the
 * right edge so that the text stays inside the panel.
 */
static int label_place(const struct pt *pts, size_t n, size_t i, double xr, double ly)
{
	int close = 0, highest = 1;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k == i || isnan(pts[k].x) || isnan(pts[k].y))
			continue;
		if (fabs(pts[k].x - pts[i].x) < 0.35 * xr &&
		    fabs(log10(pts[k].y / pts[i].y)) < 0.12 * ly) {
			close = 1;
			if (pts[k].y > pts[i].y || (k < i && pts[k].y == pts[i].y))
				highest = 0;
		}
	}
	if (close)
		return highest ? 3 : 2;
	return pts[i].x > 0.6 * xr ? 4 : 1;
}

/* A panel's points and axis ranges. */
struct panel {
	struct pt *pts;
	size_t np, *res;  /* res[i]: the result of pts[i] */
	int mbps;	  /* the panel's unit: 1 MB/s, 0 IOPS, -1 not decided */
	double xr, ylo, yhi;
};

/* One point per result that ran the job with power figures. */
static void panel_points(struct panel *pn, const struct rr_set *set, const char *name)
{
	double xmax = 0, ylo = INFINITY, yhi = 0;
	struct pt *p;
	size_t i;

	for (i = 0; i < set->nres; i++) {
		const struct job_report *j = rr_find_job(&set->res[i], name);

		if (!j || !set->res[i].has_power)
			continue;
		/* MB/s for large blocks, IOPS for small ones (the first device decides). */
		if (pn->mbps < 0)
			pn->mbps = rr_bs(j) >= PERF_MBPS_MIN_BS;
		p = &pn->pts[pn->np];
		p->x = rr_power(j)->active_w;
		p->y = pn->mbps ? rr_bw_bytes(j) / 1e6 : rr_iops(j);
		p->valid = rr_valid(j) != 0;
		if (!(p->y > 0))
			p->y = NAN;
		if (!isnan(p->x) && !isnan(p->y)) {
			xmax = fmax(xmax, p->x);
			ylo = fmin(ylo, p->y);
			yhi = fmax(yhi, p->y);
		}
		pn->res[pn->np++] = i;
	}
	if (isinf(ylo)) {
		ylo = 1;
		yhi = 10;
	}
	/* Whole decades, at least two labelled ticks on the log axis. */
	pn->ylo = pow(10, floor(log10(ylo / 1.5)));
	pn->yhi = pow(10, ceil(log10(yhi * 1.5)));
	pn->xr = xmax > 0 ? xmax * 1.25 : 1;
}

static void panel_row(FILE *fp, const struct panel *pn, size_t i, const struct rr_result *r)
{
	const struct pt *p = &pn->pts[i];
	char sname[64];
	int k;

	put_num(fp, p->x);
	put_num(fp, p->y);
	fprintf(fp, " %u %d ", plot_device_rgb((unsigned)r->device_idx), p->valid);
	short_name(r->label, sname, sizeof(sname));
	if (!p->valid)
		strncat(sname, " (invalid)", sizeof(sname) - strlen(sname) - 1);
	plot_data_string(fp, sname);
	fprintf(fp, " %d", p->place);
	for (k = 1; k <= 4; k++) {
		fputc(' ', fp);
		plot_data_string(fp, k == p->place && !isnan(p->x) && !isnan(p->y) ? sname : "");
	}
	put_num(fp, isnan(p->x) ? 0 : p->x);
	put_num(fp, isnan(p->y) ? pn->ylo : p->y);
	fputc('\n', fp);
}

static void panel_front(FILE *ff, struct panel *pn, struct pt *front, size_t *nf)
{
	size_t i;

	*nf = pareto(pn->pts, pn->np, front);
	for (i = 0; i < *nf; i++)
		fprintf(ff, "%.9g %.9g\n", front[i].x, front[i].y);
	if (!*nf)
		fprintf(ff, "NaN NaN\n");
	fprintf(ff, "\n\n");
}

static void perf_panel(FILE *fp, FILE *ff, FILE *meta, const struct rr_set *set, const char *name,
		       size_t k, struct pt *pts, struct pt *front)
{
	struct panel pn = { .pts = pts, .res = xcalloc(set->nres + 1, sizeof(size_t)), .mbps = -1 };
	size_t i, nf;

	panel_points(&pn, set, name);
	fprintf(fp, "# %s: active_w perf rgb valid label placement right below above left "
		    "label_x label_y\n", name);
	for (i = 0; i < pn.np; i++) {
		pts[i].place = label_place(pts, pn.np, i, pn.xr, log10(pn.yhi / pn.ylo));
		panel_row(fp, &pn, i, &set->res[pn.res[i]]);
	}
	if (!pn.np)
		fprintf(fp, "NaN NaN 0 0 \"\" 1 \"\" \"\" \"\" \"\" 0 %g\n", pn.ylo);
	fprintf(fp, "\n\n");
	panel_front(ff, &pn, front, &nf);
	fprintf(meta, "JOB[%zu] = ", k + 1);
	plot_gp_string(meta, name);
	fprintf(meta, "\nYLAB[%zu] = '%s'\nHASFRONT[%zu] = %d\nXMAX[%zu] = %g\n"
		      "YLO[%zu] = %g\nYHI[%zu] = %g\n", k + 1,
		pn.mbps > 0 ? "MB/s (higher is better)" : "IOPS (higher is better)", k + 1, nf > 0,
		k + 1, pn.xr, k + 1, pn.ylo, k + 1, pn.yhi);
	free(pn.res);
}

int plot_perf_power(struct plot_ctx *ctx)
{
	const struct rr_set *set = ctx->set;
	const char **names = NULL;
	struct plot_chart ch;
	struct pt *pts, *front;
	size_t nnames, n, rows, cols, na;
	FILE *fp, *ff;
	int rc;

	if (!count_powered(ctx, "perf-power"))
		return 0;
	nnames = rr_job_names(set, &names);
	cols = nnames > 1 ? 2 : 1;
	rows = (nnames + cols - 1) / cols;
	rc = plot_chart_begin(ctx, &ch, "perf-power", "perf-power", 1200,
			      (unsigned)(120 + 440 * (rows ? rows : 1)));
	if (rc)
		goto out_names;
	fp = plot_chart_file(&ch, "perf.dat");
	ff = plot_chart_file(&ch, "front.dat");
	if (!fp || !ff) {
		if (fp)
			fclose(fp);
		if (ff)
			fclose(ff);
		plot_chart_abort(&ch);
		rc = -EIO;
		goto out_names;
	}
	pts = xcalloc(set->nres + 1, sizeof(*pts));
	front = xcalloc(set->nres + 1, sizeof(*front));
	na = nnames ? nnames : 1;
	fprintf(ch.meta, "NJOBS = %zu\nROWS = %zu\nCOLS = %zu\narray JOB[%zu]\narray YLAB[%zu]\n"
			 "array HASFRONT[%zu]\narray XMAX[%zu]\narray YLO[%zu]\narray YHI[%zu]\n",
		nnames, rows, cols, na, na, na, na, na, na);
	for (n = 0; n < nnames; n++)
		perf_panel(fp, ff, ch.meta, set, names[n], n, pts, front);
	fclose(fp);
	fclose(ff);
	free(pts);
	free(front);
	rc = plot_chart_run(ctx, &ch, "perf-power");
out_names:
	free(names);
	return rc;
}

/* One bar group's row; 1 when the job has latency percentiles. */
static int latency_row(FILE *fp, const struct rr_result *r, const struct job_report *j, double x)
{
	double p50 = rr_lat_ns(j, 50), p99 = rr_lat_ns(j, 99), p999 = rr_lat_ns(j, 99.9), top;
	int valid = rr_valid(j);

	fprintf(fp, "%.6f", x);
	put_num(fp, p50 / 1e6);
	put_num(fp, p99 / 1e6);
	put_num(fp, p999 / 1e6);
	top = !isnan(p999) ? p999 : !isnan(p99) ? p99 : p50;
	fprintf(fp, " %u %d \"%s\"", plot_device_rgb((unsigned)r->device_idx), valid != 0,
		valid == 0 && !isnan(top) ? "invalid" : "");
	put_num(fp, isnan(top) ? 1 : top / 1e6);
	fputc('\n', fp);
	return !isnan(p50) || !isnan(p99);
}

int plot_latency(struct plot_ctx *ctx)
{
	const struct rr_set *set = ctx->set;
	const char **names = NULL;
	struct plot_chart ch;
	size_t nnames, n, i, rows = 0;
	double w;
	FILE *fp;
	int rc;

	nnames = rr_job_names(set, &names);
	rc = plot_chart_begin(ctx, &ch, "latency", "latency", 1200, 720);
	if (rc)
		goto out;
	fp = plot_chart_file(&ch, "latency.dat");
	if (!fp) {
		plot_chart_abort(&ch);
		rc = -EIO;
		goto out;
	}
	w = 0.8 / (double)(set->nres ? set->nres : 1);
	fprintf(fp, "# x p50_ms p99_ms p999_ms rgb valid invalid label_y\n");
	for (n = 0; n < nnames; n++) {
		for (i = 0; i < set->nres; i++) {
			const struct job_report *j = rr_find_job(&set->res[i], names[n]);

			if (j)
				rows += latency_row(fp, &set->res[i], j,
						    (double)(n + 1) - 0.4 + w * ((double)i + 0.5));
		}
	}
	fclose(fp);
	if (!rows) {
		log_info(MOD, "latency: skipped: no job has completion latency percentiles");
		plot_chart_abort(&ch);
		goto out;
	}
	fprintf(ch.meta, "NJOBS = %zu\n", nnames);
	plot_job_xtics(ch.meta, names, nnames, 1200, ctx->format == PLOT_DUMB);
	rc = plot_chart_run(ctx, &ch, "latency");
out:
	free(names);
	return rc;
}

#define BATTERY_POINTS 80
#define MIB_F ((double)MIB)
/* The battery chart's x axis: 1 MiB/day to 2^20 MiB (1 TiB)/day, log-spaced. */
#define BATTERY_DOUBLINGS 20.0
/* No device writes more than this per day: the axis end when the job's speed is unknown. */
#define BATTERY_MAX_BPD 1e14

/* One device's line: days of battery over MiB written per day, with its job's figures. */
static void battery_line(FILE *fp, const struct battery_model *bm, const struct rr_result *r,
			 const struct job_report *j)
{
	const struct report_power *p = rr_power(j);
	double jpg = fmax(0, rr_net_j_per_gb(j)), max_bpd, bpd;
	struct load_model lm;
	struct battery_life life;
	size_t k;

	/* A device cannot write more per day than it writes at full speed. */
	max_bpd = rr_bw_bytes(j) > 0 ? rr_bw_bytes(j) * BATTERY_SECONDS_PER_DAY : BATTERY_MAX_BPD;
	fprintf(fp, "# %s: job %s, idle %.4f W, %.3f J/GB net\n", r->label, rr_job_name(r, j),
		p->idle_w, jpg);
	for (k = 0; k < BATTERY_POINTS; k++) {
		bpd = MIB_F * pow(2, BATTERY_DOUBLINGS * (double)k / (BATTERY_POINTS - 1));
		if (bpd > max_bpd)
			break;
		lm.idle_w = p->idle_w;
		lm.extra_j_per_day = battery_bytes_energy_j(bpd, jpg);
		lm.supply_v = p->active_v;
		battery_life_compute(bm, &lm, &life);
		fprintf(fp, "%.6g %.6g\n", bpd / MIB_F, life.days);
	}
	fprintf(fp, "\n\n");
}

static void battery_meta(FILE *meta, const struct battery_model *bm, size_t nlines)
{
	fprintf(meta, "NLINES = %zu\nBATTERY = '", nlines);
	if (bm->bat.nominal_v > 0)
		fprintf(meta, "%.0f mAh @ %.2g V (%.2f Wh)", bm->bat.capacity_mah, bm->bat.nominal_v,
			bm->bat.capacity_wh);
	else
		fprintf(meta, "%.3g Wh", bm->bat.capacity_wh);
	fprintf(meta, ", %.0f %% usable, regulator %.0f %%, self-discharge %.1f %%/month'\n",
		bm->usable_frac * 100, bm->regulator_eff * 100, bm->self_discharge_month * 100);
}

int plot_battery(struct plot_ctx *ctx)
{
	const struct rr_set *set = ctx->set;
	const struct battery_model *bm = &ctx->bm;
	struct plot_chart ch;
	size_t i, nlines = 0;
	FILE *fp;
	int rc;

	if (!count_powered(ctx, "battery"))
		return 0;
	rc = plot_chart_begin(ctx, &ch, "battery", "battery", 1200, 720);
	if (rc)
		return rc;
	fp = plot_chart_file(&ch, "battery.dat");
	if (!fp) {
		plot_chart_abort(&ch);
		return -EIO;
	}
	fprintf(ch.meta, "array LINE[%zu]\narray LCOL[%zu]\n", set->nres, set->nres);
	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];
		const struct job_report *j = r->has_power ? rr_pick_job(r, 1, RR_STREAM_BS, NULL) : NULL;
		char *title;

		if (!j || isnan(rr_power(j)->idle_w) || isnan(rr_net_j_per_gb(j))) {
			if (r->has_power)
				log_info(MOD, "battery: %s has no write job with energy figures: left out",
					 r->path);
			continue;
		}
		battery_line(fp, bm, r, j);
		nlines++;
		title = xasprintf("%s, %s", r->label, rr_job_name(r, j));
		fprintf(ch.meta, "LINE[%zu] = ", nlines);
		plot_gp_string(ch.meta, title);
		free(title);
		fprintf(ch.meta, "\nLCOL[%zu] = '#%06X'\n", nlines,
			plot_device_rgb((unsigned)r->device_idx));
	}
	fclose(fp);
	if (!nlines) {
		log_info(MOD, "battery: skipped: no result has a write job with power data");
		plot_chart_abort(&ch);
		return 0;
	}
	battery_meta(ch.meta, bm, nlines);
	return plot_chart_run(ctx, &ch, "battery");
}
