/* SPDX-License-Identifier: MIT */
/* The run option table: struct run_opts as data (names, defaults, ranges, help). */
#ifndef IOWATT_RUN_OPTIONS_H
#define IOWATT_RUN_OPTIONS_H

#include <stddef.h>

#include "core/options.h"
#include "io/job.h"

/*
 * The run table's base. `run` must stay the first member: run_config_free() frees the
 * table's strings through the copy in struct run_config, so the offsets must agree.
 */
struct run_args {
	struct run_opts run;
	int quiet;
	int verbose;
};

/*
 * The run options: the command line's only, never a profile's (a shared profile must not
 * choose which device gets written), so a profile that sets one is told so by name.
 */
extern const struct opt_desc run_options[];
extern const size_t run_options_count;

#endif
