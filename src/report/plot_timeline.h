/* SPDX-License-Identifier: MIT */
/* What the timeline chart's files share: its data series and its marks (report layer only). */
#ifndef IOWATT_PLOT_TIMELINE_H
#define IOWATT_PLOT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/plot.h"

/* The chart's width: a fast meter's trace is cut to as many columns (plot_timeline_decim.c). */
#define TIMELINE_WIDTH_PX 1400

static inline double timeline_secs(uint64_t t_ns, uint64_t t0_ns)
{
	return ((double)t_ns - (double)t0_ns) / 1e9;
}

/* plot_timeline_data.c. What the timeline's data files hold, for its meta. */
struct timeline_series {
	long io_rows, pw_rows;
	double max_mb, max_w;
	int nm;
	double tmin, tmax;  /* over the temperature series */
	int has_soc, has_drive;
	int band; /* some reading has an uncertainty band */
};
/* io.dat, power.dat and temp.dat from the result's CSVs. -errno when none can be made. */
int timeline_write_series(struct plot_chart *ch, const struct rr_result *r,
			  struct timeline_series *sr);

/*
 * plot_timeline_decim.c. A meter's trace for a chart columns wide: a trace of more than
 * twice as many rows is cut into columns of equal time, and each column drawn by its
 * lowest and highest reading (a bin's w_min and w_max), in their order, so a spike of one
 * bin among thousands still reaches its height; fewer rows are drawn as they are.
 */
struct timeline_point {
	double t_s, w, lo, hi; /* time, W and its band's edges */
};
struct timeline_decim {
	FILE *out;
	double t_first_s, col_s; /* col_s 0: every row as it is */
	long col, rows_out;
	unsigned long n;	 /* rows in the open column */
	struct timeline_point min, max;
};
void timeline_decim_init(struct timeline_decim *d, FILE *out, double t_first_s, double t_last_s,
			 long rows, unsigned columns);
/* A row: its lowest and highest point (the same for a single reading), in time order. */
void timeline_decim_add(struct timeline_decim *d, const struct timeline_point *lo,
			const struct timeline_point *hi);
void timeline_decim_flush(struct timeline_decim *d);

/* plot_timeline_marks.c. A job's label in the strip over the plot. */
struct timeline_label;
/*
 * Every job's label, left to right as the jobs ran: one that would cover a label already
 * placed (jobs whose phases overlap, or upright ones closer than a line) is left out, and
 * counted. Returns the labels; *n their count, *longest the longest upright line's chars.
 */
struct timeline_label *timeline_labels_place(const struct rr_result *r, size_t *n,
					     size_t *longest, size_t *dropped);
/* The strip over the plot: as deep as the longest upright label, one line for the rest. */
double timeline_strip_px(size_t longest);
/* The labels shown into meta, and every label freed. */
void timeline_labels_write(FILE *meta, struct timeline_label *l, size_t n);
void timeline_labels_free(struct timeline_label *l, size_t n);
/* Phase shading, and what ran outside the phases: returns which of these it drew. */
enum { TIMELINE_PREPARE = 1, TIMELINE_CALIBRATION = 2, TIMELINE_RETAKEN = 4 };
#define TIMELINE_PREP_RGB 0xE2DAF0u
#define TIMELINE_CALIB_RGB 0xFFF0B0u
#define TIMELINE_RETAKEN_RGB 0xF6D8E0u
int timeline_phase_rects(FILE *meta, const struct rr_result *r);
/* A marker for each job too short to be seen as a line; returns the count. */
int timeline_short_jobs(const struct rr_result *r, FILE *meta, double *max_mb);
/* Events as vertical lines, labels of events too close to tell apart merged. */
void timeline_event_marks(FILE *meta, const struct rr_result *r);

#endif
