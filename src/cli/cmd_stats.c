/* SPDX-License-Identifier: MIT */
/* iowatt stats: average, min, max, charge and energy over a window or a job's phase of a result. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analysis/results_read.h"
#include "analysis/window_stats.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/clock.h"
#include "core/cmdline.h"
#include "core/log.h"

#define MOD "stats"
#define STATS_MAX_NS (1000000ULL * NS_PER_SEC)

struct stats_args {
	struct result_args ra; /* unused but by the shared parser */
	struct window_req q;
};

#define SOFF(f) offsetof(struct stats_args, f)

static const struct opt_choice phases[] = {
	{ "idle", "the baseline before the job" },
	{ "active", "the job's I/O or command" },
	{ "tail", "after it, until power settled" },
	{ NULL, NULL },
};

static const struct opt_desc stats_opts[] = {
	{ .name = "from", .type = OPT_DURATION, .off = SOFF(q.from_ns), .bare_unit_ns = NS_PER_SEC,
	  .max = STATS_MAX_NS, .metavar = "S",
	  .help = "the window's start, seconds from the run's start as the charts show it "
		  "(default: the first reading)" },
	{ .name = "to", .type = OPT_DURATION, .off = SOFF(q.to_ns), .bare_unit_ns = NS_PER_SEC,
	  .max = STATS_MAX_NS, .metavar = "S", .help = "its end (default: the last reading)" },
	{ .name = "phase", .type = OPT_ENUM, .off = SOFF(q.phase), .choices = phases,
	  .help = "a job's phase instead of --from/--to (with --job, or the first job)" },
	{ .name = "job", .type = OPT_STRREF, .off = SOFF(q.job), .metavar = "NAME",
	  .help = "the job whose phase (default active) is the window" },
	OPT_HELP_ROW(NULL),
};

const struct cmdline *stats_cmdline(void)
{
	static const struct cmdline line = {
		.name = "stats",
		.summary = "average, min, max, charge and energy over a window of a result",
		.synopsis = "RESULT.json [--from S] [--to S]\n"
			    "RESULT.json [--job NAME] [--phase idle|active|tail]",
		.about = "Reads the result's samples file and prints, per meter, the readings "
			 "in the window, the time-weighted average current, power and voltage, "
			 "their min and max, and the charge and energy (trapezoids cut at the "
			 "window's edges), as a PPK2 or Otii user reads a selection. A fast "
			 "meter's samples are kept in bins (--samples auto): the window's edges "
			 "fall to the bin (1 ms by default), min and max stay exact; --samples raw "
			 "or binary keeps every reading.",
		CMDLINE_OPTS(stats_opts),
		.operands = "RESULT.json",
		.operands_complete = RESULT_FILES,
	};

	return &line;
}

/* What the table cannot say: a window or a phase, not both. */
static int check_window(const void *base)
{
	const struct stats_args *a = base;

	if ((a->q.from_ns || a->q.to_ns) && (a->q.phase >= 0 || a->q.job)) {
		log_err(MOD, "--from/--to or --job/--phase: a window is one or the other");
		return -EINVAL;
	}
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	struct stats_args a;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_parse_one(&a.ra, stats_cmdline(), &a, argc, argv, check_window, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	rc = window_stats_print(&set.res[0], &a.q, stdout) ? EXIT_FAIL : EXIT_OK;
	rr_set_free(&set);
	return rc;
}
