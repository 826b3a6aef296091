/* SPDX-License-Identifier: MIT */
/* The table of commands: each one's name, entry point and command line, for main, help and man. */
#include "cli/commands.h"
#include "cli/run_help.h"
#include "core/cmdline.h"
#include "core/mem.h"

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
	{ "export", cmd_export, export_cmdline },
	{ "import", cmd_import, import_cmdline },
	{ "stats", cmd_stats, stats_cmdline },
};

const size_t ncommands = ARRAY_SIZE(commands);
