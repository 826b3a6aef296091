/* SPDX-License-Identifier: MIT */
/* compare --matrix: a record sweep as iozone prints it, record sizes by operations. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/mem.h"
#include "core/text.h"
#include "core/units.h"

#define CELL 64
/* iozone's order; any other operation follows in the order the results have it. */
static const char *const op_order[] = { "write", "rewrite", "read", "reread",
					"randread", "randwrite", "randrw" };
#define MAX_OPS 16
#define MAX_RECS 64

struct matrix {
	const char *ops[MAX_OPS];
	size_t nops;
	uint64_t recs[MAX_RECS];
	size_t nrecs;
};

static int op_rank(const char *op)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(op_order); i++)
		if (!strcmp(op, op_order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(op_order);
}

static int cmp_op(const void *a, const void *b)
{
	return op_rank(*(const char *const *)a) - op_rank(*(const char *const *)b);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void add_op(struct matrix *m, const char *op)
{
	size_t i;

	for (i = 0; i < m->nops; i++)
		if (!strcmp(m->ops[i], op))
			return;
	if (m->nops < MAX_OPS)
		m->ops[m->nops++] = op;
}

static void add_rec(struct matrix *m, uint64_t bs)
{
	size_t i;

	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i] == bs)
			return;
	if (m->nrecs < MAX_RECS)
		m->recs[m->nrecs++] = bs;
}

/* The operations and record sizes of the results' jobs (every result for CSV). */
static void collect(struct matrix *m, const struct rr_result *res, size_t nres)
{
	size_t r, k;

	memset(m, 0, sizeof(*m));
	for (r = 0; r < nres; r++) {
		for (k = 0; k < res[r].rep.njobs; k++) {
			const struct job_result *j = &res[r].rep.jobs[k];

			if (!rr_bs(j) || !strcmp(rr_rw(j), "?"))
				continue;
			add_op(m, rr_rw(j));
			add_rec(m, rr_bs(j));
		}
	}
	/* A stable sort keeps "any other" operations in the order first seen. */
	for (k = 1; k < m->nops; k++) {
		size_t i = k;

		while (i > 0 && cmp_op(&m->ops[i - 1], &m->ops[i]) > 0) {
			const char *t = m->ops[i];

			m->ops[i] = m->ops[i - 1];
			m->ops[i - 1] = t;
			i--;
		}
	}
	qsort(m->recs, m->nrecs, sizeof(m->recs[0]), cmp_u64);
}

/* The first loop of the job of that operation and record size. */
static const struct job_result *cell_job(const struct rr_result *r, const char *op, uint64_t bs)
{
	size_t k;

	for (k = 0; k < r->rep.njobs; k++) {
		const struct job_result *j = &r->rep.jobs[k];

		if (rr_bs(j) == bs && !strcmp(rr_rw(j), op) && j->loop <= 1)
			return j;
	}
	return NULL;
}

/*
 * A figure of an invalid job is marked '!' (never ranked, and often the outlier: 9.4 J/GB
 * in a row of 60s), of an uncertain one '?'; the marks are explained under the table.
 */
static char cell_mark(const struct job_result *j)
{
	if (!j)
		return ' ';
	if (rr_valid(j) == 0)
		return '!';
	return rr_uncertain(j) ? '?' : ' ';
}

/* The word the CSV's OP_validity column has for the cell: "" when no job or no meter. */
static const char *cell_validity(const struct job_result *j)
{
	int valid = j ? rr_valid(j) : -1;

	if (valid < 0)
		return "";
	return !valid ? "invalid" : rr_uncertain(j) ? "uncertain" : "valid";
}

/* Under the grid: each marked cell, what it is and why ("16 KiB write: INVALID: ..."). */
static void print_marks(FILE *fp, const struct rr_result *r, const struct matrix *m)
{
	char size[32], word[RR_VERDICT_SHORT], why[RR_REASONS_MAX];
	size_t i, k, n = 0;

	for (k = 0; k < m->nrecs; k++) {
		for (i = 0; i < m->nops; i++) {
			const struct job_result *j = cell_job(r, m->ops[i], m->recs[k]);
			char mark = cell_mark(j);

			if (mark == ' ')
				continue;
			if (!n++)
				fprintf(fp, "!: invalid job, its figure not comparable; ?: uncertain "
					    "figure (above the job's max_uncertainty)\n");
			rr_verdict_short(j->validity, j->status, word, sizeof(word));
			rr_reasons(j, why, sizeof(why));
			/* the whole text after the short one, where it says more */
			fprintf(fp, "%c %s %s: %s%s%s%s\n", mark,
				fmt_size(m->recs[k], size, sizeof(size)), m->ops[i], word,
				strstr(word, why) ? "" : " (", strstr(word, why) ? "" : why,
				strstr(word, why) ? "" : ")");
		}
	}
	if (n)
		fprintf(fp, "\n");
}

