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

/* The validity cell of an invalid row in red, numbers right-aligned. */
static const char *td_class(size_t k, size_t n, int valid)
{
	if (k == n - COMPARE_TRAIL_CELLS && valid == 0)
		return " class=\"bad\"";
	return compare_cell_left(k, n) ? "" : " class=\"num\"";
}

/* The table as HTML, a <tbody> per job; every text cell escaped (results travel). */
static void print_html(FILE *fp, const struct compare_table *t)
{
	char (*cells)[COMPARE_CELL] = xcalloc(COMPARE_MAX_CELLS, COMPARE_CELL);
	const struct compare_column *sort = t->sort;
	const struct compare_row *rows = t->rows;
	size_t i, k, n;

	n = compare_head_cells(t, cells, 0);
	fprintf(fp, "<table class=\"grid compare\">\n<caption>ranked by %s within each job (%s is "
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
			fprintf(fp, "<td%s>", td_class(k, n, rows[i].valid));
			html_text(fp, cells[k]);
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	if (t->nrows)
		fputs("</tbody>\n", fp);
	fputs("</table>\n", fp);
	free(cells);
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
	compare_table_free(&t);
	return 0;
}
