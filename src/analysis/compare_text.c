/* SPDX-License-Identifier: MIT */
/* `iowatt compare`'s output: the ranked rows as an aligned table, markdown or CSV, or a matrix. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/op_energy.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/text.h"

#define MOD "compare"

/* Characters a cell takes on screen: UTF-8 continuation bytes take none ("≈1" is 2). */
static size_t text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* s padded to width w on the left or right, by characters, not bytes. */
static void pad_cell(FILE *fp, const char *s, size_t w, int left)
{
	size_t pad = w > text_width(s) ? w - text_width(s) : 0;

	if (!left)
		fprintf(fp, "%*s", (int)pad, "");
	fputs(s, fp);
	if (left)
		fprintf(fp, "%*s", (int)pad, "");
}

/* Which of a table's n cells are text, left-aligned. */
typedef int (*cell_left_fn)(size_t k, size_t n);

static void print_line(FILE *fp, char cells[][COMPARE_CELL], const size_t *w, size_t n, int md,
		       cell_left_fn left)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (md) {
			fputs("| ", fp);
			pad_cell(fp, cells[k], w[k], 1);
			fputc(' ', fp);
		} else {
			pad_cell(fp, cells[k], k + 1 < n ? w[k] : 0, left(k, n));
			fputs(k + 1 < n ? "  " : "\n", fp);
		}
	}
	if (md)
		fprintf(fp, "|\n");
}

/* A '|' in a device or job name would end its cell: escaped. */
static void md_escape_cells(char cells[][COMPARE_CELL], size_t n)
{
	char buf[COMPARE_CELL];
	size_t k;

	for (k = 0; k < n; k++) {
		text_md_escape(cells[k], buf, sizeof(buf));
		memcpy(cells[k], buf, sizeof(buf));
	}
}

static void print_md_rule(FILE *fp, const size_t *w, size_t n, cell_left_fn left)
{
	size_t k, i;

	for (k = 0; k < n; k++) {
		fprintf(fp, "|%s", left(k, n) ? ":" : "-");
		for (i = 0; i < w[k]; i++)
			fputc('-', fp);
		fprintf(fp, "%s", left(k, n) ? "-" : ":");
	}
	fprintf(fp, "|\n");
}

/* The whole verdict of each row that is not plainly valid, under the table: its cell has
 * the word and the cause in a few words. */
static void print_verdict_notes(FILE *fp, const struct compare_table *t, int md)
{
	char text[RR_REASONS_MAX];
	size_t i, n = 0;

	for (i = 0; i < t->nrows; i++) {
		const struct compare_row *rw = &t->rows[i];
		const char *word = rr_verdict_word(rw->j->validity, rw->j->status);

		if (rw->s || (strcmp(word, "INVALID") && strcmp(word, "UNCERTAIN")))
			continue;
		rr_reasons(rw->j, text, sizeof(text));
		if (!n++)
			fputc('\n', fp);
		fprintf(fp, "%s%s, %s: %s: %s\n", md ? "- " : "", rw->r->label, rw->name, word, text);
	}
}

static void print_text(FILE *fp, const struct compare_table *t, int md)
{
	char (*cells)[COMPARE_CELL] = xcalloc(COMPARE_MAX_CELLS, COMPARE_CELL);
	size_t w[COMPARE_MAX_CELLS], n, i, k, nh;

	nh = compare_head_cells(t, cells);
	for (k = 0; k < nh; k++)
		w[k] = text_width(cells[k]);
	for (i = 0; i < t->nrows; i++) {
		n = compare_row_cells(t, &t->rows[i], cells);
		if (md)
			md_escape_cells(cells, n);
		for (k = 0; k < n; k++)
			if (text_width(cells[k]) > w[k])
				w[k] = text_width(cells[k]);
	}
	compare_head_cells(t, cells);
	print_line(fp, cells, w, nh, md, compare_cell_left);
	if (md)
		print_md_rule(fp, w, nh, compare_cell_left);
	for (i = 0; i < t->nrows; i++) {
		n = compare_row_cells(t, &t->rows[i], cells);
		if (md)
			md_escape_cells(cells, n);
		print_line(fp, cells, w, n, md, compare_cell_left);
	}
	free(cells);
	print_verdict_notes(fp, t, md);
}

