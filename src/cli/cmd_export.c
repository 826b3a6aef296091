/* SPDX-License-Identifier: MIT */
/* iowatt export: a result's samples, with its phases and I/O, for PulseView and sigrok-cli (srzip) or a spreadsheet (CSV). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "report/export.h"

#define MOD "export"

struct export_args {
	struct export_opts o;
	struct result_args ra;
	int format_idx;
};

#define EOFF(f) offsetof(struct export_args, f)

static const struct opt_choice formats[] = {
	{ "srzip", "a sigrok session file (PulseView, sigrok-cli -i): each meter's V, mA, W "
		   "and the I/O in MB/s as analog channels, the phases and I/O under way as "
		   "logic channels, on a regular grid" },
	{ "csv", "every sample as the result has it, with its job and phase" },
	{ NULL, NULL },
};

static struct opt_desc export_opts[] = {
	{ .name = "output", .type = OPT_STRREF, .off = EOFF(o.out), .shortopt = 'o',
	  .metavar = "FILE", .help = "the file written (required; FILE.sr or FILE.csv say the "
				     "format)", .complete = "file" },
	{ .name = "format", .type = OPT_ENUM, .off = EOFF(format_idx), .choices = formats,
	  .metavar = "FORMAT", .help = "srzip or csv (default: from the name of -o)" },
	{ .name = "rate", .type = OPT_DOUBLE, .off = EOFF(o.rate_hz), .min = 1, .max = 1e6,
	  .metavar = "HZ", .help = "srzip: the grid's points per second, whole Hz as a session's "
				   "samplerate is (default 1000 for a fast meter stored in bins, "
				   "else 100)" },
	{ .name = "force", .type = OPT_FLAG, .off = EOFF(o.replace),
	  .help = "replace an existing file of that name" },
	RESULT_LABEL_ROW(EOFF(ra), NULL),
	OPT_HELP_ROW(NULL),
};

const struct cmdline *export_cmdline(void)
{
	static const struct cmdline line = {
		.name = "export",
		.summary = "a result's samples for PulseView, sigrok-cli or a spreadsheet",
		.synopsis = "RESULT.json -o FILE.sr [--rate HZ] [--force]\n"
			    "RESULT.json -o FILE.csv [--force]",
		.about = "The samples of a result with what the run knew of them: srzip puts each "
			 "meter's readings on a regular grid (a cell holds the mean of the readings "
			 "in it, else the last reading, as a meter's display does) beside the I/O "
			 "rate and the phases as logic channels, for PulseView and sigrok-cli; csv "
			 "gives every sample as stored, with its job and phase.",
		CMDLINE_OPTS(export_opts),
		RESULT_OPERANDS,
	};

	return &line;
}

static int check_args(const void *base)
{
	const struct export_args *a = base;

	if (a->o.out)
		return 0;
	log_err(MOD, "-o FILE is required: the file to write (FILE.sr or FILE.csv)");
	return -EINVAL;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_parse_one(&a.ra, export_cmdline(), &a, argc, argv, check_args, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	a.o.format = a.format_idx < 0 ? EXPORT_AUTO : a.format_idx == 0 ? EXPORT_SRZIP : EXPORT_CSV;
	rc = export_result(&set.res[0], &a.o) ? EXIT_FAIL : EXIT_OK;
	rr_set_free(&set);
	return rc;
}
