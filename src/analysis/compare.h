/* SPDX-License-Identifier: MIT */
/* Comparing results: metrics by key, rows per device and job ranked within each job, cells. */
#ifndef IOWATT_COMPARE_H
#define IOWATT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/repeats.h"
#include "analysis/results_read.h"
#include "core/si_units.h"

enum compare_format { FMT_TABLE, FMT_MD, FMT_CSV, FMT_CDM };

/* A text cell of the table; a row has at most COMPARE_MAX_CELLS of them. */
#define COMPARE_CELL 224
#define COMPARE_MAX_CELLS 32
/* Text columns around the metrics: rank, device, job before; valid, link, filesystem,
 * meter after. */
#define COMPARE_LEAD_CELLS 3
#define COMPARE_TRAIL_CELLS 4

enum { FROM_JOB, FROM_POWER, FROM_EFF };

/*
 * A metric that is a current, power, charge or energy: shown in the unit its column's
 * figures choose (core/si_units.h), the unit in its head and, with ASCII letters, in its
 * CSV key (active_ma -> active_ua at 5 uA).
 */
struct compare_unit {
	enum si_quantity q;
	double to_base;	      /* the result's unit in the quantity's base: active_ma 1e-3 */
	const char *head_fmt; /* "%s/GB": the unit's text */
	const char *key_fmt;  /* "%s_per_gb": the unit's ASCII in lower case */
};

/* A metric: CSV/markdown header is the result's key name; the table shows units. */
struct compare_column {
	const char *key;
	const char *head;
	int from;		     /* FROM_POWER / FROM_EFF: a double at off; FROM_JOB: fn */
	size_t off;
	double (*fn)(const struct job_result *j);
	double scale;		     /* table/markdown value = field * scale */
	const char *fmt;	     /* printf format, or NULL: sig significant digits */
	int sig;
	int lower_better;
	int brief;		     /* shown in table and markdown */
	const char *per_w;	     /* a mA-based figure: its W-based counterpart's key */
	/* Shown in table and markdown when a row has it (a mixed job's directions). */
	int (*shown)(const struct job_result *j);
	size_t u95_off;		     /* FROM_POWER / FROM_EFF: the figure's FIGURE_u95 */
	const struct compare_unit *unit; /* NULL: the head and scale above */
};

/* Every metric, in the CSV's order (compare_columns.c). */
extern const struct compare_column compare_columns[];
extern const size_t compare_ncolumns;

/*
 * A row is one job of one result: its entry, or with rounds (--repeat) the summary over
 * them, whose figures are the means and whose intervals hold the rounds' spread too.
 */
struct compare_row {
	const struct rr_result *r;
	const struct job_result *j;	     /* the entry, or the job's first with a summary */
	const struct result_job_summary *s;  /* NULL: a single entry */
	const char *name; /* "NAME #2" for a loop */
	int valid;
	int uncertain; /* valid, its headline figure's interval above the job's limit */
	double key, half; /* the ranking figure and half its 95 % interval (NAN: none) */
	int rank; /* 0: not ranked (invalid or no value) */
	int tie;  /* the rank this row cannot be told apart from, 0 if none */
	int apart; /* ran another workload than the job's first row: not ranked with it */
	const struct compare_column *ranked_by; /* the sort column, or its W-based counterpart */
};

/* Rows already ranked, and what a table of them shows. */
struct compare_table {
	struct compare_row *rows;
	size_t nrows;
	const struct compare_column *sort;
	/* The table's metric columns: the brief ones, the ranking ones, those some row has. */
	const struct compare_column *cols[COMPARE_MAX_CELLS];
	struct si_unit units[COMPARE_MAX_CELLS]; /* each unit column's, from its rows */
	size_t ncols;
	char rail[1024]; /* the jobs ranked by sort->per_w instead, ", "-joined ("" if none) */
	int ties;	 /* some row cannot be told apart from another */
};

/* What `iowatt compare` prints once its results are loaded. */
struct compare_opts {
	const struct compare_column *sort; /* the ranking metric (--by) */
	const char *out_path;		   /* -o FILE, NULL: stdout */
	int matrix;			   /* --matrix: iozone's table per result */
	int fmt;			   /* enum compare_format */
};

/* A metric by its key (the --by names, and "p99"), NULL if there is none. */
const struct compare_column *compare_column_find(const char *key);
/* The job's figure in the result's units; NAN where it has none. */
double compare_value(const struct compare_column *c, const struct job_result *j);
/* The figure as table and markdown print it ("-" when missing). */
void compare_cell(const struct compare_column *c, const struct job_result *j, char *buf,
		  size_t len);
/* A value in the column's units as table and markdown print it; "-" when NAN. */
void compare_format_value(const struct compare_column *c, double v, char *buf, size_t len);
/* The same in unit u where the column has a unit (u NULL: the figure's own). */
void compare_format_in(const struct compare_column *c, const struct si_unit *u, double v,
		       char *buf, size_t len);
