/* SPDX-License-Identifier: MIT */
/* Battery chart data: days of battery against data written per day, per device, and the currents the battery feeds. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sizing.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "core/units.h"
#include "report/plot.h"

#define MOD "plot"

#define BATTERY_POINTS 80
#define MIB_F ((double)MIB)
/* The battery chart's x axis: from 1 MiB/day up to 2^20 MiB (1 TiB)/day at most, log-spaced. */
#define BATTERY_DOUBLINGS 20.0
/* No device writes more than this per day: the axis end when the job's speed is unknown. */
#define BATTERY_MAX_BPD 1e14
/* Lines whose days differ by less than this ratio are read on a linear axis from 0. */
#define BATTERY_LOG_RATIO 20.0
/* Two start labels closer than this share of the axis would overlap: the second goes below. */
#define LABEL_CLEARANCE 0.05
/* Line widths: a line that lies on a later one is drawn wider, so that both are seen. */
#define LINE_LW 2.5
#define LINE_LW_STEP 2.5

/* The currents panel: the sleep bar's colour (it is no device's), bars' share of a slot. */
#define SLEEP_RGB 0x606060u
#define CURRENT_SLOT 0.8
/* Headroom over the highest bar for its label (upright: bars side by side are narrower
 * than their text), as a factor on the log axis. */
#define CURRENT_HEADROOM 6.0

/* One device's line, with what its start label and the axes need. */
struct bline {
	double start_days, min_days, end_mib;
	int device;
	const struct rr_result *r;
	const struct job_result *j;
};

/*
 * One device's line: days of battery over MiB written per day, each point sized as `size
 * --write N/day [--sleep-from]` sizes it (analysis/sizing.c: the day's stream one burst,
 * asleep the rest of the day when a sleep figure is given), with the days' 95 % interval
 * (NaN: unknown). 0, or -EINVAL when the model refuses a point (logged).
 */
static int battery_line(FILE *fp, const struct plot_ctx *ctx, const struct rr_result *r,
			const struct job_result *j, struct bline *bl)
{
	/* --mix-emulated was honoured when the command checked the sleep figure. */
	struct size_workload wl = { .sleep = ctx->sleep, .mix_emulated = 1 };
	double max_bpd, bpd;
	struct sizing sz;
	size_t k;
	int last;

	/* A device cannot write more per day than it writes at full speed. */
	max_bpd = rr_bw_bytes(j) > 0 ? rr_bw_bytes(j) * BATTERY_SECONDS_PER_DAY : BATTERY_MAX_BPD;
	fprintf(fp, "# %s: job %s, idle %.4g W, %.4g J/GB net\n", r->label, rr_job_name(r, j),
		rr_power(j)->idle_w, fmax(0, rr_net_j_per_gb(j)));
	bl->min_days = INFINITY;
	bl->device = r->device_idx + 1;
	bl->r = r;
	bl->j = j;
	for (k = 0; k < BATTERY_POINTS; k++) {
		bpd = MIB_F * pow(2, BATTERY_DOUBLINGS * (double)k / (BATTERY_POINTS - 1));
		last = bpd > max_bpd;
		if (last && !k)
			break;
		if (last)
			bpd = max_bpd; /* the line ends exactly where the device writes flat out */
		wl.write_bpd = bpd;
		if (sizing_compute(r, &wl, &ctx->bm, 0, &sz))
			return -EINVAL;
		fprintf(fp, "%.6g %.6g", bpd / MIB_F, sz.life.days);
		plot_put_num(fp, sz.life.days - sz.lifeu.days);
		plot_put_num(fp, sz.life.days + sz.lifeu.days);
		fputc('\n', fp);
		if (!k)
			bl->start_days = sz.life.days;
		bl->min_days = fmin(bl->min_days, sz.life.days);
		bl->end_mib = bpd / MIB_F;
		if (last)
			break;
	}
	fprintf(fp, "\n\n");
	return 0;
}

