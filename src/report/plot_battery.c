/* SPDX-License-Identifier: MIT */
/* Battery chart data: days of battery against data written per day, per device. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "report/plot.h"

#define MOD "plot"

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

	if (!plot_count_powered(ctx, "battery"))
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
