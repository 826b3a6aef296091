/* SPDX-License-Identifier: MIT */
/* iowatt compare: one row per device and job, ranked by a metric, as a table, markdown or CSV. */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "core/log.h"
#include "core/util.h"
#include "result/results_read.h"

#define MOD "compare"

enum { FMT_TABLE, FMT_MD, FMT_CSV };

struct row {
	const struct rr_result *r;
	const struct rr_job *j;
	double key;
	int rank; /* 0: not ranked (invalid or no value) */
};

/* A column: CSV/markdown header is the result's key name; the table shows units. */
struct column {
	const char *key;
	const char *head;
	size_t off;	/* offsetof(struct rr_job, ...) for numbers, or SIZE_MAX */
	double scale;	/* table/markdown value = field * scale */
	const char *fmt;
	int lower_better;
	int brief;	/* shown in table and markdown */
};

#define NUM(k, h, field, sc, f, lb, br) { k, h, offsetof(struct rr_job, field), sc, f, lb, br }

static const struct column columns[] = {
	NUM("bw_bytes", "MB/s", bw_bytes, 1e-6, "%.1f", 0, 1),
	NUM("iops", "IOPS", iops, 1, "%.0f", 0, 1),
	NUM("clat_p99_ns", "p99 ms", p99_ns, 1e-6, "%.2f", 1, 1),
	NUM("active_w", "W", active_w, 1, "%.3f", 1, 1),
	NUM("active_ma", "mA", active_ma, 1, "%.0f", 1, 1),
	NUM("idle_w", "idle W", idle_w, 1, "%.3f", 1, 0),
	NUM("iops_per_ma", "IOPS/mA", iops_per_ma, 1, "%.3g", 0, 1),
	NUM("iops_per_w", "IOPS/W", iops_per_w, 1, "%.4g", 0, 0),
	NUM("mbps_per_w", "MB/s/W", mbps_per_w, 1, "%.3g", 0, 0),
	NUM("j_per_gb", "J/GB", j_per_gb, 1, "%.1f", 1, 1),
	NUM("j_per_gb_net", "J/GB net", j_per_gb_net, 1, "%.1f", 1, 0),
	NUM("uj_per_io", "uJ/IO", uj_per_io, 1, "%.4g", 1, 0),
	NUM("uah_per_io", "uAh/IO", uah_per_io, 1, "%.4g", 1, 0),
	NUM("uah_per_mb", "uAh/MB", uah_per_mb, 1, "%.4g", 1, 0),
};

static double col_value(const struct column *c, const struct rr_job *j)
{
	double v;

	memcpy(&v, (const char *)j + c->off, sizeof(v));
	return v;
}

static const struct column *find_column(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(columns); i++)
		if (!strcmp(columns[i].key, key))
			return &columns[i];
	if (!strcmp(key, "p99"))
		return &columns[2];
	return NULL;
}

static const struct column *sort_col;

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int xv = x->j->valid != 0 && !isnan(x->key), yv = y->j->valid != 0 && !isnan(y->key);

	if (xv != yv)
		return yv - xv;
	if (isnan(x->key) || isnan(y->key))
		return isnan(x->key) - isnan(y->key);
	if (x->key == y->key)
		return 0;
	return (x->key < y->key) == !sort_col->lower_better ? 1 : -1;
}

static const char *valid_text(const struct rr_job *j)
{
	return j->valid > 0 ? "yes" : j->valid == 0 ? "NO" : "-";
}

static void meter_text(const struct rr_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", r->meter, r->emulated ? " (emulated)" : "",
		 r->manual ? " (manual)" : "");
}

static void job_text(const struct rr_job *j, char *buf, size_t len)
{
	if (j->loop > 1)
		snprintf(buf, len, "%s#%ld", j->name, j->loop);
	else
		snprintf(buf, len, "%s", j->name);
}

/* One cell as text for the table/markdown; "-" when the value is missing. */
static void cell(const struct column *c, const struct rr_job *j, char *buf, size_t len)
{
	double v = col_value(c, j);

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, c->fmt, v * c->scale);
}

#define NTEXT 6
#define CELL 224

