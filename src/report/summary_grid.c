/* SPDX-License-Identifier: MIT */
/* Under the end-of-run table: CrystalDiskMark's grid, Read | Write per test, with energy. */
#include <stdio.h>
#include <string.h>

#include "analysis/rw_pairs.h"
#include "core/text.h"
#include "report/summary_grid.h"

/* Characters on screen: "µJ/GB" is 5 wide in 6 bytes. */
static int width(const char *s)
{
	return (int)(strlen(s) - text_extra_bytes(s));
}

/* One line of the grid, Read's cells and Write's apart by a bar, no trailing blank. */
static void print_cells(FILE *fp, char cells[][COMPARE_CELL], const int *w)
{
	char line[RW_GRID_CELLS * (COMPARE_CELL + 8)];
	size_t k, used = 0;

	for (k = 0; k < RW_GRID_CELLS && used < sizeof(line); k++) {
		int pad = w[k] - width(cells[k]);

		if (pad < 0)
			pad = 0;
		if (!k)
			used += (size_t)snprintf(line, sizeof(line), "%s%*s", cells[0], pad, "");
		else
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%*s%s",
						 k == 4 ? " | " : "  ", pad, "", cells[k]);
	}
	while (used && line[used - 1] == ' ')
		used--;
	fprintf(fp, "%.*s\n", (int)used, line);
}

void summary_print_grid(FILE *fp, const struct run_result *r)
{
	char cells[RW_GRID_CELLS][COMPARE_CELL];
	int w[RW_GRID_CELLS];
	struct rw_grid g;
	size_t i, k;

	rw_grid_build(&g, r);
	if (!g.n) {
		rw_grid_free(&g);
		return;
	}
	rw_grid_head(&g, cells);
	for (k = 0; k < RW_GRID_CELLS; k++)
		w[k] = width(cells[k]) + (k ? 1 : 0); /* its figures' mark */
	for (i = 0; i < g.n; i++) {
		rw_grid_row(&g, i, cells);
		for (k = 0; k < RW_GRID_CELLS; k++)
			if (width(cells[k]) > w[k])
				w[k] = width(cells[k]);
	}
	fprintf(fp, "\nRead | Write per test, as CrystalDiskMark shows them (!: invalid, "
		    "?: uncertain: see the verdicts above)\n");
	rw_grid_head(&g, cells);
	/* Heads end where the figures' digits end, before their mark. */
	for (k = 1; k < RW_GRID_CELLS; k++)
		strcat(cells[k], " ");
	print_cells(fp, cells, w);
	for (i = 0; i < g.n; i++) {
		rw_grid_row(&g, i, cells);
		print_cells(fp, cells, w);
	}
	rw_grid_free(&g);
}
