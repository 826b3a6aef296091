/* SPDX-License-Identifier: MIT */
/* iowatt report: one self-contained HTML page of results: charts, table, context, methods. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analysis/results_read.h"
#include "analysis/sleep_figure.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "report/html.h"

#define MOD "report"
#define DEFAULT_BATTERY "3000mAh@3.7V"
#define PAGE_NAME HTML_PAGE_NAME

struct report_args {
	struct html_page_opts o; /* directory, metric, title, templates; the battery once parsed */
	struct result_args ra;	 /* labels and the battery chart's battery */
	const char *sleep_from;	 /* --sleep-from RESULT[:JOB] */
	int mix_emulated;
};

#define ROFF(f) offsetof(struct report_args, f)

/* Not const: --by's choices are compare's metrics, filled in on first use. */
static struct opt_desc report_opts[] = {
	{ .name = "output", .type = OPT_STRREF, .off = ROFF(o.outdir), .shortopt = 'o',
	  .metavar = "DIR", .help = "where the page goes (required)", .complete = "dir" },
	RESULT_LABEL_ROW(ROFF(ra), NULL),
	{ .name = "by", .type = OPT_STRREF, .off = ROFF(o.by), .metavar = "METRIC",
	  .help = "ranking of the comparison table (as compare --by) [default iops_per_ma]" },
	RESULT_BATTERY_ROW(ROFF(ra), DEFAULT_BATTERY, "battery of the battery chart", NULL),
	RESULT_SLEEP_ROW(ROFF(sleep_from), "the battery chart's system sleeps between bursts at "
			 "the power of this run (as size --sleep-from)", NULL),
	RESULT_MIX_ROW(ROFF(mix_emulated), NULL),
	{ .name = "title", .type = OPT_STRREF, .off = ROFF(o.title), .metavar = "TEXT",
	  .help = "the page's title (default: the devices' names)" },
	{ .name = "redact", .type = OPT_FLAG, .off = ROFF(o.redact),
	  .help = "a page to publish: paths cut to file names, no host name (the command, "
		  "target, mount point and meter specs included; the result files keep them)" },
	{ .name = "plots-dir", .type = OPT_STRREF, .off = ROFF(o.plots_dir), .metavar = "DIR",
	  .help = "gnuplot templates (default: found next to iowatt)", .complete = "dir" },
	SI_UNITS_OPTION(NULL),
	OPT_HELP_ROW(NULL),
};

const struct cmdline *report_cmdline(void)
{
	static const struct cmdline line = {
		.name = "report",
		.summary = "one self-contained HTML page of results: table, charts, methods",
		.synopsis = "RESULT.json... -o DIR [--label FILE=NAME]... [--by METRIC]\n"
			    "RESULT.json... -o DIR [--battery SPEC] [--title TEXT] [--plots-dir DIR]",
		.about = "One self-contained HTML page, DIR/" PAGE_NAME ": the comparison table, "
			 "every chart as inline SVG, each device's context, the meters, each job's "
			 "validity and the methods. It loads nothing from the network and needs no "
			 "script to read.",
		CMDLINE_OPTS(report_opts),
		RESULT_OPERANDS,
	};

	report_opts[2].choices = result_args_metrics();
	return &line;
}

/* What the table cannot say: -o is required. */
static int check_outdir(const void *base)
{
	const struct report_args *a = base;

	if (a->o.outdir)
		return 0;
	log_err(MOD, "-o DIR is required: the directory the page goes to");
	return -EINVAL;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct sleep_figure sleep;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_parse(&a.ra, report_cmdline(), &a, argc, argv, check_outdir, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	a.o.bm = a.ra.bm;
	rc = result_args_sleep(a.sleep_from, a.mix_emulated, &set, 1, &sleep, &a.o.sleep);
	if (rc)
		return rc;
	rc = html_page_write(&set, &a.o) ? EXIT_FAIL : EXIT_OK;
	if (a.o.sleep)
		sleep_figure_free(&sleep);
	rr_set_free(&set);
	return rc;
}
