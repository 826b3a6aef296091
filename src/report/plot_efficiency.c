/* SPDX-License-Identifier: MIT */
/* Efficiency chart data: IOPS per mA and energy per GB per job, devices side by side. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "report/plot.h"

#define MOD "plot"

static void efficiency_row(FILE *fp, const struct rr_result *r, const struct job_report *j,
			   double x, const double lo[2])
{
	const struct report_efficiency *e = rr_eff(j);
	int valid = rr_valid(j);

	fprintf(fp, "%.6f", x);
	plot_put_num(fp, e->iops_per_ma);
	plot_put_num(fp, e->j_per_gb);
	fprintf(fp, " %u %d ", plot_device_rgb((unsigned)r->device_idx), valid != 0);
	plot_data_string(fp, r->label);
	plot_put_label(fp, e->iops_per_ma);
	plot_put_label(fp, e->j_per_gb);
	fprintf(fp, " \"%s\"", valid == 0 ? "invalid" : "");
	plot_put_num(fp, e->iops_per_ma > 0 ? e->iops_per_ma : lo[0]);
	plot_put_num(fp, e->j_per_gb > 0 ? e->j_per_gb : lo[1]);
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

	npow = plot_count_powered(ctx, "efficiency");
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
