/* SPDX-License-Identifier: MIT */
/* Performance-vs-power chart data: a panel per job, a point per device, the Pareto front. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/repeats.h"
#include "core/log.h"
#include "core/mem.h"
#include "report/plot.h"

#define MOD "plot"
#define PERF_MBPS_MIN_BS 65536 /* at or above: the job is about bandwidth, below: IOPS */
#define PERF_WIDTH_PX 1200
#define PERF_ROW_PX 440
/* The title, and the key of devices under it (two rows at most). */
#define PERF_TITLE_PX 60
#define PERF_KEY_PX 60
/*
 * More jobs than PERF_FULL_JOBS: small panels (COMPACT), up to PERF_COMPACT_COLS a row,
 * each PERF_COMPACT_COL_PX wide and as tall as keeps the chart within PERF_MAX_HEIGHT_PX
 * (between the two row heights); the points are told apart by colour, not labels.
 * 34 jobs: 5 x 7 panels, 1600 x 2220 px (one panel a row of 2 was 1200 x 7600).
 */
#define PERF_FULL_JOBS 4
#define PERF_COMPACT_COLS 5
#define PERF_COMPACT_COL_PX 320
#define PERF_COMPACT_ROW_MIN_PX 220
#define PERF_COMPACT_ROW_MAX_PX 300
#define PERF_MAX_HEIGHT_PX 2400
/* A panel's plot area: the chart's share less axis labels and margins. */
#define PANEL_MARGIN_X_PX 130
#define PANEL_MARGIN_Y_PX 110
/* Label geometry at the 10 pt label font: character width, line height, gap to the point. */
#define LABEL_CHAR_PX 6.8
#define LABEL_LINE_PX 15.0
#define LABEL_GAP_PX 14.0
#define POINT_RADIUS_PX 9.0

/* Label placements, in the order of perf.dat's label columns. */
enum {
	PLACE_RIGHT = 1, PLACE_BELOW, PLACE_ABOVE, PLACE_LEFT,
	PLACE_ABOVE_RIGHT, PLACE_BELOW_RIGHT, PLACE_ABOVE_LEFT, PLACE_BELOW_LEFT,
	PLACE_COUNT = PLACE_BELOW_LEFT
};
/* Text that starts or ends at the point's x, when above or below it. */
#define LABEL_INSET_PX 4.0

struct pt {
	double x, y;
	double ux, uy; /* half their 95 % intervals; NAN: none */
	int valid;
	int front;  /* on the Pareto front */
	int place;  /* where its label goes (PLACE_*) */
	size_t res; /* the result it comes from */
	const char *job; /* its job, named by the label of a panel of one device's jobs */
};

/* A panel's points and axis ranges; sx, sy: pixels per x unit and per decade. */
struct panel {
	struct pt *pts;
	size_t np;
	int mbps; /* the panel's unit: 1 MB/s, 0 IOPS, -1 not decided */
	double xr, ylo, yhi;
	double sx, sy;
	double (*stair)[2]; /* the front's staircase, in data units */
	size_t nstair;
	double x_per_base; /* W to the power axis' unit */
};

static int pt_cmp(const void *a, const void *b)
{
	const struct pt *const *p = a, *const *q = b;

	if ((*p)->x != (*q)->x)
		return (*p)->x < (*q)->x ? -1 : 1;
	return (*p)->y > (*q)->y ? -1 : (*p)->y < (*q)->y;
}

/*
 * Pareto front for "less power, more performance": sweep by power, keep new maxima. The
 * front is drawn as the staircase of what the best device gives for a power budget: from
 * the cheapest across to the next, up, ..., across to the right edge. A front of one point
 * is a line to the edge, still seen.
 */
