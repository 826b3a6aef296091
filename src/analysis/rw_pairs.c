/* SPDX-License-Identifier: MIT */
/* Read/write pairs of a result's jobs (CrystalDiskMark's tests) and the grid's cells. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/repeats.h"
#include "analysis/rw_pairs.h"
#include "core/mem.h"
#include "core/units.h"

#define SIG_RATE 3
#define SIG_ENERGY 4

/* What pairs a job: a pure direction of a plain pattern, and its shape. */
struct shape {
	int dir; /* RW_READ, RW_WRITE; -1: not a test's half (mixed, rewrite, reread, loop 2) */
	int seq;
	uint64_t bs;
	unsigned depth, threads;
};

static unsigned opt_uint(const struct job_result *j, const char *key)
{
	const struct result_opt *o = result_opt_find(j, key);

	if (o && o->type == RESULT_OPT_INT && o->i > 0 && o->i < 1000000)
		return (unsigned)o->i;
	return 1;
}

/* Only the first entry of a job: a later loop or round is the same test again. */
static int first_entry(const struct run_result *r, const struct job_result *j)
{
	size_t i;

	if (j->loop > 1 || !j->jobname)
		return 0;
	for (i = 0; &r->jobs[i] != j; i++)
		if (r->jobs[i].jobname && !strcmp(r->jobs[i].jobname, j->jobname))
			return 0;
	return 1;
}

static struct shape shape_of(const struct run_result *r, const struct job_result *j)
{
	const char *rw = rr_rw(j);
	struct shape s = { .dir = -1 };

	if (!first_entry(r, j))
		return s;
	if (!strcmp(rw, "read") || !strcmp(rw, "randread"))
		s.dir = RW_READ;
	else if (!strcmp(rw, "write") || !strcmp(rw, "randwrite"))
		s.dir = RW_WRITE;
	s.seq = strncmp(rw, "rand", 4) != 0;
	s.bs = rr_bs(j);
	s.depth = opt_uint(j, "iodepth");
	s.threads = opt_uint(j, "numjobs");
	return s;
}

static int same_shape(const struct shape *a, const struct shape *b)
{
	return a->dir >= 0 && b->dir >= 0 && a->dir != b->dir && a->seq == b->seq &&
	       a->bs == b->bs && a->depth == b->depth && a->threads == b->threads;
}

/* The length of name's stem before a "-read"/"_write" suffix that matches dir; 0: none. */
static size_t stem_len(const char *name, int dir)
{
	const char *suffix = dir == RW_READ ? "read" : "write";
	size_t n = strlen(name), k = strlen(suffix);

	if (n < k + 2 || strcasecmp(name + n - k, suffix) || !strchr("-_", name[n - k - 1]))
		return 0;
	return n - k - 1;
}

static int same_stem(const struct job_result *a, int da, const struct job_result *b, int db)
{
	size_t n = stem_len(a->jobname, da);

	return n && n == stem_len(b->jobname, db) && !strncmp(a->jobname, b->jobname, n);
}

/* CrystalDiskMark's name for a shape: "SEQ1M-Q8T1", "RND4K-Q32T1", "SEQ128K-Q32T4". */
static void shape_name(const struct shape *s, char *buf, size_t len)
{
	uint64_t b = s->bs;
	const char *u = b && !(b % MIB) ? "M" : b && !(b % KIB) ? "K" : "";

	b = *u == 'M' ? b / MIB : *u == 'K' ? b / KIB : b;
	snprintf(buf, len, "%s%llu%s-Q%uT%u", s->seq ? "SEQ" : "RND", (unsigned long long)b, u,
		 s->depth, s->threads);
}

static void pair_fill(struct rw_pair *p, const struct run_result *r, const struct job_result *a,
		      const struct shape *sa, const struct job_result *b, int by_name)
{
	if (by_name)
		snprintf(p->test, sizeof(p->test), "%.*s", (int)stem_len(a->jobname, sa->dir),
			 a->jobname);
	else
		shape_name(sa, p->test, sizeof(p->test));
	p->seq = sa->seq;
	p->bs = sa->bs;
	p->depth = sa->depth;
	p->threads = sa->threads;
	compare_row_init(&p->dir[sa->dir], r, a);
	compare_row_init(&p->dir[!sa->dir], r, b);
}