/* A power metric's unit over the grid's cells (5 uA and 1.5 mA: mA), as one column's. */
static struct si_unit grid_unit(const struct rr_result *r, const struct matrix *m,
				const struct compare_column *metric)
{
	double *v = xcalloc(m->nrecs * m->nops + 1, sizeof(*v));
	struct si_unit u = { 0 };
	size_t i, k, n = 0;

	for (k = 0; metric->unit && k < m->nrecs; k++)
		for (i = 0; i < m->nops; i++) {
			const struct job_result *j = cell_job(r, m->ops[i], m->recs[k]);

			v[n++] = j ? compare_value(metric, j) : NAN;
		}
	if (metric->unit)
		u = compare_column_unit(metric, v, n);
	free(v);
	return u;
}

static void print_grid(FILE *fp, const struct rr_result *r, const struct matrix *m,
		       const struct compare_column *metric, int md)
{
	char buf[CELL], label[RR_LABEL_MAX * 2], head[CELL];
	struct si_unit u = grid_unit(r, m, metric);
	size_t i, k;
	int w = 7;

	for (i = 0; i < m->nops; i++)
		if ((int)strlen(m->ops[i]) > w)
			w = (int)strlen(m->ops[i]);
	/* Names from the result are markdown text: a '|' or '*' there is escaped. */
	if (md)
		text_md_escape(r->label, label, sizeof(label));
	compare_column_head(metric, &u, head, sizeof(head));
	fprintf(fp, md ? "**%s**: %s (`%s`) by record size and operation\n\n"
		       : "%s: %s (%s) by record size and operation\n",
		md ? label : r->label, head, metric->key);
	fprintf(fp, md ? "| %-8s " : "%-8s", "record");
	for (i = 0; i < m->nops; i++)
		fprintf(fp, md ? "| %*s " : "  %*s", w,
			md ? text_md_escape(m->ops[i], buf, sizeof(buf)) : m->ops[i]);
	fprintf(fp, md ? "|\n" : "\n");
	if (md) {
		fprintf(fp, "|:---------");
		for (i = 0; i < m->nops; i++)
			fprintf(fp, "|%.*s:", w + 1, "------------------------------------------");
		fprintf(fp, "|\n");
	}
	for (k = 0; k < m->nrecs; k++) {
		fprintf(fp, md ? "| %-8s " : "%-8s", fmt_size(m->recs[k], buf, sizeof(buf)));
		for (i = 0; i < m->nops; i++) {
			const struct job_result *j = cell_job(r, m->ops[i], m->recs[k]);

			if (j)
				compare_format_in(metric, &u, compare_value(metric, j), buf,
						  sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "-");
			/* the number keeps its column; the mark trails it */
			fprintf(fp, md ? "| %*s%c " : "  %*s%c", w - 1, buf, cell_mark(j));
		}
		fprintf(fp, md ? "|\n" : "\n");
	}
	fprintf(fp, "\n");
	print_marks(fp, r, m);
}

/* Long enough for a spreadsheet: a row per device and record size, the result's units. */
static void print_csv(FILE *fp, const struct rr_set *set, const struct compare_column *metric)
{
	char head[CELL + 16];
	struct matrix m;
	size_t r, i, k;
	double v;

	collect(&m, set->res, set->nres);
	fprintf(fp, "device,metric,bs");
	for (i = 0; i < m.nops; i++) {
		fputc(',', fp);
		text_csv_field(fp, m.ops[i]);
		fputc(',', fp);
		/* the op names are the result's: "write_validity" built as one field */
		snprintf(head, sizeof(head), "%s_validity", m.ops[i]);
		text_csv_field(fp, head);
	}
	fprintf(fp, ",file\n");
	for (r = 0; r < set->nres; r++) {
		for (k = 0; k < m.nrecs; k++) {
			compare_csv_str(fp, set->res[r].label, 0);
			fprintf(fp, "%s,%" PRIu64, metric->key, m.recs[k]);
			for (i = 0; i < m.nops; i++) {
				const struct job_result *j = cell_job(&set->res[r], m.ops[i], m.recs[k]);

				v = j ? compare_value(metric, j) : NAN;
				if (isnan(v))
					fprintf(fp, ",");
				else
					fprintf(fp, ",%.10g", v);
				fprintf(fp, ",%s", cell_validity(j));
			}
			fputc(',', fp);
			compare_csv_str(fp, set->res[r].path, 1);
		}
	}
}

void compare_print_matrix(FILE *fp, const struct rr_set *set,
			  const struct compare_column *metric, int fmt)
{
	struct matrix m;
	size_t r;

	if (fmt == FMT_CSV) {
		print_csv(fp, set, metric);
		return;
	}
	for (r = 0; r < set->nres; r++) {
		collect(&m, &set->res[r], 1);
		print_grid(fp, &set->res[r], &m, metric, fmt == FMT_MD);
	}
}
