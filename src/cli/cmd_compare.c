/* SPDX-License-Identifier: MIT */
/* iowatt compare: one row per device and job, ranked by a metric, as a table, markdown or CSV. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/repeats.h"
#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/compare.h"
#include "cli/result_args.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"
#include "core/units.h"
#include "report/html.h"

#define MOD "compare"
#define CELL 224
#define MAX_COLS 32
/* Text columns around the metrics: rank, device, job before; valid, link, filesystem,
 * meter after. */
#define LEAD_COLS 3
#define TRAIL_COLS 4

enum { FROM_JOB, FROM_POWER, FROM_EFF };

/*
 * A row is one job of one result: its entry, or with rounds (--repeat) the summary over
 * them, whose figures are the means and whose intervals hold the rounds' spread too.
 */
struct row {
	const struct rr_result *r;
	const struct job_result *j;	     /* the entry, or the job's first with a summary */
	const struct result_job_summary *s;  /* NULL: a single entry */
	const char *name; /* "NAME #2" for a loop */
	int valid;
	double key, half; /* the ranking figure and half its 95 % interval (NAN: none) */
	int rank; /* 0: not ranked (invalid or no value) */
	int tie;  /* the rank this row cannot be told apart from, 0 if none */
	const struct column *ranked_by; /* the sort column, or its W-based counterpart */
};

/* A column: CSV/markdown header is the result's key name; the table shows units. */
struct column {
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
};

struct compare_args {
	const char *by, *out_path;
	int matrix; /* --matrix: iozone's table per result */
	int by_given;
	const struct column *sort;
	struct result_args ra; /* labels */
	int fmt;
};

static double p99_ns(const struct job_result *j)
{
	return rr_lat_ns(j, 99);
}

/* A mixed job's directions apart, and a synced job's sync calls (fio's "sync"). */
static double read_iops(const struct job_result *j)
{
	return rr_dir_iops(j, 0);
}

static double write_iops(const struct job_result *j)
{
	return rr_dir_iops(j, 1);
}

static double read_p99_ns(const struct job_result *j)
{
	return rr_dir_lat_ns(j, 0, 99);
}

static double write_p99_ns(const struct job_result *j)
{
	return rr_dir_lat_ns(j, 1, 99);
}

static double sync_p99_ns(const struct job_result *j)
{
	return rr_sync_lat_ns(j, 99);
}

static int has_soc_c(const struct job_result *j)
{
	return !isnan(rr_soc_max_c(j));
}

static int has_drive_c(const struct job_result *j)
{
	return !isnan(rr_drive_max_c(j));
}