static void text_cells(const struct row *rw, char cells[][CELL], size_t *n,
		       const struct column **cols, size_t ncols)
{
	size_t k = 0, i;

	if (rw->rank)
		snprintf(cells[k++], CELL, "%d", rw->rank);
	else
		snprintf(cells[k++], CELL, "-");
	snprintf(cells[k++], CELL, "%s", rw->r->label);
	job_text(rw->j, cells[k++], CELL);
	for (i = 0; i < ncols; i++)
		cell(cols[i], rw->j, cells[k++], CELL);
	snprintf(cells[k++], CELL, "%s", valid_text(rw->j));
	snprintf(cells[k++], CELL, "%s", *rw->r->link ? rw->r->link : rw->r->transport);
	snprintf(cells[k++], CELL, "%s", rw->r->filesystem);
	meter_text(rw->r, cells[k++], CELL);
	*n = k;
}

static void print_text(FILE *fp, const struct row *rows, size_t nrows, const struct column **cols,
		       size_t ncols, int md)
{
	char (*cells)[CELL];
	const char *heads[32];
	size_t w[32], n = 0, i, k, nh = 0;

	heads[nh++] = "rank";
	heads[nh++] = "device";
	heads[nh++] = "job";
	for (i = 0; i < ncols; i++)
		heads[nh++] = md && cols[i]->scale == 1 ? cols[i]->key : cols[i]->head;
	heads[nh++] = "valid";
	heads[nh++] = "link";
	heads[nh++] = "filesystem";
	heads[nh++] = "meter";
	for (k = 0; k < nh; k++)
		w[k] = strlen(heads[k]);
	cells = xcalloc(nh, CELL);
	for (i = 0; i < nrows; i++) {
		text_cells(&rows[i], cells, &n, cols, ncols);
		for (k = 0; k < n; k++)
			if (strlen(cells[k]) > w[k])
				w[k] = strlen(cells[k]);
	}
	for (k = 0; k < nh; k++) {
		int left = k == 1 || k == 2 || k >= nh - 3;

		if (md)
			fprintf(fp, "| %-*s ", (int)w[k], heads[k]);
		else
			fprintf(fp, left ? "%-*s%s" : "%*s%s", k + 1 < nh ? (int)w[k] : 0, heads[k],
				k + 1 < nh ? "  " : "\n");
	}
	if (md) {
		fprintf(fp, "|\n");
		for (k = 0; k < nh; k++) {
			int left = k == 1 || k == 2 || k >= nh - 3;

			fprintf(fp, "|%s", left ? ":" : "-");
			for (i = 0; i < w[k]; i++)
				fputc('-', fp);
			fprintf(fp, "%s", left ? "-" : ":");
		}
		fprintf(fp, "|\n");
	}
	for (i = 0; i < nrows; i++) {
		text_cells(&rows[i], cells, &n, cols, ncols);
		for (k = 0; k < n; k++) {
			int left = k == 1 || k == 2 || k >= nh - 3;

			if (md)
				fprintf(fp, "| %-*s ", (int)w[k], cells[k]);
			else
				fprintf(fp, left ? "%-*s%s" : "%*s%s", k + 1 < n ? (int)w[k] : 0,
					cells[k], k + 1 < n ? "  " : "\n");
		}
		if (md)
			fprintf(fp, "|\n");
	}
	free(cells);
}

static void csv_str(FILE *fp, const char *s, int last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', fp);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', fp);
			fputc(*s, fp);
		}
		fputc('"', fp);
	} else {
		fputs(s, fp);
	}
	fputc(last ? '\n' : ',', fp);
}

