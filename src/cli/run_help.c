/* SPDX-License-Identifier: MIT */
/* `run` and `measure` as data: the options, synopsis and text --help, man and completion print. */
#include <stdio.h>
#include <string.h>

#include "cli/run_help.h"
#include "core/cmdline.h"
#include "core/mem.h"
#include "core/options.h"
#include "run/profile.h"
#include "run/run_options.h"

/* Run options that mean nothing to measure: it runs no profile and writes no scratch file. */
int run_option_run_only(const struct opt_desc *d)
{
	static const char *const run_only[] = { "profile",	   "jobs",	"dry-run",	"explain",
						"keep",		   "allow-raw-device",
						"same-size",	   "same-size-as" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(run_only); i++)
		if (!strcmp(d->name, run_only[i]))
			return 1;
	return 0;
}

/* Run options for measure's command alone: run has no command to signal. */
int run_option_measure_only(const struct opt_desc *d)
{
	return !strcmp(d->name, "kill-after") || !strcmp(d->name, "kill-descendants");
}

#define MEASURE_TARGET_HELP                                                                 \
	"count the I/O of the device under PATH (a directory, file or block device on it; "  \
	"nothing is created) from /proc/diskstats; fio's own JSON figures win when it writes " \
	"them"
#define MEASURE_NO_METER_HELP "I/O figures only, no power"
#define MEASURE_FORCE_HELP "replace an existing --json-out file and its CSVs"

enum table_for { FOR_RUN, FOR_MEASURE, FOR_PARSING };

/* The options `run` (or `measure`) takes: run options, then job options; for parsing,
 * both commands' (each says why the other's do not apply). Caller frees. */
static struct opt_desc *help_table(enum table_for t, size_t *count)
{
	size_t njob, i, n = 0;
	const struct opt_desc *jt = job_option_table(&njob);
	struct opt_desc *sel = xcalloc(run_options_count + njob, sizeof(*sel));
	int measure = t == FOR_MEASURE;

	for (i = 0; i < run_options_count; i++) {
		if ((t == FOR_MEASURE && run_option_run_only(&run_options[i])) ||
		    (t == FOR_RUN && run_option_measure_only(&run_options[i])))
			continue;
		sel[n] = run_options[i];
		if (measure && !strcmp(sel[n].name, "target"))
			sel[n].help = MEASURE_TARGET_HELP;
		if (measure && !strcmp(sel[n].name, "no-meter"))
			sel[n].help = MEASURE_NO_METER_HELP;
		if (measure && !strcmp(sel[n].name, "force"))
			sel[n].help = MEASURE_FORCE_HELP;
		n++;
	}
	for (i = 0; i < njob; i++)
		if (t != FOR_MEASURE || job_option_is_phase(&jt[i]))
			sel[n++] = jt[i];
	*count = n;
	return sel;
}

#define RUN_SYNOPSIS                                                                        \
	"[PROFILE] --target PATH [OPTIONS] [JOB OPTIONS]\n"                                  \
	"--target DIR --rw randread --bs 4k --iodepth 32 --size 256m"
#define RUN_ABOUT                                                                           \
	"Runs each job of PROFILE (an INI file, or the name of a shipped one: %s) or the one " \
	"job the flags describe, metering power in the same run. Job options given as flags " \
	"override every job of the profile.\n\n"                                              \
	"Options take dashes or underscores alike (--rate-iops = --rate_iops), as --opt VALUE " \
	"or --opt=VALUE. Sizes: 2300, 4k, 1m, 2g, 1MiB (base 1024), 50MB (base 1000). Times: " \
	"500ms, 10s, 2m (a bare number is seconds)."
#define MEASURE_ABOUT                                                                       \
	"Meters COMMAND: an idle baseline, the command, then the tail until power settles.\n\n" \
	"Options take dashes or underscores alike (--tail-hold = --tail_hold), as --opt VALUE " \
	"or --opt=VALUE. Times: 500ms, 10s, 2m (a bare number is seconds)."

const struct cmdline *run_cmdline(int measure)
{
	static struct cmdline cmd[2];
	static char *about;
	char names[512];
	struct cmdline *c = &cmd[measure ? 1 : 0];

	if (c->name)
		return c;
	c->opts = help_table(measure ? FOR_MEASURE : FOR_RUN, &c->nopts);
	if (measure) {
		c->name = "measure";
		c->summary = "meter any command: iowatt measure --meter SPEC -- CMD ARGS...";
		c->synopsis = "[OPTIONS] [--] COMMAND [ARGS...]";
		c->about = MEASURE_ABOUT;
		c->operands = "COMMAND [ARGS...]";
		c->operands_complete = "command";
		c->operands_end_options = 1;
	} else {
		profile_names(names, sizeof(names));
		about = xasprintf(RUN_ABOUT, names[0] ? names : "none found");
		c->name = "run";
		c->summary = "run a job profile or inline job, metering power in the same run";
		c->synopsis = RUN_SYNOPSIS;
		c->about = about;
		c->operands = "PROFILE";
		c->operands_complete = "profiles file:*.ini";
	}
	return c;
}

const struct opt_desc *run_parse_options(size_t *n)
{
	static struct opt_desc *all;
	static size_t nall;

	if (!all)
		all = help_table(FOR_PARSING, &nall);
	*n = nall;
	return all;
}
