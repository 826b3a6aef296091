/* SPDX-License-Identifier: MIT */
/* Option tables that drive INI profiles, command-line flags and --help alike. */
#ifndef IOWATT_OPTIONS_H
#define IOWATT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
	OPT_STRREF,  /* const char * to the argument itself (or def): nothing copied or freed */
	OPT_FUNC,    /* parsed by the option's own parse() (a battery, a list of charts) */
	OPT_HELP,    /* --help: no storage, the parser notes it */
};

/*
 * Spelling: names are matched after opt_name_normalize(), so "rate-iops", "rate_iops" and
 * "RATE_IOPS" are one option. OPT_BOOL with def == NULL starts at -1 ("auto": decided
 * later, as end_fsync), and so does OPT_ENUM ("not given": the reader decides). Numbers: min/max are in the stored unit (bytes, ns, fraction).
 */

struct opt_choice {
	const char *name;
	const char *help;
};

struct opt_desc;

/*
 * OPT_FUNC's parser: the value into base (where d->off says, or wherever the option
 * writes). 0, or -EINVAL/-ERANGE with the reason alone in err ("expected e.g. 11.1Wh"):
 * the caller names the option and the value.
 */
typedef int (*opt_parse_fn)(const struct opt_desc *d, void *base, const char *value, char *err,
			    size_t errlen);

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
	/*
	 * OPT_SIZE that may be "auto" or "auto:DURATION": the uint64_t ns at auto_off takes
	 * the duration (OPT_AUTO_BARE for "auto" alone) and the size stays as it was; a
	 * number clears it. 0 = no auto.
	 */
	size_t auto_off;
	opt_parse_fn parse; /* OPT_FUNC */
	/* The value of `--name` given alone (`--power-off` = `--power-off=100%`); then only
	 * `--name=VALUE` gives another. NULL: a value is required. */
	const char *bare;
	/*
	 * What a value is, for shell completion: NULL (free text; choices complete by
	 * themselves), "file", "file:GLOB", "dir", "command", or a word list the program
	 * names ("meters", "profiles"); several separated by spaces.
	 */
	const char *complete;
	/* The value is a comma-separated list of choices ("efficiency,timeline"). */
	int list;
	/* OPT_DURATION: what a bare number counts, in ns (0: seconds; fio's thinktime: us). */
	uint64_t bare_unit_ns;
	/* The value must be given: a meter spec's parser refuses it missing; help says so. */
	int required;
};

/* Every command's --help (-h), in the table's group (NULL where it has none). */
#define OPT_HELP_ROW(grp)                                                                   \
	{ .name = "help", .type = OPT_HELP, .shortopt = 'h', .help = "show this help",      \
	  .group = (grp) }

/* What "auto" without a duration stores at auto_off. */
#define OPT_AUTO_BARE 1

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
/* Same, with the reason alone ("out of range 1..100"): the caller names option and value. */
int opt_set_reason(const struct opt_desc *d, void *base, const char *value, char *err,
		   size_t errlen);
/* Whether the option takes a value on the command line (not OPT_FLAG/NOFLAG/COUNT). */
int opt_takes_value(const struct opt_desc *d);
/* Frees OPT_STRP / OPT_STRLIST strings of a struct filled from table. */
void opt_free_strings(const struct opt_desc *table, size_t n, void *base);
/* Format the option's current value into buf (for the result's resolved options). */
const char *opt_format(const struct opt_desc *d, const void *base, char *buf, size_t len);
/* A number in the option's unit as a user writes it: "4k", "100ms", "5%". */
const char *opt_format_number(const struct opt_desc *d, double v, char *buf, size_t len);
void opt_print_help(FILE *fp, const struct opt_desc *table, size_t n);
/*
 * A table of KEY=VALUE settings (a meter spec's keys), one per line from column indent:
 * "interval=DURATION  time between polls (default 500ms; 100ms..1m; a bare number is ms)",
 * choices as "16|32".
 */
void opt_print_keys(FILE *fp, const struct opt_desc *table, size_t n, int indent);
/* Words of text from column col, later lines indented to indent, lines up to width. */
void opt_print_wrapped(FILE *fp, const char *text, int col, int indent, int width);
/* The same table as troff for a man page: .SS per group, .TP per option. */
void opt_print_man(FILE *fp, const struct opt_desc *table, size_t n);
/* Text for troff: a leading dot or quote would be a request, a backslash an escape. */
void opt_man_text(FILE *fp, const char *s);

/* Normalise an option name: dashes become underscores, lower case. */
void opt_name_normalize(char *s);

#endif