static void print_csv(FILE *fp, const struct row *rows, size_t nrows)
{
	char buf[CELL];
	size_t i, k;

	fprintf(fp, "rank,device,job,loop,rw,bs,");
	for (k = 0; k < ARRAY_SIZE(columns); k++)
		fprintf(fp, "%s,", columns[k].key);
	fprintf(fp, "valid,reasons,transport,link,filesystem,meter,emulated,file\n");
	for (i = 0; i < nrows; i++) {
		const struct row *rw = &rows[i];

		if (rw->rank)
			fprintf(fp, "%d,", rw->rank);
		else
			fprintf(fp, ",");
		csv_str(fp, rw->r->label, 0);
		csv_str(fp, rw->j->name, 0);
		fprintf(fp, "%ld,%s,%llu,", rw->j->loop, rw->j->rw, (unsigned long long)rw->j->bs);
		for (k = 0; k < ARRAY_SIZE(columns); k++) {
			double v = col_value(&columns[k], rw->j);

			if (isnan(v))
				fprintf(fp, ",");
			else
				fprintf(fp, "%.10g,", v);
		}
		fprintf(fp, "%s,", rw->j->valid > 0 ? "true" : rw->j->valid == 0 ? "false" : "");
		csv_str(fp, rw->j->reasons, 0);
		csv_str(fp, rw->r->transport, 0);
		csv_str(fp, rw->r->link, 0);
		csv_str(fp, rw->r->filesystem, 0);
		csv_str(fp, rw->r->meter, 0);
		fprintf(fp, "%s,", rw->r->emulated ? "true" : "false");
		snprintf(buf, sizeof(buf), "%s", rw->r->path);
		csv_str(fp, buf, 1);
	}
}

/* Keys whose difference does not change the workload. */
static int option_ignored(const char *key)
{
	static const char *const ign[] = { "filename", "directory", "name", "src_file", "src_line" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ign); i++)
		if (!strcmp(key, ign[i]))
			return 1;
	return 0;
}

static void warn_options(const struct rr_set *set, const char *const *names, size_t nnames)
{
	size_t n, i, a;

	for (n = 0; n < nnames; n++) {
		const struct rr_job *ref = NULL;
		const struct rr_result *refr = NULL;

		for (i = 0; i < set->nres; i++) {
			const struct rr_job *j = rr_find_job(&set->res[i], names[n]);
			const char *key;
			json_t *v;
			char diff[256] = "";

			if (!j)
				continue;
			if (!ref) {
				ref = j;
				refr = &set->res[i];
				continue;
			}
			json_object_foreach(ref->options, key, v) {
				json_t *o = json_object_get(j->options, key);
				size_t len = strlen(diff);

				if (option_ignored(key) || (o && json_equal(o, v)))
					continue;
				snprintf(diff + len, sizeof(diff) - len, "%s%s", len ? ", " : "", key);
			}
			json_object_foreach(j->options, key, v) {
				size_t len = strlen(diff);

				if (option_ignored(key) || json_object_get(ref->options, key))
					continue;
				snprintf(diff + len, sizeof(diff) - len, "%s%s", len ? ", " : "", key);
			}
			if (*diff)
				log_warn(MOD, "job '%s' ran with different options in %s and %s (%s): "
					      "its rows are not comparable", names[n], refr->path,
					 set->res[i].path, diff);
		}
	}
	for (a = 1; a < set->nres; a++) {
		if (strcmp(set->res[a].meter, set->res[0].meter)) {
			log_warn(MOD, "results were metered with different meters (%s in %s, %s in %s): "
				      "meter accuracy and what each measured (rail, whole board) may differ",
				 set->res[0].meter, set->res[0].path, set->res[a].meter, set->res[a].path);
			break;
		}
	}
	for (a = 0; a < set->nres; a++) {
		if (set->res[a].emulated)
			log_warn(MOD, "%s: power figures come from an EMULATED meter, not a measurement",
				 set->res[a].path);
		if (set->res[a].manual)
			log_warn(MOD, "%s: power figures were entered by hand (manual meter)",
				 set->res[a].path);
	}
}

