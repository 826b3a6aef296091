/* SPDX-License-Identifier: MIT */
/* Latency chart data: completion latency percentiles per job and device. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/log.h"
#include "report/plot.h"

#define MOD "plot"

/*
 * What makes a job's latencies doubtful: it did not finish, or its device dropped off the
 * bus during it. Power validity (too few samples, undervoltage) says nothing about them.
 */
static const char *latency_problem(const struct job_result *j)
{
	size_t i;

	if (j->status != RESULT_OK)
		return result_status_name(j->status);
	for (i = 0; i < j->nevents; i++)
		if (j->events[i].kind == EV_USB_DISCONNECT)
			return event_kind_name(EV_USB_DISCONNECT);
	return NULL;
}

/* One bar group's row; 1 when the job has latency percentiles. */
static int latency_row(FILE *fp, const struct rr_result *r, const struct job_result *j, double x)
{
	double p50 = rr_lat_ns(j, 50), p99 = rr_lat_ns(j, 99), p999 = rr_lat_ns(j, 99.9), top;
	const char *problem = latency_problem(j);

	fprintf(fp, "%.6f", x);
	plot_put_num(fp, p50 / 1e6);
	plot_put_num(fp, p99 / 1e6);
	plot_put_num(fp, p999 / 1e6);
	top = !isnan(p999) ? p999 : !isnan(p99) ? p99 : p50;
	fprintf(fp, " %d ", r->device_idx + 1);
	plot_data_string(fp, problem && !isnan(top) ? problem : "");
	plot_put_num(fp, isnan(top) ? 1 : top / 1e6);
	fputc('\n', fp);
	return !isnan(p50) || !isnan(p99);
}

int plot_latency(struct plot_ctx *ctx, const struct rr_result *r)
{
	const struct rr_set *set = ctx->set;
	const char **names = NULL;
	struct plot_chart ch;
	size_t nnames, n, i, rows = 0;
	double w;
	FILE *fp;
	int rc;

	(void)r;
	nnames = rr_job_names(set, &names);
	rc = plot_chart_begin(ctx, &ch, NULL, 1200, 720);
	if (rc)
		goto out;
	fp = plot_chart_file(&ch, "latency.dat");
	if (!fp) {
		plot_chart_abort(&ch);
		rc = -EIO;
		goto out;
	}
	w = 0.8 / (double)(set->nres ? set->nres : 1);
	fprintf(fp, "# x p50_ms p99_ms p999_ms device problem label_y\n");
	for (n = 0; n < nnames; n++) {
		for (i = 0; i < set->nres; i++) {
			const struct job_result *j = rr_find_job(&set->res[i], names[n]);

			if (j)
				rows += latency_row(fp, &set->res[i], j,
						    (double)(n + 1) - 0.4 + w * ((double)i + 0.5));
		}
	}
	fclose(fp);
	if (!rows) {
		plot_chart_abort(&ch);
		rc = PLOT_EMPTY;
		goto out;
	}
	plot_job_tics(ch.meta, names, nnames, 1200, ctx->format == PLOT_DUMB);
	rc = plot_chart_run(ctx, &ch);
out:
	free(names);
	return rc;
}
