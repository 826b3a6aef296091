/* SPDX-License-Identifier: MIT */
/* The report page: head, comparison, charts, devices, meters, jobs and methods, written atomically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/version.h"
#include "report/html.h"
#include "report/plot.h"

#define MOD "report"
#define PAGE_NAME "report.html"

static const char *const page_css =
	"body{font-family:'DejaVu Sans',Verdana,sans-serif;max-width:1280px;margin:0 auto;"
	"padding:0 1.5em 3em;color:#1a1a1a;line-height:1.45}"
	"h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:2px solid #d0d0d0;padding-bottom:.2em;"
	"margin-top:2em}h3 small{font-weight:normal;color:#666}"
	"nav a{margin-right:1em}"
	"table{border-collapse:collapse;font-size:.88em;margin:.6em 0}"
	"table.grid th,table.grid td{border:1px solid #d4d4d4;padding:.25em .5em;vertical-align:top}"
	"table.grid thead th{background:#f0f0f0;text-align:left}"
	"table.grid tbody+tbody{border-top:3px solid #b0b0b0}"
	"caption{caption-side:bottom;text-align:left;color:#555;padding-top:.3em}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"td.bad{color:#b00000;font-weight:bold}td.ok{color:#1a6e1a}td.unc{color:#8a4b00;font-weight:bold}"
	".wide{overflow-x:auto;max-width:100%}"
	"ul.warnings li.warning{color:#8a1a00}"
	"table.kv th{text-align:left;padding:.1em 1em .1em 0;color:#555;font-weight:normal;"
	"white-space:nowrap;vertical-align:top}table.kv td{padding:.1em 0;word-break:break-all}"
	".cards{display:flex;flex-wrap:wrap;gap:1em}"
	".card{border:1px solid #d4d4d4;border-radius:6px;padding:.2em 1em .6em;flex:1 1 360px}"
	".swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;border-radius:2px}"
	".badge{font-size:.75em;font-weight:bold;padding:.05em .4em;border-radius:3px;color:#fff}"
	".badge.emulated{background:#b00000}.badge.manual{background:#8a5a00}"
	".warn{background:#fff3f3;border-left:4px solid #b00000;padding:.4em .8em}"
	"figure{margin:1.5em 0;overflow-x:auto}figcaption{color:#444;margin-bottom:.4em}"
	"p.note{color:#555;font-size:.9em}"
	/* a chart shrunk to a narrow window has unreadable text: it scrolls in its figure */
	"svg.chart{width:100%;min-width:1100px;height:auto;border:1px solid #e4e4e4}"
	"pre{overflow-x:auto;max-width:100%}pre.methods{white-space:pre-wrap}code{font-size:.92em;background:#f4f4f4;padding:0 .2em}"
	"#methods table th,#methods table td{border:1px solid #d4d4d4;padding:.25em .5em;text-align:left}"
	"#methods table th{background:#f0f0f0}"
	"#jobs td:first-child,#compare td:nth-child(3){white-space:nowrap}";

