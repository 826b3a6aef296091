/* SPDX-License-Identifier: MIT */
/* compare's rows: one per device and job, ranked within each job; ties where intervals overlap. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/mem.h"

/* Rails further apart than this are different supplies (3.3 V, 5 V, 12 V), not one
 * USB line's sag: a mA on one is not a mA on the other. */
#define RAIL_RATIO 1.1

/* A row's figure: the entry's, or the mean over its rounds. */
double compare_row_value(const struct compare_column *c, const struct compare_row *rw)
{
	const struct result_stat *st;

	if (!rw->s)
		return compare_value(c, rw->j);
	st = result_summary_stat(rw->s, c->key);
	return st ? st->mean : compare_value(c, rw->j);
}

/*
 * Half the row's 95 % interval of a figure: the entry's measurement uncertainty, or over
 * rounds the spread and the measurement uncertainty together (result_stat_u95). NAN for
 * a single entry's performance figures, which have no interval.
 */
double compare_row_half(const struct compare_column *c, const struct compare_row *rw)
{
	const void *obj;

	if (rw->s)
		return result_stat_u95(result_summary_stat(rw->s, c->key));
	if (c->from == FROM_JOB)
		return NAN;
	obj = c->from == FROM_POWER ? (const void *)rr_power(rw->j) : (const void *)rr_eff(rw->j);
	return *(const double *)(const void *)((const char *)obj + c->u95_off);
}

/* Valid rows with a value first, then by the metric in its better direction. */
static int row_cmp(const void *a, const void *b, void *arg)
{
	const struct compare_column *sort = *(const struct compare_column **)arg;
	const struct compare_row *x = a, *y = b;
	int xv = x->valid != 0 && !isnan(x->key), yv = y->valid != 0 && !isnan(y->key);

	if (xv != yv)
		return yv - xv;
	if (isnan(x->key) || isnan(y->key))
		return isnan(x->key) - isnan(y->key);
	if (x->key == y->key)
		return 0;
	return (x->key < y->key) == !sort->lower_better ? 1 : -1;
}

/*
 * The column a group of rows is ranked by: the sort column, unless it counts mA and the
 * rows' rails differ in voltage; then its W-based counterpart.
 */
static const struct compare_column *group_sort(const struct compare_column *sort,
					       const struct compare_row *rows, size_t n)
{
	double v, vmin = INFINITY, vmax = -INFINITY;
	const struct compare_column *alt;
	size_t i;

	if (!sort->per_w)
		return sort;
	for (i = 0; i < n; i++) {
		v = rr_power(rows[i].j)->active_v;
		if (isnan(v) || v <= 0 || isnan(compare_value(sort, rows[i].j)))
			continue;
		vmin = fmin(vmin, v);
		vmax = fmax(vmax, v);
	}
	alt = compare_column_find(sort->per_w);
	return vmax > vmin * RAIL_RATIO && alt ? alt : sort;
}

void compare_row_init(struct compare_row *rw, const struct run_result *rep,
		      const struct job_result *j)
{
	const struct result_job_summary *s = j->jobname ? result_summary_find(rep, j->jobname)
							 : NULL;

	rw->j = j;
	rw->s = s;
	rw->valid = rr_valid(j);
	rw->uncertain = !s && rr_uncertain(j);
	if (s)
		rw->valid = !s->valid ? 0 : rw->valid < 0 ? -1 : 1;
}

/* A job with rounds is one row, its summary's, on its first entry; NULL: not a row. */
static int row_of(const struct rr_result *r, const struct job_result *j, struct compare_row *rw)
{
	if (j->jobname && result_summary_find(&r->rep, j->jobname) &&
	    rr_find_job(r, j->jobname) != j)
		return 0;
	rw->r = r;
	compare_row_init(rw, &r->rep, j);
	return 1;
}

/* Rows that ran another workload than the group's first (the first result's) stand apart:
 * not ranked with it (compare_warnings names the options). */
static void mark_apart(struct compare_row *rows, size_t n)
{
	char diff[256];
	size_t k;

	for (k = 1; k < n; k++) {
		compare_workload_diff(rows[0].j, rows[k].j, diff, sizeof(diff));
		rows[k].apart = *diff != '\0';
	}
}

/* Ranks within a group of rows sorted by their figure; ties where intervals overlap. */
static void rank_group(struct compare_row *rows, size_t n)
{
	double *v = xcalloc(n + 1, sizeof(*v)), *h = xcalloc(n + 1, sizeof(*h));
	int *rank = xcalloc(n + 1, sizeof(*rank)), *tie = xcalloc(n + 1, sizeof(*tie)), next = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		if (rows[k].valid != 0 && !rows[k].apart && !isnan(rows[k].key))
			rows[k].rank = ++next;
		v[k] = rows[k].key;
		h[k] = rows[k].half;
		rank[k] = rows[k].rank;
	}
	compare_ties(v, h, rank, n, tie);
	for (k = 0; k < n; k++)
		rows[k].tie = tie[k];
	free(v);
	free(h);
	free(rank);
	free(tie);
}

