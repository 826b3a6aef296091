/* SPDX-License-Identifier: MIT */
/* Option tables that drive INI profiles, command-line flags and --help alike. */
#ifndef IOWATT_OPTIONS_H
#define IOWATT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "job.h"

enum opt_type {
	OPT_BOOL,
	OPT_UINT,     /* unsigned, range min..max */
	OPT_U64,      /* uint64_t plain number */
	OPT_SIZE,     /* uint64_t bytes, k/m/g suffixes */
	OPT_DURATION, /* uint64_t ns, ns/us/ms/s/m/h suffixes */
	OPT_DOUBLE,
	OPT_PERCENT, /* double fraction, "5%" or "0.05" */
	OPT_STR,     /* char[size] in the struct */
	OPT_ENUM,    /* int index into choices[] */
};

struct opt_choice {
	const char *name;
	const char *help;
};

struct opt_desc {
	const char *name;  /* canonical, underscores: "rate_iops" */
	const char *alias; /* another accepted spelling, or NULL */
	enum opt_type type;
	size_t off;
	size_t size; /* OPT_STR buffer size */
	const char *def;
	double min, max; /* range for numbers; 0,0 = unchecked */
	const struct opt_choice *choices;
	const char *metavar;
	const char *help;
};

/* The job option table (INI keys and `run` flags). */
extern const struct opt_desc job_options[];
extern const size_t job_options_count;

const struct opt_desc *opt_find(const struct opt_desc *table, size_t n, const char *name);
void opt_apply_defaults(const struct opt_desc *table, size_t n, void *base);
/*
 * Parse value into base per desc. Returns 0 or -EINVAL/-ERANGE and writes a one-line
 * reason into err ("bad size 'x': expected a number with k/m/g suffix").
 */
int opt_set(const struct opt_desc *d, void *base, const char *value, char *err, size_t errlen);
/* Format the option's current value into buf (for the result's resolved options). */
const char *opt_format(const struct opt_desc *d, const void *base, char *buf, size_t len);
void opt_print_help(FILE *fp, const struct opt_desc *table, size_t n);

/* Defaults, then checks across options (bs alignment, psync with direct=0 ...).
 * Logs "FILE:LINE: job 'name': ..." or "option --x: ..." and returns -EINVAL. */
void job_defaults(struct job_opts *jo);
int job_validate(const struct job_opts *jo);

/*
 * Parse `iowatt run|measure` arguments: run options, job options as flags (dashes or
 * underscores), an optional profile whose values the flags override.
 * Returns 0, or -EINVAL after logging one message that names the option or file:line.
 * Returns 1 when --help was printed.
 */
int run_config_parse(int argc, char **argv, struct run_config *cfg, int measure_mode);
void run_config_free(struct run_config *cfg);

/* Load an INI profile into jobs (defaults + [global] + sections). */
int profile_load(const char *path, struct job_opts **jobs, size_t *njobs);

#endif
