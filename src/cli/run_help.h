/* SPDX-License-Identifier: MIT */
/* `run` and `measure` as data: the options, synopsis and text --help, man and completion print. */
#ifndef IOWATT_RUN_HELP_H
#define IOWATT_RUN_HELP_H

#include "core/options.h"

/* 1 for a run option that means nothing to measure (profile, --jobs, --keep, ...). */
int run_option_run_only(const struct opt_desc *d);
/* 1 for a run option only measure takes (--kill-after: it has a command to signal). */
int run_option_measure_only(const struct opt_desc *d);
struct cmdline;
/*
 * `iowatt run`, or `iowatt measure` (measure 1), as data: what --help, the man page and
 * completion print (built on first use, never freed).
 */
const struct cmdline *run_cmdline(int measure);
/* Every option run or measure takes, for their parser (each command refuses the other's
 * own with the reason). Built on first use, never freed. */
const struct opt_desc *run_parse_options(size_t *n);

#endif
