/* SPDX-License-Identifier: MIT */
/* The meter's clock against iowatt's from a GPIO marker's edges seen on the meter's digital inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/event_marker.h"

/* A drift is fitted over pairs this far apart at least (shorter: it is noise). */
#define DRIFT_SPAN_NS 1000000000ULL
/* Pairs count as one time when closer than this (a pulse's two edges): a drift needs
 * three such times, two to draw it and one to check it. */
#define CLUSTER_NS 100000000ULL
/* What two edges' offsets may differ by beyond the calls' and the period's shares: a
 * meter's stamps wander within a job (the PPK2 driver's anchor settles on the earliest
 * arrival; a loaded host). The spread is in U95; beyond this the pairs are not the same
 * edges. */
#define SLACK_NS 500000.0

void el_logic_reset(struct el_logic *l, uint64_t period_ns)
{
	memset(l, 0, sizeof(*l));
	l->period_ns = period_ns;
}

void el_logic_add(struct el_logic *l, uint64_t t_ns, uint8_t inputs)
{
	unsigned c, x = (unsigned)(inputs ^ l->prev);

	if (!l->have) {
		l->have = 1;
		l->prev = inputs;
		return;
	}
	for (c = 0; x && c < EL_LOGIC_INPUTS; c++) {
		if (!(x >> c & 1))
			continue;
		if (l->n[c] < EL_LOGIC_EDGES)
			l->e[c][l->n[c]++] = (struct el_logic_edge){ t_ns, (uint8_t)(inputs >> c & 1) };
		else
			l->extra[c]++;
	}
	l->prev = inputs;
}

/* The meter edge of input c at level nearest to t_ns + off_ns, within tol_ns: its index, or -1. */
static int nearest(const struct el_logic *l, int c, int level, double t_ns, double tol_ns)
{
	double d, best = tol_ns;
	int j, at = -1;

	for (j = 0; j < (int)l->n[c]; j++) {
		if (l->e[c][j].level != level)
			continue;
		d = fabs((double)l->e[c][j].t_ns - t_ns);
		if (d <= best) {
			best = d;
			at = j;
		}
	}
	return at;
}

/* Pairs at offset off_ns: how many, the sum of their distances (ties), each pair's offset. */
static unsigned pair_at(const struct el_logic *l, int c, const struct el_mark *m, size_t nm,
			double off_ns, double *dist, double *offs)
{
	unsigned n = 0;
	size_t k;
	int j;

	*dist = 0;
	for (k = 0; k < nm; k++) {
		j = nearest(l, c, m[k].level, (double)m[k].t_ns + off_ns,
			    EL_MARK_MATCH_NS + (double)m[k].half_ns);
		offs[k] = NAN;
		if (j < 0)
			continue;
		offs[k] = (double)l->e[c][j].t_ns - (double)m[k].t_ns;
		*dist += fabs(offs[k] - off_ns);
		n++;
	}
	return n;
}

/* The offset pairing most of the marker's edges with input c's, into offs (NAN: unpaired). */
static unsigned pair_input(const struct el_logic *l, int c, const struct el_mark *m, size_t nm,
			   double *offs, double *dist)
{
	double *tmp = xcalloc(nm, sizeof(*tmp)), cand, d;
	unsigned n, best = 0;
	size_t i;
	int j;

	*dist = INFINITY;
	for (i = 0; i < nm; i++)
		for (j = 0; j < (int)l->n[c]; j++) {
			if (l->e[c][j].level != m[i].level)
				continue;
			cand = (double)l->e[c][j].t_ns - (double)m[i].t_ns;
			if (fabs(cand) > (double)EL_MARK_MAX_OFFSET_NS)
				continue;
			n = pair_at(l, c, m, nm, cand, &d, tmp);
			if (n > best || (n == best && n && d < *dist)) {
				best = n;
				*dist = d;
				memcpy(offs, tmp, nm * sizeof(*offs));
			}
		}
	free(tmp);
	return best;
}

/*
 * The pairs' offsets (marks in time order) as a line in the host's time: the offset at
 * their mean time; the slope, the clocks' drift, where they span DRIFT_SPAN_NS at two
 * times or more. The residuals are taken about the line from three times on (two draw it,
 * the third checks it), about the mean below: their RMS, and the largest beyond its
 * tolerance (> 0: the pairs disagree).
 */
static void fit_pairs(const struct el_mark *m, const double *offs, size_t nm, double period_ns,
		      struct el_align *out, double *rms, double *worst)
{
	double tm = 0, om = 0, sxx = 0, sxy = 0, b = 0, r, tol, lo = INFINITY, hi = -INFINITY;
	double maxhalf = 0, ss = 0, last = -INFINITY, slope;
	size_t k, n = 0, times = 0;

