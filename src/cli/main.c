/* SPDX-License-Identifier: MIT */
/* Entry point: pick the subcommand; only this file and the commands choose exit codes. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_help.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/version.h"

static const struct cmdline *run_line(void)
{
	return run_cmdline(0);
}

static const struct cmdline *measure_line(void)
{
	return run_cmdline(1);
}

const struct command commands[] = {
	{ "run", cmd_run, run_line },
	{ "measure", cmd_measure, measure_line },
	{ "meters", cmd_meters, meters_cmdline },
	{ "probe", cmd_probe, probe_cmdline },
	{ "emulate", cmd_emulate, emulate_cmdline },
	{ "plot", cmd_plot, plot_cmdline },
	{ "compare", cmd_compare, compare_cmdline },
	{ "size", cmd_size, size_cmdline },
	{ "report", cmd_report, report_cmdline },
};

const size_t ncommands = ARRAY_SIZE(commands);

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		commands_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc == 2) {
			commands_usage(stdout);
			return EXIT_OK;
		}
		return cmd_help(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		commands_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("iowatt %s\n", iowatt_version);
		return EXIT_OK;
	}
	for (i = 0; i < ncommands; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	log_err(NULL, "unknown command '%s' (try 'iowatt --help')", argv[1]);
	return EXIT_USAGE;
}
