/* SPDX-License-Identifier: MIT */
/* The options every command that reads results shares: --label, --battery, --help, the files. */
#ifndef IOWATT_RESULT_ARGS_H
#define IOWATT_RESULT_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/battery.h"
#include "analysis/results_read.h"

struct result_args {
	const char *mod;	    /* the command, for messages */
	void (*usage)(FILE *fp);    /* the command's help */
	char **labels;		    /* --label FILE=NAME, in order */
	size_t nlabels;
	struct battery_model bm;    /* --battery and the default losses */
	int have_battery;	    /* --battery was given */
};

/* The defaults: the model's losses, and battery (NULL: none until --battery). */
void result_args_init(struct result_args *ra, const char *mod, void (*usage)(FILE *fp),
		      const char *battery);
/*
 * A getopt code the command did not take itself: --label ('l'), --battery ('B'),
 * --help ('h'), or anything else (usage to stderr). 0, ARGS_HELP, or EXIT_USAGE.
 */
int result_option(struct result_args *ra, int c, char *arg);
/*
 * After getopt, whose outcome is rc: when it is EXIT_OK, the result files from argv[optind]
 * on, loaded into set with their labels. The label list is freed either way. EXIT_OK
 * (set loaded), rc, or EXIT_USAGE when there are no files or one is bad.
 */
int result_args_load(struct result_args *ra, int rc, int argc, char **argv, struct rr_set *set);
/* What is left when the command stops before result_args_load. */
void result_args_free(struct result_args *ra);

#endif
