/* SPDX-License-Identifier: MIT */
/* The `run` and `measure` command lines: run options, job flags over a profile. */
#ifndef IOWATT_RUN_ARGS_H
#define IOWATT_RUN_ARGS_H

#include <stdio.h>

#include "io/job.h"

/* The run option table (command line only; never read from a profile). */
extern const struct opt_desc run_options[];
extern const size_t run_options_count;

/*
 * Parse `iowatt run|measure` arguments: run options, job options as flags (dashes or
 * underscores), an optional profile whose values the flags override.
 * Returns 0, or -EINVAL after logging one message that names the option or file:line.
 * Returns 1 when --help was printed.
 */
int run_config_parse(int argc, char **argv, struct run_config *cfg, int measure_mode);
void run_config_free(struct run_config *cfg);
/* `iowatt run`'s options (the table --help prints) as troff, for the man page. */
void run_options_man(FILE *fp);

#endif