static int op_left(size_t k, size_t n)
{
	(void)n;
	return op_energy_cell_left(k);
}

struct note_out {
	FILE *fp;
	int md;
};

static void op_note(void *ctx, const char *text)
{
	const struct note_out *o = ctx;

	fprintf(o->fp, "%s%s\n", o->md ? "- " : "", text);
}

/* Each device's pooled energy per operation under the ranked table; nothing when no result
 * has a pooled model (older results, measure's). */
static void print_op_energy(FILE *fp, const struct rr_set *set, int md)
{
	char (*cells)[COMPARE_CELL];
	size_t w[OP_ENERGY_CELLS], i, m, k, pass;
	const struct rr_result *r;
	struct note_out note = { fp, md };

	if (!op_energy_count(set))
		return;
	cells = xcalloc(OP_ENERGY_CELLS, COMPARE_CELL);
	fprintf(fp, "\n%sEnergy per operation%s above idle, pooled over each run's jobs per meter, "
		    "block size, direct setting and writes per flush (event-locked: one job's ops "
		    "averaged on a fast meter's trace):\n\n", md ? "**" : "", md ? "**" : "");
	/* pass 0 measures the widths, pass 1 prints */
	for (pass = 0; pass < 2; pass++) {
		op_energy_head_cells(cells);
		for (k = 0; k < OP_ENERGY_CELLS && !pass; k++)
			w[k] = text_width(cells[k]);
		if (pass) {
			print_line(fp, cells, w, OP_ENERGY_CELLS, md, op_left);
			if (md)
				print_md_rule(fp, w, OP_ENERGY_CELLS, op_left);
		}
		for (i = 0; i < set->nres; i++) {
			r = &set->res[i];
			for (m = 0; op_energy_result_row(r, m, cells); m++) {
				if (md)
					md_escape_cells(cells, OP_ENERGY_CELLS);
				for (k = 0; k < OP_ENERGY_CELLS && !pass; k++)
					if (text_width(cells[k]) > w[k])
						w[k] = text_width(cells[k]);
				if (pass)
					print_line(fp, cells, w, OP_ENERGY_CELLS, md, op_left);
			}
		}
	}
	free(cells);
	fputc('\n', fp);
	op_energy_notes(set, op_note, &note);
}

static void csv_number(FILE *fp, double v)
{
	if (isnan(v))
		fprintf(fp, ",");
	else
		fprintf(fp, "%.10g,", v);
}

/* A check's outcome: "true", "false", "" when not made (RESULT_NULL_BOOL). */
static const char *csv_bool(int v)
{
	return v == RESULT_NULL_BOOL ? "" : v ? "true" : "false";
}

/* The figures of a RESULT_OP_COSTS p (NULL: none) in csv_costs' order. */
#define OP_COSTS(p)                                                                        \
	((p) ? (const double[8]){ (p)->read_uj_per_op, (p)->read_uj_per_op_u95,            \
				  (p)->write_uj_per_op, (p)->write_uj_per_op_u95,          \
				  (p)->flush_uj_per_op, (p)->flush_uj_per_op_u95,          \
				  (p)->sum_uj_per_op, (p)->sum_uj_per_op_u95 }             \
	     : NULL)

/* uJ per read, write and flush with U95, then a lock-step pair's sum_of, sum and U95
 * (empty where sum_of is NULL): nine CSV fields, empty where v is NULL or a figure NAN. */
static void csv_costs(FILE *fp, const double *v, const char *sum_of)
{
	unsigned i;

	for (i = 0; i < 6; i++)
		csv_number(fp, v ? v[i] : NAN);
	compare_csv_str(fp, sum_of ? sum_of : "", 0);
	csv_number(fp, v && sum_of ? v[6] : NAN);
	csv_number(fp, v && sum_of ? v[7] : NAN);
}

/*
 * After the file: the device's pooled model for the row's job (the writes each of its
 * flushes carries, uJ per read, write and flush, a lock-step sum, its verdict), then the
 * job's own event-locked figures from a fast meter, whether its 100 ms model agreed and
 * whether the ops' energy balanced the readings' above idle.
 */
