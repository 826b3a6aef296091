/* SPDX-License-Identifier: MIT */
/* The chart set: the gnuplot templates' directory, drawing every chart asked for. */
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

/* A directory with the first chart's template is taken to hold them all. */
static int dir_has_templates(const char *dir)
{
	char *p = xasprintf("%s/%s.gp", dir, plot_chart_table[0].script);
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

/* Chart d left out, and why (note: static text): logged, and kept for the page. */
static void skip_note(struct plot_ctx *ctx, const struct plot_chart_desc *d, const char *note)
{
	size_t i;

	log_info(MOD, "%s: skipped: %s", d->name, note);
	for (i = 0; i < ctx->nskipped; i++)
		if (ctx->skipped[i].chart == d && ctx->skipped[i].note == note)
			return;
	ctx->skipped = xrealloc(ctx->skipped, (ctx->nskipped + 1) * sizeof(*ctx->skipped));
	ctx->skipped[ctx->nskipped].chart = d;
	ctx->skipped[ctx->nskipped++].note = note;
}

/*
 * One chart of row d (for result r when it has one per result), or its note: results
 * without power named and left out of a chart that needs power, or the chart skipped.
 */
static int draw_one(struct plot_ctx *ctx, const struct plot_chart_desc *d,
		    const struct rr_result *r)
{
	const struct rr_set *set = ctx->set;
	size_t i;
	int rc;

	if (d->needs & PLOT_NEEDS_POWER) {
		for (i = 0; i < set->nres; i++)
			if (!set->res[i].has_power)
				log_info(MOD, "%s: %s has no power data: left out of this chart",
					 d->name, set->res[i].path);
		if (!plot_count_powered(set)) {
			skip_note(ctx, d, "no result has power data (run with a meter)");
			return 0;
		}
	}
	ctx->chart = d;
	rc = d->draw(ctx, r);
	ctx->chart = NULL;
	if (rc != PLOT_EMPTY)
		return rc;
	skip_note(ctx, d, d->empty_note);
	return 0;
}

/* Every chart asked for; a missing gnuplot stops at the first: no point trying the others. */
int plot_draw(struct plot_ctx *ctx, int mask)
{
	const struct rr_set *set = ctx->set;
	size_t c, i;
	int rc = 0;

	for (c = 0; rc != -ENOENT && c < plot_nchart; c++) {
		const struct plot_chart_desc *d = &plot_chart_table[c];

		if (!(mask & (1 << c)))
			continue;
		if (!(d->needs & PLOT_PER_RESULT))
			rc = draw_one(ctx, d, NULL);
		for (i = 0; rc != -ENOENT && (d->needs & PLOT_PER_RESULT) && i < set->nres; i++)
			rc = draw_one(ctx, d, &set->res[i]);
	}
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

void plot_ctx_free(struct plot_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nstems; i++)
		free(ctx->stems[i]);
	free(ctx->stems);
	for (i = 0; i < ctx->nwritten; i++)
		free(ctx->written[i].name);
	free(ctx->written);
	free(ctx->skipped);
	ctx->skipped = NULL;
	ctx->nskipped = 0;
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
			plot_dir_sync(&ctx, plot_chart_table, plot_nchart, o->mask);
	}
	plot_ctx_free(&ctx);
	plot_outdir_close(&ctx);
	plot_datadir_remove(&ctx, o->keep);
	free(plots_dir);
	return rc;
}
