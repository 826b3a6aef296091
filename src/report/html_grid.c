/* SPDX-License-Identifier: MIT */
/* The report page's CrystalDiskMark grid: Read | Write per test and device, with energy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rw_pairs.h"
#include "core/mem.h"
#include "report/html.h"

/* A figure's cell: red for an invalid direction, amber for an uncertain one. */
static const char *cell_class(const char *cell)
{
	size_t n = strlen(cell);
	char mark = n ? cell[n - 1] : ' ';

	return mark == '!' ? "num bad" : mark == '?' ? "num unc" : "num";
}

static void print_device(FILE *fp, const struct rr_result *r, const struct rw_grid *g)
{
	char cells[RW_GRID_CELLS][COMPARE_CELL];
	size_t i, k;

	fputs("<tbody>\n", fp);
	for (i = 0; i < g->n; i++) {
		rw_grid_row(g, i, cells);
		fputs("<tr><td>", fp);
		html_text(fp, r->label);
		fputs("</td><td>", fp);
		html_text(fp, cells[0]);
		fputs("</td>", fp);
		for (k = 1; k < RW_GRID_CELLS; k++) {
			fprintf(fp, "<td class=\"%s\">", cell_class(cells[k]));
			html_text(fp, cells[k]);
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n", fp);
}

/* One J/GB unit over every device's cells, so the column's head holds for all of them. */
static void common_unit(struct rw_grid *g, size_t ng)
{
	const struct compare_column *c = compare_column_find("j_per_gb");
	size_t i, k, d, n = 0, cap = 1;
	struct si_unit e;
	double *v;

	for (i = 0; i < ng; i++)
		cap += 2 * g[i].n;
	v = xcalloc(cap, sizeof(*v));
	for (i = 0; i < ng; i++)
		for (k = 0; k < g[i].n; k++)
			for (d = 0; d < 2; d++)
				v[n++] = compare_row_value(c, &g[i].pairs[k].dir[d]);
	e = si_unit_for(SI_ENERGY, v, n);
	for (i = 0; i < ng; i++)
		g[i].e = e;
	free(v);
}

void html_rw_grid(FILE *fp, const struct rr_set *set)
{
	struct rw_grid *g = xcalloc(set->nres + 1, sizeof(*g));
	char cells[RW_GRID_CELLS][COMPARE_CELL];
	size_t i, k, any = 0;

	for (i = 0; i < set->nres; i++) {
		rw_grid_build(&g[i], &set->res[i].rep);
		any += g[i].n;
	}
	if (any) {
		common_unit(g, set->nres);
		fputs("<div class=\"wide\"><table class=\"grid rwgrid\">\n<caption>Read | Write per "
		      "test, as CrystalDiskMark shows them: jobs paired by name (NAME-read, "
		      "NAME-write) or by pattern, block size, depth and job count. MB = 10^6 "
		      "bytes; !: invalid, ?: uncertain (the jobs table below says why)</caption>\n"
		      "<thead><tr><th>device</th>", fp);
		rw_grid_head(&g[0], cells);
		for (k = 0; k < RW_GRID_CELLS; k++) {
			fputs("<th>", fp);
			html_text(fp, cells[k]);
			fputs("</th>", fp);
		}
		fputs("</tr></thead>\n", fp);
		for (i = 0; i < set->nres; i++)
			if (g[i].n)
				print_device(fp, &set->res[i], &g[i]);
		fputs("</table></div>\n", fp);
	}
	for (i = 0; i < set->nres; i++)
		rw_grid_free(&g[i]);
	free(g);
}