static void csv_op_energy(FILE *fp, const struct compare_row *rw)
{
	const struct result_device_model *d = op_energy_model(rw->r, rw->j);
	const struct result_event_locked *el = op_energy_event_locked(rw->j);

	if (d)
		fprintf(fp, "%llu,", (unsigned long long)d->writes_per_flush);
	else
		fprintf(fp, ",");
	csv_costs(fp, OP_COSTS(d), d ? d->sum_of : NULL);
	compare_csv_str(fp, d && d->verdict ? d->verdict : "", 0);
	csv_costs(fp, OP_COSTS(el), el ? el->sum_of : NULL);
	fprintf(fp, "%s,", csv_bool(el ? el->agrees_with_model : RESULT_NULL_BOOL));
	fprintf(fp, "%s\n", csv_bool(el ? el->agrees_with_trace : RESULT_NULL_BOOL));
}

static void csv_row(FILE *fp, const struct compare_row *rw, const struct si_unit *units)
{
	char reasons[RR_REASONS_MAX];
	size_t k;

	if (rw->rank)
		fprintf(fp, "%d,", rw->rank);
	else
		fprintf(fp, ",");
	compare_csv_str(fp, rw->r->label, 0);
	compare_csv_str(fp, rw->name, 0);
	fprintf(fp, "%u,", rw->j->loop);
	if (rw->s)
		fprintf(fp, "%u,", rw->s->valid);
	else
		fprintf(fp, ",");
	if (rw->tie)
		fprintf(fp, "%d,", rw->tie);
	else
		fprintf(fp, ",");
	/* a measured command has neither: empty, as every undefined field */
	compare_csv_str(fp, strcmp(rr_rw(rw->j), "?") ? rr_rw(rw->j) : "", 0);
	if (rr_bs(rw->j))
		fprintf(fp, "%llu,", (unsigned long long)rr_bs(rw->j));
	else
		fprintf(fp, ",");
	for (k = 0; k < compare_ncolumns; k++) {
		csv_number(fp, compare_in_unit(&compare_columns[k], &units[k],
					       compare_row_value(&compare_columns[k], rw)));
		csv_number(fp, compare_in_unit(&compare_columns[k], &units[k],
					       compare_row_half(&compare_columns[k], rw)));
	}
	fprintf(fp, "%s,", rw->valid > 0 ? "true" : rw->valid == 0 ? "false" : "");
	fprintf(fp, "%s,", rw->uncertain ? "true" : rw->valid > 0 ? "false" : "");
	rr_reasons(rw->j, reasons, sizeof(reasons));
	compare_csv_str(fp, reasons, 0);
	compare_csv_str(fp, rw->r->transport, 0);
	compare_csv_str(fp, rw->r->link, 0);
	compare_csv_str(fp, rw->r->filesystem, 0);
	compare_csv_str(fp, rw->r->meter, 0);
	fprintf(fp, "%s,", rw->r->emulated ? "true" : "false");
	compare_csv_str(fp, rw->r->path, 0);
	csv_op_energy(fp, rw);
}

/* Every metric; a current, power, charge or energy in the unit its column's figures choose,
 * named in its key (active_ua), so a spreadsheet's numbers have the unit the header says. */
static void print_csv(FILE *fp, const struct compare_row *rows, size_t nrows)
{
	struct si_unit *units = xcalloc(compare_ncolumns, sizeof(*units));
	double *v = xcalloc(nrows + 1, sizeof(*v));
	char key[COMPARE_CELL];
	size_t i, k;

	fprintf(fp, "rank,device,job,loop,rounds,indistinguishable_from,rw,bs,");
	for (k = 0; k < compare_ncolumns; k++) {
		for (i = 0; i < nrows && compare_columns[k].unit; i++)
			v[i] = compare_row_value(&compare_columns[k], &rows[i]);
		if (compare_columns[k].unit)
			units[k] = compare_column_unit(&compare_columns[k], v, nrows);
		compare_column_key(&compare_columns[k], compare_columns[k].unit ? &units[k] : NULL,
				   key, sizeof(key));
		fprintf(fp, "%s,%s_u95,", key, key);
	}
	fprintf(fp, "valid,uncertain,reasons,transport,link,filesystem,meter,emulated,file,"
		    "device_writes_per_flush,"
		    "device_read_uj_per_op,device_read_uj_per_op_u95,device_write_uj_per_op,"
		    "device_write_uj_per_op_u95,device_flush_uj_per_op,device_flush_uj_per_op_u95,"
		    "device_sum_of,device_sum_uj_per_op,device_sum_uj_per_op_u95,"
		    "device_model_verdict,"
		    "event_locked_read_uj_per_op,event_locked_read_uj_per_op_u95,"
		    "event_locked_write_uj_per_op,event_locked_write_uj_per_op_u95,"
		    "event_locked_flush_uj_per_op,event_locked_flush_uj_per_op_u95,"
		    "event_locked_sum_of,event_locked_sum_uj_per_op,event_locked_sum_uj_per_op_u95,"
		    "event_locked_agrees_with_model,event_locked_agrees_with_trace\n");
	for (i = 0; i < nrows; i++)
		csv_row(fp, &rows[i], units);
	free(v);
	free(units);
}

