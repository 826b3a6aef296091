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

/* A command as the man page and completion list it. */
struct command_doc {
	const char *name;
	const char *summary;
};

/* man.c: the whole iowatt.1 page in troff. */
void man_page(FILE *fp, const struct command_doc *cmds, size_t n);

/* Exit codes, chosen in one place. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,	     /* a job failed, or a runtime error */
	EXIT_USAGE = 2,	     /* bad option, profile or input */
	EXIT_SIGINT = 130,
	EXIT_SIGTERM = 143,
};

/* What a command's argument parser returns when it has printed --help: exit 0, do nothing. */
enum { ARGS_HELP = -1 };

#endif
