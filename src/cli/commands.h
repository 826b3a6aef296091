/* SPDX-License-Identifier: MIT */
/* Subcommands: each returns the process exit code. */
#ifndef IOWATT_COMMANDS_H
#define IOWATT_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_meters(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_emulate(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_size(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_stats(int argc, char **argv);

struct cmdline;

/* A command as main runs it and `iowatt help` documents it (commands.c). */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	/* Its command line as data: options, synopsis, summary (cli/<cmd>, core/cmdline.h). */
	const struct cmdline *(*line)(void);
};
extern const struct command commands[];
/* The commands' command lines, each next to its command. */
const struct cmdline *probe_cmdline(void);
const struct cmdline *meters_cmdline(void);
const struct cmdline *emulate_cmdline(void);
const struct cmdline *compare_cmdline(void);
const struct cmdline *size_cmdline(void);
const struct cmdline *plot_cmdline(void);
const struct cmdline *report_cmdline(void);
const struct cmdline *export_cmdline(void);
const struct cmdline *import_cmdline(void);
const struct cmdline *stats_cmdline(void);
extern const size_t ncommands;

/* The program's usage: the commands and their summaries (help.c). */
void commands_usage(FILE *fp);
/* `iowatt help [--man | --complete LIST | --complete-words CWORD WORD...]` (help.c). */
int cmd_help(int argc, char **argv);
/* man.c: the whole iowatt.1 page in troff, a section per command. */
void man_page(FILE *fp);

/* Exit codes, chosen in one place. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,	     /* a job failed, or a runtime error */
	EXIT_USAGE = 2,	     /* bad option, profile or input */
	EXIT_REFUSED = 3,    /* the system refused: target exists, read-only, full, busy */
	EXIT_INVALID = 4,    /* --strict: a job is INVALID */
	EXIT_UNCERTAIN = 5,  /* --strict: none INVALID, a job UNCERTAIN */
	EXIT_SIGINT = 130,
	EXIT_SIGTERM = 143,
};

/* The exit code for a -errno that stopped a command before it did any work. */
int exit_code_for_errno(int err);

/* What a command's argument parser returns when it has printed --help: exit 0, do nothing. */
enum { ARGS_HELP = -1 };

#endif
