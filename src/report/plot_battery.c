/* SPDX-License-Identifier: MIT */
/* Battery chart data: days of battery against data written per day, per device. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
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

/* One device's line, with what its start label and the axes need. */
struct bline {
	double start_days, min_days, end_mib;
	int device;
};

/* One device's line: days of battery over MiB written per day, with its job's figures, and
 * the days' 95 % interval from their idle power's and energy's (NaN: unknown). */
static void battery_line(FILE *fp, const struct battery_model *bm, const struct rr_result *r,
			 const struct job_result *j, struct bline *bl)
{
	const struct result_power *p = rr_power(j);
	double jpg = fmax(0, rr_net_j_per_gb(j)), u_jpg = rr_net_j_per_gb_u95(j), max_bpd, bpd;
	struct load_model lm = { 0 };
	struct battery_life life;
	struct load_u95 lu = { 0 };
	struct life_u95 ul;
	size_t k;
	int last;

	/* A device cannot write more per day than it writes at full speed. */
	max_bpd = rr_bw_bytes(j) > 0 ? rr_bw_bytes(j) * BATTERY_SECONDS_PER_DAY : BATTERY_MAX_BPD;
	fprintf(fp, "# %s: job %s, idle %.4f W, %.3f J/GB net\n", r->label, rr_job_name(r, j),
		p->idle_w, jpg);
	bl->min_days = INFINITY;
	bl->device = r->device_idx + 1;
	for (k = 0; k < BATTERY_POINTS; k++) {
		bpd = MIB_F * pow(2, BATTERY_DOUBLINGS * (double)k / (BATTERY_POINTS - 1));
		last = bpd > max_bpd;
		if (last && !k)
			break;
		if (last)
			bpd = max_bpd; /* the line ends exactly where the device writes flat out */
		lm.idle_w = p->idle_w;
		lm.extra_j_per_day = battery_bytes_energy_j(bpd, jpg);
		lm.supply_v = p->active_v;
		battery_life_compute(bm, &lm, &life);
		lu.idle_w = p->idle_w_u95;
		lu.extra_j_per_day = battery_bytes_energy_j(bpd, u_jpg);
		battery_life_u95(bm, &life, &lu, &ul);
		fprintf(fp, "%.6g %.6g", bpd / MIB_F, life.days);
		plot_put_num(fp, life.days - ul.days);
		plot_put_num(fp, life.days + ul.days);
		fputc('\n', fp);
		if (!k)
			bl->start_days = life.days;
		bl->min_days = fmin(bl->min_days, life.days);
		bl->end_mib = bpd / MIB_F;
		if (last)
			break;
	}
	fprintf(fp, "\n\n");
}

static void battery_meta(FILE *meta, const struct battery_model *bm, size_t nlines)
{
	char what[96], *text;

	if (bm->bat.nominal_v > 0)
		snprintf(what, sizeof(what), "%.0f mAh @ %.2g V (%.2f Wh)", bm->bat.capacity_mah,
			 bm->bat.nominal_v, bm->bat.capacity_wh);
	else
		snprintf(what, sizeof(what), "%.3g Wh", bm->bat.capacity_wh);
	text = xasprintf("%s, %.0f %% usable, regulator %.0f %%, self-discharge %.1f %%/month", what,
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
	int ylog, below;

	for (i = 0; i < n; i++) {
		xmax = fmax(xmax, bl[i].end_mib);
		ylo = fmin(ylo, bl[i].min_days);
		yhi = fmax(yhi, bl[i].start_days);
	}
	ylog = ylo > 0 && yhi / ylo > BATTERY_LOG_RATIO;
	if (ylog) {
		ylo = pow(10, floor(log10(ylo)));
		yhi = pow(10, ceil(log10(yhi * 1.2)));
	} else {
		ylo = 0;
		yhi = yhi > 0 ? yhi * 1.2 : 1;
	}
	fprintf(meta, "XMAX = %g\nYLOG = %d\nYLO = %g\nYHI = %g\n", xmax * 1.05, ylog, ylo, yhi);
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
		fprintf(lf, "1 %.6g \"%s days\" %d %d %u\n", bl[i].start_days,
			fmt_si_label(bl[i].start_days, days, sizeof(days)),
			bl[i].device, below, plot_device_rgb((unsigned)bl[i].device - 1));
	}
	line_widths(meta, bl, n, ylo, yhi, ylog);
}

int plot_battery(struct plot_ctx *ctx)
{
	const struct rr_set *set = ctx->set;
	const struct battery_model *bm = &ctx->bm;
	struct bline *bl;
	struct plot_chart ch;
	size_t i, nlines = 0;
	FILE *fp, *lf;
	int rc;

	if (!plot_count_powered(ctx, "battery"))
		return 0;
	rc = plot_chart_begin(ctx, &ch, "battery", "battery", 1200, 720);
	if (rc)
		return rc;
	fp = plot_chart_file(&ch, "battery.dat");
	lf = plot_chart_file(&ch, "labels.dat");
	if (!fp || !lf) {
		if (fp)
			fclose(fp);
		if (lf)
			fclose(lf);
		plot_chart_abort(&ch);
		return -EIO;
	}
	bl = xcalloc(set->nres + 1, sizeof(*bl));
	fprintf(ch.meta, "array LINE[%zu]\narray LDEV[%zu]\n", set->nres, set->nres);
	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];
		const struct job_result *j = r->has_power ? rr_pick_job(r, 1, RR_STREAM_BS, NULL) : NULL;
		char *title;

		if (!j || isnan(rr_power(j)->idle_w) || isnan(rr_net_j_per_gb(j))) {
			if (r->has_power)
				log_info(MOD, "battery: %s has no write job with energy figures: left out",
					 r->path);
			continue;
		}
		battery_line(fp, bm, r, j, &bl[nlines]);
		nlines++;
		title = xasprintf("%s%s, %s", r->label, plot_result_mark(set, r), rr_job_name(r, j));
		fprintf(ch.meta, "LINE[%zu] = ", nlines);
		plot_gp_string(ch.meta, title);
		free(title);
		fprintf(ch.meta, "\nLDEV[%zu] = %d\n", nlines, r->device_idx + 1);
	}
	fclose(fp);
	if (nlines)
		axes_and_labels(ch.meta, lf, bl, nlines);
	fclose(lf);
	free(bl);
	if (!nlines) {
		log_info(MOD, "battery: skipped: no result has a write job with power data");
		plot_chart_abort(&ch);
		return 0;
	}
	battery_meta(ch.meta, bm, nlines);
	return plot_chart_run(ctx, &ch, "battery");
}
