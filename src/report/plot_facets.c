/* SPDX-License-Identifier: MIT */
/* Bar-chart facets: a chart of many jobs wrapped into rows of panels of a readable width. */
#include <stdio.h>
#include <stdlib.h>

#include "core/mem.h"
#include "report/plot.h"

/* Room a bar needs for its upright value label (a 9 pt line), an axis beside a panel, one
 * row of panels (its title, bars with their labels, the job names slanted under them). */
#define FACET_PX_PER_BAR 18
#define FACET_PX_PER_AXIS 90
/* A job's name under its bars, slanted, wants this much even for one bar. */
#define FACET_MIN_PX_PER_JOB 60
#define FACET_ROW_PX 400
#define FACET_TITLE_PX 50
/* The widest chart: a 30-job sweep wraps instead of becoming a strip thousands of px wide. */
#define FACET_MIN_WIDTH_PX 1200
#define FACET_MAX_WIDTH_PX 1800
/* A panel's axis in units of a job's width, as the templates count it. */
#define FACET_AXIS_JOBS 0.8
#define FACET_MIN_JOBS_PER_ROW 4

static size_t jobs_per_row(size_t bars_per_job)
{
	size_t job_px = FACET_PX_PER_BAR * (bars_per_job ? bars_per_job : 1);
	size_t n = (FACET_MAX_WIDTH_PX - FACET_PX_PER_AXIS) /
		   (job_px < FACET_MIN_PX_PER_JOB ? FACET_MIN_PX_PER_JOB : job_px);

	return n < FACET_MIN_JOBS_PER_ROW ? FACET_MIN_JOBS_PER_ROW : n;
}

void plot_facets(struct plot_facets *f, const size_t *panel_jobs, size_t npanels, size_t njobs,
		 size_t bars_per_job)
{
	size_t per_row = jobs_per_row(bars_per_job), p, row_jobs = 0, px;

	f->per_row = per_row;
	f->iops_rows = 0;
	for (p = 0; p < npanels; p++) {
		/* a panel starts a row when it would overfill the one begun */
		if (!p || row_jobs + panel_jobs[p] > per_row) {
			f->iops_rows++;
			row_jobs = 0;
		}
		row_jobs += panel_jobs[p];
	}
	f->all_rows = njobs ? (njobs + per_row - 1) / per_row : 1;
	f->all_per_row = njobs ? (njobs + f->all_rows - 1) / f->all_rows : 1;
	px = (njobs < per_row ? njobs : per_row) * bars_per_job * FACET_PX_PER_BAR +
	     (npanels < per_row ? npanels : per_row) * FACET_PX_PER_AXIS;
	f->width_px = px < FACET_MIN_WIDTH_PX ? FACET_MIN_WIDTH_PX
		      : px > FACET_MAX_WIDTH_PX ? FACET_MAX_WIDTH_PX
						: (unsigned)px;
	f->height_px = (unsigned)(FACET_TITLE_PX + (f->iops_rows + f->all_rows) * FACET_ROW_PX);
}

/* The row each panel goes to (greedy, in order), and the widest row's span in jobs. */
static double panel_rows(const struct plot_facets *f, const size_t *panel_jobs, size_t npanels,
			 size_t *row_of)
{
	double span = 0, widest = 0;
	size_t p, row = 0, row_jobs = 0;

	for (p = 0; p < npanels; p++) {
		if (p && row_jobs + panel_jobs[p] > f->per_row) {
			row++;
			row_jobs = 0;
			span = 0;
		}
		row_jobs += panel_jobs[p];
		span += (double)panel_jobs[p] + FACET_AXIS_JOBS;
		if (span > widest)
			widest = span;
		row_of[p] = row;
	}
	return widest;
}

void plot_facets_job_px(const struct plot_facets *f, const size_t *panel_jobs, size_t npanels,
			double *iops_px, double *all_px)
{
	size_t *row_of = xcalloc(npanels + 1, sizeof(*row_of));
	double widest = panel_rows(f, panel_jobs, npanels, row_of);

	free(row_of);
	*iops_px = widest > 0 ? f->width_px / widest : 0;
	*all_px = f->width_px / ((double)f->all_per_row + FACET_AXIS_JOBS);
}

void plot_facets_meta(FILE *meta, const struct plot_facets *f, const size_t *panel_jobs,
		      size_t npanels, size_t njobs)
{
	double rh = (double)FACET_ROW_PX / f->height_px;
	double top = 1.0 - (double)FACET_TITLE_PX / f->height_px, x = 0, widest, w;
	size_t *row_of = xcalloc(npanels + 1, sizeof(*row_of)), p, row, first, n;

	/* Every row's bars as wide as the widest row's: a short row is not stretched. */
	widest = panel_rows(f, panel_jobs, npanels, row_of);
	fprintf(meta, "RH = %.5f\narray PXO[%zu]\narray PYO[%zu]\narray PW[%zu]\n", rh,
		npanels ? npanels : 1, npanels ? npanels : 1, npanels ? npanels : 1);
	for (p = 0; p < npanels; p++) {
		if (p && row_of[p] != row_of[p - 1])
			x = 0;
		w = ((double)panel_jobs[p] + FACET_AXIS_JOBS) / widest;
		fprintf(meta, "PXO[%zu] = %.5f\nPYO[%zu] = %.5f\nPW[%zu] = %.5f\n", p + 1, x, p + 1,
			top - (double)(row_of[p] + 1) * rh, p + 1, w);
		x += w;
	}
	free(row_of);
	fprintf(meta, "NJROW = %zu\narray JFIRST[%zu]\narray JN[%zu]\narray JYO[%zu]\narray JW[%zu]\n",
		f->all_rows, f->all_rows, f->all_rows, f->all_rows, f->all_rows);
	for (row = 0, first = 0; row < f->all_rows; row++, first += n) {
		n = njobs - first < f->all_per_row ? njobs - first : f->all_per_row;
		fprintf(meta, "JFIRST[%zu] = %zu\nJN[%zu] = %zu\nJYO[%zu] = %.5f\nJW[%zu] = %.5f\n",
			row + 1, first + 1, row + 1, n, row + 1,
			top - (double)(f->iops_rows + row + 1) * rh, row + 1,
			((double)n + FACET_AXIS_JOBS) / ((double)f->all_per_row + FACET_AXIS_JOBS));
	}
}
