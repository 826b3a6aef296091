/* SPDX-License-Identifier: MIT */
/* The chart table: every row complete, its names unique, --chart's choices and bits from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/plot.h"
#include "tap.h"

/* Run from the repository's root (tests/run.sh does): the templates are in plots/. */
static void test_rows(void)
{
	size_t i, k;
	char path[256];

	ok(plot_nchart > 0 && plot_nchart < 8 * sizeof(int) - 1,
	   "the table has rows, and each a bit of an int mask (%zu)", plot_nchart);
	for (i = 0; i < plot_nchart; i++) {
		const struct plot_chart_desc *d = &plot_chart_table[i];

		ok(d->name && *d->name && d->script && d->question && *d->question && d->caption &&
		   *d->caption && d->draw, "%s: name, template, question, caption and draw", d->name);
		snprintf(path, sizeof(path), "plots/%s.gp", d->script);
		ok(access(path, R_OK) == 0, "%s: its template %s exists", d->name, path);
		is_int(plot_chart_bit(d->name), 1 << i, "%s: its bit is its row's", d->name);
		if (d->alias)
			is_int(plot_chart_bit(d->alias), 1 << i, "%s: its alias %s too", d->name,
			       d->alias);
		for (k = 0; k < i; k++)
			ok(strcmp(d->name, plot_chart_table[k].name) &&
			   (!d->alias || strcmp(d->alias, plot_chart_table[k].name)),
			   "%s: not a name of an earlier row (%s)", d->name, plot_chart_table[k].name);
	}
	is_int(plot_chart_bit("nope"), 0, "a name of no chart has no bit");
}

/* --chart's choices: each name, its alias after it, each with its help, in table order. */
static void test_choices(void)
{
	const struct opt_choice *c = plot_chart_choices();
	size_t i, n = 0;
	int good = 1;

	for (i = 0; i < plot_nchart; i++) {
		const struct plot_chart_desc *d = &plot_chart_table[i];

		good &= c[n].name && !strcmp(c[n].name, d->name) && c[n].help == d->question;
		n++;
		if (d->alias) {
			good &= c[n].name && !strcmp(c[n].name, d->alias) && c[n].help &&
				strstr(c[n].help, d->name) != NULL;
			n++;
		}
	}
	ok(good, "the choices are the rows' names and aliases, in order, with their questions");
	ok(c[n].name == NULL, "and end there (%zu)", n);
	ok(plot_chart_choices() == c, "made once");
}

int main(void)
{
	test_rows();
	test_choices();
	return done_testing();
}