/* What the ranks mean, and which jobs were ranked by the W-based figure instead. */
static void print_footer(FILE *fp, const struct compare_table *t)
{
	const struct compare_column *sort = t->sort;
	size_t i;

	fprintf(fp, "\nranked by %s within each job (%s is better); invalid rows are not ranked\n",
		sort->key, sort->lower_better ? "lower" : "higher");
	fprintf(fp, "+-95%%: half the figure's 95 %% interval: the meter's uncertainty, and over "
		    "rounds the run-to-run spread too\n");
	for (i = 0; i < t->nrows && !t->rows[i].apart; i++)
		;
	if (i < t->nrows)
		fprintf(fp, "\u2260: ran another workload than the job's first row (the options on "
			    "stderr): not ranked with it\n");
	if (t->ties)
		fprintf(fp, "\u2248N: indistinguishable at 95 %% from the row ranked N (their "
			    "intervals overlap): not ranked apart\n");
	if (*t->rail)
		fprintf(fp, "ranked by %s instead where the rows' rails differ in voltage: %s\n",
			sort->per_w, t->rail);
}

/* The table, markdown or CSV, or the matrix, or CrystalDiskMark's text (its -errno). */
static int print_table(FILE *fp, const struct compare_opts *o, const struct rr_set *set,
		       const struct compare_table *t)
{
	if (o->fmt == FMT_CDM)
		return compare_print_cdm(fp, set);
	if (o->matrix)
		compare_print_matrix(fp, set, o->sort, o->fmt);
	else if (o->fmt == FMT_CSV)
		print_csv(fp, t->rows, t->nrows);
	else
		print_text(fp, t, o->fmt == FMT_MD);
	if (o->fmt == FMT_TABLE && !o->matrix)
		print_footer(fp, t);
	if ((o->fmt == FMT_TABLE || o->fmt == FMT_MD) && !o->matrix)
		print_op_energy(fp, set, o->fmt == FMT_MD);
	return 0;
}

/* The table of set into o->out_path or stdout. 0 or -errno (logged). */
static int write_table(const struct compare_opts *o, const struct rr_set *set,
		       const struct compare_table *t)
{
	struct atomic_file af = { .dfd = -1 };
	FILE *fp = stdout;
	int err;

	/* A new file renamed over the name when complete: never written through a link,
	 * into a FIFO or over a hard link's other names. */
	if (o->out_path) {
		err = atomic_file_open(&af, o->out_path, 1);
		if (err)
			return err;
		fp = af.fp;
	}
	err = print_table(fp, o, set, t);
	if (err) {
		if (fp != stdout)
			atomic_file_abort(&af);
		return err;
	}
	if (fp != stdout) {
		if (ferror(fp)) {
			log_err(MOD, "-o %s: %s", o->out_path, strerror(EIO));
			atomic_file_abort(&af);
			return -EIO;
		}
		return atomic_file_commit(&af);
	}
	return 0;
}

/* compare's warnings go to stderr. */
static void log_warning(void *ctx, int info, const char *text)
{
	(void)ctx;
	if (info)
		log_info(MOD, "%s", text);
	else
		log_warn(MOD, "%s", text);
}

int compare_results(const struct rr_set *set, const struct compare_opts *o)
{
	struct compare_table t;
	int err;

	compare_table_build(&t, set, o->sort);
	compare_warnings(set, o->matrix ? NULL : &t, log_warning, NULL);
	err = write_table(o, set, &t);
	compare_table_free(&t);
	return err;
}