	for (k = 0; k < nm; k++)
		if (isfinite(offs[k])) {
			if ((double)m[k].t_ns - last >= (double)CLUSTER_NS)
				times++;
			last = (double)m[k].t_ns;
			tm += (double)m[k].t_ns;
			om += offs[k];
			lo = fmin(lo, (double)m[k].t_ns);
			hi = fmax(hi, (double)m[k].t_ns);
			maxhalf = fmax(maxhalf, (double)m[k].half_ns);
			n++;
		}
	tm /= (double)n;
	om /= (double)n;
	for (k = 0; k < nm; k++)
		if (isfinite(offs[k])) {
			sxx += pow((double)m[k].t_ns - tm, 2);
			sxy += ((double)m[k].t_ns - tm) * (offs[k] - om);
		}
	if (times >= 2 && hi - lo >= (double)DRIFT_SPAN_NS && sxx > 0)
		b = sxy / sxx;
	slope = times >= 3 ? b : 0;
	*worst = 0;
	for (k = 0; k < nm; k++)
		if (isfinite(offs[k])) {
			r = offs[k] - om - slope * ((double)m[k].t_ns - tm);
			ss += r * r;
			tol = (double)m[k].half_ns + maxhalf + 2 * period_ns + SLACK_NS;
			if (fabs(r) - tol > *worst)
				*worst = fabs(r) - tol;
		}
	*rms = n > 1 + (slope != 0) ? sqrt(ss / (double)(n - 1 - (slope != 0))) : 0;
	/* the edge shows at the first reading at its new level: half a period late on average */
	out->offset_s = (om - period_ns / 2) / 1e9;
	out->drift_ppm = b ? b * 1e6 : NAN;
}

void el_marker_align(const struct el_logic *l, const struct el_mark *marks, size_t nmarks,
		     int input, struct el_align *out)
{
	double *offs, *best_offs, dist, best_dist = INFINITY, rms, worst, p, uh = 0, u, span;
	double lo = INFINITY, hi = -INFINITY;
	unsigned n, best = 0;
	int c;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->input = -1;
	out->offset_s = out->u95_s = out->drift_ppm = NAN;
	if (!nmarks) {
		snprintf(out->why, sizeof(out->why), "no marker edges (--mark-gpio drove none)");
		return;
	}
	if (!l || !l->have) {
		snprintf(out->why, sizeof(out->why),
			 "the meter's readings carry no digital inputs (a PPK2's do)");
		return;
	}
	offs = xcalloc(nmarks, sizeof(*offs));
	best_offs = xcalloc(nmarks, sizeof(*best_offs));
	for (c = input < 0 ? 0 : input; c < (input < 0 ? EL_LOGIC_INPUTS : input + 1); c++) {
		/* an input that toggles on its own is not the marker's, unless named */
		if (input < 0 && l->extra[c])
			continue;
		n = pair_input(l, c, marks, nmarks, offs, &dist);
		if (n > best || (n == best && n && dist < best_dist)) {
			best = n;
			best_dist = dist;
			out->input = c;
			memcpy(best_offs, offs, nmarks * sizeof(*offs));
		}
	}
	if (!best) {
		if (input >= 0)
			snprintf(out->why, sizeof(out->why),
				 "no edge on D%d pairs with the marker's (%u edges seen there): "
				 "is the marker wired to it?", input, l->n[input] + l->extra[input]);
		else
			snprintf(out->why, sizeof(out->why),
				 "no edge on the meter's digital inputs pairs with the marker's: is "
				 "the marker wired to one (D0-D7, common ground)?");
		out->input = input;
		goto done;
	}
	p = (double)l->period_ns;
	out->edges = best;
	fit_pairs(marks, best_offs, nmarks, p, out, &rms, &worst);
	if (worst > 0) {
		snprintf(out->why, sizeof(out->why),
			 "the marker's %u edges on D%d disagree: one lies %.3g ms beyond what the "
			 "set calls, the sample period and %.1f ms of wander allow", best,
			 out->input, worst / 1e6, SLACK_NS / 1e6);
		goto done;
	}
	for (k = 0; k < nmarks; k++)
		if (isfinite(best_offs[k])) {
			uh += pow((double)marks[k].half_ns, 2) / 3;
			lo = fmin(lo, (double)marks[k].t_ns);
			hi = fmax(hi, (double)marks[k].t_ns);
		}
	span = hi - lo;
	/* each edge: anywhere within its set call, a period's rounding; the pairs' scatter */
	u = sqrt(uh / best / best + p * p / 12 / best + rms * rms / best);
	out->u95_s = 2 * u / 1e9;
	/* one offset for the whole span: a drift moves the ends half of it away */
	if (isfinite(out->drift_ppm))
		out->u95_s += fabs(out->drift_ppm) * 1e-6 * span / 2 / 1e9;
	out->ok = 1;
done:
	if (!out->ok) {
		out->offset_s = out->u95_s = out->drift_ppm = NAN;
		out->edges = best;
	}
	free(offs);
	free(best_offs);
}
