/* SPDX-License-Identifier: MIT */
/* The `run` and `measure` --help, and run's options for the man page. */
#ifndef IOWATT_RUN_HELP_H
#define IOWATT_RUN_HELP_H

#include <stdio.h>

#include "core/options.h"

/* 1 for a run option that means nothing to measure (profile, --jobs, --keep, ...). */
int run_option_run_only(const struct opt_desc *d);
/* `iowatt run --help`, or `iowatt measure --help` (measure 1). */
void run_help_print(FILE *fp, int measure);
/* `iowatt run`'s options (the table --help prints) as troff, for the man page. */
void run_options_man(FILE *fp);

#endif
