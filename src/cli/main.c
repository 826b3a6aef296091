/* SPDX-License-Identifier: MIT */
/* Entry point: pick the subcommand; only this file and the commands choose exit codes. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/log.h"
#include "core/version.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "run/profile.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run a job profile or inline job, metering power in the same run" },
	{ "measure", cmd_measure, "meter any command: iowatt measure --meter SPEC -- CMD ARGS..." },
	{ "meters", cmd_meters, "list meters and flag sources this machine has" },
	{ "probe", cmd_probe, "show live readings of a meter to check the wiring" },
	{ "emulate", cmd_emulate, "emulate a USB tester on a pseudo-terminal" },
	{ "plot", cmd_plot, "draw charts from result files (gnuplot)" },
	{ "compare", cmd_compare, "compare devices across result files" },
	{ "size", cmd_size, "size a battery for a workload from measured results" },
	{ "report", cmd_report, "one self-contained HTML page of results: table, charts, methods" },
};

static void usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "iowatt %s: storage benchmark and power meter in one run\n\n"
		    "usage: iowatt COMMAND [OPTIONS]\n\ncommands:\n", iowatt_version);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp, "\n'iowatt COMMAND --help' shows a command's options.\n");
}

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))
#define LIST_LEN 1024

/* Comma-separated names as one word a line, for the shell. */
static void print_words(const char *list)
{
	for (; *list; list++) {
		if (*list == ',')
			putchar('\n');
		else if (*list != ' ')
			putchar(*list);
	}
	putchar('\n');
}

/*
 * `iowatt help --man` writes iowatt.1 (make builds it from here); `iowatt help --complete
 * commands|profiles|meters` lists words for bash completion. Both read the same tables as
 * --help, so neither can drift from the program.
 */
static int help_cmd(int argc, char **argv)
{
	struct command_doc docs[NCOMMANDS];
	char list[LIST_LEN];
	size_t i;

	if (argc > 2 && !strcmp(argv[2], "--man")) {
		for (i = 0; i < NCOMMANDS; i++)
			docs[i] = (struct command_doc){ commands[i].name, commands[i].summary };
		man_page(stdout, docs, NCOMMANDS);
		return EXIT_OK;
	}
	if (argc > 3 && !strcmp(argv[2], "--complete")) {
		if (!strcmp(argv[3], "commands")) {
			for (i = 0; i < NCOMMANDS; i++)
				printf("%s\n", commands[i].name);
		} else if (!strcmp(argv[3], "profiles")) {
			profile_names(list, sizeof(list));
			print_words(list);
		} else if (!strcmp(argv[3], "meters")) {
			meter_driver_names(meter_registry, list, sizeof(list));
			print_words(list);
		} else {
			log_err(NULL, "help --complete: commands, profiles or meters, not '%s'",
				argv[3]);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	usage(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help"))
		return help_cmd(argc, argv);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("iowatt %s\n", iowatt_version);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	log_err(NULL, "unknown command '%s' (try 'iowatt --help')", argv[1]);
	return EXIT_USAGE;
}
