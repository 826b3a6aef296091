/* SPDX-License-Identifier: MIT */
/* A window's figures from a result's samples file: average, min, max, charge and energy per meter. */
#ifndef IOWATT_WINDOW_STATS_H
#define IOWATT_WINDOW_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/results_read.h"

#define WINDOW_METERS_MAX 8

/* One meter over the window; the means are time-weighted, NAN where it lacks the quantity. */
struct window_meter {
	uint64_t rows, readings;  /* rows of the file; readings they stand for (a bin's n) */
	uint64_t bin_ns;	  /* the narrowest bin seen: the window's resolution; 0: raw */
	double span_s;		  /* time the integrals cover */
	double a_s, w_s, v_s;	  /* time each quantity was integrated over */
	double charge_c, energy_j, v_int;
	double a_min, a_max, w_min, w_max;
	/* w_min / w_max include a bin's V x A extremes (no W column): bounds, not readings */
	int w_ext_bound;
	/* integration state: the last row before or in the window */
	int have_prev;
	uint64_t prev_t;
	double prev_v, prev_a, prev_w;
};

struct window_stats {
	uint64_t t_from_ns, t_to_ns; /* [from, to) */
	struct window_meter m[WINDOW_METERS_MAX];
	uint64_t rows_read;	     /* of every meter, in the window or not */
};

/*
 * Reads the samples file at path (result/samples_file.h: CSV raw or binned, or the binary
 * records) and integrates each meter over [t_from_ns, t_to_ns): trapezoids between
 * consecutive rows, cut at the window's edges by linear interpolation (a bin's row is its
 * mean at its start); min and max from the bins' extremes. 0, or -errno after logging
 * (-ENODATA: no samples in the file).
 */
int window_stats_read(const char *path, uint64_t t_from_ns, uint64_t t_to_ns,
		      struct window_stats *st);

/* What `iowatt stats` asks for: a span from the run's start, or a job's phase. */
struct window_req {
	uint64_t from_ns, to_ns; /* after t0_ns; 0: the file's first / last reading */
	const char *job;	 /* NULL: the first job (when a phase is asked for) */
	int phase;		 /* enum phase; -1: none (with a job: the active phase) */
};

/* The window, the file read, the figures printed per meter: 0, or -errno after logging. */
int window_stats_print(const struct rr_result *r, const struct window_req *q, FILE *out);

#endif
