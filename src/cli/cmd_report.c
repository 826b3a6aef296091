/* SPDX-License-Identifier: MIT */
/* iowatt report: one self-contained HTML page of results: charts, table, context, methods. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/log.h"
#include "report/html.h"

#define MOD "report"
#define DEFAULT_BATTERY "3000mAh@3.7V"
#define PAGE_NAME HTML_PAGE_NAME

struct report_args {
	struct html_page_opts o; /* directory, metric, title, templates; the battery once parsed */
	struct result_args ra;	 /* labels and the battery chart's battery */
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: iowatt report RESULT.json... -o DIR [--label FILE=NAME]... [--by METRIC]\n"
		"                     [--battery SPEC] [--title TEXT] [--plots-dir DIR]\n"
		"One self-contained HTML page, DIR/" PAGE_NAME ": the comparison table, every chart as\n"
		"inline SVG, each device's context, the meters, each job's validity and the methods.\n"
		"It loads nothing from the network and needs no script to read.\n"
		"  -o, --output DIR     where the page goes (required)\n"
		"  --label FILE=NAME    device name for a result file\n"
		"  --by METRIC          ranking of the comparison table (as compare --by)\n"
		"  --battery SPEC       battery of the battery chart (default " DEFAULT_BATTERY ")\n"
		"  --title TEXT         the page's title\n"
		"  --plots-dir DIR      gnuplot templates (default: found next to iowatt)\n");
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "label", required_argument, NULL, 'l' },
		{ "by", required_argument, NULL, 'b' },	    { "battery", required_argument, NULL, 'B' },
		{ "title", required_argument, NULL, 't' },  { "plots-dir", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 },
	};
	int c, rc;

	result_args_init(&a->ra, MOD, usage, DEFAULT_BATTERY);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:l:h", opts, NULL)) != -1) {
		if (c == 'o')
			a->o.outdir = optarg;
		else if (c == 'b')
			a->o.by = optarg;
		else if (c == 't')
			a->o.title = optarg;
		else if (c == 'P')
			a->o.plots_dir = optarg;
		else if ((rc = result_option(&a->ra, c, optarg)))
			return rc;
	}
	if (!a->o.outdir) {
		log_err(MOD, "-o DIR is required: the directory the page goes to");
		return EXIT_USAGE;
	}
	if (a->o.by && !compare_column_find(a->o.by)) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", a->o.by);
		return EXIT_USAGE;
	}
	a->o.bm = a->ra.bm;
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	rc = html_page_write(&set, &a.o) ? EXIT_FAIL : EXIT_OK;
	rr_set_free(&set);
	return rc;
}
