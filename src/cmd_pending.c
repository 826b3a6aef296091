/* SPDX-License-Identifier: MIT */
/* Weak fallbacks for commands whose modules are not linked into this build yet. */
#include <stddef.h>

#include "commands.h"
#include "log.h"

#define PENDING(fn, what)                                                            \
	__attribute__((weak)) int fn(int argc, char **argv)                           \
	{                                                                             \
		(void)argc;                                                           \
		(void)argv;                                                           \
		log_err(NULL, "'%s' is not available in this build", what);           \
		return EXIT_USAGE;                                                    \
	}

PENDING(cmd_run, "run")
PENDING(cmd_measure, "measure")
PENDING(cmd_meters, "meters")
PENDING(cmd_probe, "probe")
PENDING(cmd_emulate, "emulate")
PENDING(cmd_plot, "plot")
PENDING(cmd_compare, "compare")
PENDING(cmd_size, "size")