/* A figure of widely varying size (IOPS/mA of 4 KiB and of 16 MiB records): digits. */
#define SIG(n) NULL, n
#define FMT(f) f, 0
#define JOB(k, h, fn, sc, f, lb, br) { k, h, FROM_JOB, 0, fn, sc, f, lb, br, NULL, NULL, 0 }
#define WHEN(k, h, fn, sc, f, lb, when) { k, h, FROM_JOB, 0, fn, sc, f, lb, 0, NULL, when, 0 }
#define POWER(k, h, field, sc, f, lb, br, pw)                                               \
	{ k, h, FROM_POWER, offsetof(struct result_power, field), NULL, sc, f, lb, br, pw, NULL, \
	  offsetof(struct result_power, field##_u95) }
#define EFF(k, h, field, sc, f, lb, br, pw)                                                 \
	{ k, h, FROM_EFF, offsetof(struct result_efficiency, field), NULL, sc, f, lb, br, pw,    \
	  NULL, offsetof(struct result_efficiency, field##_u95) }

static const struct column columns[] = {
	JOB("bw_bytes", "MB/s", rr_bw_bytes, 1e-6, FMT("%.1f"), 0, 1),
	JOB("iops", "IOPS", rr_iops, 1, FMT("%.0f"), 0, 1),
	JOB("clat_p99_ns", "p99 ms", p99_ns, 1e-6, FMT("%.2f"), 1, 1),
	WHEN("read_iops", "r IOPS", read_iops, 1, SIG(3), 0, rr_mixed),
	WHEN("write_iops", "w IOPS", write_iops, 1, SIG(3), 0, rr_mixed),
	WHEN("read_clat_p99_ns", "r p99 ms", read_p99_ns, 1e-6, FMT("%.2f"), 1, rr_mixed),
	WHEN("write_clat_p99_ns", "w p99 ms", write_p99_ns, 1e-6, FMT("%.2f"), 1, rr_mixed),
	WHEN("sync_lat_p99_ns", "sync p99 ms", sync_p99_ns, 1e-6, FMT("%.2f"), 1, rr_syncs),
	POWER("active_w", "W", active_w, 1, FMT("%.3f"), 1, 1, NULL),
	POWER("active_ma", "mA", active_ma, 1, FMT("%.0f"), 1, 1, "active_w"),
	POWER("idle_w", "idle W", idle_w, 1, FMT("%.3f"), 1, 0, NULL),
	EFF("iops_per_ma", "IOPS/mA", iops_per_ma, 1, SIG(3), 0, 1, "iops_per_w"),
	EFF("iops_per_w", "IOPS/W", iops_per_w, 1, SIG(4), 0, 0, NULL),
	EFF("mbps_per_w", "MB/s/W", mbps_per_w, 1, SIG(3), 0, 0, NULL),
	EFF("j_per_gb", "J/GB", j_per_gb, 1, FMT("%.1f"), 1, 1, NULL),
	EFF("j_per_gb_net", "J/GB net", j_per_gb_net, 1, FMT("%.1f"), 1, 0, NULL),
	EFF("uj_per_io", "uJ/IO", uj_per_io, 1, SIG(4), 1, 0, NULL),
	EFF("uah_per_io", "uAh/IO", uah_per_io, 1, SIG(4), 1, 0, "uj_per_io"),
	EFF("uah_per_mb", "uAh/MB", uah_per_mb, 1, SIG(4), 1, 0, "j_per_gb"),
	WHEN("soc_c_max", "SoC C", rr_soc_max_c, 1, FMT("%.1f"), 1, has_soc_c),
	WHEN("drive_c_max", "disk C", rr_drive_max_c, 1, FMT("%.1f"), 1, has_drive_c),
};

/* Rails further apart than this are different supplies (3.3 V, 5 V, 12 V), not one
 * USB line's sag: a mA on one is not a mA on the other. */
#define RAIL_RATIO 1.1
#define RAIL_JOBS_MAX 1024

#define P99_COLUMN (&columns[2])

static double col_value(const struct column *c, const struct job_result *j)
{
	const void *obj;

	if (c->from == FROM_JOB)
		return c->fn(j);
	obj = c->from == FROM_POWER ? (const void *)rr_power(j) : (const void *)rr_eff(j);
	return *(const double *)(const void *)((const char *)obj + c->off);
}

/* A row's figure: the entry's, or the mean over its rounds. */
static double row_value(const struct column *c, const struct row *rw)
{
	const struct result_stat *st;

	if (!rw->s)
		return col_value(c, rw->j);
	st = result_summary_stat(rw->s, c->key);
	return st ? st->mean : col_value(c, rw->j);
}

/*
 * Half the row's 95 % interval of a figure: the entry's measurement uncertainty, or over
 * rounds the spread and the measurement uncertainty together (result_stat_u95). NAN for
 * a single entry's performance figures, which have no interval.
 */
static double row_half(const struct column *c, const struct row *rw)
{
	const void *obj;

	if (rw->s)
		return result_stat_u95(result_summary_stat(rw->s, c->key));
	if (c->from == FROM_JOB)
		return NAN;
	obj = c->from == FROM_POWER ? (const void *)rr_power(rw->j) : (const void *)rr_eff(rw->j);
	return *(const double *)(const void *)((const char *)obj + c->u95_off);
}

static const struct column *find_column(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(columns); i++)
		if (!strcmp(columns[i].key, key))
			return &columns[i];
	if (!strcmp(key, "p99"))
		return P99_COLUMN;
	return NULL;
}

const struct column *compare_column(const char *key)
{
	return find_column(key);
}

const char *compare_column_key(const struct column *c)
{
	return c->key;
}

const char *compare_column_head(const struct column *c)
{
	return c->head;
}

double compare_value(const struct column *c, const struct job_result *j)
{
	return col_value(c, j);
}

/* Valid rows with a value first, then by the metric in its better direction. */
static int row_cmp(const void *a, const void *b, void *arg)
{
	const struct column *sort = *(const struct column **)arg;
	const struct row *x = a, *y = b;
	int xv = x->valid != 0 && !isnan(x->key), yv = y->valid != 0 && !isnan(y->key);

	if (xv != yv)
		return yv - xv;
	if (isnan(x->key) || isnan(y->key))
		return isnan(x->key) - isnan(y->key);
	if (x->key == y->key)
		return 0;
	return (x->key < y->key) == !sort->lower_better ? 1 : -1;
}

static const char *valid_text(int valid)
{
	return valid > 0 ? "yes" : valid == 0 ? "NO" : "-";
}

static void meter_text(const struct rr_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", r->meter, r->emulated ? " (emulated)" : "",
		 r->manual ? " (manual)" : "");
}

/* A value as table and markdown print it; "-" when missing. */
static void fmt_value(const struct column *c, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (!c->fmt)
		fmt_sig(v * c->scale, c->sig, buf, len);
	else
		snprintf(buf, len, c->fmt, v * c->scale);
}

/* One cell as text for the table/markdown; "-" when the value is missing. */
static void cell(const struct column *c, const struct job_result *j, char *buf, size_t len)
{
	fmt_value(c, col_value(c, j), buf, len);
}

void compare_cell(const struct column *c, const struct job_result *j, char *buf, size_t len)
{
	cell(c, j, buf, len);
}

/* "+-0.27" in the column's units, "-" without an interval. */
static void half_cell(const struct column *c, const struct row *rw, char *buf, size_t len)
{
	double h = row_half(c, rw);
	char v[CELL / 2];

	if (isnan(h)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_value(c, h, v, sizeof(v));
	snprintf(buf, len, "+-%s", v);
}

/* "1", "≈1" (cannot be told apart from rank 1), "-" (not ranked). */
static void rank_cell(const struct row *rw, char *buf, size_t len)
{
	if (rw->tie)
		snprintf(buf, len, "\u2248%d", rw->tie);
	else if (rw->rank)
		snprintf(buf, len, "%d", rw->rank);
	else
		snprintf(buf, len, "-");
}

/* ival: the column whose 95 % interval follows it (the ranking one). */
static size_t text_cells(const struct row *rw, char cells[][CELL], const struct column **cols,
			 size_t ncols, const struct column *ival)
{
	size_t k = 0, i;

	rank_cell(rw, cells[k++], CELL);
	snprintf(cells[k++], CELL, "%s", rw->r->label);
	if (rw->s)
		snprintf(cells[k++], CELL, "%s (%u of %u rounds)", rw->name, rw->s->valid,
			 rw->s->entries);
	else
		snprintf(cells[k++], CELL, "%s", rw->name);
	for (i = 0; i < ncols; i++) {
		fmt_value(cols[i], row_value(cols[i], rw), cells[k++], CELL);
		if (cols[i] == ival)
			half_cell(cols[i], rw, cells[k++], CELL);
	}
	snprintf(cells[k++], CELL, "%s", valid_text(rw->valid));
	snprintf(cells[k++], CELL, "%s", *rw->r->link ? rw->r->link : rw->r->transport);
	snprintf(cells[k++], CELL, "%s", rw->r->filesystem);
	meter_text(rw->r, cells[k++], CELL);
	return k;
}

/* Device, job and the text columns at the end are left-aligned; numbers right. */
static int left_aligned(size_t k, size_t n)
{
	return k == 1 || k == 2 || k >= n - 3;
}

/* Characters a cell takes on screen: UTF-8 continuation bytes take none ("≈1" is 2). */
static size_t text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* s padded to width w on the left or right, by characters, not bytes. */
static void pad_cell(FILE *fp, const char *s, size_t w, int left)
{
	size_t pad = w > text_width(s) ? w - text_width(s) : 0;

	if (!left)
		fprintf(fp, "%*s", (int)pad, "");
	fputs(s, fp);
	if (left)
		fprintf(fp, "%*s", (int)pad, "");
}

static void print_line(FILE *fp, char cells[][CELL], const size_t *w, size_t n, int md)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (md) {
			fputs("| ", fp);
			pad_cell(fp, cells[k], w[k], 1);
			fputc(' ', fp);
		} else {
			pad_cell(fp, cells[k], k + 1 < n ? w[k] : 0, left_aligned(k, n));
			fputs(k + 1 < n ? "  " : "\n", fp);
		}
	}
	if (md)
		fprintf(fp, "|\n");
}

/* A '|' in a device or job name would end its cell: escaped. */
static void md_escape_cells(char cells[][CELL], size_t n)
{
	char buf[CELL];
	size_t k;

	for (k = 0; k < n; k++) {
		text_md_escape(cells[k], buf, sizeof(buf));
		memcpy(cells[k], buf, sizeof(buf));
	}
}

static void print_md_rule(FILE *fp, const size_t *w, size_t n)
{
	size_t k, i;

	for (k = 0; k < n; k++) {
		fprintf(fp, "|%s", left_aligned(k, n) ? ":" : "-");
		for (i = 0; i < w[k]; i++)
			fputc('-', fp);
		fprintf(fp, "%s", left_aligned(k, n) ? "-" : ":");
	}
	fprintf(fp, "|\n");
}

static size_t heads(char cells[][CELL], const struct column **cols, size_t ncols, int md,
		    const struct column *ival)
{
	static const char *const lead[LEAD_COLS] = { "rank", "device", "job" };
	static const char *const trail[TRAIL_COLS] = { "valid", "link", "filesystem", "meter" };
	size_t i, n = 0;

	for (i = 0; i < LEAD_COLS; i++)
		snprintf(cells[n++], CELL, "%s", lead[i]);
	for (i = 0; i < ncols; i++) {
		snprintf(cells[n++], CELL, "%s",
			 md && cols[i]->scale == 1 ? cols[i]->key : cols[i]->head);
		if (cols[i] == ival)
			snprintf(cells[n++], CELL, "+-95%%");
	}
	for (i = 0; i < TRAIL_COLS; i++)
		snprintf(cells[n++], CELL, "%s", trail[i]);
	return n;
}

static void print_text(FILE *fp, const struct row *rows, size_t nrows, const struct column **cols,
		       size_t ncols, int md, const struct column *ival)
{
	char (*cells)[CELL] = xcalloc(MAX_COLS, CELL);
	size_t w[MAX_COLS], n, i, k, nh;

	nh = heads(cells, cols, ncols, md, ival);
	for (k = 0; k < nh; k++)
		w[k] = text_width(cells[k]);
	for (i = 0; i < nrows; i++) {
		n = text_cells(&rows[i], cells, cols, ncols, ival);
		if (md)
			md_escape_cells(cells, n);
		for (k = 0; k < n; k++)
			if (text_width(cells[k]) > w[k])
				w[k] = text_width(cells[k]);
	}
	heads(cells, cols, ncols, md, ival);
	print_line(fp, cells, w, nh, md);
	if (md)
		print_md_rule(fp, w, nh);
	for (i = 0; i < nrows; i++) {
		n = text_cells(&rows[i], cells, cols, ncols, ival);
		if (md)
			md_escape_cells(cells, n);
		print_line(fp, cells, w, n, md);
	}
	free(cells);
}

/* Text fields only: quoted as needed, formulas neutralised (core/text.h). */
void compare_csv_str(FILE *fp, const char *s, int last)
{
	text_csv_field(fp, s);
	fputc(last ? '\n' : ',', fp);
}

static void csv_number(FILE *fp, double v)
{
	if (isnan(v))
		fprintf(fp, ",");
	else
		fprintf(fp, "%.10g,", v);
}

static void csv_row(FILE *fp, const struct row *rw)
{
	char reasons[RR_REASONS_MAX];
	size_t k;

	if (rw->rank)
		fprintf(fp, "%d,", rw->rank);
	else
		fprintf(fp, ",");
	compare_csv_str(fp, rw->r->label, 0);
	compare_csv_str(fp, rw->name, 0);
	fprintf(fp, "%u,", rw->j->loop);
	if (rw->s)
		fprintf(fp, "%u,", rw->s->valid);
	else
		fprintf(fp, ",");
	if (rw->tie)
		fprintf(fp, "%d,", rw->tie);
	else
		fprintf(fp, ",");
	compare_csv_str(fp, rr_rw(rw->j), 0);
	fprintf(fp, "%llu,", (unsigned long long)rr_bs(rw->j));
	for (k = 0; k < ARRAY_SIZE(columns); k++) {
		csv_number(fp, row_value(&columns[k], rw));
		csv_number(fp, row_half(&columns[k], rw));
	}
	fprintf(fp, "%s,", rw->valid > 0 ? "true" : rw->valid == 0 ? "false" : "");
	rr_reasons(rw->j, reasons, sizeof(reasons));
	compare_csv_str(fp, reasons, 0);
	compare_csv_str(fp, rw->r->transport, 0);
	compare_csv_str(fp, rw->r->link, 0);
	compare_csv_str(fp, rw->r->filesystem, 0);
	compare_csv_str(fp, rw->r->meter, 0);
	fprintf(fp, "%s,", rw->r->emulated ? "true" : "false");
	compare_csv_str(fp, rw->r->path, 1);
}

static void print_csv(FILE *fp, const struct row *rows, size_t nrows)
{
	size_t i, k;

	fprintf(fp, "rank,device,job,loop,rounds,indistinguishable_from,rw,bs,");
	for (k = 0; k < ARRAY_SIZE(columns); k++)
		fprintf(fp, "%s,%s_u95,", columns[k].key, columns[k].key);
	fprintf(fp, "valid,reasons,transport,link,filesystem,meter,emulated,file\n");
	for (i = 0; i < nrows; i++)
		csv_row(fp, &rows[i]);
}

static void usage(FILE *fp)
{
	size_t i;
	int lower;

	fprintf(fp, "usage: iowatt compare RESULT.json... [--by METRIC] [--format table|md|csv]\n"
		    "                      [--label FILE=NAME]... [-o FILE] [--matrix]\n"
		    "One row per device and job, ranked within each job by METRIC (default\n"
		    "iops_per_ma); invalid rows are listed but not ranked.\n"
		    "--matrix: iozone's table per device instead, a row per record size and a\n"
		    "column per operation (write, rewrite, read, reread, randread, randwrite),\n"
		    "each cell METRIC (default bw_bytes, as MB/s): for the record-sweep profile.\n");
	for (lower = 0; lower < 2; lower++) {
		fprintf(fp, "  %s is better:", lower ? "lower " : "higher");
		for (i = 0; i < ARRAY_SIZE(columns); i++)
			if (columns[i].lower_better == lower)
				fprintf(fp, " %s", columns[i].key);
		fprintf(fp, "\n");
	}
}

static int parse_format(const char *arg, int *fmt)
{
	if (!strcmp(arg, "table"))
		*fmt = FMT_TABLE;
	else if (!strcmp(arg, "md") || !strcmp(arg, "markdown"))
		*fmt = FMT_MD;
	else if (!strcmp(arg, "csv"))
		*fmt = FMT_CSV;
	else {
		log_err(MOD, "--format '%s': expected table, md or csv", arg);
		return -1;
	}
	return 0;
}

/* EXIT_OK to go on, ARGS_HELP, or the exit code of a usage error. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },	   { "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, 'l' }, { "output", required_argument, NULL, 'o' },
		{ "matrix", no_argument, NULL, 'm' },	   { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	result_args_init(&a->ra, MOD, usage, NULL);
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:f:l:o:h", opts, NULL)) != -1) {
		if (c == 'b') {
			a->by = optarg;
			a->by_given = 1;
		} else if (c == 'f') {
			if (parse_format(optarg, &a->fmt))
				return EXIT_USAGE;
		} else if (c == 'o') {
			a->out_path = optarg;
		} else if (c == 'm') {
			a->matrix = 1;
			if (!a->by_given)
				a->by = "bw_bytes";
		} else if ((rc = result_option(&a->ra, c, optarg))) {
			return rc;
		}
	}
	a->sort = find_column(a->by);
	if (!a->sort) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", a->by);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * The column a group of rows is ranked by: the sort column, unless it counts mA and the
 * rows' rails differ in voltage; then its W-based counterpart.
 */
static const struct column *group_sort(const struct column *sort, const struct row *rows,
				       size_t n)
{
	double v, vmin = INFINITY, vmax = -INFINITY;
	const struct column *alt;
	size_t i;

	if (!sort->per_w)
		return sort;
	for (i = 0; i < n; i++) {
		v = rr_power(rows[i].j)->active_v;
		if (isnan(v) || v <= 0 || isnan(col_value(sort, rows[i].j)))
			continue;
		vmin = fmin(vmin, v);
		vmax = fmax(vmax, v);
	}
	alt = find_column(sort->per_w);
	return vmax > vmin * RAIL_RATIO && alt ? alt : sort;
}

/* A job with rounds is one row, its summary's, on its first entry; NULL: not a row. */
static int row_of(const struct rr_result *r, const struct job_result *j, struct row *rw)
{
	const struct result_job_summary *s = j->jobname ? result_summary_find(&r->rep, j->jobname)
							 : NULL;

	if (s && rr_find_job(r, j->jobname) != j)
		return 0;
	rw->r = r;
	rw->j = j;
	rw->s = s;
	rw->valid = rr_valid(j);
	if (s)
		rw->valid = !s->valid ? 0 : rw->valid < 0 ? -1 : 1;
	return 1;
}

/* Ranks within a group of rows sorted by their figure; ties where intervals overlap. */
static void rank_group(struct row *rows, size_t n)
{
	double *v = xcalloc(n + 1, sizeof(*v)), *h = xcalloc(n + 1, sizeof(*h));
	int *rank = xcalloc(n + 1, sizeof(*rank)), *tie = xcalloc(n + 1, sizeof(*tie)), next = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		if (rows[k].valid != 0 && !isnan(rows[k].key))
			rows[k].rank = ++next;
		v[k] = rows[k].key;
		h[k] = rows[k].half;
		rank[k] = rows[k].rank;
	}
	compare_ties(v, h, rank, n, tie);
	for (k = 0; k < n; k++)
		rows[k].tie = tie[k];
	free(v);
	free(h);
	free(rank);
	free(tie);
}