static void battery_meta(FILE *meta, const struct battery_model *bm, size_t nlines)
{
	char what[96], *text;

	if (bm->bat.nominal_v > 0)
		snprintf(what, sizeof(what), "%.0f mAh @ %.2g V (%.2f Wh)", bm->bat.capacity_mah,
			 bm->bat.nominal_v, bm->bat.capacity_wh);
	else
		snprintf(what, sizeof(what), "%.3g Wh", bm->bat.capacity_wh);
	text = xasprintf("battery %s%s, %.0f %% usable, regulator %.0f %%, self-discharge %.1f "
			 "%%/month", what, bm->assumed ? ", a default (--battery)" : "",
			 bm->usable_frac * 100, bm->regulator_eff * 100,
			 bm->self_discharge_month * 100);
	fprintf(meta, "NLINES = %zu\n", nlines);
	plot_gp_set(meta, "BATTERY", text);
	free(text);
}

static double axis_pos(double v, double lo, double hi, int ylog)
{
	return ylog ? log10(v / lo) / log10(hi / lo) : (v - lo) / (hi - lo);
}

/* LW[i]: wider than every later line that starts on it (within the label clearance). */
static void line_widths(FILE *meta, const struct bline *bl, size_t n, double ylo, double yhi,
			int ylog)
{
	double *lw = xcalloc(n + 1, sizeof(*lw));
	size_t i, k;

	fprintf(meta, "array LW[%zu]\n", n);
	for (i = n; i-- > 0;) {
		lw[i] = LINE_LW;
		for (k = i + 1; k < n; k++)
			if (fabs(axis_pos(bl[i].start_days, ylo, yhi, ylog) -
				 axis_pos(bl[k].start_days, ylo, yhi, ylog)) < LABEL_CLEARANCE)
				lw[i] = fmax(lw[i], lw[k] + LINE_LW_STEP);
		fprintf(meta, "LW[%zu] = %g\n", i + 1, lw[i]);
	}
	free(lw);
}

/*
 * Axes that fit the lines: x from 1 MiB/day to where the fastest device runs flat out, y
 * linear from 0 when the days vary by less than 20x (0.87 and 0.73 days stay apart),
 * else log. Each line's days at 1 MiB/day are written beside its start, so the figure is
 * read, not guessed from the axis; of two labels that would touch, the lower goes below its
 * line.
 */
static void axes_and_labels(FILE *meta, FILE *lf, const struct bline *bl, size_t n)
{
	char days[32];
	double xmax = 1, ylo = INFINITY, yhi = 0, pos;
	size_t i, k;
	int ylog, below, hours;

	for (i = 0; i < n; i++) {
		xmax = fmax(xmax, bl[i].end_mib);
		ylo = fmin(ylo, bl[i].min_days);
		yhi = fmax(yhi, bl[i].start_days);
	}
	/* Below a day the axis reads in hours, and so does a line's label: "16.1 hours", not
	 * "0.672 days". */
	hours = yhi < 1;
	ylog = ylo > 0 && yhi / ylo > BATTERY_LOG_RATIO;
	if (ylog) {
		ylo = pow(10, floor(log10(ylo)));
		yhi = pow(10, ceil(log10(yhi * 1.2)));
	} else {
		ylo = 0;
		yhi = yhi > 0 ? yhi * 1.2 : 1;
	}
	fprintf(meta, "XMAX = %g\nYLOG = %d\nYLO = %g\nYHI = %g\nYS = %d\n", xmax * 1.05, ylog,
		ylo, yhi, hours ? 24 : 1);
	plot_gp_set(meta, "YUNIT", hours ? "hours" : "days");
	fprintf(lf, "# x days label device below rgb\n");
	for (i = 0; i < n; i++) {
		/* The higher of two close labels stays above its line, the lower goes below. */
		pos = axis_pos(bl[i].start_days, ylo, yhi, ylog);
		below = 0;
		for (k = 0; k < n; k++)
			if (k != i && fabs(axis_pos(bl[k].start_days, ylo, yhi, ylog) - pos) < LABEL_CLEARANCE &&
			    (bl[k].start_days > bl[i].start_days ||
			     (bl[k].start_days == bl[i].start_days && k < i)))
				below = 1;
		fprintf(lf, "1 %.6g \"%s %s\" %d %d %u\n", bl[i].start_days,
			fmt_si_label(bl[i].start_days * (bl[i].start_days < 1 ? 24 : 1), days,
				     sizeof(days)),
			bl[i].start_days < 1 ? "hours" : "days",
			bl[i].device, below, plot_device_rgb((unsigned)bl[i].device - 1));
	}
	line_widths(meta, bl, n, ylo, yhi, ylog);
}

