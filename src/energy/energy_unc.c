/* SPDX-License-Identifier: MIT */
/* Uncertainty sums of one phase's integrals, fed segment by segment alongside the energy. */
#include <math.h>
#include <string.h>

#include "energy/energy_unc.h"

void unc_sample_of(const struct meter_accuracy *acc, const struct meter_sample *s,
		   struct unc_sample *out)
{
	double w = s->w;

	if (!isfinite(w) && isfinite(s->v) && isfinite(s->a))
		w = s->v * s->a;
	out->x[UNC_V] = s->v;
	out->x[UNC_A] = s->a;
	out->x[UNC_W] = w;
	if (isfinite(w) && !isfinite(s->w)) {
		/* the integrator computes V x A here; so does the uncertainty */
		struct meter_sample c = *s;

		c.w = w;
		c.flags |= SAMPLE_W_COMPUTED;
		meter_sample_u(acc, &c, &out->u[UNC_V], &out->u[UNC_A], &out->u[UNC_W]);
		return;
	}
	meter_sample_u(acc, s, &out->u[UNC_V], &out->u[UNC_A], &out->u[UNC_W]);
}

static void flush(struct unc_phase *up)
{
	struct unc_sums *s;
	const struct meter_u *u;
	double w = up->pend_w_s;
	int c;

	if (!up->pend_valid)
		return;
	up->pend_valid = 0;
	for (c = 0; c < UNC_CH_COUNT; c++) {
		u = &up->pend[c];
		s = &up->ch[c];
		if (!isfinite(u->gain))
			continue;
		s->known = 1;
		s->gain += w * u->gain;
		s->offset += w * u->offset;
		s->res_lin += w * u->res;
		s->res_sq += (w * u->res) * (w * u->res);
		s->noise_sq += (w * u->noise) * (w * u->noise);
	}
}

static void pend(struct unc_phase *up, uint64_t t_ns, const struct unc_sample *smp, double w)
{
	memcpy(up->pend, smp->u, sizeof(up->pend));
	up->pend_t_ns = t_ns;
	up->pend_w_s = w;
	up->pend_valid = 1;
}

/* The random scatter two readings carry between them, which a real change is not. */
static double scatter_sq(const struct meter_u *u)
{
	return isfinite(u->noise) ? u->noise * u->noise + u->res * u->res : 0;
}

/*
 * A change at an unknown time inside a segment of length L is a rectangle of half-width
 * dX L / 2 for point readings: variance (dX L)^2 / 12. A meter that holds each value for
 * its update period rho and is read every L close to rho reads each value once: the
 * steps' timing errors then telescope (one shift of the whole series), except where the
 * poll's phase crosses an update and one value is read twice and its neighbour not, which
 * costs about dX L; over a segment the phase moves |L - rho|, so that happens with
 * probability |L - rho| / rho: variance (dX L)^2 |L - rho| / rho. The smaller of the two
 * (docs/energy.md, "time discretisation"): a 10 Hz tester's polls 2 ms off its 100 ms
 * updates leave a quarter of the point readings' variance, a 2 Hz one all of it. Near the
 * phase's ends there is no neighbour inside the phase to telescope with: the first and
 * last UNC_EDGE_SEGMENTS segments (and any a boundary cuts) count as point readings.
 */
static void discretisation(struct unc_sums *s, const struct unc_sample *s0,
			   const struct unc_sample *s1, int c, double len_in_s, double slip,
			   int edge)
{
	double dx = s1->x[c] - s0->x[c], step, real_sq, full = 0;
	unsigned i;

	if (!isfinite(dx) || !isfinite(s0->u[c].gain) || !isfinite(s1->u[c].gain))
		return;
	step = 0.5 * (s0->u[c].step + s1->u[c].step);
	s->dx_sq += dx * dx;
	s->step_sq += step * step;
	s->nseg++;
	real_sq = dx * dx - scatter_sq(&s0->u[c]) - scatter_sq(&s1->u[c]);
	if (real_sq > 0)
		full = real_sq * len_in_s * len_in_s / 12.0;
	/* the oldest of the last segments is no longer the phase's last: its own share */
	if (s->nedge == UNC_EDGE_SEGMENTS) {
		s->disc_sq += s->edge_win[0];
		for (i = 1; i < UNC_EDGE_SEGMENTS; i++) {
			s->edge_full[i - 1] = s->edge_full[i];
			s->edge_win[i - 1] = s->edge_win[i];
		}
		s->nedge--;
	}
	s->edge_full[s->nedge] = full;
	s->edge_win[s->nedge] = edge ? full : full * slip;
	s->nedge++;
}

/*
 * Over [a, b] of a segment of length len, the trapezoid of a linear X is
 * X0 * c0 + X1 * c1 with c1 = (b^2 - a^2) / (2 len) and c0 = (b - a) - c1: the exact
 * weights of the two readings, also where a phase boundary cuts the segment.
 */
void unc_segment(struct unc_phase *up, uint64_t t0_ns, const struct unc_sample *s0,
		 uint64_t t1_ns, const struct unc_sample *s1, double len_s, double a_s, double b_s)
{
	double c1 = (b_s * b_s - a_s * a_s) / (2.0 * len_s), c0 = (b_s - a_s) - c1;
	double slip = up->window_s > 0 ? fmin(12 * fabs(len_s - up->window_s) / up->window_s, 1) : 1;
	int c, edge = a_s > 0 || b_s < len_s;

	if (up->pend_valid && up->pend_t_ns != t0_ns)
		flush(up);
	if (!up->pend_valid)
		pend(up, t0_ns, s0, 0);
	up->pend_w_s += c0;
	flush(up);
	pend(up, t1_ns, s1, c1);
	for (c = 0; c < UNC_CH_COUNT; c++)
		discretisation(&up->ch[c], s0, s1, c, b_s - a_s, slip,
			       edge || up->ch[c].nseg < UNC_EDGE_SEGMENTS);
}

void unc_phase_close(struct unc_phase *up)
{
	flush(up);
}

/*
 * Quantisation averages out only when the signal moves by at least a step between
 * readings (noise or a real change dithers it): then each reading's rounding error is
 * independent of the next. A steadier signal rounds the same way every time, so the
 * error stays whole: the sum of w_i q/sqrt(12), not its root-sum-square.
 */
void unc_terms_of(const struct unc_sums *s, struct unc_terms *t)
{
	int dithered = s->nseg && s->dx_sq >= s->step_sq;
	unsigned i;

	memset(t, 0, sizeof(*t));
	t->known = s->known;
	if (!s->known)
		return;
	t->gain = s->gain;
	t->offset = s->offset;
	t->res_sys = dithered ? 0 : s->res_lin;
	t->res_rand2 = dithered ? s->res_sq : 0;
	t->noise2 = s->noise_sq;
	t->disc2 = s->disc_sq;
	for (i = 0; i < s->nedge; i++)
		t->disc2 += s->edge_full[i];
	t->step = s->nseg ? sqrt(s->step_sq / (double)s->nseg) : 0;
}