static void usage(FILE *fp)
{
	size_t i;
	int lower;

	fprintf(fp, "usage: iowatt compare RESULT.json... [--by METRIC] [--format table|md|csv]\n"
		    "                      [--label FILE=NAME]... [-o FILE]\n"
		    "One row per device and job, ranked within each job by METRIC (default\n"
		    "iops_per_ma); invalid rows are listed but not ranked.\n");
	for (lower = 0; lower < 2; lower++) {
		fprintf(fp, "  %s is better:", lower ? "lower " : "higher");
		for (i = 0; i < ARRAY_SIZE(columns); i++)
			if (columns[i].lower_better == lower)
				fprintf(fp, " %s", columns[i].key);
		fprintf(fp, "\n");
	}
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },	   { "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, 'l' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },	   { NULL, 0, NULL, 0 },
	};
	const char *by = "iops_per_ma", *out_path = NULL, **names = NULL;
	const struct column *brief[ARRAY_SIZE(columns) + 1];
	char **labels = NULL;
	size_t nlabels = 0, nnames, nrows = 0, nbrief = 0, i, k, n;
	struct rr_set set;
	struct row *rows;
	int fmt = FMT_TABLE, c, rank, rc = EXIT_OK;
	FILE *fp = stdout;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:f:l:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			by = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				fmt = FMT_TABLE;
			else if (!strcmp(optarg, "md") || !strcmp(optarg, "markdown"))
				fmt = FMT_MD;
			else if (!strcmp(optarg, "csv"))
				fmt = FMT_CSV;
			else {
				log_err(MOD, "--format '%s': expected table, md or csv", optarg);
				free(labels);
				return EXIT_USAGE;
			}
			break;
		case 'l':
			labels = xrealloc(labels, (nlabels + 1) * sizeof(*labels));
			labels[nlabels++] = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			free(labels);
			return EXIT_OK;
		default:
			usage(stderr);
			free(labels);
			return EXIT_USAGE;
		}
	}
	sort_col = find_column(by);
	if (!sort_col) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", by);
		free(labels);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		log_err(MOD, "no result files given");
		usage(stderr);
		free(labels);
		return EXIT_USAGE;
	}
	if (rr_set_load(&set, argv + optind, (size_t)(argc - optind), labels, nlabels)) {
		free(labels);
		return EXIT_USAGE;
	}
	free(labels);

	nnames = rr_job_names(&set, &names);
	for (i = 0; i < set.nres; i++)
		nrows += set.res[i].njobs;
	rows = xcalloc(nrows ? nrows : 1, sizeof(*rows));
	nrows = 0;
	/* Group by job name in order of first appearance, rank within the group. */
	for (n = 0; n < nnames; n++) {
		size_t first = nrows;

		for (i = 0; i < set.nres; i++) {
			for (k = 0; k < set.res[i].njobs; k++) {
				const struct rr_job *j = &set.res[i].jobs[k];

				if (strcmp(j->name, names[n]))
					continue;
				rows[nrows].r = &set.res[i];
				rows[nrows].j = j;
				rows[nrows].key = col_value(sort_col, j);
				nrows++;
			}
		}
		qsort(rows + first, nrows - first, sizeof(*rows), row_cmp);
		rank = 0;
		for (k = first; k < nrows; k++)
			if (rows[k].j->valid != 0 && !isnan(rows[k].key))
				rows[k].rank = ++rank;
	}
	warn_options(&set, names, nnames);
	for (i = 0; i < set.nres; i++)
		if (!set.res[i].has_power)
			log_info(MOD, "%s: no power data (run without a meter): power columns are empty",
				 set.res[i].path);

	for (i = 0; i < ARRAY_SIZE(columns); i++)
		if (columns[i].brief || &columns[i] == sort_col)
			brief[nbrief++] = &columns[i];
	if (out_path) {
		fp = fopen(out_path, "w");
		if (!fp) {
			log_err(MOD, "-o %s: %m", out_path);
			rc = EXIT_FAIL;
			goto out;
		}
	}
	if (fmt == FMT_CSV)
		print_csv(fp, rows, nrows);
	else
		print_text(fp, rows, nrows, brief, nbrief, fmt == FMT_MD);
	if (fmt == FMT_TABLE)
		fprintf(fp, "\nranked by %s within each job (%s is better); invalid rows are not ranked\n",
			sort_col->key, sort_col->lower_better ? "lower" : "higher");
	if (fp != stdout && fclose(fp)) {
		log_err(MOD, "-o %s: %m", out_path);
		rc = EXIT_FAIL;
	}
out:
	free(rows);
	free(names);
	rr_set_free(&set);
	return rc;
}
