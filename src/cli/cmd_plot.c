/* SPDX-License-Identifier: MIT */
/* iowatt plot: one chart per question, gnuplot templates run on data written from results. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/version.h"
#include "report/plot.h"

#define MOD "plot"
#define DEFAULT_BATTERY "3000mAh@3.7V"


static const struct {
	const char *name;
	int bit;
} charts[] = {
	{ "efficiency", PLOT_CH_EFFICIENCY }, { "timeline", PLOT_CH_TIMELINE }, { "perf-power", PLOT_CH_PERF },
	{ "latency", PLOT_CH_LATENCY },	 { "battery", PLOT_CH_BATTERY },
	{ "sweep", PLOT_CH_SWEEP },
};

static int parse_charts(const char *arg, int *mask)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	size_t i;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(charts); i++)
			if (!strcmp(tok, charts[i].name) || (!strcmp(tok, "perf") && charts[i].bit == PLOT_CH_PERF))
				break;
		if (i == ARRAY_SIZE(charts)) {
			log_err(MOD, "--chart '%s': expected efficiency, timeline, perf-power, latency, "
				     "battery or sweep", tok);
			rc = -EINVAL;
			break;
		}
		*mask |= charts[i].bit;
	}
	free(copy);
	return rc;
}

static int dir_has_templates(const char *dir)
{
	char *p = xasprintf("%s/efficiency.gp", dir);
	int ok = access(p, R_OK) == 0;

	free(p);
	return ok;
}

/* Next to the binary (source tree, build dir), then the installed share directory. */
static char *find_plots_dir(void)
{
	static const char *const rel[] = { "plots", "../plots", "../share/iowatt/plots" };
	char exe[PATH_MAX], *slash, *cand;
	const char *env = getenv("IOWATT_PLOTS");
	ssize_t n;
	size_t i;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		for (i = 0; i < ARRAY_SIZE(rel); i++) {
			cand = xasprintf("%s/%s", exe, rel[i]);
			if (dir_has_templates(cand))
				return cand;
			free(cand);
		}
	}
	cand = xasprintf("%s/share/iowatt/plots", iowatt_prefix);
	if (dir_has_templates(cand))
		return cand;
	free(cand);
	return xstrdup("/usr/share/iowatt/plots");
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
	struct plot_ctx ctx; /* format */
	struct result_args ra; /* labels and battery */
	const char *outdir;
	const char *plots_dir_opt;
	char *plots_dir;
	int mask, keep;
};

static void plot_args_free(struct plot_args *a)
{
	free(a->plots_dir);
	result_args_free(&a->ra);
}