/* One bar of the currents panel; a current at or below zero has none on a log axis. A
 * figure in doubt (an idle baseline with no quiet reading) carries a '?' after it. */
static void current_bar(FILE *fp, double x, double amps, int doubt, unsigned rgb, double *lo,
			double *hi)
{
	char label[48];

	if (!(amps > 0))
		return;
	fprintf(fp, "%.6g %.6g \"%s%s\" %u\n", x, amps,
		si_fmt_unit(SI_CURRENT, amps, 3, 0, label, sizeof(label)), doubt ? " ?" : "", rgb);
	*lo = fmin(*lo, amps);
	*hi = fmax(*hi, amps);
}

/*
 * The currents the battery feeds, beside the lines: asleep (the --sleep-from figure, one
 * system's), and per device idle (idle_w over the job's mean voltage) and writing (the
 * job's active current). A logger's 5 µA and a card's 50 mA are four decades apart: on a
 * linear axis the sleep bar would be nothing, so the axis is log, its decades labelled in
 * A, mA, µA or nA, each bar with its figure.
 */
static void currents(FILE *meta, FILE *cf, const struct plot_ctx *ctx, const struct bline *bl,
		     size_t n)
{
	double lo = INFINITY, hi = 0, w = fmin(0.3, CURRENT_SLOT / (double)n), x, v;
	char tic[32];
	int cat = 1, e, e0, e1, doubt, any_doubt = 0;
	size_t i;

	fprintf(cf, "# x amps label rgb\n");
	if (ctx->sleep) {
		current_bar(cf, 1, ctx->sleep->a, 0, SLEEP_RGB, &lo, &hi);
		cat = 2;
	}
	for (i = 0; i < n; i++) {
		const struct result_power *p = rr_power(bl[i].j);
		unsigned rgb = plot_device_rgb((unsigned)bl[i].device - 1);

		x = (double)i - (double)(n - 1) / 2;
		doubt = p->idle_baseline && p->idle_baseline->reason;
		any_doubt |= doubt;
		current_bar(cf, cat + x * w, p->active_v > 0 ? p->idle_w / p->active_v : NAN, doubt,
			    rgb, &lo, &hi);
		current_bar(cf, cat + 1 + x * w, p->active_ma / 1e3, 0, rgb, &lo, &hi);
	}
	if (!(hi > 0)) {
		lo = 1e-3;
		hi = 1;
	}
	e0 = (int)floor(log10(lo));
	e1 = (int)floor(log10(hi * CURRENT_HEADROOM));
	fprintf(meta, "NCAT = %d\nHAVE_SLEEP = %d\nCBW = %g\nCYLO = 1e%d\nCYHI = %g\n",
		cat + 1, ctx->sleep != NULL, w * 0.45, e0, hi * CURRENT_HEADROOM);
	plot_gp_set(meta, "IDLE_TIC", any_doubt ? "idle ?" : "idle");
	plot_gp_set(meta, "IDLE_NOTE", any_doubt ? "?: idle baseline in doubt (no quiet reading)"
						 : "");
	fprintf(meta, "NCT = %d\narray CT[%d]\narray CTL[%d]\n", e1 - e0 + 1, e1 - e0 + 1,
		e1 - e0 + 1);
	for (e = e0; e <= e1; e++) {
		v = pow(10, e);
		fprintf(meta, "CT[%d] = %g\nCTL[%d] = ", e - e0 + 1, v, e - e0 + 1);
		plot_gp_string(meta, si_fmt_unit(SI_CURRENT, v, 1, 0, tic, sizeof(tic)));
		fputc('\n', meta);
	}
}

