/* SPDX-License-Identifier: MIT */
/* iowatt compare: one row per device and job, ranked by a metric, as a table, markdown or CSV. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/log.h"

#define MOD "compare"

struct compare_args {
	const char *by, *out_path;
	int matrix; /* --matrix: iozone's table per result */
	int by_given;
	const struct compare_column *sort;
	struct result_args ra; /* labels */
	int fmt;
};

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
		for (i = 0; i < compare_ncolumns; i++)
			if (compare_columns[i].lower_better == lower)
				fprintf(fp, " %s", compare_columns[i].key);
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
	a->sort = compare_column_find(a->by);
	if (!a->sort) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", a->by);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .by = "iops_per_ma", .fmt = FMT_TABLE };
	struct compare_opts o;
	struct rr_set set;
	int rc;

	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	o = (struct compare_opts){ .sort = a.sort, .out_path = a.out_path, .matrix = a.matrix,
				   .fmt = a.fmt };
	rc = compare_results(&set, &o) ? EXIT_FAIL : EXIT_OK;
	rr_set_free(&set);
	return rc;
}