/* The unit of a column of figures v[0..n) in the result's units (q's usual unit if none). */
struct si_unit compare_column_unit(const struct compare_column *c, const double *v, size_t n);
/* The column's head ("µA", "mJ/GB") and CSV key ("active_ua", "mj_per_gb") in unit u. */
void compare_column_head(const struct compare_column *c, const struct si_unit *u, char *buf,
			 size_t len);
void compare_column_key(const struct compare_column *c, const struct si_unit *u, char *buf,
			size_t len);
/* A value in unit u as CSV writes it (the result's unit where the column has none). */
double compare_in_unit(const struct compare_column *c, const struct si_unit *u, double v);
/* A row's figure: the entry's, or the mean over its rounds. */
double compare_row_value(const struct compare_column *c, const struct compare_row *rw);
/* Half the row's 95 % interval of a figure (NAN: none). */
double compare_row_half(const struct compare_column *c, const struct compare_row *rw);

/* A row of job j of rep (its summary's where it ran in rounds), its verdict; rw->r and the
 * ranking fields are left as they are. */
void compare_row_init(struct compare_row *rw, const struct run_result *rep,
		      const struct job_result *j);

/* Rows grouped by job name in order of first appearance, each group ranked by sort (or
 * its W-based counterpart where the rows' rails differ); free with compare_table_free. */
void compare_table_build(struct compare_table *t, const struct rr_set *set,
			 const struct compare_column *sort);
void compare_table_free(struct compare_table *t);

/* The head cells, each metric's with its unit as the table shows it (markdown too); the count. */
size_t compare_head_cells(const struct compare_table *t, char cells[][COMPARE_CELL]);
/* A row's cells as table, markdown and HTML show them; the count. */
size_t compare_row_cells(const struct compare_table *t, const struct compare_row *rw,
			 char cells[][COMPARE_CELL]);
/* Device, job and the text columns at the end are left-aligned; numbers right. */
int compare_cell_left(size_t k, size_t n);

/*
 * Rows value[0..n) in rank order (rank 0: not ranked), half their 95 % intervals: tie[i]
 * is the rank of the row i cannot be told apart from (their intervals overlap), else 0
 * (compare_rank.c).
 */
void compare_ties(const double *value, const double *half, const int *rank, size_t n, int *tie);

/*
 * What makes two runs of a job comparable (compare_alike.c): the options that shape the
 * workload match (rw, bs, iodepth, numjobs, ioengine, direct, syncs, pacing: every key
 * but names, lengths, the seed and the measuring phases); diff gets the keys that differ,
 * ", "-joined ("" when none). Size is normalised away by per-GB and per-I/O figures and is
 * no difference, except where it decides whether a cache holds the data: through the page
 * cache, one size within its host's memory and the other not (compare_size_matters: 1 and
 * why). A size=auto size never matters: sizes differ there by design.
 */
void compare_workload_diff(const struct job_result *ref, const struct job_result *j, char *diff,
			   size_t size);
int compare_size_matters(const struct rr_result *ra, const struct job_result *a,
			 const struct rr_result *rb, const struct job_result *b, char *why,
			 size_t len);

/* A warning (info: 0) or a note (info: 1) about the rows, as one line of text. */
typedef void (*compare_warn_fn)(void *ctx, int info, const char *text);
/*
 * Every warning compare prints on stderr, each handed to fn: a job run with different
 * options in two results (the keys named: "(size)"), results metered by different meters,
 * every emulated or manual one; as a note, a result without power data; with a table t,
 * the jobs ranked by the W-based figure since their rails differ. The report page lists
 * the same.
 */
void compare_warnings(const struct rr_set *set, const struct compare_table *t,
		      compare_warn_fn fn, void *ctx);

/* A CSV field, quoted where it needs to be, then ',' or a newline when last. */
void compare_csv_str(FILE *fp, const char *s, int last);
/*
 * iozone's view of a record sweep, one table per result: a row per record size (bs), a
 * column per operation (write, rewrite, read, reread, randread, randwrite, then any
 * other), each cell the metric of that job's first loop.
 */
void compare_print_matrix(FILE *fp, const struct rr_set *set,
			  const struct compare_column *metric, int fmt);

/*
 * CrystalDiskMark's text per device (compare --format cdm): each read/write pair of jobs
 * (analysis/rw_pairs.h) as a [Read] and a [Write] line, with J/GB and IOPS/mA; a result
 * without a pair is named in a warning. 0, or -ENOENT when no result has a pair.
 */
int compare_print_cdm(FILE *fp, const struct rr_set *set);

/*
 * `iowatt compare` after its options: the warnings (options, meters, no power data) on
 * stderr, then the ranked table, markdown or CSV, or the matrix, into o->out_path or
 * stdout. 0, or -errno when the output file cannot be written (logged).
 */
int compare_results(const struct rr_set *set, const struct compare_opts *o);

#endif