/* Rows grouped by job name in order of first appearance, ranked within the group. */
static struct row *build_rows(const struct rr_set *set, const char *const *names, size_t nnames,
			      const struct column *sort, size_t *nrows)
{
	const struct column *by;
	struct row *rows;
	size_t n, i, k, first, total = 0;

	for (i = 0; i < set->nres; i++)
		total += set->res[i].rep.njobs;
	rows = xcalloc(total ? total : 1, sizeof(*rows));
	*nrows = 0;
	for (n = 0; n < nnames; n++) {
		first = *nrows;
		for (i = 0; i < set->nres; i++) {
			for (k = 0; k < set->res[i].rep.njobs; k++) {
				struct row *rw = &rows[*nrows];

				if (strcmp(set->res[i].names[k], names[n]) ||
				    !row_of(&set->res[i], &set->res[i].rep.jobs[k], rw))
					continue;
				rw->name = set->res[i].names[k];
				(*nrows)++;
			}
		}
		by = group_sort(sort, rows + first, *nrows - first);
		for (k = first; k < *nrows; k++) {
			rows[k].key = row_value(by, &rows[k]);
			rows[k].half = row_half(by, &rows[k]);
			rows[k].ranked_by = by;
		}
		qsort_r(rows + first, *nrows - first, sizeof(*rows), row_cmp, &by);
		rank_group(rows + first, *nrows - first);
	}
	return rows;
}

