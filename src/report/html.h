/* SPDX-License-Identifier: MIT */
/* HTML output of the report page: escaped text, charts inlined as checked SVG, the methods. */
#ifndef IOWATT_HTML_H
#define IOWATT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/battery.h"
#include "analysis/results_read.h"
#include "analysis/sleep_figure.h"

/* The page's file in its directory. */
#define HTML_PAGE_NAME "report.html"

/* What `iowatt report` writes once its results are loaded. */
struct html_page_opts {
	const char *outdir;	 /* the page's directory (-o), made if missing */
	const char *by;		 /* the comparison's metric (--by), NULL: iops_per_ma */
	const char *title;	 /* --title, NULL: the devices' names */
	const char *plots_dir;	 /* --plots-dir, NULL: as plot_templates_dir finds it */
	struct battery_model bm; /* the battery chart's battery */
	const struct sleep_figure *sleep; /* its sleep between bursts (--sleep-from); NULL: idle */
	int redact;		 /* --redact: paths as file names, no host name (the JSON keeps them) */
};

/*
 * html_page.c: `iowatt report` after its options. Every chart drawn as SVG into a private
 * directory, then o->outdir/report.html written atomically: the comparison, the charts
 * inlined, each device's context, the meters, the jobs and the methods. 0, or the first
 * -errno (logged): the directory, a chart that could not be drawn or was refused, the page.
 */
int html_page_write(const struct rr_set *set, const struct html_page_opts *o);

struct plot_ctx;
/* html_charts.c: the charts section, each chart ctx wrote inlined in a fixed order (the
 * comparisons, then each run's timeline). 0, or -EINVAL when one was refused (left out). */
int html_charts(FILE *fp, const struct plot_ctx *ctx);

/*
 * Text from results as HTML text or a double-quoted attribute value: & < > " ' escaped,
 * control characters (and DEL) shown as U+FFFD. Results travel: every string they carry
 * goes through here. NULL writes nothing.
 */
void html_text(FILE *fp, const char *s);

/*
 * One gnuplot SVG document as an inline <svg> element: the XML prolog, doctype and
 * comments dropped, every id prefixed with id_prefix (several charts share gnuplot's ids),
 * and only drawing elements let through: an element outside the list, an event-handler
 * attribute, a link that leaves the document or text that is not escaped makes it
 * -EINVAL and nothing is written. 0 or -EINVAL.
 */
int html_svg_inline(FILE *out, const char *svg, size_t len, const char *id_prefix);

/* The methods section: docs/energy.md, embedded at build time, as HTML. */
void html_methods(FILE *fp);

/*
 * compare's table as HTML, ranked by the metric key by (NULL: iops_per_ma), every text cell
 * escaped. 0, or -EINVAL for an unknown metric (logged).
 */
int html_compare(FILE *fp, const struct rr_set *set, const char *by);
/* html_op_energy.c: each device's energy per read, write and flush from its results' pooled
 * models (analysis/op_energy.h), with their notes; nothing when no result has one. */
void html_op_energy(FILE *fp, const struct rr_set *set);
/* CrystalDiskMark's grid of every result whose jobs pair up as read/write
 * (analysis/rw_pairs.h), a <tbody> per device; nothing when none does (html_grid.c). */
void html_rw_grid(FILE *fp, const struct rr_set *set);

/* The page's sections about the results: devices, meters (html_results.c), jobs and their
 * validity and power figures (html_jobs.c). */
void html_devices(FILE *fp, const struct rr_set *set, int redact);
void html_meters(FILE *fp, const struct rr_set *set, int redact);
void html_jobs(FILE *fp, const struct rr_set *set);
/*
 * html_redact.c: s with every absolute path in it cut to its last part ("/" stays "/") and
 * the host of an rfc2217://, tcp:// or ssh:// address replaced by HOST, for a page to
 * publish. A path starts with '/' after a separator or before a root folder's name
 * (/home, /tmp, ...: "-o/home/a/x" too) and runs to the next space, comma, quote or
 * bracket outside quotes, or comma inside them: a shell-quoted word ('/mnt/my disk/x',
 * /mnt/my\ disk/x) is one path, its quotes kept balanced. known (nknown, NULLs skipped)
 * are paths the text's source names (a result's target, mount point, meter ports): a
 * path runs at least as far as the longest of them, or of their leading folders, it
 * starts with, so an unquoted "--target /mnt/my disk" is cut whole. xmalloc'd; NULL for
 * NULL.
 */
char *html_redact_paths(const char *s, const char *const *known, size_t nknown);
/* The last part of a path: the result file's name a section shows. */
const char *html_base_name(const char *path);

#endif
