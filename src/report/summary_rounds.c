/* SPDX-License-Identifier: MIT */
/* The end-of-run table over rounds: each job's mean and 95 % interval, and its steady state. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "report/summary_rounds.h"

#define CELL 48
#define SIG 3

/* "23.9 +-0.4": the mean with the interval's half width, both to SIG digits of the mean;
 * a job with one valid round has a mean only. */
static const char *fmt_ci(const struct result_stat *s, char *buf, size_t len)
{
	char m[CELL / 2 - 4], h[CELL / 2 - 4];
	double half = (s->ci95_hi - s->ci95_lo) / 2, decimals;

	if (!s->n || isnan(s->mean)) {
		snprintf(buf, len, "-");
		return buf;
	}
	fmt_sig(s->mean, SIG, m, sizeof(m));
	if (isnan(half)) {
		snprintf(buf, len, "%s", m);
		return buf;
	}
	/* the half width with as many decimals as the mean shows */
	decimals = strchr(m, '.') ? (double)strlen(strchr(m, '.') + 1) : 0;
	snprintf(h, sizeof(h), "%.*f", (int)decimals, half);
	snprintf(buf, len, "%s +-%s", m, h);
	return buf;
}

static void steady_text(const struct result_steady *st, char *buf, size_t len)
{
	if (!st) {
		snprintf(buf, len, "-");
	} else if (!st->first_round) {
		snprintf(buf, len, "%s: too few rounds to judge", st->metric);
	} else {
		snprintf(buf, len, "%s %s: rounds %u-%u range %.1f %%, slope %.1f %%", st->metric,
			 st->reached ? "steady" : "NOT steady", st->first_round, st->last_round,
			 st->range_rel * 100, st->slope_rel * 100);
	}
}

static int any_power(const struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->nsummary; i++)
		if (r->summary[i].figures.active_w.n)
			return 1;
	return 0;
}

void summary_print_rounds(FILE *fp, const struct run_result *r, int nw)
{
	char c[6][CELL], st[2 * CELL + 64], valid[CELL];
	int power = any_power(r);
	size_t i;

	if (!r->nsummary)
		return;
	fprintf(fp, "\nover each job's valid rounds: mean +- half the 95 %% interval (Student t)\n");
	fprintf(fp, "%-*s %7s %16s %16s", nw, "job", "valid", "MB/s", "IOPS");
	if (power)
		fprintf(fp, " %16s %16s %16s", "W", "J/GB", "IOPS/mA");
	fprintf(fp, "  steady state\n");
	for (i = 0; i < r->nsummary; i++) {
		const struct result_job_summary *s = &r->summary[i];
		struct result_stat mbps = s->figures.bw_bytes;

		mbps.mean /= 1e6;
		mbps.ci95_lo /= 1e6;
		mbps.ci95_hi /= 1e6;
		snprintf(valid, sizeof(valid), "%u/%u", s->valid, s->entries);
		fprintf(fp, "%-*s %7s %16s %16s", nw, s->jobname, valid,
			fmt_ci(&mbps, c[0], CELL), fmt_ci(&s->figures.iops, c[1], CELL));
		if (power)
			fprintf(fp, " %16s %16s %16s", fmt_ci(&s->figures.active_w, c[2], CELL),
				fmt_ci(&s->figures.j_per_gb, c[3], CELL),
				fmt_ci(&s->figures.iops_per_ma, c[4], CELL));
		steady_text(s->steady, st, sizeof(st));
		fprintf(fp, "  %s\n", st);
	}
	for (i = 0; i < r->nsummary; i++)
		if (r->summary[i].invalid)
			fprintf(fp, "%s: %u of %u rounds left out (failed, interrupted or INVALID)\n",
				r->summary[i].jobname, r->summary[i].invalid, r->summary[i].entries);
}
