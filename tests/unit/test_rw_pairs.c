/* SPDX-License-Identifier: MIT */
/* Read/write pairs: by name, by shape, never a mixed job; the terminal grid's figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rw_pairs.h"
#include "core/mem.h"
#include "core/units.h"
#include "report/summary_grid.h"
#include "result/result.h"
#include "tap.h"

#define GOLDEN "tests/data/golden/nvme-netac.json"

static struct result_opt *opt(struct job_result *j, const char *key)
{
	size_t k;

	for (k = 0; k < j->noptions; k++)
		if (!strcmp(j->options[k].key, key))
			return &j->options[k];
	abort();
}

static void set_opt_str(struct job_result *j, const char *key, const char *v)
{
	struct result_opt *o = opt(j, key);

	free(o->s);
	o->s = xstrdup(v);
}

static void set_opt_int(struct job_result *j, const char *key, long long v)
{
	opt(j, key)->i = v;
}

static void rename_job(struct job_result *j, const char *name)
{
	free(j->jobname);
	j->jobname = xstrdup(name);
}

/* The grid's text holds each direction's MB/s as the result has it. */
static void check_grid(const struct run_result *r)
{
	char *text = NULL, mbps[32], line[64];
	size_t len = 0, i;
	FILE *fp = open_memstream(&text, &len);
	int found = 1;

	summary_print_grid(fp, r);
	fclose(fp);
	ok(text && strstr(text, "Read MB/s") && strstr(text, "Write IOPS/mA"),
	   "the grid's head names each direction's figures with units");
	for (i = 0; i < r->njobs; i++) {
		const struct result_dir *d = r->jobs[i].read->total_ios ? r->jobs[i].read
									: r->jobs[i].write;

		fmt_sig((double)d->bw_bytes / 1e6, 3, mbps, sizeof(mbps));
		snprintf(line, sizeof(line), " %s ", mbps);
		found &= strstr(text, line) != NULL;
	}
	ok(found, "every job's MB/s is in the grid");
	free(text);
}

int main(void)
{
	struct run_result r;
	struct rw_pair *p = NULL;
	size_t n;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (result_load(GOLDEN, &r)) {
		ok(0, "load %s", GOLDEN);
		return done_testing();
	}
	n = rw_pairs_find(&r, &p);
	ok(n == 2, "the golden quick run's 4 jobs are 2 tests (%zu)", n);
	ok(n == 2 && !strcmp(p[0].test, "SEQ1M-Q8T1") && !strcmp(p[1].test, "RND4K-Q32T1"),
	   "named by their stems, in run order");
	ok(n == 2 && !strcmp(p[0].dir[RW_READ].j->jobname, "SEQ1M-Q8T1-read") &&
		   !strcmp(p[0].dir[RW_WRITE].j->jobname, "SEQ1M-Q8T1-write"),
	   "each direction its job");
	ok(n == 2 && p[1].bs == 4096 && !p[1].seq && p[1].depth == 32 && p[1].threads == 1,
	   "the test's shape from the options");
	free(p);
	check_grid(&r);

	/* Names that say nothing: paired by shape, named as CrystalDiskMark would. */
	rename_job(&r.jobs[0], "a");
	rename_job(&r.jobs[1], "b");
	rename_job(&r.jobs[2], "c");
	rename_job(&r.jobs[3], "d");
	n = rw_pairs_find(&r, &p);
	ok(n == 2 && !strcmp(p[0].test, "SEQ1M-Q8T1") && !strcmp(p[1].test, "RND4K-Q32T1"),
	   "paired by shape, named SEQ1M-Q8T1 and RND4K-Q32T1");
	free(p);

	/* A name pair wins over an earlier job of the same shape. */
	rename_job(&r.jobs[0], "x-read");  /* seq read */
	rename_job(&r.jobs[1], "y_write"); /* seq write */
	set_opt_str(&r.jobs[2], "rw", "read");
	set_opt_str(&r.jobs[3], "rw", "write");
	set_opt_int(&r.jobs[2], "bs", 1048576);
	set_opt_int(&r.jobs[3], "bs", 1048576);
	set_opt_int(&r.jobs[2], "iodepth", 8);
	set_opt_int(&r.jobs[3], "iodepth", 8);
	rename_job(&r.jobs[2], "y_READ");
	rename_job(&r.jobs[3], "x-write");
	n = rw_pairs_find(&r, &p);
	ok(n >= 1 && !strcmp(p[0].test, "x") && p[0].dir[RW_WRITE].j == &r.jobs[3],
	   "x-read pairs with x-write, not with the earlier y_write");
	free(p);

	/* A mixed job is no half of a test. */
	set_opt_str(&r.jobs[0], "rw", "randrw");
	set_opt_str(&r.jobs[1], "rw", "randrw");
	set_opt_str(&r.jobs[2], "rw", "randrw");
	set_opt_str(&r.jobs[3], "rw", "randrw");
	n = rw_pairs_find(&r, &p);
	ok(n == 0 && !p, "randrw jobs pair with nothing");
	fp = open_memstream(&text, &len);
	summary_print_grid(fp, &r);
	fclose(fp);
	ok(len == 0, "no pair: no grid under the table");
	free(text);
	result_free(&r);
	return done_testing();
}