/* The jobs ranked by the W-based counterpart of sort, ", "-joined; 0 if none. */
static int rail_jobs(const struct column *sort, const struct row *rows, size_t nrows, char *buf,
		     size_t len)
{
	size_t i, used = 0;
	int n = 0;

	buf[0] = '\0';
	for (i = 0; i < nrows && used < len; i++) {
		if (rows[i].ranked_by == sort || (i && !strcmp(rows[i - 1].name, rows[i].name)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", n++ ? ", " : "",
					 rows[i].name);
	}
	return n;
}

/* What the ranks mean, and which jobs were ranked by the W-based figure instead. */
static void print_footer(FILE *fp, const struct column *sort, const char *rail, int ties)
{
	fprintf(fp, "\nranked by %s within each job (%s is better); invalid rows are not ranked\n",
		sort->key, sort->lower_better ? "lower" : "higher");
	fprintf(fp, "+-95%%: half the figure's 95 %% interval: the meter's uncertainty, and over "
		    "rounds the run-to-run spread too\n");
	if (ties)
		fprintf(fp, "\u2248N: indistinguishable at 95 %% from the row ranked N (their "
			    "intervals overlap): not ranked apart\n");
	if (*rail)
		fprintf(fp, "ranked by %s instead where the rows' rails differ in voltage: %s\n",
			sort->per_w, rail);
}

static int any_tie(const struct row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		if (rows[i].tie)
			return 1;
	return 0;
}

/* A conditional column some row has. */
static int any_row(const struct column *c, const struct row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; c->shown && i < nrows; i++)
		if (c->shown(rows[i].j))
			return 1;
	return 0;
}

