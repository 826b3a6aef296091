/* SPDX-License-Identifier: MIT */
/* iowatt compare: one row per device and job, ranked by a metric, as a table, markdown or CSV. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/si_units.h"


struct compare_args {
	const char *by, *out_path;
	int matrix; /* --matrix: iozone's table per result */
	const struct compare_column *sort;
	struct result_args ra; /* labels */
	int fmt;
};

static const struct opt_choice format_choices[] = {
	{ "table", "aligned columns for a terminal" },
	{ "md", "a Markdown table" },
	{ "markdown", "the same as md" },
	{ "csv", "every column, with its +-95 % half-width" },
	{ "cdm", "CrystalDiskMark's text per device: Read and Write per test, with J/GB and "
		 "IOPS/mA" },
	{ NULL, NULL },
};

static int parse_format(const struct opt_desc *d, void *base, const char *value, char *err,
			size_t errlen)
{
	int *fmt = (int *)(void *)((char *)base + d->off);

	(void)err;
	(void)errlen;
	*fmt = !strcmp(value, "csv")	 ? FMT_CSV
	       : !strcmp(value, "cdm")	 ? FMT_CDM
	       : !strcmp(value, "table") ? FMT_TABLE
					 : FMT_MD;
	return 0;
}

#define COFF(f) offsetof(struct compare_args, f)

/* Not const: --by's choices are compare's metrics, filled in on first use. */
static struct opt_desc compare_opts[] = {
	{ .name = "by", .type = OPT_STRREF, .off = COFF(by), .shortopt = 'b', .metavar = "METRIC",
	  .help = "rank by this metric [default iops_per_ma; with --matrix bw_bytes]" },
	{ .name = "format", .type = OPT_FUNC, .parse = parse_format, .off = COFF(fmt),
	  .shortopt = 'f', .def = "table", .choices = format_choices, .metavar = "FMT",
	  .help = "how the comparison is written" },
	RESULT_LABEL_ROW(COFF(ra), NULL),
	{ .name = "output", .type = OPT_STRREF, .off = COFF(out_path), .shortopt = 'o',
	  .metavar = "FILE", .help = "write it to FILE instead of stdout", .complete = "file" },
	{ .name = "matrix", .type = OPT_FLAG, .off = COFF(matrix),
	  .help = "iozone's table per device instead: a row per record size, a column per "
		  "operation (write, rewrite, read, reread, randread, randwrite), each cell "
		  "METRIC (default bw_bytes, as MB/s); for the record-sweep profile" },
	SI_UNITS_OPTION(NULL),
	OPT_HELP_ROW(NULL),
};

const struct cmdline *compare_cmdline(void)
{
	static struct cmdline line = {
		.name = "compare",
		.summary = "compare devices across result files",
		.synopsis = "RESULT.json... [--by METRIC] [--format table|md|csv|cdm]\n"
			    "RESULT.json... --matrix [--by METRIC]",
		.about = "One row per device and job, ranked within each job by METRIC; invalid "
			 "rows are listed but not ranked.",
		CMDLINE_OPTS(compare_opts),
		RESULT_OPERANDS,
	};

	compare_opts[0].choices = result_args_metrics();
	return &line;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct compare_opts o;
	struct rr_set set;
	int rc;

	rc = result_args_parse(&a.ra, compare_cmdline(), &a, argc, argv, NULL, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	if (!a.by)
		a.by = a.matrix ? "bw_bytes" : "iops_per_ma";
	a.sort = compare_column_find(a.by); /* --by's choices are the columns */
	o = (struct compare_opts){ .sort = a.sort, .out_path = a.out_path, .matrix = a.matrix,
				   .fmt = a.fmt };
	rc = compare_results(&set, &o) ? EXIT_FAIL : EXIT_OK;
	rr_set_free(&set);
	return rc;
}
