/* SPDX-License-Identifier: MIT */
/* compare --format cdm: each device's read/write tests in CrystalDiskMark's text layout, with energy. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/rw_pairs.h"
#include "core/log.h"
#include "core/units.h"

#define MOD "compare"
#define RULE "------------------------------------------------------------------------------"
#define LABEL_MAX 48
#define SIG 4

/* "Sequential 1MiB (Q=  8, T= 1)", the kind right-aligned to width w as CrystalDiskMark does. */
static void test_label(const struct rw_pair *p, int w, char *buf, size_t len)
{
	char kind[32], size[16];
	uint64_t b = p->bs;
	const char *u = b && !(b % MIB) ? "MiB" : b && !(b % KIB) ? "KiB" : "B";

	b = *u == 'M' ? b / MIB : *u == 'K' ? b / KIB : b;
	snprintf(size, sizeof(size), "%llu%s", (unsigned long long)b, u);
	snprintf(kind, sizeof(kind), "%s %s", p->seq ? "Sequential" : "Random", size);
	snprintf(buf, len, "%*s (Q=%3u, T=%2u)", w, kind, p->depth, p->threads);
}

static int label_width(const struct rw_grid *g)
{
	char buf[LABEL_MAX];
	size_t i;
	int w = 0, n;

	for (i = 0; i < g->n; i++) {
		test_label(&g->pairs[i], 0, buf, sizeof(buf));
		n = (int)strcspn(buf, "(") - 1;
		if (n > w)
			w = n;
	}
	return w;
}

/* A figure right-aligned in w, or '-' when it is undefined. */
static void put_num(FILE *fp, double v, int w, const char *fmt)
{
	if (isfinite(v))
		fprintf(fp, fmt, w, v);
	else
		fprintf(fp, "%*s", w, "-");
}

static const struct result_dir *dir_of(const struct compare_row *rw, int d)
{
	return d == RW_READ ? rw->j->read : rw->j->write;
}

/* One test's line: CrystalDiskMark's MB/s [IOPS] <mean latency>, then J/GB and IOPS/mA. */
static void print_line(FILE *fp, const struct rw_pair *p, int d, int w)
{
	const struct compare_row *rw = &p->dir[d];
	const struct result_dir *dr = dir_of(rw, d);
	double mbps = compare_row_value(compare_column_find("bw_bytes"), rw) / 1e6;
	double iops = compare_row_value(compare_column_find("iops"), rw);
	char label[LABEL_MAX], num[32];

	test_label(p, w, label, sizeof(label));
	fprintf(fp, "%s: ", label);
	put_num(fp, mbps > 0 ? mbps : NAN, 9, "%*.3f");
	fputs(" MB/s [", fp);
	put_num(fp, mbps > 0 ? iops : NAN, 9, "%*.1f");
	fputs(" IOPS] <", fp);
	put_num(fp, dr && dr->total_ios && dr->clat.mean_ns > 0 ? dr->clat.mean_ns / 1e3 : NAN, 9,
		"%*.2f");
	fputs(" us>", fp);
	fmt_sig(compare_row_value(compare_column_find("j_per_gb"), rw), SIG, num, sizeof(num));
	fprintf(fp, " %9s J/GB", num);
	fmt_sig(compare_row_value(compare_column_find("iops_per_ma"), rw), SIG, num, sizeof(num));
	fprintf(fp, " %9s IOPS/mA", num);
	if (rw_mark(rw) != ' ')
		fprintf(fp, " %c", rw_mark(rw));
	fputc('\n', fp);
}

/* The meters the energy came from ("INA226 on i2c-1@0x45"), ", "-joined. */
static void print_meters(FILE *fp, const struct run_result *rep)
{
	char name[96];
	size_t m;

	for (m = 0; m < rep->nmeters; m++) {
		rr_meter_name(&rep->meters[m], name, sizeof(name));
		fprintf(fp, "%s%s", m ? ", " : " (", name);
	}
	fputs(rep->nmeters ? ")\n" : " (no meter)\n", fp);
}

static void print_head(FILE *fp, const struct rr_result *r)
{
	const struct run_result *rep = &r->rep;

	fprintf(fp, "%s\niowatt %s: CrystalDiskMark's tests, with the energy each took\n",
		RULE, rep->tool.version ? rep->tool.version : "?");
	fprintf(fp, "  Device: %s%s%s\n", r->label,
		r->emulated ? " [EMULATED: power figures from an emulated meter, not a measurement]"
			    : "",
		r->manual ? " [MANUAL: power figures typed in from a display]" : "");
	fprintf(fp, "%s\n* MB/s = 1,000,000 bytes/s; us: mean completion latency\n"
		    "* KB = 1000 bytes, KiB = 1024 bytes\n"
		    "* J/GB = joules per 10^9 bytes moved; IOPS/mA = I/Os per second per mA drawn",
		RULE);
	print_meters(fp, rep);
}

/* Under the grid: what a mark means, and each marked test's verdict. */
static void print_marks(FILE *fp, const struct rw_grid *g, int w)
{
	char label[LABEL_MAX], word[RR_VERDICT_SHORT], why[RR_REASONS_MAX];
	size_t i, d, n = 0;

	for (i = 0; i < g->n; i++) {
		for (d = 0; d < 2; d++) {
			const struct compare_row *rw = &g->pairs[i].dir[d];

			if (rw_mark(rw) == ' ')
				continue;
			if (!n++)
				fprintf(fp, "\n!: invalid, not comparable; ?: uncertain (above the "
					    "job's max_uncertainty)\n");
			test_label(&g->pairs[i], w, label, sizeof(label));
			rr_verdict_short(rw->j->validity, rw->j->status, word, sizeof(word));
			fprintf(fp, "%c %s %s: %s\n", rw_mark(rw), label,
				d == RW_READ ? "read" : "write", word);
			/* the whole text under the short one, where it says more */
			rr_reasons(rw->j, why, sizeof(why));
			if (*why && !strstr(word, why))
				fprintf(fp, "    %s\n", why);
		}
	}
}

static void print_device(FILE *fp, const struct rr_result *r, const struct rw_grid *g)
{
	int w = label_width(g);
	size_t i, d;

	print_head(fp, r);
	for (d = 0; d < 2; d++) {
		fprintf(fp, "\n[%s]\n", d == RW_READ ? "Read" : "Write");
		for (i = 0; i < g->n; i++)
			print_line(fp, &g->pairs[i], (int)d, w);
	}
	print_marks(fp, g, w);
	fprintf(fp, "\nProfile: %s\n   Date: %s\n", r->rep.profile ? r->rep.profile : "-",
		r->rep.created ? r->rep.created : "-");
	if (*r->filesystem)
		fprintf(fp, "     FS: %s\n", r->filesystem);
}

int compare_print_cdm(FILE *fp, const struct rr_set *set)
{
	struct rw_grid g;
	size_t r, shown = 0;

	for (r = 0; r < set->nres; r++) {
		rw_grid_build(&g, &set->res[r].rep);
		if (g.n) {
			fputs(shown++ ? "\n" : "", fp);
			print_device(fp, &set->res[r], &g);
		} else {
			log_warn(MOD, "%s: no read/write pair of jobs (same pattern, block size, "
				      "depth and job count): nothing in CrystalDiskMark's layout",
				 set->res[r].label);
		}
		rw_grid_free(&g);
	}
	return shown ? 0 : -ENOENT;
}
