/* SPDX-License-Identifier: MIT */
/* iowatt plot: one chart per question, gnuplot templates run on data written from results. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results_read.h"
#include "analysis/sleep_figure.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "report/plot.h"

#define DEFAULT_BATTERY "3000mAh@3.7V"

/* What the command line asks for. */
struct plot_args {
	struct plot_opts o;	/* format, charts, directories, keep; the battery once parsed */
	struct result_args ra;	/* labels and battery */
	const char *sleep_from; /* --sleep-from RESULT[:JOB] */
	int mix_emulated;
};

static const struct opt_choice format_choices[] = {
	{ "png", "images" },
	{ "svg", "scalable vectors, text kept as text" },
	{ "dumb", "text for terminals" },
	{ "text", "the same as dumb" },
	{ NULL, NULL },
};

static int parse_format(const struct opt_desc *d, void *base, const char *value, char *err,
			size_t errlen)
{
	int *format = (int *)(void *)((char *)base + d->off);

	(void)err;
	(void)errlen;
	*format = !strcmp(value, "png") ? PLOT_PNG : !strcmp(value, "svg") ? PLOT_SVG : PLOT_DUMB;
	return 0;
}

/* The charts' bits; the engine has checked that each name is a chart. */
static int parse_charts(const struct opt_desc *d, void *base, const char *value, char *err,
			size_t errlen)
{
	int *mask = (int *)(void *)((char *)base + d->off);
	char *copy = xstrdup(value), *tok, *save = NULL;

	(void)err;
	(void)errlen;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		*mask |= plot_chart_bit(tok);
	free(copy);
	return 0;
}

#define POFF(f) offsetof(struct plot_args, f)

/* Not const: --chart's choices are the chart table's names, filled in on first use. */
static struct opt_desc plot_opts[] = {
	{ .name = "output", .type = OPT_STRREF, .off = POFF(o.outdir), .shortopt = 'o',
	  .metavar = "DIR", .help = "where charts go (default: charts/; dumb without -o: stdout)",
	  .complete = "dir" },
	{ .name = "format", .type = OPT_FUNC, .parse = parse_format, .off = POFF(o.format),
	  .shortopt = 'f', .def = "png", .choices = format_choices, .metavar = "FMT",
	  .help = "the charts' file format" },
	{ .name = "chart", .type = OPT_FUNC, .parse = parse_charts, .off = POFF(o.mask),
	  .shortopt = 'c', .list = 1, .metavar = "NAME[,NAME]",
	  .help = "only these charts (default: all; sweep when an operation ran at several "
		  "record sizes)" },
	RESULT_LABEL_ROW(POFF(ra), NULL),
	RESULT_BATTERY_ROW(POFF(ra), DEFAULT_BATTERY, "battery of the battery chart", NULL),
	RESULT_SLEEP_ROW(POFF(sleep_from), "the battery chart's system sleeps between bursts at "
			 "the power of this run (as size --sleep-from), drawn beside the idle and "
			 "write currents", NULL),
	RESULT_MIX_ROW(POFF(mix_emulated), NULL),
	{ .name = "plots-dir", .type = OPT_STRREF, .off = POFF(o.plots_dir), .metavar = "DIR",
	  .help = "gnuplot templates (default: found next to iowatt)", .complete = "dir" },
	{ .name = "keep-data", .type = OPT_FLAG, .off = POFF(o.keep),
	  .help = "keep the generated data and gnuplot files (path printed)" },
	SI_UNITS_OPTION(NULL),
	OPT_HELP_ROW(NULL),
};

static const struct cmdline plot_cmd = {
	.name = "plot",
	.summary = "draw charts from result files (gnuplot)",
	.synopsis = "RESULT.json... [-o DIR] [--format png|svg|dumb] [--chart NAME]",
	.about = "One chart per question, drawn by gnuplot from the result files.",
	CMDLINE_OPTS(plot_opts),
	RESULT_OPERANDS,
};

const struct cmdline *plot_cmdline(void)
{
	plot_opts[2].choices = plot_chart_choices();
	return &plot_cmd;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a;
	struct sleep_figure sleep;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_parse(&a.ra, plot_cmdline(), &a, argc, argv, NULL, &set);
	if (rc)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	a.o.bm = a.ra.bm;
	if (!a.o.mask)
		a.o.mask = PLOT_ALL_CHARTS;
	rc = result_args_sleep(a.sleep_from, a.mix_emulated, &set, 1, &sleep, &a.o.sleep);
	if (rc)
		return rc;
	rc = plot_charts(&set, &a.o) ? EXIT_FAIL : EXIT_OK;
	if (a.o.sleep)
		sleep_figure_free(&sleep);
	rr_set_free(&set);
	return rc;
}
