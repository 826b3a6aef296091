/* SPDX-License-Identifier: MIT */
/* iowatt plot: one chart per question, gnuplot templates run on data written from results. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/log.h"
#include "core/mem.h"
#include "report/plot.h"

#define MOD "plot"
#define DEFAULT_BATTERY "3000mAh@3.7V"

static int parse_charts(const char *arg, int *mask)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int rc = 0, bit;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bit = plot_chart_bit(tok);
		if (!bit) {
			log_err(MOD, "--chart '%s': expected efficiency, timeline, perf-power, latency, "
				     "battery or sweep", tok);
			rc = -EINVAL;
			break;
		}
		*mask |= bit;
	}
	free(copy);
	return rc;
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: iowatt plot RESULT.json... [-o DIR] [--format png|svg|dumb] [--chart NAME]\n"
		"  -o, --output DIR     where charts go (default: charts/; dumb without -o: stdout)\n"
		"  --format FMT         png (default), svg, or dumb (text for terminals)\n"
		"  --chart NAME[,NAME]  efficiency, timeline, perf-power, latency, battery, sweep\n"
		"                       (default all; sweep when an operation ran at several record sizes)\n"
		"  --label FILE=NAME    device name for a result file\n"
		"  --battery SPEC       battery of the battery chart (default 3000mAh@3.7V)\n"
		"  --plots-dir DIR      gnuplot templates (default: found next to iowatt)\n"
		"  --keep-data          keep the generated data and gnuplot files (path printed)\n");
}

/* What the command line asks for. */
struct plot_args {
	struct plot_opts o;	/* format, charts, directories, keep; the battery once parsed */
	struct result_args ra;	/* labels and battery */
};

/* One option; 0, the exit code of a usage error, or ARGS_HELP. */
static int plot_option(struct plot_args *a, int c)
{
	switch (c) {
	case 'o':
		a->o.outdir = optarg;
		return 0;
	case 'f':
		if (!strcmp(optarg, "png"))
			a->o.format = PLOT_PNG;
		else if (!strcmp(optarg, "svg"))
			a->o.format = PLOT_SVG;
		else if (!strcmp(optarg, "dumb") || !strcmp(optarg, "text"))
			a->o.format = PLOT_DUMB;
		else {
			log_err(MOD, "--format '%s': expected png, svg or dumb", optarg);
			return EXIT_USAGE;
		}
		return 0;
	case 'c':
		return parse_charts(optarg, &a->o.mask) ? EXIT_USAGE : 0;
	case 'P':
		a->o.plots_dir = optarg;
		return 0;
	case 'k':
		a->o.keep = 1;
		return 0;
	default:
		return result_option(&a->ra, c, optarg);
	}
}

static int parse_args(int argc, char **argv, struct plot_args *a)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },   { "format", required_argument, NULL, 'f' },
		{ "chart", required_argument, NULL, 'c' },    { "label", required_argument, NULL, 'l' },
		{ "battery", required_argument, NULL, 'B' },  { "plots-dir", required_argument, NULL, 'P' },
		{ "keep-data", no_argument, NULL, 'k' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	a->o.format = PLOT_PNG;
	result_args_init(&a->ra, MOD, usage, DEFAULT_BATTERY);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:f:c:l:h", opts, NULL)) != -1)
		if ((rc = plot_option(a, c)))
			return rc;
	a->o.bm = a->ra.bm;
	if (!a->o.mask)
		a->o.mask = PLOT_CH_ALL;
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc) {
		result_args_free(&a.ra);
		return rc == ARGS_HELP ? EXIT_OK : rc;
	}
	rc = plot_charts(&set, &a.o) ? EXIT_FAIL : EXIT_OK;
	rr_set_free(&set);
	result_args_free(&a.ra);
	return rc;
}
