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
	/* Command-line only types (run options). */
	OPT_STRP,    /* char * owned by the struct (xstrdup), NULL when unset */
	OPT_STRLIST, /* char *[size] at off, unsigned count at count_off: repeatable */
	OPT_FLAG,    /* int set to 1, takes no value */
	OPT_NOFLAG,  /* int set to 0, takes no value (--no-progress) */
	OPT_COUNT,   /* int incremented, takes no value (-v -v) */
};

/*
 * Spelling: names are matched after opt_name_normalize(), so "rate-iops", "rate_iops" and
 * "RATE_IOPS" are one option. OPT_BOOL with def == NULL starts at -1 ("auto": decided
 * later, as end_fsync). Numbers: min/max are in the stored unit (bytes, ns, fraction).
 */

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
	const char *group; /* --help prints a heading when this changes */
	int shortopt;	   /* 'o' for -o, 0 = none */
	size_t count_off;  /* OPT_STRLIST: offset of the unsigned count */
};

/* The job option table (INI keys and `run` flags). */
extern const struct opt_desc job_options[];
extern const size_t job_options_count;
/* The run option table (command line only; never read from a profile). */
extern const struct opt_desc run_options[];
extern const size_t run_options_count;

const struct opt_desc *opt_find(const struct opt_desc *table, size_t n, const char *name);
/* The closest option name for a misspelt one ("blocksiz" -> "blocksize"), or NULL. */
const char *opt_suggest(const struct opt_desc *table, size_t n, const char *name);
void opt_apply_defaults(const struct opt_desc *table, size_t n, void *base);
/*
 * Parse value into base per desc. Returns 0 or -EINVAL/-ERANGE and writes a one-line
 * reason into err ("bad size 'x': expected a number with k/m/g suffix").
 */
int opt_set(const struct opt_desc *d, void *base, const char *value, char *err, size_t errlen);
/* Same, with the key as the user spelled it in the message ("bad size 'x' for 'bs': ..."). */
int opt_set_for(const struct opt_desc *d, void *base, const char *value, const char *key,
		char *err, size_t errlen);
/* Whether the option takes a value on the command line (not OPT_FLAG/NOFLAG/COUNT). */
int opt_takes_value(const struct opt_desc *d);
/* Frees OPT_STRP / OPT_STRLIST strings of a struct filled from table. */
void opt_free_strings(const struct opt_desc *table, size_t n, void *base);
/* Format the option's current value into buf (for the result's resolved options). */
const char *opt_format(const struct opt_desc *d, const void *base, char *buf, size_t len);
/* A number in the option's unit as a user writes it: "4k", "100ms", "5%". */
const char *opt_format_number(const struct opt_desc *d, double v, char *buf, size_t len);
void opt_print_help(FILE *fp, const struct opt_desc *table, size_t n);

/* Defaults, then checks across options (bs alignment, psync with direct=0 ...).
 * Logs "FILE:LINE: job 'name': ..." or "option --x: ..." and returns -EINVAL. */
void job_defaults(struct job_opts *jo);
int job_validate(const struct job_opts *jo);
/* Adjustments that are warnings, not errors (psync runs one I/O at a time: iodepth 1). */
void job_fixup(struct job_opts *jo);
/* The metering-phase checks alone (what `measure` uses: it has no I/O job). */
int job_validate_phases(const struct job_opts *jo);
/* Whether a job option is a metering-phase option (the ones `measure` accepts). */
int job_option_is_phase(const struct opt_desc *d);

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
/*
 * A profile argument to a path: a bare name ("quick") is looked up as NAME.ini in
 * EXE_DIR/configs, EXE_DIR/../configs (the repository), EXE_DIR/../share/iowatt/configs
 * and PREFIX/share/iowatt/configs; anything else, or a name found nowhere, is a path.
 * exe_dir NULL = the directory of /proc/self/exe. Returns an allocated path, or NULL
 * after logging what was tried.
 */
char *profile_find(const char *name, const char *exe_dir);
/* "db-log, quick, ..." from the first search directory that has profiles ("" if none). */
void profile_names(char *buf, size_t len);

#endif