/* Rows grouped by job name in order of first appearance, ranked within the group. */
static struct compare_row *build_rows(const struct rr_set *set, const char *const *names,
				      size_t nnames, const struct compare_column *sort,
				      size_t *nrows)
{
	const struct compare_column *by;
	struct compare_row *rows;
	size_t n, i, k, first, total = 0;

	for (i = 0; i < set->nres; i++)
		total += set->res[i].rep.njobs;
	rows = xcalloc(total ? total : 1, sizeof(*rows));
	*nrows = 0;
	for (n = 0; n < nnames; n++) {
		first = *nrows;
		for (i = 0; i < set->nres; i++) {
			for (k = 0; k < set->res[i].rep.njobs; k++) {
				struct compare_row *rw = &rows[*nrows];

				if (strcmp(set->res[i].names[k], names[n]) ||
				    !row_of(&set->res[i], &set->res[i].rep.jobs[k], rw))
					continue;
				rw->name = set->res[i].names[k];
				(*nrows)++;
			}
		}
		mark_apart(rows + first, *nrows - first);
		by = group_sort(sort, rows + first, *nrows - first);
		for (k = first; k < *nrows; k++) {
			rows[k].key = compare_row_value(by, &rows[k]);
			rows[k].half = compare_row_half(by, &rows[k]);
			rows[k].ranked_by = by;
		}
		qsort_r(rows + first, *nrows - first, sizeof(*rows), row_cmp, &by);
		rank_group(rows + first, *nrows - first);
	}
	return rows;
}

/* The jobs ranked by the W-based counterpart of sort, ", "-joined; 0 if none. */
static int rail_jobs(const struct compare_column *sort, const struct compare_row *rows,
		     size_t nrows, char *buf, size_t len)
{
	size_t i, used = 0;
	int n = 0;

	buf[0] = '\0';
	for (i = 0; i < nrows && used < len; i++) {
		if (rows[i].ranked_by == sort || (i && !strcmp(rows[i - 1].name, rows[i].name)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", n++ ? ", " : "",
					 rows[i].name);
	}
	return n;
}

static int any_tie(const struct compare_row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		if (rows[i].tie)
			return 1;
	return 0;
}

/* A conditional column some row has. */
static int any_row(const struct compare_column *c, const struct compare_row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; c->shown && i < nrows; i++)
		if (c->shown(rows[i].j))
			return 1;
	return 0;
}

/* The table's metric columns: the brief ones, the ranking ones, those some row has. */
static size_t table_columns(const struct compare_column *sort, int by_w,
			    const struct compare_row *rows, size_t nrows,
			    const struct compare_column **out)
{
	size_t i, n = 0;

	for (i = 0; i < compare_ncolumns; i++)
		if (compare_columns[i].brief || &compare_columns[i] == sort ||
		    (by_w && !strcmp(compare_columns[i].key, sort->per_w)) ||
		    any_row(&compare_columns[i], rows, nrows))
			out[n++] = &compare_columns[i];
	return n;
}

/* Each of t's unit columns' unit, from its rows' figures. */
static void table_units(struct compare_table *t)
{
	double *v = xcalloc(t->nrows + 1, sizeof(*v));
	size_t i, k;

	for (k = 0; k < t->ncols; k++) {
		if (!t->cols[k]->unit)
			continue;
		for (i = 0; i < t->nrows; i++)
			v[i] = compare_row_value(t->cols[k], &t->rows[i]);
		t->units[k] = compare_column_unit(t->cols[k], v, t->nrows);
	}
	free(v);
}

void compare_table_build(struct compare_table *t, const struct rr_set *set,
			 const struct compare_column *sort)
{
	const char **names = NULL;
	size_t nnames = rr_job_names(set, &names);
	int by_w;

	memset(t, 0, sizeof(*t));
	t->sort = sort;
	t->rows = build_rows(set, names, nnames, sort, &t->nrows);
	by_w = rail_jobs(sort, t->rows, t->nrows, t->rail, sizeof(t->rail));
	t->ncols = table_columns(sort, by_w, t->rows, t->nrows, t->cols);
	t->ties = any_tie(t->rows, t->nrows);
	table_units(t);
	free(names);
}

void compare_table_free(struct compare_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}
