/* SPDX-License-Identifier: MIT */
/* A fast meter's trace cut to the timeline's pixel columns, keeping each column's min and max. */
#include <math.h>
#include <string.h>

#include "report/plot_timeline.h"

void timeline_decim_init(struct timeline_decim *d, FILE *out, double t_first_s, double t_last_s,
			 long rows, unsigned columns)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->t_first_s = t_first_s;
	/* a trace that fits the columns twice over is drawn as it is */
	d->col_s = rows > 2L * (long)columns && t_last_s > t_first_s
			   ? (t_last_s - t_first_s) / columns : 0;
}

static void put(struct timeline_decim *d, const struct timeline_point *p)
{
	fprintf(d->out, "%.6f %.6g %.6g %.6g\n", p->t_s, p->w, p->lo, p->hi);
	d->rows_out++;
}

void timeline_decim_flush(struct timeline_decim *d)
{
	const struct timeline_point *a = &d->min, *b = &d->max;

	if (!d->n)
		return;
	if (b->t_s < a->t_s) {
		a = &d->max;
		b = &d->min;
	}
	put(d, a);
	if (memcmp(a, b, sizeof(*a)))
		put(d, b);
	d->n = 0;
}

void timeline_decim_add(struct timeline_decim *d, const struct timeline_point *lo,
			const struct timeline_point *hi)
{
	long col;

	if (!d->col_s) {
		put(d, lo);
		if (memcmp(lo, hi, sizeof(*lo)))
			put(d, hi);
		return;
	}
	col = (long)floor((lo->t_s - d->t_first_s) / d->col_s);
	if (d->n && col != d->col)
		timeline_decim_flush(d);
	if (!d->n) {
		d->col = col;
		d->min = *lo;
		d->max = *hi;
	} else {
		if (lo->w < d->min.w)
			d->min = *lo;
		if (hi->w > d->max.w)
			d->max = *hi;
	}
	d->n++;
}