/* Pairs found by name (by_name) or by shape among the jobs not yet taken. */
static void find_pass(const struct run_result *r, const struct shape *sh, char *taken,
		      int by_name, struct rw_pair *pairs, size_t *n)
{
	size_t i, k;

	for (i = 0; i < r->njobs; i++) {
		for (k = i + 1; !taken[i] && k < r->njobs; k++) {
			if (taken[k] || !same_shape(&sh[i], &sh[k]))
				continue;
			if (by_name && !same_stem(&r->jobs[i], sh[i].dir, &r->jobs[k], sh[k].dir))
				continue;
			pair_fill(&pairs[(*n)++], r, &r->jobs[i], &sh[i], &r->jobs[k], by_name);
			taken[i] = taken[k] = 1;
		}
	}
}

/* Pairs in the order of their first job: name pairs and shape pairs interleaved. */
static size_t pair_first(const struct rw_pair *p, const struct run_result *r)
{
	const struct job_result *a = p->dir[0].j, *b = p->dir[1].j;

	return (size_t)((a < b ? a : b) - r->jobs);
}

static int cmp_pair(const void *x, const void *y, void *arg)
{
	size_t a = pair_first(x, arg), b = pair_first(y, arg);

	return (a > b) - (a < b);
}

size_t rw_pairs_find(const struct run_result *r, struct rw_pair **pairs)
{
	struct shape *sh;
	char *taken;
	size_t i, n = 0;

	*pairs = NULL;
	if (!r->njobs)
		return 0;
	sh = xcalloc(r->njobs, sizeof(*sh));
	taken = xcalloc(r->njobs, 1);
	*pairs = xcalloc(r->njobs / 2 + 1, sizeof(**pairs));
	for (i = 0; i < r->njobs; i++)
		sh[i] = shape_of(r, &r->jobs[i]);
	find_pass(r, sh, taken, 1, *pairs, &n);
	find_pass(r, sh, taken, 0, *pairs, &n);
	qsort_r(*pairs, n, sizeof(**pairs), cmp_pair, (void *)(uintptr_t)r);
	free(sh);
	free(taken);
	if (!n) {
		free(*pairs);
		*pairs = NULL;
	}
	return n;
}

char rw_mark(const struct compare_row *rw)
{
	if (rw->valid == 0)
		return '!';
	return rw->uncertain ? '?' : ' ';
}

static const struct compare_column *col(const char *key)
{
	return compare_column_find(key);
}

void rw_grid_build(struct rw_grid *g, const struct run_result *r)
{
	double *v;
	size_t i, d;

	memset(g, 0, sizeof(*g));
	g->n = rw_pairs_find(r, &g->pairs);
	v = xcalloc(2 * g->n + 1, sizeof(*v));
	for (i = 0; i < g->n; i++)
		for (d = 0; d < 2; d++)
			v[2 * i + d] = compare_row_value(col("j_per_gb"), &g->pairs[i].dir[d]);
	g->e = si_unit_for(SI_ENERGY, v, 2 * g->n);
	free(v);
}

void rw_grid_free(struct rw_grid *g)
{
	free(g->pairs);
	memset(g, 0, sizeof(*g));
}

void rw_grid_head(const struct rw_grid *g, char cells[][COMPARE_CELL])
{
	size_t d;

	snprintf(cells[0], COMPARE_CELL, "test");
	for (d = 0; d < 2; d++) {
		const char *w = d == RW_READ ? "Read" : "Write";

		snprintf(cells[1 + 3 * d], COMPARE_CELL, "%s MB/s", w);
		snprintf(cells[2 + 3 * d], COMPARE_CELL, "%s %s/GB", w, g->e.text);
		snprintf(cells[3 + 3 * d], COMPARE_CELL, "%s IOPS/mA", w);
	}
}

void rw_grid_row(const struct rw_grid *g, size_t i, char cells[][COMPARE_CELL])
{
	const struct rw_pair *p = &g->pairs[i];
	char num[32];
	size_t d;

	snprintf(cells[0], COMPARE_CELL, "%s", p->test);
	for (d = 0; d < 2; d++) {
		const struct compare_row *rw = &p->dir[d];
		char mark = rw_mark(rw);
		double mbps = compare_row_value(col("bw_bytes"), rw) / 1e6;

		fmt_sig(mbps > 0 ? mbps : NAN, SIG_RATE, num, sizeof(num));
		snprintf(cells[1 + 3 * d], COMPARE_CELL, "%s%c", num, mark);
		si_fmt(&g->e, compare_row_value(col("j_per_gb"), rw), SIG_ENERGY, num, sizeof(num));
		snprintf(cells[2 + 3 * d], COMPARE_CELL, "%s%c", num, mark);
		fmt_sig(compare_row_value(col("iops_per_ma"), rw), SIG_RATE, num, sizeof(num));
		snprintf(cells[3 + 3 * d], COMPARE_CELL, "%s%c", num, mark);
	}
}