static void pareto(struct panel *pn)
{
	struct pt **order = xcalloc(pn->np + 1, sizeof(*order));
	double best = -INFINITY;
	size_t i;

	for (i = 0; i < pn->np; i++)
		order[i] = &pn->pts[i];
	qsort(order, pn->np, sizeof(*order), pt_cmp);
	pn->stair = xcalloc(2 * pn->np + 2, sizeof(*pn->stair));
	pn->nstair = 0;
	for (i = 0; i < pn->np; i++) {
		struct pt *p = order[i];

		if (!p->valid || isnan(p->x) || isnan(p->y) || !(p->y > best))
			continue;
		p->front = 1;
		if (pn->nstair) {
			pn->stair[pn->nstair][0] = p->x;
			pn->stair[pn->nstair][1] = best;
			pn->nstair++;
		}
		pn->stair[pn->nstair][0] = p->x;
		pn->stair[pn->nstair][1] = p->y;
		pn->nstair++;
		best = p->y;
	}
	if (pn->nstair) {
		pn->stair[pn->nstair][0] = pn->xr;
		pn->stair[pn->nstair][1] = best;
		pn->nstair++;
	}
	free(order);
}

/* A box in panel pixels, y upwards. */
struct box {
	double x0, y0, x1, y1;
};

static int overlap(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static void to_px(const struct panel *pn, double x, double y, double *px, double *py)
{
	*px = x * pn->sx;
	*py = log10(y / pn->ylo) * pn->sy;
}

static struct box label_box(const struct panel *pn, const struct pt *p, const char *text,
			    int place)
{
	double w = (double)strlen(text) * LABEL_CHAR_PX, h = LABEL_LINE_PX, px, py;
	struct box b;

	to_px(pn, p->x, p->y, &px, &py);
	switch (place) {
	case PLACE_RIGHT:
		b = (struct box){ px + LABEL_GAP_PX, py - h / 2, px + LABEL_GAP_PX + w, py + h / 2 };
		break;
	case PLACE_LEFT:
		b = (struct box){ px - LABEL_GAP_PX - w, py - h / 2, px - LABEL_GAP_PX, py + h / 2 };
		break;
	case PLACE_ABOVE:
		b = (struct box){ px - w / 2, py + LABEL_GAP_PX, px + w / 2, py + LABEL_GAP_PX + h };
		break;
	case PLACE_ABOVE_RIGHT:
	case PLACE_BELOW_RIGHT:
		b.x0 = px - LABEL_INSET_PX;
		b.x1 = b.x0 + w;
		b.y0 = place == PLACE_ABOVE_RIGHT ? py + LABEL_GAP_PX : py - LABEL_GAP_PX - h;
		b.y1 = b.y0 + h;
		break;
	case PLACE_ABOVE_LEFT:
	case PLACE_BELOW_LEFT:
		b.x1 = px + LABEL_INSET_PX;
		b.x0 = b.x1 - w;
		b.y0 = place == PLACE_ABOVE_LEFT ? py + LABEL_GAP_PX : py - LABEL_GAP_PX - h;
		b.y1 = b.y0 + h;
		break;
	default:
		b = (struct box){ px - w / 2, py - LABEL_GAP_PX - h, px + w / 2, py - LABEL_GAP_PX };
		break;
	}
	return b;
}

/*
 * What a label at b would cost: how far it sticks out of the panel, and each point,
 * label placed before or step of the front's staircase it covers.
 */
#define COST_OUT_PER_PX 4.0
#define COST_COVERED 400.0
#define COST_CROSSES_FRONT 100.0

static double label_cost(const struct panel *pn, const struct box *b, const struct box *placed,
			 size_t nplaced)
{
	double w = pn->xr * pn->sx, h = log10(pn->yhi / pn->ylo) * pn->sy, cost = 0;
	struct box o;
	size_t k;

	cost += COST_OUT_PER_PX * (fmax(0, -b->x0) + fmax(0, b->x1 - w) + fmax(0, -b->y0) +
				   fmax(0, b->y1 - h));
	for (k = 0; k < pn->np; k++) {
		double px, py;

		if (isnan(pn->pts[k].x) || isnan(pn->pts[k].y))
			continue;
		to_px(pn, pn->pts[k].x, pn->pts[k].y, &px, &py);
		o = (struct box){ px - POINT_RADIUS_PX, py - POINT_RADIUS_PX, px + POINT_RADIUS_PX,
				  py + POINT_RADIUS_PX };
		cost += overlap(b, &o) ? COST_COVERED : 0;
	}
	for (k = 0; k < nplaced; k++)
		cost += overlap(b, &placed[k]) ? COST_COVERED : 0;
	for (k = 0; k + 1 < pn->nstair; k++) {
		double ax, ay, bx, by;

		to_px(pn, pn->stair[k][0], pn->stair[k][1], &ax, &ay);
		to_px(pn, pn->stair[k + 1][0], pn->stair[k + 1][1], &bx, &by);
		o = (struct box){ fmin(ax, bx) - 1, fmin(ay, by) - 1, fmax(ax, bx) + 1, fmax(ay, by) + 1 };
		cost += overlap(b, &o) ? COST_CROSSES_FRONT : 0;
	}
	return cost;
}

/*
 * Each label goes where it costs least: inside the panel, over no point, label or front.
 * A point on the front tries left and above first (the staircase leaves it to the right
 * and below), a point behind it right and below; the first of equal costs wins.
 */
static void place_labels(struct panel *pn, char (*texts)[RR_LABEL_MAX + 32])
{
	static const int front_order[PLACE_COUNT] = {
		PLACE_LEFT, PLACE_ABOVE_LEFT, PLACE_ABOVE, PLACE_ABOVE_RIGHT,
		PLACE_RIGHT, PLACE_BELOW_LEFT, PLACE_BELOW, PLACE_BELOW_RIGHT,
	};
	static const int back_order[PLACE_COUNT] = {
		PLACE_RIGHT, PLACE_BELOW_RIGHT, PLACE_BELOW, PLACE_ABOVE_RIGHT,
		PLACE_BELOW_LEFT, PLACE_LEFT, PLACE_ABOVE, PLACE_ABOVE_LEFT,
	};
	struct box *placed = xcalloc(pn->np + 1, sizeof(*placed));
	size_t i, nplaced = 0, k;
	double best, cost;

	for (i = 0; i < pn->np; i++) {
		struct pt *p = &pn->pts[i];
		const int *order = p->front ? front_order : back_order;
		struct box b;

		if (isnan(p->x) || isnan(p->y))
			continue;
		best = INFINITY;
		for (k = 0; k < ARRAY_SIZE(front_order); k++) {
			b = label_box(pn, p, texts[i], order[k]);
			cost = label_cost(pn, &b, placed, nplaced);
			if (cost < best) {
				best = cost;
				p->place = order[k];
			}
		}
		placed[nplaced++] = label_box(pn, p, texts[i], p->place);
	}
	free(placed);
}

/*
 * The panels' jobs: those some result has a point of. one >= 0: the only result with a
 * point, whose jobs share one panel, as a Pareto front of one device says nothing.
 */
struct perf_jobs {
	const char **names;
	size_t n;
	int one;
};

/* Whether result i ran job name with both its active power and its speed known. */
static int has_point(const struct rr_set *set, size_t i, const char *name)
{
	const struct job_result *j = rr_find_job(&set->res[i], name);
	double u;

	if (!j || !set->res[i].has_power)
		return 0;
	return isfinite(result_job_figure(&set->res[i].rep, j, "active_w", &u)) &&
	       (result_job_figure(&set->res[i].rep, j, "bw_bytes", &u) > 0 ||
		result_job_figure(&set->res[i].rep, j, "iops", &u) > 0);
}

/*
 * The jobs with a point, the others named and left out (a measured command that moves
 * no data has no speed): an empty panel would read as a job that did nothing. 1 when
 * there is nothing to compare: no point, or one device's single point.
 */
static int perf_jobs_build(struct perf_jobs *pj, const struct plot_ctx *ctx)
{
	const struct rr_set *set = ctx->set;
	size_t nall = rr_job_names(set, &pj->names), n, i, nres = 0;
	int *res_has = xcalloc(set->nres + 1, sizeof(*res_has)), any;

	pj->n = 0;
	pj->one = -1;
	for (n = 0; n < nall; n++) {
		for (i = 0, any = 0; i < set->nres; i++) {
			if (has_point(set, i, pj->names[n])) {
				any = 1;
				res_has[i] = 1;
			}
		}
		if (any)
			pj->names[pj->n++] = pj->names[n];
		else
			log_info(MOD, "%s: %s: left out: no result has both its active power and its "
				 "speed", ctx->chart->name, pj->names[n]);
	}
	for (i = 0; i < set->nres; i++) {
		if (res_has[i]) {
			nres++;
			pj->one = (int)i;
		}
	}
	free(res_has);
	if (nres != 1)
		pj->one = -1;
	return !pj->n || (nres == 1 && pj->n < 2);
}

/* Job j of result i as a point: active power against speed; NAN where either is unknown. */
static void add_point(struct panel *pn, const struct rr_set *set, size_t i,
		      const struct job_result *j)
{
	struct pt *p = &pn->pts[pn->np++];

	memset(p, 0, sizeof(*p));
	/* over rounds the means, with their intervals; else the run's own */
	p->x = result_job_figure(&set->res[i].rep, j, "active_w", &p->ux) * pn->x_per_base;
	p->ux *= pn->x_per_base;
	p->y = pn->mbps ? result_job_figure(&set->res[i].rep, j, "bw_bytes", &p->uy) / 1e6
			: result_job_figure(&set->res[i].rep, j, "iops", &p->uy);
	if (pn->mbps)
		p->uy /= 1e6;
	p->valid = rr_valid(j) != 0;
	p->res = i;
	p->job = j->jobname;
	if (!(p->y > 0))
		p->y = NAN;
}

/*
 * The panel's points: one per result that ran the job with power figures, or (one device)
 * one per job of its result. MB/s for large blocks, IOPS for small ones: in a panel of a
 * job the first device decides, in one device's panel MB/s unless every job is small.
 */
static void panel_points(struct panel *pn, const struct rr_set *set, const struct perf_jobs *pj,
			 size_t k)
{
	double xmax = 0, ylo = INFINITY, yhi = 0;
	const struct job_result *j;
	size_t i, n;

	for (n = 0; pj->one >= 0 && n < pj->n; n++) {
		j = rr_find_job(&set->res[pj->one], pj->names[n]);
		pn->mbps = pn->mbps > 0 || (j && rr_bs(j) >= PERF_MBPS_MIN_BS);
	}
	for (n = 0; pj->one >= 0 && n < pj->n; n++)
		if ((j = rr_find_job(&set->res[pj->one], pj->names[n])))
			add_point(pn, set, (size_t)pj->one, j);
	for (i = 0; pj->one < 0 && i < set->nres; i++) {
		j = rr_find_job(&set->res[i], pj->names[k]);
		if (!j || !set->res[i].has_power)
			continue;
		if (pn->mbps < 0)
			pn->mbps = rr_bs(j) >= PERF_MBPS_MIN_BS;
		add_point(pn, set, i, j);
	}
	for (i = 0; i < pn->np; i++) {
		if (isnan(pn->pts[i].x) || isnan(pn->pts[i].y))
			continue;
		xmax = fmax(xmax, pn->pts[i].x);
		ylo = fmin(ylo, pn->pts[i].y);
		yhi = fmax(yhi, pn->pts[i].y);
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

/*
 * Room on the right for the labels: the x axis reaches far enough past the most powerful
 * point that the widest label, centred above or below it, stays inside the panel.
 */
#define XR_MIN_HEADROOM 1.25
#define XR_MAX_HEADROOM 3.0

static void fit_labels(struct panel *pn, char (*texts)[RR_LABEL_MAX + 32], double width_px)
{
	double xmax = pn->xr / XR_MIN_HEADROOM, widest = 0, share;
	size_t i;

	for (i = 0; i < pn->np; i++)
		widest = fmax(widest, (double)strlen(texts[i]) * LABEL_CHAR_PX);
	share = 1 - (widest / 2 + LABEL_GAP_PX) / width_px;
	if (share > 1 / XR_MAX_HEADROOM)
		pn->xr = xmax * fmax(XR_MIN_HEADROOM, 1 / share);
	else
		pn->xr = xmax * XR_MAX_HEADROOM;
	pn->sx = width_px / pn->xr;
}

static void panel_row(FILE *fp, const struct panel *pn, size_t i, const struct rr_result *r,
		      const char *text)
{
	const struct pt *p = &pn->pts[i];
	int k;

	plot_put_num(fp, p->x);
	plot_put_num(fp, p->y);
	fprintf(fp, " %d %d", r->device_idx + 1, p->valid);
	for (k = PLACE_RIGHT; k <= PLACE_COUNT; k++) {
		fputc(' ', fp);
		plot_data_string(fp, k == p->place && !isnan(p->x) && !isnan(p->y) ? text : "");
	}
	plot_put_num(fp, isnan(p->x) ? 0 : p->x);
	plot_put_num(fp, isnan(p->y) ? pn->ylo : p->y);
	/* the point's 95 % intervals, its own value where it has none (a bar of no length) */
	plot_put_num(fp, isfinite(p->ux) ? p->x - p->ux : p->x);
	plot_put_num(fp, isfinite(p->ux) ? p->x + p->ux : p->x);
	plot_put_num(fp, isfinite(p->uy) ? p->y - p->uy : p->y);
	plot_put_num(fp, isfinite(p->uy) ? p->y + p->uy : p->y);
	fputc('\n', fp);
}

static void panel_front(FILE *ff, const struct panel *pn)
{
	size_t i;

	for (i = 0; i < pn->nstair; i++)
		fprintf(ff, "%.9g %.9g\n", pn->stair[i][0], pn->stair[i][1]);
	if (!pn->nstair)
		fprintf(ff, "NaN NaN\n");
	fprintf(ff, "\n\n");
}

/* The panels' layout: rows and columns of the multiplot; the power axis' unit. */
struct grid {
	size_t rows, cols;
	int compact;		/* small panels without labels */
	unsigned width_px, row_px, height_px;
	struct si_unit w_unit;
};

static void grid_layout(struct grid *g, size_t njobs)
{
	size_t c;

	g->compact = njobs > PERF_FULL_JOBS;
	if (!g->compact) {
		g->cols = njobs > 1 ? 2 : 1;
	} else {
		/* about square: 6 jobs 3 x 2, 9 3 x 3, 34 5 x 7 */
		for (c = 1; c * c < njobs && c < PERF_COMPACT_COLS; c++)
			;
		g->cols = c;
	}
	g->rows = njobs ? (njobs + g->cols - 1) / g->cols : 1;
	g->width_px = g->compact && g->cols * PERF_COMPACT_COL_PX > PERF_WIDTH_PX
			      ? (unsigned)(g->cols * PERF_COMPACT_COL_PX)
			      : PERF_WIDTH_PX;
	g->row_px = PERF_ROW_PX;
	if (g->compact) {
		double fit = (PERF_MAX_HEIGHT_PX - PERF_TITLE_PX - PERF_KEY_PX) / (double)g->rows;

		g->row_px = (unsigned)fmin(PERF_COMPACT_ROW_MAX_PX,
					   fmax(PERF_COMPACT_ROW_MIN_PX, floor(fit)));
	}
	g->height_px = (unsigned)(PERF_TITLE_PX + PERF_KEY_PX + g->row_px * g->rows);
}

/* The label of point i: its device, or in one device's panel its job. */
static void point_text(char *text, size_t len, const struct rr_set *set, const struct pt *p,
		       int by_job)
{
	const struct rr_result *r = &set->res[p->res];

	snprintf(text, len, "%s%s%s", by_job ? p->job : r->label,
		 by_job ? "" : plot_result_mark(set, r), p->valid ? "" : " (INVALID)");
}

/* Panel k (one device's: every job); returns whether the panel has an invalid point. */
static int perf_panel(FILE *fp, FILE *ff, FILE *meta, const struct plot_ctx *ctx,
		      const struct perf_jobs *pj, size_t k, const struct grid *g)
{
	const struct rr_set *set = ctx->set;
	size_t cap = (set->nres > pj->n ? set->nres : pj->n) + 1, i;
	struct panel pn = { .pts = xcalloc(cap, sizeof(struct pt)), .mbps = -1,
			    .x_per_base = g->w_unit.per_base };
	char (*texts)[RR_LABEL_MAX + 32] = xcalloc(cap, sizeof(*texts));
	char title[PLOT_TEXT_MAX];
	int invalid = 0;

	panel_points(&pn, set, pj, k);
	/* small panels: the key under the title names each colour, no label on a point */
	for (i = 0; i < pn.np && !g->compact; i++)
		point_text(texts[i], sizeof(texts[i]), set, &pn.pts[i], pj->one >= 0);
	fit_labels(&pn, texts, (double)g->width_px / (double)g->cols - PANEL_MARGIN_X_PX);
	pn.sy = ((double)g->row_px - PANEL_MARGIN_Y_PX) / log10(pn.yhi / pn.ylo);
	/* one device's jobs: no front, as no job is another device's alternative */
	if (pj->one < 0)
		pareto(&pn);
	place_labels(&pn, texts);
	fprintf(fp, "# %s: active_w perf device valid label_right below above left above_right "
		    "below_right above_left below_left label_x label_y x_lo x_hi y_lo y_hi\n",
		pj->one < 0 ? pj->names[k] : "every job");
	for (i = 0; i < pn.np; i++) {
		panel_row(fp, &pn, i, &set->res[pn.pts[i].res], texts[i]);
		invalid |= !pn.pts[i].valid;
	}
	fprintf(fp, "\n\n");
	panel_front(ff, &pn);
	if (pj->one >= 0)
		snprintf(title, sizeof(title), "%s: every job", set->res[pj->one].label);
	else
		snprintf(title, sizeof(title), "%s", pj->names[k]);
	fprintf(meta, "JOB[%zu] = ", k + 1);
	plot_gp_string(meta, title);
	fprintf(meta, "\nYLAB[%zu] = ", k + 1);
	plot_gp_string(meta, pn.mbps > 0 ? "MB/s (higher is better)" : "IOPS (higher is better)");
	fprintf(meta, "\nHASFRONT[%zu] = %d\nXMAX[%zu] = %g\nYLO[%zu] = %g\nYHI[%zu] = %g\n"
		      "XSTEP[%zu] = %.10g\n", k + 1, pn.nstair > 0, k + 1, pn.xr, k + 1, pn.ylo,
		k + 1, pn.yhi, k + 1,
		plot_axis_step(pn.xr, (double)g->width_px / (double)g->cols - PANEL_MARGIN_X_PX));
	free(texts);
	free(pn.stair);
	free(pn.pts);
	return invalid;
}

int plot_perf_power(struct plot_ctx *ctx, const struct rr_result *r)
{
	const struct rr_set *set = ctx->set;
	struct perf_jobs pj = { 0 };
	struct plot_chart ch;
	struct grid g;
	size_t npanels, n;
	FILE *fp, *ff;
	int rc, invalid = 0;

	(void)r;
	if (perf_jobs_build(&pj, ctx)) {
		rc = PLOT_EMPTY;
		goto out_names;
	}
	npanels = pj.one >= 0 ? 1 : pj.n;
	grid_layout(&g, npanels);
	g.w_unit = plot_power_unit(set);
	rc = plot_chart_begin(ctx, &ch, NULL, g.width_px, g.height_px);
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
	fprintf(ch.meta, "NJOBS = %zu\nROWS = %zu\nCOLS = %zu\narray JOB[%zu]\narray YLAB[%zu]\n"
			 "array HASFRONT[%zu]\narray XMAX[%zu]\narray YLO[%zu]\narray YHI[%zu]\n"
			 "array XSTEP[%zu]\n", npanels, g.rows, g.cols, npanels, npanels, npanels,
		npanels, npanels, npanels, npanels);
	for (n = 0; n < npanels; n++)
		invalid |= perf_panel(fp, ff, ch.meta, ctx, &pj, n, &g);
	fprintf(ch.meta, "COMPACT = %d\nPW = %.5f\nRH = %.5f\nTOPF = %.5f\nKEYF = %.5f\n",
		g.compact, 1.0 / (double)g.cols, (double)g.row_px / g.height_px,
		(double)(PERF_TITLE_PX + PERF_KEY_PX) / g.height_px,
		(double)PERF_KEY_PX / g.height_px);
	fprintf(ch.meta, "HASINVALID = %d\nONEDEV = %d\nXUNIT = ", invalid, pj.one >= 0);
	plot_gp_string(ch.meta, g.w_unit.text);
	fputc('\n', ch.meta);
	fclose(fp);
	fclose(ff);
	rc = plot_chart_run(ctx, &ch);
out_names:
	free(pj.names);
	return rc;
}
