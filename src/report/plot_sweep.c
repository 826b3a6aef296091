/* SPDX-License-Identifier: MIT */
/* Record-size sweep chart data: MB/s and J/GB against record size, per operation and device. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "report/plot.h"

#define MOD "plot"
#define SWEEP_WIDTH_PX 1200
#define SWEEP_HEIGHT_PX 960
#define SWEEP_MAX_SIZES 32

/* The operations of an iozone matrix, in its order; each gets its own marker and dashes. */
static const char *const ops[] = { "write", "rewrite", "read", "reread", "randread", "randwrite",
				   "randrw" };

static int op_index(const char *rw)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(ops[i], rw))
			return (int)i;
	return -1;
}

/* The job of a result that ran operation op at record size bs: its first valid loop, else
 * its first. */
static const struct job_result *sweep_job(const struct rr_result *r, int op, uint64_t bs)
{
	const struct job_result *first = NULL;
	size_t i;

	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];

		if (op_index(rr_rw(j)) != op || rr_bs(j) != bs || !(rr_bw_bytes(j) > 0))
			continue;
		if (rr_valid(j) != 0)
			return j;
		if (!first)
			first = j;
	}
	return first;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct record sizes a result ran operation op at, ascending; returns the count. */
static size_t op_sizes(const struct rr_result *r, int op, uint64_t *sizes)
{
	size_t i, k, n = 0;

	for (i = 0; i < r->rep.njobs && n < SWEEP_MAX_SIZES; i++) {
		const struct job_result *j = &r->rep.jobs[i];

		if (op_index(rr_rw(j)) != op || !rr_bs(j) || !(rr_bw_bytes(j) > 0))
			continue;
		for (k = 0; k < n && sizes[k] != rr_bs(j); k++)
			;
		if (k == n)
			sizes[n++] = rr_bs(j);
	}
	qsort(sizes, n, sizeof(*sizes), u64_cmp);
	return n;
}

/* What the lines hold, for the key. */
struct sweep_seen {
	int power, invalid, uncertain;
	unsigned ops;	    /* bit per operation */
	unsigned char *dev; /* per device: it has a line (the key names only those) */
	struct si_unit jpg_unit; /* the J/GB axis' (kJ/GB over 1000 J/GB), sweep.dat's */
};

/*
 * One line: a device's operation over its record sizes, each point's validity (1 valid,
 * 0 invalid) and whether it is uncertain. An invalid point is no part of the line.
 */
static void sweep_line(FILE *fp, const struct rr_result *r, int op, const uint64_t *sizes,
		       size_t n, struct sweep_seen *seen)
{
	size_t k;

	fprintf(fp, "# %s: %s\n", r->label, ops[op]);
	for (k = 0; k < n; k++) {
		const struct job_result *j = sweep_job(r, op, sizes[k]);

		fprintf(fp, "%llu", (unsigned long long)sizes[k]);
		plot_put_num(fp, rr_bw_bytes(j) / 1e6);
		plot_put_num(fp, rr_has_power(j) ? rr_eff(j)->j_per_gb * seen->jpg_unit.per_base : NAN);
		fprintf(fp, " %d %d\n", rr_valid(j) != 0, rr_uncertain(j));
		seen->invalid |= rr_valid(j) == 0;
		seen->uncertain |= rr_uncertain(j);
	}
	fprintf(fp, "\n\n");
}

/* Record sizes seen on any line, as tick labels. */
struct ticks {
	uint64_t v[SWEEP_MAX_SIZES];
	size_t n;
};

static void ticks_add(struct ticks *t, const uint64_t *sizes, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < t->n && t->v[k] != sizes[i]; k++)
			;
		if (k == t->n && t->n < SWEEP_MAX_SIZES)
			t->v[t->n++] = sizes[i];
	}
}

