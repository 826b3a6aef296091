/* SPDX-License-Identifier: MIT */
/* The options every command that reads results shares: --label, --battery, --help, the files. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/sleep_figure.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"

/* The defaults: the model's losses, no battery (the --battery row's def sets one). */
static void result_args_init(struct result_args *ra)
{
	memset(ra, 0, sizeof(*ra));
	ra->bm.usable_frac = BATTERY_DEFAULT_USABLE;
	ra->bm.regulator_eff = BATTERY_DEFAULT_REGULATOR;
	ra->bm.self_discharge_month = BATTERY_DEFAULT_SELF_DISCHARGE;
}

static void result_args_free(struct result_args *ra)
{
	free(ra->labels);
	ra->labels = NULL;
	ra->nlabels = 0;
}

int result_args_label(const struct opt_desc *d, void *base, const char *value, char *err,
		      size_t errlen)
{
	struct result_args *ra = (struct result_args *)(void *)((char *)base + d->off);

	(void)err;
	(void)errlen;
	ra->labels = xrealloc(ra->labels, (ra->nlabels + 1) * sizeof(*ra->labels));
	ra->labels[ra->nlabels++] = (char *)(uintptr_t)value; /* argv's, or the table's */
	return 0;
}

int result_args_battery(const struct opt_desc *d, void *base, const char *value, char *err,
			size_t errlen)
{
	struct result_args *ra = (struct result_args *)(void *)((char *)base + d->off);
	int rc = battery_parse(value, &ra->bm.bat);

	if (rc == -ERANGE)
		snprintf(err, errlen, "out of range (at most %.0f kWh and %.0f V)",
			 BATTERY_MAX_WH / 1000, BATTERY_MAX_V);
	else if (rc)
		snprintf(err, errlen, "expected e.g. 3000mAh@3.7V or 11.1Wh");
	else
		ra->have_battery = 1;
	/* The table's default arrives as its own pointer: a chart says it was not given. */
	ra->bm.assumed = !rc && value == d->def;
	return rc ? (rc == -ERANGE ? -ERANGE : -EINVAL) : 0;
}

/* The operands: EXIT_OK (set loaded) or EXIT_USAGE (said). */
static int load_files(struct result_args *ra, const struct cmdline_parse *p, struct rr_set *set)
{
	if (!p->noperands) {
		log_err(p->cmd->name, "no result files given");
		cmdline_usage(stderr, p->cmd);
		return EXIT_USAGE;
	}
	if (rr_set_load(set, p->operands, p->noperands, ra->labels, ra->nlabels))
		return EXIT_USAGE;
	return EXIT_OK;
}

int result_args_parse(struct result_args *ra, const struct cmdline *cmd, void *base, int argc,
		      char **argv, int (*check)(const void *base), struct rr_set *set)
{
	struct cmdline_parse p = { .cmd = cmd, .base = base };
	int rc;

	result_args_init(ra);
	opt_apply_defaults(cmd->opts, cmd->nopts, base);
	rc = cmdline_read(&p, argc, argv);
	if (!rc && check)
		rc = check(base);
	if (rc > 0)
		rc = ARGS_HELP;
	else if (rc < 0)
		rc = EXIT_USAGE;
	else
		rc = load_files(ra, &p, set);
	result_args_free(ra);
	cmdline_parse_free(&p);
	return rc;
}

int result_args_parse_one(struct result_args *ra, const struct cmdline *cmd, void *base,
			  int argc, char **argv, int (*check)(const void *base), struct rr_set *set)
{
	int rc = result_args_parse(ra, cmd, base, argc, argv, check, set);

	if (rc == EXIT_OK && set->nres != 1) {
		log_err(cmd->name, "one result at a time (%zu given)", set->nres);
		rr_set_free(set);
		rc = EXIT_USAGE;
	}
	return rc;
}

int result_args_sleep(const char *spec, int mix_emulated, struct rr_set *set, int check_set,
		      struct sleep_figure *sf, const struct sleep_figure **out)
{
	*out = NULL;
	if (!spec)
		return EXIT_OK;
	if (sleep_figure_load(spec, sf)) {
		rr_set_free(set);
		return EXIT_USAGE;
	}
	if (check_set && sleep_figure_check_set(sf, set, mix_emulated)) {
		sleep_figure_free(sf);
		rr_set_free(set);
		return EXIT_USAGE;
	}
	*out = sf;
	return EXIT_OK;
}

const struct opt_choice *result_args_metrics(void)
{
	static struct opt_choice *choices;
	size_t i;

	if (choices)
		return choices;
	choices = xcalloc(compare_ncolumns + 1, sizeof(*choices));
	for (i = 0; i < compare_ncolumns; i++) {
		choices[i].name = compare_columns[i].key;
		choices[i].help = xasprintf("%s, %s is better", compare_columns[i].head,
					    compare_columns[i].lower_better ? "lower" : "higher");
	}
	return choices;
}
