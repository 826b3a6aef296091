/* SPDX-License-Identifier: MIT */
/* Latency chart data: total latency percentiles per job and device (clat for older results). */
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

/*
 * One bar group's row; 1 when the job has latency percentiles. A job from a result written
 * before iowatt recorded total latency draws its completion latency; beside jobs with a
 * total (mark_clat) it is labelled clat, as it would otherwise read as the shorter total.
 */
static int latency_row(FILE *fp, const struct rr_result *r, const struct job_result *j, double x,
		       int mark_clat, int *kinds)
{
	int total = rr_has_lat(j);
	double (*lat)(const struct job_result *, double) = total ? rr_lat_ns : rr_clat_ns;
	double p50 = lat(j, 50), p99 = lat(j, 99), p999 = lat(j, 99.9), top;
	const char *problem = latency_problem(j);
	char label[64];

	fprintf(fp, "%.6f", x);
	plot_put_num(fp, p50 / 1e6);
	plot_put_num(fp, p99 / 1e6);
	plot_put_num(fp, p999 / 1e6);
	top = !isnan(p999) ? p999 : !isnan(p99) ? p99 : p50;
	fprintf(fp, " %d ", r->device_idx + 1);
	mark_clat = mark_clat && !total && !isnan(top);
	problem = problem && !isnan(top) ? problem : "";
	snprintf(label, sizeof(label), "%s%s%s", problem, *problem && mark_clat ? "; " : "",
		 mark_clat ? "clat" : "");
	plot_data_string(fp, label);
	plot_put_num(fp, isnan(top) ? 1 : top / 1e6);
	fputc('\n', fp);
	if (isnan(p50) && isnan(p99))
		return 0;
	*kinds |= total ? 1 : 2;
	return 1;
}

/* 1 when some job of the set has total latency. */
static int any_lat(const struct rr_set *set)
{
	size_t i, k;

	for (i = 0; i < set->nres; i++)
		for (k = 0; k < set->res[i].rep.njobs; k++)
			if (rr_has_lat(&set->res[i].rep.jobs[k]))
				return 1;
	return 0;
}

/*
 * Whether some result has latency percentiles of job name: a measured command has none
 * (fio's figures aside), and a column of it would be an empty slot among the jobs.
 */
static int job_has_latency(const struct rr_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->nres; i++) {
		const struct job_result *j = rr_find_job(&set->res[i], name);

		if (j && (!isnan(rr_lat_ns(j, 50)) || !isnan(rr_lat_ns(j, 99)) ||
			  !isnan(rr_clat_ns(j, 50)) || !isnan(rr_clat_ns(j, 99))))
			return 1;
	}
	return 0;
}

/* The chart's title: which latency its rows show. */
static const char *latency_title(int kinds)
{
	switch (kinds) {
	case 1:
		return "Total latency, submit to completion (fio's lat)";
	case 2:
		return "Completion latency (clat: these results have no total latency)";
	default:
		return "Total latency; clat where a result has no total (labelled)";
	}
}

int plot_latency(struct plot_ctx *ctx, const struct rr_result *r)
{
	const struct rr_set *set = ctx->set;
	const char **names = NULL;
	struct plot_chart ch;
	size_t nnames, n, i, rows = 0;
	int kinds = 0, mark_clat;
	double w;
	FILE *fp;
	int rc;

	(void)r;
	nnames = rr_job_names(set, &names);
	for (n = i = 0; n < nnames; n++) {
		if (job_has_latency(set, names[n]))
			names[i++] = names[n];
		else
			log_info(MOD, "%s: %s: left out: no result has its latency", ctx->chart->name,
				 names[n]);
	}
	nnames = i;
	if (!nnames) {
		rc = PLOT_EMPTY;
		goto out;
	}
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
	mark_clat = any_lat(set);
	fprintf(fp, "# x p50_ms p99_ms p999_ms device problem label_y\n");
	for (n = 0; n < nnames; n++) {
		for (i = 0; i < set->nres; i++) {
			const struct job_result *j = rr_find_job(&set->res[i], names[n]);

			if (j)
				rows += latency_row(fp, &set->res[i], j,
						    (double)(n + 1) - 0.4 + w * ((double)i + 0.5),
						    mark_clat, &kinds);
		}
	}
	fclose(fp);
	if (!rows) {
		plot_chart_abort(&ch);
		rc = PLOT_EMPTY;
		goto out;
	}
	plot_job_tics(ch.meta, names, nnames, 1200, ctx->format == PLOT_DUMB);
	fprintf(ch.meta, "LATKIND = ");
	plot_gp_string(ch.meta, latency_title(kinds));
	fputc('\n', ch.meta);
	rc = plot_chart_run(ctx, &ch);
out:
	free(names);
	return rc;
}