/* SLEEP: the sleep figure and where it comes from, a line under the title; "" without one. */
static void sleep_caption(FILE *meta, const struct sleep_figure *sf)
{
	char a[48], w[48], src[RR_LABEL_MAX + 160], ext[96], *text;

	if (!sf) {
		plot_gp_set(meta, "SLEEP", "");
		return;
	}
	sleep_figure_source(sf, src, sizeof(src));
	sleep_figure_extent(sf, ext, sizeof(ext));
	text = xasprintf("asleep between bursts: %s = %s, %s: %s%s",
			 si_fmt_unit(SI_CURRENT, sf->a, 3, 0, a, sizeof(a)),
			 si_fmt_unit(SI_POWER, sf->w, 3, 0, w, sizeof(w)), src, ext,
			 sf->r->emulated ? " (EMULATED)" : "");
	plot_gp_set(meta, "SLEEP", text);
	free(text);
}

/* Each result's line (its write job's) into fp and its title into meta. 0 or -EINVAL. */
static int draw_lines(struct plot_ctx *ctx, FILE *meta, FILE *fp, struct bline *bl,
		      size_t *nlines)
{
	const struct rr_set *set = ctx->set;
	size_t i;

	fprintf(meta, "array LINE[%zu]\narray LDEV[%zu]\n", set->nres, set->nres);
	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];
		const struct job_result *j = r->has_power ? rr_pick_job(r, 1, RR_STREAM_BS, NULL) : NULL;
		char *title;

		if (!j || isnan(rr_power(j)->idle_w) || isnan(rr_net_j_per_gb(j))) {
			if (r->has_power)
				log_info(MOD, "%s: %s has no write job with energy figures: left out",
					 ctx->chart->name, r->path);
			continue;
		}
		if (battery_line(fp, ctx, r, j, &bl[*nlines]))
			return -EINVAL;
		++*nlines;
		title = xasprintf("%s%s, %s", r->label, plot_result_mark(set, r), rr_job_name(r, j));
		fprintf(meta, "LINE[%zu] = ", *nlines);
		plot_gp_string(meta, title);
		free(title);
		fprintf(meta, "\nLDEV[%zu] = %d\n", *nlines, r->device_idx + 1);
	}
	return 0;
}

static void close_all(FILE **f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (f[i])
			fclose(f[i]);
}

int plot_battery(struct plot_ctx *ctx, const struct rr_result *r)
{
	struct bline *bl;
	struct plot_chart ch;
	size_t nlines = 0;
	FILE *f[3];
	int rc;

	(void)r;
	rc = plot_chart_begin(ctx, &ch, NULL, 1200, 720);
	if (rc)
		return rc;
	f[0] = plot_chart_file(&ch, "battery.dat");
	f[1] = plot_chart_file(&ch, "labels.dat");
	f[2] = plot_chart_file(&ch, "currents.dat");
	if (!f[0] || !f[1] || !f[2]) {
		close_all(f, 3);
		plot_chart_abort(&ch);
		return -EIO;
	}
	bl = xcalloc(ctx->set->nres + 1, sizeof(*bl));
	rc = draw_lines(ctx, ch.meta, f[0], bl, &nlines);
	if (!rc && nlines) {
		axes_and_labels(ch.meta, f[1], bl, nlines);
		currents(ch.meta, f[2], ctx, bl, nlines);
	}
	close_all(f, 3);
	free(bl);
	if (rc || !nlines) {
		plot_chart_abort(&ch);
		return rc ? rc : PLOT_EMPTY;
	}
	battery_meta(ch.meta, &ctx->bm, nlines);
	sleep_caption(ch.meta, ctx->sleep);
	return plot_chart_run(ctx, &ch);
}
