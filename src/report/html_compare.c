/* SPDX-License-Identifier: MIT */
/* The report page's comparison: compare's ranked table as HTML, a <tbody> per job. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/log.h"
#include "core/mem.h"
#include "report/html.h"

#define MOD "compare"

/* The validity cell of an invalid row in red, of an uncertain one in amber; numbers
 * right-aligned. */
static const char *td_class(size_t k, size_t n, const struct compare_row *rw)
{
	if (k == n - COMPARE_TRAIL_CELLS && rw->valid == 0)
		return " class=\"bad\"";
	if (k == n - COMPARE_TRAIL_CELLS && rw->uncertain)
		return " class=\"unc\"";
	return compare_cell_left(k, n) ? "" : " class=\"num\"";
}

/* The table as HTML, a <tbody> per job; every text cell escaped (results travel). */
static void print_html(FILE *fp, const struct compare_table *t)
{
	char (*cells)[COMPARE_CELL] = xcalloc(COMPARE_MAX_CELLS, COMPARE_CELL);
	const struct compare_column *sort = t->sort;
	const struct compare_row *rows = t->rows;
	size_t i, k, n;

	n = compare_head_cells(t, cells);
	/* A wide table scrolls in its own box instead of running off the page. */
	fprintf(fp, "<div class=\"wide\"><table class=\"grid compare\">\n<caption>ranked by %s within each job (%s is "
		    "better); invalid rows are not ranked", sort->key,
		sort->lower_better ? "lower" : "higher");
	if (*t->rail) {
		fprintf(fp, ". Ranked by %s instead where the rows' rails differ in voltage: ",
			sort->per_w);
		html_text(fp, t->rail);
	}
	if (t->ties)
		fputs(". \u2248N: indistinguishable at 95 % from the row ranked N", fp);
	fputs("</caption>\n<thead><tr>", fp);
	for (k = 0; k < n; k++) {
		fputs("<th>", fp);
		html_text(fp, cells[k]);
		fputs("</th>", fp);
	}
	fputs("</tr></thead>\n", fp);
	for (i = 0; i < t->nrows; i++) {
		if (!i || strcmp(rows[i].name, rows[i - 1].name))
			fputs(i ? "</tbody>\n<tbody>\n" : "<tbody>\n", fp);
		n = compare_row_cells(t, &rows[i], cells);
		fputs("<tr>", fp);
		for (k = 0; k < n; k++) {
			fprintf(fp, "<td%s>", td_class(k, n, &rows[i]));
			html_text(fp, cells[k]);
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	if (t->nrows)
		fputs("</tbody>\n", fp);
	fputs("</table></div>\n", fp);
	free(cells);
}

/* One of compare's warnings as a list item. */
static void warning_item(void *ctx, int info, const char *text)
{
	FILE *fp = ctx;

	fprintf(fp, "<li class=\"%s\">%s", info ? "note" : "warning", info ? "note: " : "warning: ");
	html_text(fp, text);
	fputs("</li>\n", fp);
}

static void warning_count(void *ctx, int info, const char *text)
{
	(void)info;
	(void)text;
	++*(size_t *)ctx;
}

/* compare's warnings (what it prints on stderr), under the table. */
static void print_warnings(FILE *fp, const struct rr_set *set, const struct compare_table *t)
{
	size_t n = 0;

	compare_warnings(set, t, warning_count, &n);
	if (!n)
		return;
	fputs("<ul class=\"warnings\">\n", fp);
	compare_warnings(set, t, warning_item, fp);
	fputs("</ul>\n", fp);
}

int html_compare(FILE *fp, const struct rr_set *set, const char *by)
{
	const struct compare_column *sort = compare_column_find(by ? by : "iops_per_ma");
	struct compare_table t;

	if (!sort) {
		log_err(MOD, "--by '%s': unknown metric (see iowatt compare --help)", by);
		return -EINVAL;
	}
	compare_table_build(&t, set, sort);
	print_html(fp, &t);
	print_warnings(fp, set, &t);
	compare_table_free(&t);
	return 0;
}
