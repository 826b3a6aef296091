/* SPDX-License-Identifier: MIT */
/* The report page's charts: each SVG that plot drew, in a fixed order, captioned and inlined. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "report/html.h"
#include "report/plot.h"

#define MOD "report"
/* A gnuplot SVG chart is a few hundred kB at most; a timeline of a long run a few MB. */
#define SVG_MAX_BYTES (64 * MIB)

static char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (!fseek(fp, 0, SEEK_END) && (n = ftell(fp)) >= 0 && (size_t)n <= SVG_MAX_BYTES &&
	    !fseek(fp, 0, SEEK_SET)) {
		buf = xmalloc((size_t)n + 1);
		*len = fread(buf, 1, (size_t)n, fp);
		buf[*len] = '\0';
	}
	fclose(fp);
	return buf;
}

/* The table's order: the charts of the whole set first, then each result's own. */
static size_t chart_rank(const struct plot_written *w)
{
	if (!w->chart || (w->chart->needs & PLOT_PER_RESULT))
		return plot_nchart;
	return (size_t)(w->chart - plot_chart_table);
}

int html_charts(FILE *fp, const struct plot_ctx *ctx)
{
	char *path, *svg, id[24];
	size_t i, len = 0;
	int rc = 0;

	/* A stable order: timelines keep the order of the results given. */
	for (i = 1; i < ctx->nwritten; i++) {
		size_t k = i;

		while (k && chart_rank(&ctx->written[k - 1]) > chart_rank(&ctx->written[k])) {
			struct plot_written t = ctx->written[k];

			ctx->written[k] = ctx->written[k - 1];
			ctx->written[--k] = t;
		}
	}

	fputs("<section id=\"charts\">\n<h2>Charts</h2>\n", fp);
	if (!ctx->nwritten)
		fputs("<p class=\"warn\">No chart: gnuplot is missing or drew none (see iowatt's "
		      "messages).</p>\n", fp);
	for (i = 0; i < ctx->nwritten; i++) {
		path = xasprintf("%s/%s", ctx->outdir, ctx->written[i].name);
		svg = read_file(path, &len);
		snprintf(id, sizeof(id), "c%zu", i + 1);
		fprintf(fp, "<figure id=\"chart-%zu\">\n<figcaption>", i + 1);
		html_text(fp, ctx->written[i].chart ? ctx->written[i].chart->caption : "");
		fputs("</figcaption>\n", fp);
		if (!svg || html_svg_inline(fp, svg, len, id)) {
			log_err(MOD, "%s: not inlined: not a chart as gnuplot draws it", path);
			fputs("<p class=\"warn\">This chart was left out: its SVG held more than a "
			      "chart.</p>\n", fp);
			rc = -EINVAL;
		}
		fputs("\n</figure>\n", fp);
		free(svg);
		free(path);
	}
	/* a chart with nothing to draw is named with why, not silently missing */
	for (i = 0; i < ctx->nskipped; i++) {
		fputs("<p class=\"note\">Not drawn: ", fp);
		html_text(fp, ctx->skipped[i].chart->name);
		fputs(": ", fp);
		html_text(fp, ctx->skipped[i].note);
		fputs(".</p>\n", fp);
	}
	fputs("</section>\n", fp);
	return rc;
}
