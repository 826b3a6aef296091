/* SPDX-License-Identifier: MIT */
/* The chart set: its names, the gnuplot templates' directory, drawing every chart asked for. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/version.h"
#include "report/plot.h"

#define MOD "plot"

static const struct {
	const char *name;
	int bit;
} charts[] = {
	{ "efficiency", PLOT_CH_EFFICIENCY }, { "timeline", PLOT_CH_TIMELINE },
	{ "perf-power", PLOT_CH_PERF },	      { "latency", PLOT_CH_LATENCY },
	{ "battery", PLOT_CH_BATTERY },	      { "sweep", PLOT_CH_SWEEP },
};

int plot_chart_bit(const char *name)
{
	size_t i;

	if (!strcmp(name, "perf"))
		return PLOT_CH_PERF;
	for (i = 0; i < ARRAY_SIZE(charts); i++)
		if (!strcmp(name, charts[i].name))
			return charts[i].bit;
	return 0;
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

char *plot_templates_dir(const char *override)
{
	char *dir = override ? xstrdup(override) : find_plots_dir();

	if (dir_has_templates(dir))
		return dir;
	log_err(MOD, "gnuplot templates not found in %s (--plots-dir DIR or IOWATT_PLOTS)", dir);
	free(dir);
	return NULL;
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
	if (rc == -ENOENT)
		return rc;
	return ctx->failed ? -EIO : 0;
}

void plot_datadir_remove(struct plot_ctx *ctx, int keep)
{
	if (ctx->datadir && keep)
		log_info(MOD, "chart data and gnuplot meta files kept in %s", ctx->datadir);
	private_dir_close(&ctx->priv, keep);
	ctx->datadir = NULL;
}

/* The kinds drawn, so that plot_dir_sync removes only their older charts. */
static void sync_dir(struct plot_ctx *ctx, int mask)
{
	const char *kinds[ARRAY_SIZE(charts)];
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(charts); i++)
		if (mask & charts[i].bit)
			kinds[n++] = charts[i].name;
	plot_dir_sync(ctx, kinds, n);
}

void plot_ctx_free(struct plot_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nstems; i++)
		free(ctx->stems[i]);
	free(ctx->stems);
	for (i = 0; i < ctx->nwritten; i++)
		free(ctx->written[i].name);
	free(ctx->written);
	ctx->stems = NULL;
	ctx->written = NULL;
	ctx->nstems = ctx->nwritten = 0;
}

/* The output directory and a private directory for the charts' data. 0 or -errno. */
static int make_dirs(struct plot_ctx *ctx, const char *outdir)
{
	int rc = outdir ? plot_outdir_open(ctx, outdir) : 0;

	return rc ? rc : plot_datadir_make(ctx);
}

int plot_charts(const struct rr_set *set, const struct plot_opts *o)
{
	struct plot_ctx ctx = { .set = set, .format = o->format, .bm = o->bm, .sleep = o->sleep,
				.outdir_fd = -1 };
	const char *outdir = o->outdir;
	char *plots_dir;
	int rc;

	if (!outdir && o->format != PLOT_DUMB)
		outdir = "charts";
	plots_dir = plot_templates_dir(o->plots_dir);
	if (!plots_dir)
		return -ENOENT;
	ctx.plots_dir = plots_dir;
	rc = make_dirs(&ctx, outdir);
	if (!rc) {
		rc = plot_draw(&ctx, o->mask);
		/* Only a complete set of charts replaces the last one. */
		if (!rc)
			sync_dir(&ctx, o->mask);
	}
	plot_ctx_free(&ctx);
	plot_outdir_close(&ctx);
	plot_datadir_remove(&ctx, o->keep);
	free(plots_dir);
	return rc;
}
