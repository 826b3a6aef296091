/* SPDX-License-Identifier: MIT */
/* Entry point: pick the subcommand; only this file and the commands choose exit codes. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/log.h"
#include "core/version.h"

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
