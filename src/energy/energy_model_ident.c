/* SPDX-License-Identifier: MIT */
/* What the power model's readings cannot tell: flat columns, kinds none caught, pairs it cannot split. */
#include <math.h>
#include <stdint.h>

#include "energy/energy_model.h"
#include "energy/energy_model_lsq.h"

/*
 * A kind done as a steady stream over the span: of the quarter-window slices between its
 * first and last completion, at least EMODEL_STREAM_FILL hold one. Any window the meter may
 * have then holds about rate x window of them, so the readings' mean rise over idle is
 * rate x cost whatever the window: its cost does not hang on the window the grid chose.
 */
static int steady_stream(const struct emodel_in *in, unsigned k, uint64_t window_ns)
{
	const struct completions *c = in->ops;
	uint64_t slice = window_ns / 4, t, s_prev = UINT64_MAX;
	size_t i, first = SIZE_MAX, last = 0, filled = 0, slices;

	if (!c || !c->n || slice < c->bin_ns)
		return 0;
	for (i = 0; i < c->n; i++) {
		t = c->t0_ns + i * c->bin_ns;
		if (t < in->t0_ns || t >= in->t1_ns || !(c->c[i * COMPL_KINDS + k] > 0))
			continue;
		if (first == SIZE_MAX)
			first = i;
		last = i;
	}
	if (first == SIZE_MAX)
		return 0;
	slices = (size_t)((last - first) * c->bin_ns / slice) + 1;
	if (slices < 2)
		return 0;
	for (i = first; i <= last; i++) {
		t = (i - first) * c->bin_ns / slice;
		if (c->c[i * COMPL_KINDS + k] > 0 && t != s_prev) {
			filled++;
			s_prev = t;
		}
	}
	return (double)filled >= EMODEL_STREAM_FILL * (double)slices;
}

/*
 * A fitted kind whose column hardly varies from reading to reading (every window holds the
 * same operations: records in step with the readings, a window as long as their spacing):
 * its cost is then the readings' mean rise over idle divided by the window's rate, which
 * scales with the window chosen, and where the meter declares none every window the grid
 * tries fits alike. A steady stream's column is as flat, but its cost does not scale with
 * the window (above). The first such kind, or -1.
 */
int emodel_flat_column(const struct emodel_in *in, const struct design *d,
		       const struct solution *so, uint64_t window_ns)
{
	double sw, mx, vx, wt, dx;
	unsigned i;
	size_t n;

	for (i = 1; i < so->m; i++) {
		if (steady_stream(in, so->cols[i] - 1, window_ns))
			continue;
		sw = mx = vx = 0;
		for (n = 0; n < d->n; n++) {
			wt = 1 / (d->s[n] * d->s[n]);
			sw += wt;
			mx += wt * d->x[n * NP + so->cols[i]];
		}
		if (!(sw > 0) || !(mx > 0))
			continue;
		mx /= sw;
		for (n = 0; n < d->n; n++) {
			wt = 1 / (d->s[n] * d->s[n]);
			dx = d->x[n * NP + so->cols[i]] - mx;
			vx += wt * dx * dx;
		}
		if (sqrt(vx / sw) < EMODEL_MIN_CONTRAST * mx)
			return (int)so->cols[i] - 1;
	}
	return -1;
}

/*
 * Where windows that hold none of a kind fit the readings about as well as the best
 * (EMODEL_BLIND_SHARE of the grid's likelihood), the readings may have caught none: at
 * the best point it is priced from windows the meter need not have had (records in step
 * with the readings, at a phase they miss, fit "they cost nothing" at a wrong lag), so no
 * interval about that figure holds what the readings allow. Such kinds lose their cost
 * (a pair its sum), the job its energy above idle where the points that cannot price it
 * weigh as much; the kind with the largest such share, or -1.
 */
int emodel_uncaught_kinds(const struct solution *so, int base, int with, struct emodel_fit *out)
{
	double worst = EMODEL_BLIND_SHARE;
	int k, blind = -1;

	if (so->net_unknown >= EMODEL_BLIND_SHARE)
		out->net_j = out->net_u95_j = NAN;
	for (k = 0; k < COMPL_KINDS; k++) {
		if (!(so->uncaught[k] >= EMODEL_BLIND_SHARE))
			continue;
		if (isfinite(out->j_per_op[k]))
			out->j_per_op[k] = out->u95_j[k] = NAN;
		else if ((k == base || k == with) && isfinite(out->sum_j))
			out->sum_j = out->sum_u95_j = NAN;
		else
			continue;
		if (so->uncaught[k] >= worst) {
			worst = so->uncaught[k];
			blind = k;
		}
	}
	return blind;
}

/*
 * A pair split whose costs are each known no better than +- the energy of both together
 * (a synced record's write and flush a few ms apart, in the same window but for the few
 * that straddle an edge), or split so that one costs less than nothing beyond its U95 and
 * the other more (the record's journal writes landing by the write's completion in some
 * windows and by the flush's in others): the readings cannot place the energy between
 * them. Its bits (bit k for kind k), or 0.
 */
unsigned emodel_unsplittable(const struct emodel_fit *f)
{
	const double *c = f->j_per_op, *u = f->u95_j;
	unsigned j, k;
	double both;

	for (j = 0; j < COMPL_KINDS; j++)
		for (k = j + 1; k < COMPL_KINDS; k++) {
			both = fabs(c[j] + c[k]);
			if ((u[j] > both && u[k] > both) || (c[j] + u[j] < 0 && c[k] > 0) ||
			    (c[k] + u[k] < 0 && c[j] > 0))
				return 1u << j | 1u << k;
		}
	return 0;
}