/* KEYOP[]: the operations drawn, for the key; OPNAME[] all of them. */
static void sweep_meta(FILE *meta, struct ticks *t, const struct sweep_seen *seen, size_t ndev)
{
	char buf[32];
	size_t i, n = 0;

	qsort(t->v, t->n, sizeof(t->v[0]), u64_cmp);
	fprintf(meta, "array OPNAME[%zu]\nNXT = %zu\narray XT[%zu]\narray XV[%zu]\n"
		      "HASPOWER = %d\nHASINVALID = %d\nHASUNCERTAIN = %d\narray KEYOP[%zu]\n"
		      "array DEVIN[%zu]\n", ARRAY_SIZE(ops), t->n, t->n, t->n, seen->power,
		seen->invalid, seen->uncertain, ARRAY_SIZE(ops), ndev ? ndev : 1);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		fprintf(meta, "OPNAME[%zu] = ", i + 1);
		plot_gp_string(meta, ops[i]);
		fputc('\n', meta);
		if (seen->ops & (1u << i))
			fprintf(meta, "KEYOP[%zu] = %zu\n", ++n, i + 1);
	}
	fprintf(meta, "NKEYOP = %zu\n", n);
	for (i = 0; i < ndev; i++)
		fprintf(meta, "DEVIN[%zu] = %d\n", i + 1, seen->dev[i]);
	for (i = 0; i < t->n; i++) {
		fprintf(meta, "XT[%zu] = ", i + 1);
		plot_gp_string(meta, fmt_size(t->v[i], buf, sizeof(buf)));
		fprintf(meta, "\nXV[%zu] = %llu\n", i + 1, (unsigned long long)t->v[i]);
	}
	fprintf(meta, "XMIN = %llu\nXMAX = %llu\n", (unsigned long long)t->v[0] / 2,
		(unsigned long long)t->v[t->n - 1] * 2);
}

/* The lines into sweep.dat and their device and operation into the meta; returns lines. */
static size_t sweep_lines(FILE *fp, FILE *lines, const struct rr_set *set, struct ticks *t,
			  struct sweep_seen *seen)
{
	uint64_t sizes[SWEEP_MAX_SIZES];
	size_t i, n, nlines = 0;
	int op;

	for (i = 0; i < set->nres; i++) {
		for (op = 0; op < (int)ARRAY_SIZE(ops); op++) {
			n = op_sizes(&set->res[i], op, sizes);
			/* One record size is a point, not a sweep. */
			if (n < 2)
				continue;
			sweep_line(fp, &set->res[i], op, sizes, n, seen);
			ticks_add(t, sizes, n);
			nlines++;
			fprintf(lines, "LDEV[%zu] = %d\nLOP[%zu] = %d\n", nlines,
				set->res[i].device_idx + 1, nlines, op + 1);
			seen->power |= set->res[i].has_power;
			seen->ops |= 1u << op;
			seen->dev[set->res[i].device_idx] = 1;
		}
	}
	return nlines;
}

int plot_sweep(struct plot_ctx *ctx, const struct rr_result *r)
{
	struct ticks t = { .n = 0 };
	struct plot_chart ch;
	char *lines_buf = NULL;
	size_t lines_size = 0, nlines;
	FILE *fp, *lines;
	struct sweep_seen seen = { 0 };
	int rc;

	(void)r;
	seen.dev = xcalloc(ctx->set->ndevices + 1, 1);
	seen.jpg_unit = plot_jpg_unit(ctx->set);

	rc = plot_chart_begin(ctx, &ch, NULL, SWEEP_WIDTH_PX, SWEEP_HEIGHT_PX);
	if (rc) {
		free(seen.dev);
		return rc;
	}
	fp = plot_chart_file(&ch, "sweep.dat");
	lines = open_memstream(&lines_buf, &lines_size);
	if (!fp || !lines) {
		if (fp)
			fclose(fp);
		if (lines)
			fclose(lines);
		free(lines_buf);
		free(seen.dev);
		plot_chart_abort(&ch);
		return -EIO;
	}
	fprintf(fp, "# bs MB/s j_per_gb (JPGUNIT) valid uncertain; an index block per device and operation\n");
	nlines = sweep_lines(fp, lines, ctx->set, &t, &seen);
	fclose(fp);
	fclose(lines);
	if (!nlines) {
		free(lines_buf);
		free(seen.dev);
		plot_chart_abort(&ch);
		return PLOT_EMPTY;
	}
	fprintf(ch.meta, "NLINES = %zu\narray LDEV[%zu]\narray LOP[%zu]\n%s", nlines, nlines, nlines,
		lines_buf);
	free(lines_buf);
	sweep_meta(ch.meta, &t, &seen, ctx->set->ndevices);
	fprintf(ch.meta, "JPGUNIT = ");
	plot_gp_string(ch.meta, seen.jpg_unit.text);
	fputs(".'/GB'\n", ch.meta);
	free(seen.dev);
	return plot_chart_run(ctx, &ch);
}