static void page_head(FILE *fp, const struct html_page_opts *a, const struct rr_set *set)
{
	size_t i;

	/* No script, no request: the policy forbids both, so a hostile string cannot add one. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", fp);
	if (a->title)
		html_text(fp, a->title);
	else
		fputs("iowatt report", fp);
	fprintf(fp, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>", page_css);
	if (a->title) {
		html_text(fp, a->title);
	} else {
		fputs("iowatt report: ", fp);
		for (i = 0; i < set->ndevices; i++) {
			fputs(i ? ", " : "", fp);
			html_text(fp, set->devices[i]);
		}
	}
	fprintf(fp, "</h1>\n<p>Storage performance and power, measured in the same run. %zu result%s, "
		    "page written by iowatt ", set->nres, set->nres == 1 ? "" : "s");
	html_text(fp, iowatt_version);
	fputs(".</p>\n", fp);
	for (i = 0; i < set->nres; i++) {
		if (!set->res[i].emulated && !set->res[i].manual)
			continue;
		fputs("<p class=\"warn\">", fp);
		html_text(fp, set->res[i].label);
		fputs(set->res[i].emulated ? ": power figures from an EMULATED meter, not a measurement."
					   : ": power figures entered by hand (MANUAL meter).", fp);
		fputs("</p>\n", fp);
	}
	fputs("<nav><a href=\"#compare\">Comparison</a><a href=\"#charts\">Charts</a>"
	      "<a href=\"#devices\">Devices</a><a href=\"#meters\">Meters</a>"
	      "<a href=\"#jobs\">Jobs</a><a href=\"#methods\">Methods</a></nav>\n</header>\n", fp);
}

/* The page into DIR/report.html (dfd: DIR), written atomically. 0 or -errno. */
static int write_page(const struct html_page_opts *a, int dfd, const struct rr_set *set,
		      const struct plot_ctx *ctx)
{
	char *path = xasprintf("%s/%s", a->outdir, PAGE_NAME);
	struct atomic_file af;
	int rc, charts;

	rc = atomic_file_openat(&af, dfd, PAGE_NAME, path, 1);
	if (rc) {
		free(path);
		return rc;
	}
	page_head(af.fp, a, set);
	fputs("<section id=\"compare\">\n<h2>Comparison</h2>\n", af.fp);
	rc = html_compare(af.fp, set, a->by);
	html_op_energy(af.fp, set);
	html_rw_grid(af.fp, set);
	fputs("</section>\n", af.fp);
	charts = html_charts(af.fp, ctx);
	html_devices(af.fp, set, a->redact);
	html_meters(af.fp, set, a->redact);
	html_jobs(af.fp, set);
	fputs("<section id=\"methods\">\n<h2>Methods</h2>\n", af.fp);
	html_methods(af.fp);
	fputs("</section>\n</body>\n</html>\n", af.fp);
	if (rc || charts) {
		atomic_file_abort(&af);
		rc = rc ? rc : charts;
	} else {
		rc = atomic_file_commit(&af);
		if (!rc)
			log_info(MOD, "wrote %s", path);
	}
	free(path);
	return rc;
}

/*
 * The charts as SVG into a directory inside plot's private data directory: one temporary
 * tree, removed (with the data) after the page is written.
 */
static int draw_charts(struct plot_ctx *ctx, const struct html_page_opts *a,
		       const struct rr_set *set, char **plots_dir, char **chartdir)
{
	int rc;

	ctx->set = set;
	ctx->format = PLOT_SVG;
	ctx->bm = a->bm;
	ctx->sleep = a->sleep;
	*plots_dir = plot_templates_dir(a->plots_dir);
	ctx->plots_dir = *plots_dir;
	if (!ctx->plots_dir)
		return -ENOENT;
	rc = plot_datadir_make(ctx);
	if (rc)
		return rc;
	*chartdir = xasprintf("%s/charts", ctx->datadir);
	if (mkdir(*chartdir, 0700)) {
		rc = -errno;
		log_err(MOD, "%s: %s", *chartdir, strerror(-rc));
		return rc;
	}
	rc = plot_outdir_open(ctx, *chartdir);
	if (rc)
		return rc;
	return plot_draw(ctx, PLOT_ALL_CHARTS) ? -EIO : 0;
}

static void ctx_free(struct plot_ctx *ctx, char *chartdir)
{
	plot_outdir_close(ctx);
	plot_datadir_remove(ctx, 0);
	free(chartdir);
	plot_ctx_free(ctx);
}

int html_page_write(const struct rr_set *set, const struct html_page_opts *o)
{
	struct plot_ctx ctx;
	char *plots_dir = NULL, *chartdir = NULL;
	int rc, drawn, dfd;

	memset(&ctx, 0, sizeof(ctx));
	ctx.outdir_fd = -1;
	dfd = plot_outdir_make(o->outdir);
	if (dfd < 0)
		return dfd;
	drawn = draw_charts(&ctx, o, set, &plots_dir, &chartdir);
	rc = write_page(o, dfd, set, &ctx);
	close(dfd);
	ctx_free(&ctx, chartdir);
	free(plots_dir);
	return rc ? rc : drawn;
}
