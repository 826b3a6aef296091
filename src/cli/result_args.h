/* SPDX-License-Identifier: MIT */
/* The options every command that reads results shares: --label, --battery, --help, the files. */
#ifndef IOWATT_RESULT_ARGS_H
#define IOWATT_RESULT_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/battery.h"
#include "analysis/results_read.h"
#include "core/options.h"

struct result_args {
	char **labels;		    /* --label FILE=NAME, in order */
	size_t nlabels;
	struct battery_model bm;    /* --battery and the default losses */
	int have_battery;	    /* --battery was given */
};

/*
 * The shared options as table rows (core/options.h), for a command whose args struct
 * holds its struct result_args at offset ra_off: --label FILE=NAME (repeatable) and
 * --battery SPEC (def: its default, NULL for none until given).
 */
int result_args_label(const struct opt_desc *d, void *base, const char *value, char *err,
		      size_t errlen);
int result_args_battery(const struct opt_desc *d, void *base, const char *value, char *err,
			size_t errlen);
#define RESULT_LABEL_ROW(ra_off, grp)                                                       \
	{ .name = "label", .type = OPT_FUNC, .parse = result_args_label, .off = (ra_off),   \
	  .shortopt = 'l', .metavar = "FILE=NAME",                                          \
	  .help = "device name for a result file (repeatable)", .group = (grp) }
#define RESULT_BATTERY_ROW(ra_off, def_spec, text, grp)                                     \
	{ .name = "battery", .type = OPT_FUNC, .parse = result_args_battery,                \
	  .off = (ra_off), .def = (def_spec), .metavar = "SPEC", .help = (text),            \
	  .group = (grp) }
/* --sleep-from RESULT[:JOB] (an OPT_STRREF at offset at) and --mix-emulated (an int flag). */
#define RESULT_SLEEP_ROW(at, text, grp)                                                     \
	{ .name = "sleep-from", .type = OPT_STRREF, .off = (at), .metavar = "RESULT[:JOB]", \
	  .complete = RESULT_FILES, .help = (text), .group = (grp) }
#define RESULT_MIX_ROW(at, grp)                                                             \
	{ .name = "mix-emulated", .type = OPT_FLAG, .off = (at),                            \
	  .help = "accept an emulated --sleep-from with measured results (or the other way "  \
		  "round); the output says so", .group = (grp) }
/*
 * --sleep-from spec (NULL: none, *out NULL) loaded into sf, *out pointing at it, and
 * checked against every result of set when check_set (size checks each as it sizes).
 * EXIT_OK, or EXIT_USAGE after saying why, with set freed.
 */
struct sleep_figure;
int result_args_sleep(const char *spec, int mix_emulated, struct rr_set *set, int check_set,
		      struct sleep_figure *sf, const struct sleep_figure **out);

/* What completion offers for a command's operands: result files. */
#define RESULT_FILES "file:*.json"
/* The operands of a command that reads results, in its struct cmdline. */
#define RESULT_OPERANDS .operands = "RESULT.json...", .operands_complete = RESULT_FILES

struct cmdline;
/*
 * The command line of a command that reads results, into base (whose struct result_args
 * is ra): ra's defaults (the battery model's losses, no battery), the table's defaults, the options, --help, then
 * check (NULL: none) for what the table cannot say (an option that is required), then the
 * result files (the operands) loaded into set with their labels. EXIT_OK (set loaded),
 * ARGS_HELP (help printed), or EXIT_USAGE after saying what is wrong (no files: with the
 * usage lines). The label list is freed either way.
 */
int result_args_parse(struct result_args *ra, const struct cmdline *cmd, void *base, int argc,
		      char **argv, int (*check)(const void *base), struct rr_set *set);
/* result_args_parse() for a command that reads one result: more is EXIT_USAGE, said. */
int result_args_parse_one(struct result_args *ra, const struct cmdline *cmd, void *base,
			  int argc, char **argv, int (*check)(const void *base), struct rr_set *set);
/* Every metric compare can rank by, as choices of --by (built on first use). */
const struct opt_choice *result_args_metrics(void);

#endif
