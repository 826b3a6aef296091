/* SPDX-License-Identifier: MIT */
/* The `run` and `measure` command lines: run options, job flags over a profile. */
#ifndef IOWATT_RUN_ARGS_H
#define IOWATT_RUN_ARGS_H

#include "io/job.h"
#include "run/run_config.h"  /* run_config_free */
#include "run/run_options.h" /* the run option table */

/*
 * Parse `iowatt run|measure` arguments: run options, job options as flags (dashes or
 * underscores), an optional profile whose values the flags override.
 * Returns 0, or -EINVAL after logging one message that names the option or file:line.
 * Returns 1 when --help was printed.
 */
int run_config_parse(int argc, char **argv, struct run_config *cfg, int measure_mode);

#endif
