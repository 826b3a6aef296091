/* SPDX-License-Identifier: MIT */
/* iowatt report: one self-contained HTML page of results: charts, table, context, methods. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "core/version.h"
#include "report/html.h"
#include "report/plot.h"

#define MOD "report"
#define DEFAULT_BATTERY "3000mAh@3.7V"
#define PAGE_NAME "report.html"
/* A gnuplot SVG chart is a few hundred kB at most; a timeline of a long run a few MB. */
#define SVG_MAX_BYTES (64 * MIB)

struct report_args {
	const char *outdir, *by, *title, *plots_dir_opt;
	char *plots_dir;
	struct result_args ra; /* labels and the battery chart's battery */
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
			a->outdir = optarg;
		else if (c == 'b')
			a->by = optarg;
		else if (c == 't')
			a->title = optarg;
		else if (c == 'P')
			a->plots_dir_opt = optarg;
		else if ((rc = result_option(&a->ra, c, optarg)))
			return rc;
	}
	if (!a->outdir) {
		log_err(MOD, "-o DIR is required: the directory the page goes to");
		return EXIT_USAGE;
	}
	if (a->by && !compare_column_find(a->by)) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", a->by);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

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
	"td.bad{color:#b00000;font-weight:bold}td.ok{color:#1a6e1a}"
	"table.kv th{text-align:left;padding:.1em 1em .1em 0;color:#555;font-weight:normal;"
	"white-space:nowrap;vertical-align:top}table.kv td{padding:.1em 0;word-break:break-all}"
	".cards{display:flex;flex-wrap:wrap;gap:1em}"
	".card{border:1px solid #d4d4d4;border-radius:6px;padding:.2em 1em .6em;flex:1 1 360px}"
	".swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;border-radius:2px}"
	".badge{font-size:.75em;font-weight:bold;padding:.05em .4em;border-radius:3px;color:#fff}"
	".badge.emulated{background:#b00000}.badge.manual{background:#8a5a00}"
	".warn{background:#fff3f3;border-left:4px solid #b00000;padding:.4em .8em}"
	"figure{margin:1.5em 0}figcaption{color:#444;margin-bottom:.4em}"
	"svg.chart{width:100%;height:auto;border:1px solid #e4e4e4}"
	"pre.methods{white-space:pre-wrap}code{font-size:.92em;background:#f4f4f4;padding:0 .2em}"
	"#methods table th,#methods table td{border:1px solid #d4d4d4;padding:.25em .5em;text-align:left}"
	"#methods table th{background:#f0f0f0}"
	"#jobs td:first-child,#compare td:nth-child(3){white-space:nowrap}";

/* The question each chart answers, shown above it. */
static const char *chart_caption(const char *file)
{
	static const struct {
		const char *prefix, *caption;
	} captions[] = {
		{ "efficiency", "Which device does the most work per mA, and spends the least energy "
				"per GB, for each job? Hatched bars are invalid runs." },
		{ "perf-power", "For each job, which devices are worth their power: the dashed "
				"staircase is the Pareto front (nothing else is both faster and cheaper)." },
		{ "latency", "How long I/Os take, typically (p50) and at worst (p99, p99.9)." },
		{ "battery", "How many days each device lasts on a battery against how much is written "
			     "per day." },
		{ "sweep", "How speed and energy per byte change with the record size, per operation." },
		{ "timeline", "What happened during the run: throughput and power over time with the "
			      "idle, active and tail phases, and events." },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(captions); i++)
		if (!strncmp(file, captions[i].prefix, strlen(captions[i].prefix)))
			return captions[i].caption;
	return "";
}

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

/* Comparisons first, then each run's timeline. */
static int chart_rank(const char *file)
{
	static const char *const order[] = { "efficiency", "perf-power", "latency", "battery",
					     "sweep" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (!strncmp(file, order[i], strlen(order[i])))
			return (int)i;
	return (int)ARRAY_SIZE(order);
}

static int chart_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return chart_rank(x) - chart_rank(y);
}

