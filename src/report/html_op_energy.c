/* SPDX-License-Identifier: MIT */
/* The report page's energy per operation: each device's pooled power model as a small table. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/op_energy.h"
#include "core/mem.h"
#include "report/html.h"

static void cells_row(FILE *fp, char cells[][COMPARE_CELL], const char *tag, int head)
{
	size_t k;

	fputs("<tr>", fp);
	for (k = 0; k < OP_ENERGY_CELLS; k++) {
		fprintf(fp, "<%s%s>", tag, head || op_energy_cell_left(k) ? "" : " class=\"num\"");
		html_text(fp, cells[k]);
		fprintf(fp, "</%s>", tag);
	}
	fputs("</tr>\n", fp);
}

static void note_item(void *ctx, const char *text)
{
	FILE *fp = ctx;

	fputs("<li class=\"note\">", fp);
	html_text(fp, text);
	fputs("</li>\n", fp);
}

void html_op_energy(FILE *fp, const struct rr_set *set)
{
	char (*cells)[COMPARE_CELL];
	const struct rr_result *r;
	size_t i, m;

	if (!op_energy_count(set))
		return;
	cells = xcalloc(OP_ENERGY_CELLS, COMPARE_CELL);
	fputs("<h3 id=\"op-energy\">Energy per operation</h3>\n<div class=\"wide\"><table "
	      "class=\"grid op-energy\">\n<caption>Energy of one operation above idle, pooled over "
	      "each run's jobs per meter, block size, direct setting and writes per flush "
	      "(Methods: \"Pooled per device\"); event-locked: one job's ops averaged on a fast meter's trace; \u00b195 %: "
	      "its 95 % interval; -: the device did none</caption>\n<thead>",
	      fp);
	op_energy_head_cells(cells);
	cells_row(fp, cells, "th", 1);
	fputs("</thead>\n<tbody>\n", fp);
	for (i = 0; i < set->nres; i++) {
		r = &set->res[i];
		for (m = 0; op_energy_result_row(r, m, cells); m++)
			cells_row(fp, cells, "td", 0);
	}
	fputs("</tbody>\n</table></div>\n<ul class=\"warnings\">\n", fp);
	op_energy_notes(set, note_item, fp);
	fputs("</ul>\n", fp);
	free(cells);
}
