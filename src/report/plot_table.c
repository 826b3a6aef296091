/* SPDX-License-Identifier: MIT */
/* The chart table: a row per chart, which plot, its --help and the report page all read. */
#include <string.h>

#include "core/mem.h"
#include "report/plot.h"

/*
 * In the order plot draws them and --help lists them; the report page shows the charts
 * of the whole set in this order, then the per-result ones. A row's bit in a mask is
 * 1 << its index.
 */
const struct plot_chart_desc plot_chart_table[] = {
	{ .name = "efficiency", .script = "efficiency", .draw = plot_efficiency,
	  .needs = PLOT_NEEDS_POWER,
	  .question = "work per mA and energy per GB, per job and device",
	  .caption = "Which device does the most work per mA, and spends the least energy per GB, "
		     "for each job? Hatched bars are invalid runs.",
	  .empty_note = "no job has IOPS per mA or J/GB (a measured command that moves no data "
			"has neither)" },
	{ .name = "timeline", .script = "timeline", .draw = plot_timeline,
	  .needs = PLOT_PER_RESULT,
	  .question = "speed and power over time, one per result, with phases and events",
	  .caption = "What happened during the run: throughput and power over time with the "
		     "idle, active and tail phases, and events.",
	  .empty_note = "no interval or sample series" },
	{ .name = "perf-power", .alias = "perf", .script = "perf-power", .draw = plot_perf_power,
	  .needs = PLOT_NEEDS_POWER,
	  .question = "per job, which devices are worth their power (the Pareto front)",
	  .caption = "For each job, which devices are worth their power: the dashed staircase is "
		     "the Pareto front (nothing else is both faster and cheaper). One device's "
		     "jobs share one panel, without a front.",
	  .empty_note = "nothing to compare: no job has both its active power and its speed (a "
			"measured command that moves no data has no speed), or one device ran one "
			"job" },
	{ .name = "latency", .script = "latency", .draw = plot_latency,
	  .question = "p50, p99 and p99.9 latency per job",
	  .caption = "How long I/Os take, typically (p50) and at worst (p99, p99.9).",
	  .empty_note = "no job has latency percentiles" },
	{ .name = "battery", .script = "battery", .draw = plot_battery,
	  .needs = PLOT_NEEDS_POWER,
	  .question = "days on --battery against data written per day",
	  .caption = "How many days each device lasts on a battery against how much is written "
		     "per day.",
	  .empty_note = "no result has a write job with power data" },
	{ .name = "sweep", .script = "sweep", .draw = plot_sweep,
	  .question = "speed and energy per byte by record size, per operation",
	  .caption = "How speed and energy per byte change with the record size, per operation.",
	  .empty_note = "no operation ran at two record sizes or more" },
	{ .name = "wsat", .script = "wsat", .draw = plot_wsat,
	  .question = "speed, power and energy per GB per round against the GB written (steady=)",
	  .caption = "Does the device slow down or draw more once it has been written hard: each "
		     "round's speed, power and energy per GB against the data written so far, and "
		     "where its figures held still (SNIA PTS steady state).",
	  .empty_note = "no job judged its steady state (steady=, repeat_until_steady=)" },
};

const size_t plot_nchart = ARRAY_SIZE(plot_chart_table);

int plot_chart_bit(const char *name)
{
	size_t i;

	for (i = 0; i < plot_nchart; i++)
		if (!strcmp(name, plot_chart_table[i].name) ||
		    (plot_chart_table[i].alias && !strcmp(name, plot_chart_table[i].alias)))
			return 1 << i;
	return 0;
}

const struct opt_choice *plot_chart_choices(void)
{
	static struct opt_choice *choices;
	size_t i, n = 0;

	if (choices)
		return choices;
	/* a row, and its alias after it */
	choices = xcalloc(2 * plot_nchart + 1, sizeof(*choices));
	for (i = 0; i < plot_nchart; i++) {
		choices[n].name = plot_chart_table[i].name;
		choices[n++].help = plot_chart_table[i].question;
		if (!plot_chart_table[i].alias)
			continue;
		choices[n].name = plot_chart_table[i].alias;
		choices[n++].help = xasprintf("the same as %s", plot_chart_table[i].name);
	}
	return choices;
}