/* Each chart plot wrote, inlined; 0, or -EINVAL when one was refused. */
static int write_charts(FILE *fp, const struct plot_ctx *ctx)
{
	char *path, *svg, id[24];
	size_t i, len = 0;
	int rc = 0;

	/* A stable order: timelines keep the order of the results given. */
	for (i = 1; i < ctx->nwritten; i++) {
		size_t k = i;

		while (k && chart_cmp(&ctx->written[k - 1], &ctx->written[k]) > 0) {
			char *t = ctx->written[k];

			ctx->written[k] = ctx->written[k - 1];
			ctx->written[--k] = t;
		}
	}

	fputs("<section id=\"charts\">\n<h2>Charts</h2>\n", fp);
	if (!ctx->nwritten)
		fputs("<p class=\"warn\">No chart: gnuplot is missing or drew none (see iowatt's "
		      "messages).</p>\n", fp);
	for (i = 0; i < ctx->nwritten; i++) {
		path = xasprintf("%s/%s", ctx->outdir, ctx->written[i]);
		svg = read_file(path, &len);
		snprintf(id, sizeof(id), "c%zu", i + 1);
		fprintf(fp, "<figure id=\"chart-%zu\">\n<figcaption>", i + 1);
		html_text(fp, chart_caption(ctx->written[i]));
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
	fputs("</section>\n", fp);
	return rc;
}

static void page_head(FILE *fp, const struct report_args *a, const struct rr_set *set)
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

/* The page into DIR/report.html, written atomically. 0 or -errno. */
static int write_page(const struct report_args *a, const struct rr_set *set,
		      const struct plot_ctx *ctx)
{
	char *path = xasprintf("%s/%s", a->outdir, PAGE_NAME);
	struct atomic_file af;
	int rc, charts;

	rc = atomic_file_open(&af, path);
	if (rc) {
		log_err(MOD, "%s: %s", path, strerror(-rc));
		free(path);
		return rc;
	}
	page_head(af.fp, a, set);
	fputs("<section id=\"compare\">\n<h2>Comparison</h2>\n", af.fp);
	rc = html_compare(af.fp, set, a->by);
	fputs("</section>\n", af.fp);
	charts = write_charts(af.fp, ctx);
	html_devices(af.fp, set);
	html_meters(af.fp, set);
	html_jobs(af.fp, set);
	fputs("<section id=\"methods\">\n<h2>Methods</h2>\n", af.fp);
	html_methods(af.fp);
	fputs("</section>\n</body>\n</html>\n", af.fp);
	if (rc || charts) {
		atomic_file_abort(&af);
		rc = rc ? rc : charts;
	} else {
		rc = atomic_file_commit(&af);
		if (rc)
			log_err(MOD, "%s: %s", path, strerror(-rc));
		else
			log_info(MOD, "wrote %s", path);
	}
	free(path);
	return rc;
}

/*
 * The charts as SVG into a directory inside plot's private data directory: one temporary
 * tree, removed (with the data) after the page is written.
 */
static int draw_charts(struct plot_ctx *ctx, struct report_args *a, const struct rr_set *set,
		       char **chartdir)
{
	int rc;

	ctx->set = set;
	ctx->format = PLOT_SVG;
	ctx->bm = a->ra.bm;
	a->plots_dir = plot_templates_dir(a->plots_dir_opt);
	ctx->plots_dir = a->plots_dir;
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
	ctx->outdir = *chartdir;
	return plot_draw(ctx, PLOT_CH_ALL) == EXIT_OK ? 0 : -EIO;
}

static void ctx_free(struct plot_ctx *ctx, char *chartdir)
{
	size_t i;

	plot_datadir_remove(ctx, 0);
	free(chartdir);
	for (i = 0; i < ctx->nstems; i++)
		free(ctx->stems[i]);
	free(ctx->stems);
	for (i = 0; i < ctx->nwritten; i++)
		free(ctx->written[i]);
	free(ctx->written);
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct plot_ctx ctx;
	struct rr_set set;
	char *chartdir = NULL;
	int rc, drawn;

	memset(&a, 0, sizeof(a));
	memset(&ctx, 0, sizeof(ctx));
	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	rc = mkdir_p(a.outdir, 0755);
	if (rc) {
		log_err(MOD, "-o %s: %s", a.outdir, strerror(-rc));
		rr_set_free(&set);
		return EXIT_FAIL;
	}
	drawn = draw_charts(&ctx, &a, &set, &chartdir);
	rc = write_page(&a, &set, &ctx) || drawn ? EXIT_FAIL : EXIT_OK;
	ctx_free(&ctx, chartdir);
	free(a.plots_dir);
	rr_set_free(&set);
	return rc;
}
