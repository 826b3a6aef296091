/* SPDX-License-Identifier: MIT */
/* iowatt plot: one chart per question, gnuplot templates run on data written from results. */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/log.h"
#include "core/util.h"
#include "core/version.h"
#include "report/plot.h"

#define MOD "plot"

enum { CH_EFFICIENCY = 1, CH_TIMELINE = 2, CH_PERF = 4, CH_LATENCY = 8, CH_BATTERY = 16 };

static const struct {
	const char *name;
	int bit;
} charts[] = {
	{ "efficiency", CH_EFFICIENCY }, { "timeline", CH_TIMELINE }, { "perf-power", CH_PERF },
	{ "latency", CH_LATENCY },	 { "battery", CH_BATTERY },
};

static int parse_charts(const char *arg, int *mask)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	size_t i;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(charts); i++)
			if (!strcmp(tok, charts[i].name) || (!strcmp(tok, "perf") && charts[i].bit == CH_PERF))
				break;
		if (i == ARRAY_SIZE(charts)) {
			log_err(MOD, "--chart '%s': expected efficiency, timeline, perf-power, latency or "
				     "battery", tok);
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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: iowatt plot RESULT.json... [-o DIR] [--format png|svg|dumb] [--chart NAME]\n"
		"  -o, --output DIR     where charts go (default: charts/; dumb without -o: stdout)\n"
		"  --format FMT         png (default), svg, or dumb (text for terminals)\n"
		"  --chart NAME[,NAME]  efficiency, timeline, perf-power, latency, battery (default all)\n"
		"  --label FILE=NAME    device name for a result file\n"
		"  --battery SPEC       battery of the battery chart (default 3000mAh@3.7V)\n"
		"  --plots-dir DIR      gnuplot templates (default: found next to iowatt)\n"
		"  --keep-data          keep the generated data and gnuplot files (path printed)\n");
}

static int cleanup(char **labels, char *plots_dir, char *datadir, int keep, int rc)
{
	if (datadir && keep)
		log_info(MOD, "chart data and gnuplot meta files kept in %s", datadir);
	else if (datadir)
		nftw(datadir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	free(datadir);
	free(plots_dir);
	free(labels);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },   { "format", required_argument, NULL, 'f' },
		{ "chart", required_argument, NULL, 'c' },    { "label", required_argument, NULL, 'l' },
		{ "battery", required_argument, NULL, 'B' },  { "plots-dir", required_argument, NULL, 'P' },
		{ "keep-data", no_argument, NULL, 'k' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct plot_ctx ctx = { .format = PLOT_PNG };
	const char *outdir = NULL, *tmp;
	char **labels = NULL, *plots_dir = NULL, *datadir = NULL;
	size_t nlabels = 0, i;
	struct rr_set set;
	int c, mask = 0, keep = 0, rc;

	ctx.bm.usable_frac = BATTERY_DEFAULT_USABLE;
	ctx.bm.regulator_eff = BATTERY_DEFAULT_REGULATOR;
	ctx.bm.self_discharge_month = BATTERY_DEFAULT_SELF_DISCHARGE;
	battery_parse("3000mAh@3.7V", &ctx.bm.bat);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:f:c:l:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "png"))
				ctx.format = PLOT_PNG;
			else if (!strcmp(optarg, "svg"))
				ctx.format = PLOT_SVG;
			else if (!strcmp(optarg, "dumb") || !strcmp(optarg, "text"))
				ctx.format = PLOT_DUMB;
			else {
				log_err(MOD, "--format '%s': expected png, svg or dumb", optarg);
				return cleanup(labels, plots_dir, NULL, 0, EXIT_USAGE);
			}
			break;
		case 'c':
			if (parse_charts(optarg, &mask))
				return cleanup(labels, plots_dir, NULL, 0, EXIT_USAGE);
			break;
		case 'l':
			labels = xrealloc(labels, (nlabels + 1) * sizeof(*labels));
			labels[nlabels++] = optarg;
			break;
		case 'B':
			if (battery_parse(optarg, &ctx.bm.bat)) {
				log_err(MOD, "--battery '%s': expected e.g. 3000mAh@3.7V or 11.1Wh", optarg);
				return cleanup(labels, plots_dir, NULL, 0, EXIT_USAGE);
			}
			break;
		case 'P':
			free(plots_dir);
			plots_dir = xstrdup(optarg);
			break;
		case 'k':
			keep = 1;
			break;
		case 'h':
			usage(stdout);
			return cleanup(labels, plots_dir, NULL, 0, EXIT_OK);
		default:
			usage(stderr);
			return cleanup(labels, plots_dir, NULL, 0, EXIT_USAGE);
		}
	}
	if (optind >= argc) {
		log_err(MOD, "no result files given");
		usage(stderr);
		return cleanup(labels, plots_dir, NULL, 0, EXIT_USAGE);
	}
	if (!mask)
		mask = CH_EFFICIENCY | CH_TIMELINE | CH_PERF | CH_LATENCY | CH_BATTERY;
	if (!plots_dir)
		plots_dir = find_plots_dir();
	if (!dir_has_templates(plots_dir)) {
		log_err(MOD, "gnuplot templates not found in %s (--plots-dir DIR or IOWATT_PLOTS)",
			plots_dir);
		return cleanup(labels, plots_dir, NULL, 0, EXIT_FAIL);
	}
	if (rr_set_load(&set, argv + optind, (size_t)(argc - optind), labels, nlabels))
		return cleanup(labels, plots_dir, NULL, 0, EXIT_USAGE);
	if (!outdir && ctx.format != PLOT_DUMB)
		outdir = "charts";
	rc = outdir ? mkdir_p(outdir, 0755) : 0;
	if (rc) {
		log_err(MOD, "-o %s: %s", outdir, strerror(-rc));
		rr_set_free(&set);
		return cleanup(labels, plots_dir, NULL, 0, EXIT_FAIL);
	}
	tmp = getenv("TMPDIR");
	datadir = xasprintf("%s/iowatt-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(datadir)) {
		log_err(MOD, "%s: %m", datadir);
		rr_set_free(&set);
		free(datadir);
		return cleanup(labels, plots_dir, NULL, 0, EXIT_FAIL);
	}
	ctx.set = &set;
	ctx.outdir = outdir;
	ctx.plots_dir = plots_dir;
	ctx.datadir = datadir;

	/* A missing gnuplot stops at the first chart: no point trying the others. */
	rc = 0;
	if (mask & CH_EFFICIENCY)
		rc = plot_efficiency(&ctx);
	for (i = 0; rc != -ENOENT && (mask & CH_TIMELINE) && i < set.nres; i++)
		rc = plot_timeline(&ctx, &set.res[i]);
	if (rc != -ENOENT && (mask & CH_PERF))
		rc = plot_perf_power(&ctx);
	if (rc != -ENOENT && (mask & CH_LATENCY))
		rc = plot_latency(&ctx);
	if (rc != -ENOENT && (mask & CH_BATTERY))
		rc = plot_battery(&ctx);
	rr_set_free(&set);
	for (i = 0; i < ctx.nstems; i++)
		free(ctx.stems[i]);
	free(ctx.stems);
	return cleanup(labels, plots_dir, datadir, keep,
		       rc == -ENOENT || ctx.failed ? EXIT_FAIL : EXIT_OK);
}
