/* SPDX-License-Identifier: MIT */
/* The result's summary over rounds: invalid and failed rounds left out and counted, u95 mean. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/repeats.h"
#include "core/mem.h"
#include "result/result.h"
#include "tap.h"

static struct job_result *entry(struct run_result *r, const char *name, unsigned round,
				int status, int valid, double j_per_gb, double u95, double iops)
{
	struct job_result *j = result_add_job(r);

	j->jobname = xstrdup(name);
	j->round = round;
	j->loop = 1;
	j->status = status;
	j->read = xcalloc(1, sizeof(*j->read));
	j->read->iops = iops;
	j->power = xcalloc(1, sizeof(*j->power));
	j->power->active_w = 1.0;
	j->efficiency = xcalloc(1, sizeof(*j->efficiency));
	j->efficiency->j_per_gb = j_per_gb;
	j->efficiency->j_per_gb_u95 = u95;
	j->validity = xcalloc(1, sizeof(*j->validity));
	j->validity->valid = valid;
	j->options = xcalloc(1, sizeof(*j->options));
	j->noptions = 1;
	j->options[0].key = xstrdup("steady");
	j->options[0].type = RESULT_OPT_STR;
	j->options[0].s = xstrdup("j_per_gb");
	return j;
}

int main(void)
{
	struct run_result r;
	const struct result_job_summary *s;
	const struct result_stat *st;
	struct result_steady sd;

	memset(&r, 0, sizeof(r));
	entry(&r, "A", 1, RESULT_OK, 1, 10.0, 0.2, 100);
	entry(&r, "A", 2, RESULT_OK, 0, 99.0, 0.2, 100);	   /* INVALID: left out */
	entry(&r, "A", 3, RESULT_FAILED, 1, 50.0, 0.2, 100);	   /* failed: left out */
	entry(&r, "A", 4, RESULT_OK, 1, 12.0, 0.4, 100);
	entry(&r, "A", 5, RESULT_INTERRUPTED, 1, 1.0, 0.2, 100);  /* interrupted: left out */
	entry(&r, "A", 6, RESULT_OK, 1, 11.0, 0.3, 100);
	result_summarize(&r);
	ok(r.nsummary == 1, "one job, one summary");
	s = result_summary_find(&r, "A");
	ok(s && s->entries == 6 && s->valid == 3 && s->invalid == 3,
	   "6 entries: 3 counted, 3 left out (invalid, failed, interrupted)");
	st = &s->figures.j_per_gb;
	is_dbl(st->mean, 11.0, 1e-12, "mean of 10, 12, 11 = 11");
	is_dbl(st->stddev, 1.0, 1e-12, "stddev 1");
	is_dbl(st->ci95_hi - st->mean, 4.302653 / sqrt(3), 1e-6, "half width t(0.975,2)/sqrt(3)");
	is_dbl(st->u95, 0.3, 1e-12, "u95: the counted rounds' mean measurement uncertainty");
	ok(s->steady && !s->steady->first_round && !s->steady->reached,
	   "3 counted rounds: too few for a steady window");
	ok(result_steady_of(&r, "A", &sd) == -1 && !strcmp(sd.metric, "j_per_gb"),
	   "no verdict yet, on the metric steady= names");
	free(sd.metric);
	result_free(&r);

	memset(&r, 0, sizeof(r));
	entry(&r, "B", 1, RESULT_OK, 1, 10.0, 0.2, 100);
	entry(&r, "C", 1, RESULT_OK, 1, 10.0, 0.2, 100);
	result_summarize(&r);
	ok(!r.summary && !r.nsummary, "every job ran once: no summary");
	result_free(&r);
	return done_testing();
}
