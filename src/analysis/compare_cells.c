/* SPDX-License-Identifier: MIT */
/* compare's cells: a ranked row and the head as text for table, markdown and HTML; CSV fields. */
#include <math.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "core/text.h"

/* The verdict in a word and its cause; a summary over rounds has its rounds' count instead. */
static void verdict_cell(const struct compare_row *rw, char *buf, size_t len)
{
	if (rw->s) {
		snprintf(buf, len, "%s", rw->valid > 0 ? "valid" : rw->valid == 0 ? "INVALID" : "-");
		return;
	}
	rr_verdict_short(rw->j->validity, rw->j->status, buf, len);
}

static void meter_text(const struct rr_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", r->meter, r->emulated ? " (emulated)" : "",
		 r->manual ? " (manual)" : "");
}

/* "+-0.27" in the column's units, "-" without an interval. */
static void half_cell(const struct compare_column *c, const struct si_unit *u,
		      const struct compare_row *rw, char *buf, size_t len)
{
	double h = compare_row_half(c, rw);
	char v[COMPARE_CELL / 2];

	if (isnan(h)) {
		snprintf(buf, len, "-");
		return;
	}
	compare_format_in(c, u, h, v, sizeof(v));
	snprintf(buf, len, "+-%s", v);
}

/* "1", "≈1" (cannot be told apart from rank 1), "≠" (another workload than the job's
 * first row: not ranked with it), "-" (not ranked: invalid, or no figure). */
static void rank_cell(const struct compare_row *rw, char *buf, size_t len)
{
	if (rw->apart)
		snprintf(buf, len, "\u2260");
	else if (rw->tie)
		snprintf(buf, len, "\u2248%d", rw->tie);
	else if (rw->rank)
		snprintf(buf, len, "%d", rw->rank);
	else
		snprintf(buf, len, "-");
}

/* The ranking column's 95 % interval follows it. */
size_t compare_row_cells(const struct compare_table *t, const struct compare_row *rw,
			 char cells[][COMPARE_CELL])
{
	size_t k = 0, i;

	rank_cell(rw, cells[k++], COMPARE_CELL);
	snprintf(cells[k++], COMPARE_CELL, "%s", rw->r->label);
	if (rw->s)
		snprintf(cells[k++], COMPARE_CELL, "%s (%u of %u rounds)", rw->name, rw->s->valid,
			 rw->s->entries);
	else
		snprintf(cells[k++], COMPARE_CELL, "%s", rw->name);
	for (i = 0; i < t->ncols; i++) {
		compare_format_in(t->cols[i], &t->units[i], compare_row_value(t->cols[i], rw),
				  cells[k++], COMPARE_CELL);
		if (t->cols[i] == t->sort)
			half_cell(t->cols[i], &t->units[i], rw, cells[k++], COMPARE_CELL);
	}
	verdict_cell(rw, cells[k++], COMPARE_CELL);
	snprintf(cells[k++], COMPARE_CELL, "%s", *rw->r->link ? rw->r->link : rw->r->transport);
	snprintf(cells[k++], COMPARE_CELL, "%s", rw->r->filesystem);
	meter_text(rw->r, cells[k++], COMPARE_CELL);
	return k;
}

int compare_cell_left(size_t k, size_t n)
{
	return k == 1 || k == 2 || k >= n - COMPARE_TRAIL_CELLS;
}

size_t compare_head_cells(const struct compare_table *t, char cells[][COMPARE_CELL])
{
	static const char *const lead[COMPARE_LEAD_CELLS] = { "rank", "device", "job" };
	static const char *const trail[COMPARE_TRAIL_CELLS] = { "verdict", "link", "filesystem",
								"meter" };
	size_t i, n = 0;

	for (i = 0; i < COMPARE_LEAD_CELLS; i++)
		snprintf(cells[n++], COMPARE_CELL, "%s", lead[i]);
	for (i = 0; i < t->ncols; i++) {
		compare_column_head(t->cols[i], &t->units[i], cells[n++], COMPARE_CELL);
		if (t->cols[i] == t->sort)
			snprintf(cells[n++], COMPARE_CELL, "+-95%%");
	}
	for (i = 0; i < COMPARE_TRAIL_CELLS; i++)
		snprintf(cells[n++], COMPARE_CELL, "%s", trail[i]);
	return n;
}

/* Text fields only: quoted as needed, formulas neutralised (core/text.h). */
void compare_csv_str(FILE *fp, const char *s, int last)
{
	text_csv_field(fp, s);
	fputc(last ? '\n' : ',', fp);
}