/* The table's metric columns: the brief ones, the ranking ones, those some row has. */
static size_t table_columns(const struct column *sort, int by_w, const struct row *rows,
			    size_t nrows, const struct column **out)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(columns); i++)
		if (columns[i].brief || &columns[i] == sort ||
		    (by_w && !strcmp(columns[i].key, sort->per_w)) || any_row(&columns[i], rows, nrows))
			out[n++] = &columns[i];
	return n;
}

static int print_rows(const struct compare_args *a, const struct rr_set *set,
		      const struct row *rows, size_t nrows)
{
	const struct column *brief[ARRAY_SIZE(columns) + 1];
	FILE *fp = stdout;
	size_t nbrief;
	char rail[RAIL_JOBS_MAX];
	int by_w = rail_jobs(a->sort, rows, nrows, rail, sizeof(rail));

	if (by_w && !a->matrix)
		log_warn(MOD, "rows of %s were measured on rails of different voltage (3.3 V, 5 V, "
			      "...): ranked by %s, not %s, since a mA at a higher voltage is more "
			      "power", rail, a->sort->per_w, a->sort->key);
	nbrief = table_columns(a->sort, by_w, rows, nrows, brief);
	if (a->out_path) {
		fp = fopen(a->out_path, "w");
		if (!fp) {
			log_err(MOD, "-o %s: %m", a->out_path);
			return EXIT_FAIL;
		}
	}
	if (a->matrix)
		compare_print_matrix(fp, set, a->sort, a->fmt);
	else if (a->fmt == FMT_CSV)
		print_csv(fp, rows, nrows);
	else
		print_text(fp, rows, nrows, brief, nbrief, a->fmt == FMT_MD, a->sort);
	if (a->fmt == FMT_TABLE && !a->matrix)
		print_footer(fp, a->sort, rail, any_tie(rows, nrows));
	if (fp != stdout && fclose(fp)) {
		log_err(MOD, "-o %s: %m", a->out_path);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The table as HTML, a <tbody> per job; every text cell escaped (results travel). */
static void print_html(FILE *fp, const struct row *rows, size_t nrows, const struct column **cols,
		       size_t ncols, const struct column *sort, const char *rail)
{
	char (*cells)[CELL] = xcalloc(MAX_COLS, CELL);
	size_t i, k, n;

	n = heads(cells, cols, ncols, 0, sort);
	fprintf(fp, "<table class=\"grid compare\">\n<caption>ranked by %s within each job (%s is "
		    "better); invalid rows are not ranked", sort->key,
		sort->lower_better ? "lower" : "higher");
	if (*rail) {
		fprintf(fp, ". Ranked by %s instead where the rows' rails differ in voltage: ",
			sort->per_w);
		html_text(fp, rail);
	}
	if (any_tie(rows, nrows))
		fputs(". \u2248N: indistinguishable at 95 % from the row ranked N", fp);
	fputs("</caption>\n<thead><tr>", fp);
	for (k = 0; k < n; k++) {
		fputs("<th>", fp);
		html_text(fp, cells[k]);
		fputs("</th>", fp);
	}
	fputs("</tr></thead>\n", fp);
	for (i = 0; i < nrows; i++) {
		if (!i || strcmp(rows[i].name, rows[i - 1].name))
			fputs(i ? "</tbody>\n<tbody>\n" : "<tbody>\n", fp);
		n = text_cells(&rows[i], cells, cols, ncols, sort);
		fputs("<tr>", fp);
		for (k = 0; k < n; k++) {
			fprintf(fp, "<td%s>", k == n - TRAIL_COLS && rows[i].valid == 0 ? " class=\"bad\""
					      : left_aligned(k, n) ? "" : " class=\"num\"");
			html_text(fp, cells[k]);
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	if (nrows)
		fputs("</tbody>\n", fp);
	fputs("</table>\n", fp);
	free(cells);
}

int compare_metric_known(const char *key)
{
	return find_column(key) != NULL;
}

int compare_html(FILE *fp, const struct rr_set *set, const char *by)
{
	const struct column *sort = find_column(by ? by : "iops_per_ma");
	const struct column *cols[ARRAY_SIZE(columns) + 1];
	const char **names = NULL;
	size_t nnames, nrows, ncols;
	char rail[RAIL_JOBS_MAX];
	struct row *rows;
	int by_w;

	if (!sort) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", by);
		return -EINVAL;
	}
	nnames = rr_job_names(set, &names);
	rows = build_rows(set, names, nnames, sort, &nrows);
	by_w = rail_jobs(sort, rows, nrows, rail, sizeof(rail));
	ncols = table_columns(sort, by_w, rows, nrows, cols);
	print_html(fp, rows, nrows, cols, ncols, sort, rail);
	free(rows);
	free(names);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .by = "iops_per_ma", .fmt = FMT_TABLE };
	const char **names = NULL;
	size_t nnames, nrows, i;
	struct rr_set set;
	struct row *rows;
	int rc;

	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	nnames = rr_job_names(&set, &names);
	rows = build_rows(&set, names, nnames, a.sort, &nrows);
	for (i = 0; i < nnames; i++)
		compare_warn_options(&set, names[i]);
	compare_warn_meters(&set);
	for (i = 0; i < set.nres; i++)
		if (!set.res[i].has_power)
			log_info(MOD, "%s: no power data (run without a meter): power columns are empty",
				 set.res[i].path);
	rc = print_rows(&a, &set, rows, nrows);
	free(rows);
	free(names);
	rr_set_free(&set);
	return rc;
}
