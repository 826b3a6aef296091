/* SPDX-License-Identifier: MIT */
/* A command's command line as data: argv parsed through its option table, help, man, completion. */
#ifndef IOWATT_CMDLINE_H
#define IOWATT_CMDLINE_H

#include <stddef.h>
#include <stdio.h>

#include "core/options.h"

/*
 * One command as its user sees it. --help, the man page's section and shell completion
 * are all printed from this and its option table, and the parser reads the same table, so
 * none of them can list an option another lacks (tests/cli/t_options_agree.sh checks it).
 */
struct cmdline {
	const char *name;     /* "probe": `iowatt probe`, and the log module of its messages */
	const char *summary;  /* one line for the list of commands */
	const char *synopsis; /* after "iowatt NAME ", one usage form per line */
	const char *about;    /* what it does: paragraphs split by an empty line, wrapped */
	const struct opt_desc *opts;
	size_t nopts;
	const char *operands; /* what the other arguments are ("RESULT.json..."), NULL: none */
	/* What they are for completion, as opt_desc.complete ("file:*.json", "command"). */
	const char *operands_complete;
	/* Options end at the first operand, as in env(1): `measure` runs a command whose
	 * own options follow. Otherwise options and operands mix, and `--` ends options. */
	int operands_end_options;
	/* Generated text after the options (drivers and their keys, metrics). NULL: none. */
	void (*epilog)(FILE *fp);
};

/* A command's option table and its count, which must agree: in a struct cmdline. */
#define CMDLINE_OPTS(tab) .opts = (tab), .nopts = sizeof(tab) / sizeof((tab)[0])

/*
 * The parser's state: in, the command and where values go; out, what was not an option.
 * opts/nopts, when set, are what the parser recognises instead of the command's table (a
 * command may know options only to refuse them with a reason, as measure does run's).
 */
struct cmdline_parse {
	const struct cmdline *cmd;
	const struct opt_desc *opts;
	size_t nopts;
	void *base; /* values go here through opt_set, unless take is set */
	/*
	 * Takes a recognised option itself (spelled: the name as given, for messages): 0, or
	 * -EINVAL after logging one line. NULL: opt_set_reason into base, and a refusal is
	 * logged as "--NAME 'VALUE': REASON".
	 */
	int (*take)(struct cmdline_parse *p, const struct opt_desc *d, const char *value,
		    const char *spelled);
	void *ctx; /* for take */

	char **operands; /* in argv order; pointers into argv */
	size_t noperands;
	int dashdash; /* "--" was given (operands after it were never options) */
	int help;     /* --help was given: print cmdline_help and do nothing else */
};

/*
 * Parse argv[1..argc-1]: --name, --name=value, --name value, -x, -xVALUE, -x VALUE,
 * clustered flags (-qv), operands. Names match in either spelling (dashes, underscores).
 * 0, or -EINVAL after logging one line that names the option; an unknown option or a
 * missing value is followed by the usage lines on stderr. cmdline_parse_free() after.
 */
int cmdline_parse(struct cmdline_parse *p, int argc, char **argv);
void cmdline_parse_free(struct cmdline_parse *p);
/*
 * What most commands do with it: cmdline_parse, then --help printed to stdout (1: do
 * nothing else), and an operand refused where the command takes none. 0, 1 or -EINVAL
 * (logged). cmdline_parse_free() after, whatever it returned.
 */
int cmdline_read(struct cmdline_parse *p, int argc, char **argv);

/* "usage: iowatt NAME SYNOPSIS" lines alone (after an error), or the whole --help. */
void cmdline_usage(FILE *fp, const struct cmdline *cmd);
void cmdline_help(FILE *fp, const struct cmdline *cmd);
/* The command's man page section: .SH, synopsis, about, options, epilog. */
void cmdline_man(FILE *fp, const struct cmdline *cmd);

/*
 * What the word at words[cword] can be, as bash completion asks it (words[0] is the
 * program, words[1] the command). Prints one candidate a line, or a line starting with
 * '@' that the completion script turns into files or commands: "@file", "@file GLOB",
 * "@dir", "@command", "@nospace". A named list ("meters") goes to list(), which prints
 * its words for the word being completed.
 */
void cmdline_complete(FILE *fp, const struct cmdline *cmd, int cword, char **words, int nwords,
		      void (*list)(FILE *fp, const char *name, const char *cur));

#endif
