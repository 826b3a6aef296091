/* SPDX-License-Identifier: MIT */
/* The options every command that reads results shares: --label, --battery, --help, the files. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/log.h"
#include "core/mem.h"

void result_args_init(struct result_args *ra, const char *mod, void (*usage)(FILE *fp),
		      const char *battery)
{
	memset(ra, 0, sizeof(*ra));
	ra->mod = mod;
	ra->usage = usage;
	ra->bm.usable_frac = BATTERY_DEFAULT_USABLE;
	ra->bm.regulator_eff = BATTERY_DEFAULT_REGULATOR;
	ra->bm.self_discharge_month = BATTERY_DEFAULT_SELF_DISCHARGE;
	if (battery)
		battery_parse(battery, &ra->bm.bat);
}

int result_option(struct result_args *ra, int c, char *arg)
{
	int rc;

	switch (c) {
	case 'l':
		ra->labels = xrealloc(ra->labels, (ra->nlabels + 1) * sizeof(*ra->labels));
		ra->labels[ra->nlabels++] = arg;
		return 0;
	case 'B':
		rc = battery_parse(arg, &ra->bm.bat);
		if (rc == -ERANGE) {
			log_err(ra->mod, "--battery '%s': out of range (at most %.0f kWh and %.0f V)",
				arg, BATTERY_MAX_WH / 1000, BATTERY_MAX_V);
			return EXIT_USAGE;
		}
		if (rc) {
			log_err(ra->mod, "--battery '%s': expected e.g. 3000mAh@3.7V or 11.1Wh", arg);
			return EXIT_USAGE;
		}
		ra->have_battery = 1;
		return 0;
	case 'h':
		ra->usage(stdout);
		return ARGS_HELP;
	default:
		ra->usage(stderr);
		return EXIT_USAGE;
	}
}

int result_args_load(struct result_args *ra, int rc, int argc, char **argv, struct rr_set *set)
{
	if (rc == EXIT_OK && optind >= argc) {
		log_err(ra->mod, "no result files given");
		ra->usage(stderr);
		rc = EXIT_USAGE;
	} else if (rc == EXIT_OK && rr_set_load(set, argv + optind, (size_t)(argc - optind),
						ra->labels, ra->nlabels)) {
		rc = EXIT_USAGE;
	}
	result_args_free(ra);
	return rc;
}

void result_args_free(struct result_args *ra)
{
	free(ra->labels);
	ra->labels = NULL;
	ra->nlabels = 0;
}