/* One option; 0, the exit code of a usage error, or ARGS_HELP. */
static int plot_option(struct plot_args *a, int c)
{
	switch (c) {
	case 'o':
		a->outdir = optarg;
		return 0;
	case 'f':
		if (!strcmp(optarg, "png"))
			a->ctx.format = PLOT_PNG;
		else if (!strcmp(optarg, "svg"))
			a->ctx.format = PLOT_SVG;
		else if (!strcmp(optarg, "dumb") || !strcmp(optarg, "text"))
			a->ctx.format = PLOT_DUMB;
		else {
			log_err(MOD, "--format '%s': expected png, svg or dumb", optarg);
			return EXIT_USAGE;
		}
		return 0;
	case 'c':
		return parse_charts(optarg, &a->mask) ? EXIT_USAGE : 0;
	case 'P':
		a->plots_dir_opt = optarg;
		return 0;
	case 'k':
		a->keep = 1;
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

	a->ctx.format = PLOT_PNG;
	result_args_init(&a->ra, MOD, usage, DEFAULT_BATTERY);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:f:c:l:h", opts, NULL)) != -1)
		if ((rc = plot_option(a, c)))
			return rc;
	a->ctx.bm = a->ra.bm;
	if (!a->mask)
		a->mask = PLOT_CH_ALL;
	return 0;
}

char *plot_templates_dir(const char *override)
{
	char *dir = override ? xstrdup(override) : find_plots_dir();

	if (dir_has_templates(dir))
		return dir;
	log_err(MOD, "gnuplot templates not found in %s (--plots-dir DIR or IOWATT_PLOTS)", dir);
	free(dir);
	return NULL;
}

/* The output directory and a private directory for the charts' data. 0 or -errno. */
static int make_dirs(struct plot_args *a)
{
	int rc;

	if (!a->outdir && a->ctx.format != PLOT_DUMB)
		a->outdir = "charts";
	rc = a->outdir ? mkdir_p(a->outdir, 0755) : 0;
	if (rc) {
		log_err(MOD, "-o %s: %s", a->outdir, strerror(-rc));
		return rc;
	}
	return plot_datadir_make(&a->ctx);
}

int plot_datadir_make(struct plot_ctx *ctx)
{
	int rc = private_dir_create(&ctx->priv, "iowatt-plot");

	ctx->datadir = rc ? NULL : ctx->priv.path;
	return rc;
}

/* Every chart asked for; a missing gnuplot stops at the first: no point trying the others. */
int plot_draw(struct plot_ctx *ctx, int mask)
{
	const struct rr_set *set = ctx->set;
	size_t i;
	int rc = 0;

	if (mask & PLOT_CH_EFFICIENCY)
		rc = plot_efficiency(ctx);
	for (i = 0; rc != -ENOENT && (mask & PLOT_CH_TIMELINE) && i < set->nres; i++)
		rc = plot_timeline(ctx, &set->res[i]);
	if (rc != -ENOENT && (mask & PLOT_CH_PERF))
		rc = plot_perf_power(ctx);
	if (rc != -ENOENT && (mask & PLOT_CH_LATENCY))
		rc = plot_latency(ctx);
	if (rc != -ENOENT && (mask & PLOT_CH_BATTERY))
		rc = plot_battery(ctx);
	if (rc != -ENOENT && (mask & PLOT_CH_SWEEP))
		rc = plot_sweep(ctx);
	return rc == -ENOENT || ctx->failed ? EXIT_FAIL : EXIT_OK;
}

void plot_datadir_remove(struct plot_ctx *ctx, int keep)
{
	if (ctx->datadir && keep)
		log_info(MOD, "chart data and gnuplot meta files kept in %s", ctx->datadir);
	private_dir_close(&ctx->priv, keep);
	ctx->datadir = NULL;
}

static void sync_dir(struct plot_ctx *ctx, int mask)
{
	const char *kinds[ARRAY_SIZE(charts)];
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(charts); i++)
		if (mask & charts[i].bit)
			kinds[n++] = charts[i].name;
	plot_dir_sync(ctx, kinds, n);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a;
	struct rr_set set;
	size_t i;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc) {
		plot_args_free(&a);
		return rc == ARGS_HELP ? EXIT_OK : rc;
	}
	a.plots_dir = plot_templates_dir(a.plots_dir_opt);
	if (!a.plots_dir) {
		rr_set_free(&set);
		plot_args_free(&a);
		return EXIT_FAIL;
	}
	rc = make_dirs(&a) ? EXIT_FAIL : EXIT_OK;
	if (rc == EXIT_OK) {
		a.ctx.set = &set;
		a.ctx.outdir = a.outdir;
		a.ctx.plots_dir = a.plots_dir;
		rc = plot_draw(&a.ctx, a.mask);
		/* Only a complete set of charts replaces the last one. */
		if (rc == EXIT_OK)
			sync_dir(&a.ctx, a.mask);
	}
	rr_set_free(&set);
	for (i = 0; i < a.ctx.nstems; i++)
		free(a.ctx.stems[i]);
	free(a.ctx.stems);
	for (i = 0; i < a.ctx.nwritten; i++)
		free(a.ctx.written[i]);
	free(a.ctx.written);
	plot_datadir_remove(&a.ctx, a.keep);
	plot_args_free(&a);
	return rc;
}
