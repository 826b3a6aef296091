/* SPDX-License-Identifier: MIT */
/* Performance-vs-power chart data: a panel per job, a point per device, the Pareto front. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "report/plot.h"

#define MOD "plot"
#define PERF_MBPS_MIN_BS 65536 /* at or above: the job is about bandwidth, below: IOPS */

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

	plot_put_num(fp, p->x);
	plot_put_num(fp, p->y);
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
	plot_put_num(fp, isnan(p->x) ? 0 : p->x);
	plot_put_num(fp, isnan(p->y) ? pn->ylo : p->y);
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

	if (!plot_count_powered(ctx, "perf-power"))
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
