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

/* The defaults: the model's losses, no battery (the --battery row's def sets one). */
void result_args_init(struct result_args *ra);
/* The labels, when the command stops before result_args_parse. */
void result_args_free(struct result_args *ra);

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
/* What completion offers for a command's operands: result files. */
#define RESULT_FILES "file:*.json"

struct cmdline;
/*
 * The command line of a command that reads results, into base (whose struct result_args
 * is ra, set up by result_args_init): the table's defaults, the options, --help, then
 * check (NULL: none) for what the table cannot say (an option that is required), then the
 * result files (the operands) loaded into set with their labels. EXIT_OK (set loaded),
 * ARGS_HELP (help printed), or EXIT_USAGE after saying what is wrong (no files: with the
 * usage lines). The label list is freed either way.
 */
int result_args_parse(struct result_args *ra, const struct cmdline *cmd, void *base, int argc,
		      char **argv, int (*check)(const void *base), struct rr_set *set);
/* Every metric compare can rank by, as choices of --by (built on first use). */
const struct opt_choice *result_args_metrics(void);

#endif
