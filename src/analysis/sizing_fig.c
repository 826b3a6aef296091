/* SPDX-License-Identifier: MIT */
/* `iowatt size`'s figures in their own units, for every line its printers write. */
#include <math.h>
#include <stdio.h>

#include "analysis/sizing_print.h"
#include "core/si_units.h"

/* Formatted figures a printf line holds at once: each call takes the next buffer. */
#define FIG_RING 12

/* A line prints several figures, so their text lives in a ring of buffers (size is one
 * thread) until FIG_RING later calls. */
const char *sizing_fig(enum si_quantity q, double v)
{
	static char ring[FIG_RING][48];
	static unsigned at;
	char *buf = ring[at++ % FIG_RING];

	return si_fmt_unit(q, v, SIZE_SIG, 0, buf, sizeof(ring[0]));
}

const char *sizing_fig_pm(enum si_quantity q, double v, double u95)
{
	static char ring[FIG_RING][80];
	static unsigned at;
	char *buf = ring[at++ % FIG_RING], a[32], b[32];
	struct si_unit u = si_unit_of(q, v);

	if (isnan(u95))
		return sizing_fig(q, v);
	snprintf(buf, sizeof(ring[0]), "%s +-%s %s", si_fmt(&u, v, SIZE_SIG, a, sizeof(a)),
		 si_fmt(&u, u95, SIZE_SIG, b, sizeof(b)), u.text);
	return buf;
}

const char *sizing_fig_wh(double wh)
{
	static char ring[FIG_RING][48];
	static unsigned at;
	char *buf = ring[at++ % FIG_RING];

	snprintf(buf, sizeof(ring[0]), "%sh", sizing_fig(SI_POWER, wh));
	return isnan(wh) ? "-" : buf;
}
