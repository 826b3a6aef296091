/* SPDX-License-Identifier: MIT */
/* Each power and efficiency figure's expanded uncertainty, from its phases' parts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "energy/estimator.h"
#include "energy/uncertainty.h"

#define J_PER_MWH 3.6
#define MA_PER_A 1e3
#define UJ_PER_J 1e6
#define DOMINANT_LEN 160
#define SQRT3 1.7320508075688772

/* Standard uncertainties (k = 1) of one figure, absolute, in its unit. */
struct unc_budget {
	double gain, offset, resolution, noise, discretisation, baseline, sampling;
	int known;
	int unseen; /* the sampling term says the activity's energy cannot be known */
};

/*
 * A figure that is a linear combination of phase integrals of one quantity:
 * sum over phases of coef[p] x integral[p][ch]. Errors that are the same all run (gain,
 * offset) add with their signs, so an offset cancels in an energy net of idle; the rest
 * add in quadrature. The idle phase's random parts are the `baseline` term when the
 * figure also draws on another phase.
 */
static void unc_combine(const struct energy_phases *es, int ch, const double coef[PHASE_COUNT],
			struct unc_budget *b)
{
	int p, phases = 0, others = 0;
	double res2 = 0, noise2 = 0, disc2 = 0, base2 = 0, samp2 = 0, c, r2;

	memset(b, 0, sizeof(*b));
	b->known = 1;
	for (p = 0; p < PHASE_COUNT; p++) {
		if (coef[p] != 0) {
			phases++;
			others += p != PHASE_IDLE;
		}
	}
	for (p = 0; p < PHASE_COUNT; p++) {
		const struct unc_terms *t = &es->unc[p][ch];

		c = coef[p];
		/* a phase of no length (tail_max=0) adds nothing, known or not */
		if (c == 0 || (!t->known && !(es->span_s[p][ch] > 0)))
			continue;
		if (!isfinite(c) || !t->known) {
			b->known = 0;
			continue;
		}
		b->gain += c * t->gain;
		b->offset += c * t->offset;
		r2 = c * c * (t->res_sys * t->res_sys + t->res_rand2);
		if (p == PHASE_IDLE && others) {
			base2 += r2 + c * c * (t->noise2 + t->disc2);
			continue;
		}
		res2 += r2;
		noise2 += c * c * t->noise2;
		disc2 += c * c * t->disc2;
		if (p == PHASE_ACTIVE && isnan(es->sampling_u[ch]))
			b->unseen = 1;
		else if (p == PHASE_ACTIVE)
			samp2 += c * c * es->sampling_u[ch] * es->sampling_u[ch];
	}
	b->gain = fabs(b->gain);
	b->offset = fabs(b->offset);
	b->resolution = sqrt(res2);
	b->noise = sqrt(noise2);
	b->discretisation = sqrt(disc2);
	b->baseline = sqrt(base2);
	b->sampling = sqrt(samp2);
	if (!phases)
		b->known = 0;
}

/* sqrt of the sum of squares; NAN when not known. */
static double unc_standard(const struct unc_budget *b)
{
	if (!b->known || b->unseen)
		return NAN;
	return sqrt(b->gain * b->gain + b->offset * b->offset + b->resolution * b->resolution +
		    b->noise * b->noise + b->discretisation * b->discretisation +
		    b->baseline * b->baseline + b->sampling * b->sampling);
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* U95 of a phase mean (W, A or V over one phase) in `scale` units of the mean. */
static double mean_u95(const struct energy_phases *es, int phase, int ch, double scale,
		       struct unc_budget *b)
{
	double coef[PHASE_COUNT] = { 0 };

	coef[phase] = ratio(scale, es->span_s[phase][ch]);
	if (!isfinite(coef[phase]))
		return NAN;
	unc_combine(es, ch, coef, b);
	return UNC_K * unc_standard(b);
}

static double sum_u95(const struct energy_phases *es, int ch, const double coef[PHASE_COUNT],
		      double scale, struct unc_budget *b)
{
	double c[PHASE_COUNT];
	int p;

	for (p = 0; p < PHASE_COUNT; p++)
		c[p] = coef[p] * scale;
	unc_combine(es, ch, c, b);
	return UNC_K * unc_standard(b);
}

/* The u95 of a figure that is value = k / base, from base's u95: same relative size. */
static double rel_u95(double value, double base, double base_u95)
{
	return fabs(value) * ratio(base_u95, fabs(base));
}

/* The budget behind the headline, in the figure's relative terms. */
struct headline {
	const char *figure;
	double value, u95;
	struct unc_budget b; /* absolute, in the unit of `unit_value` */
	double unit_value;   /* the figure the budget is absolute in (J, A...) */
	int ch, phase;	     /* the quantity and phase whose readings the terms describe */
};

static void pick(struct headline *h, const char *figure, double value, double u95,
		 const struct unc_budget *b, double unit_value, int ch, int phase)
{
	if (h->figure || !isfinite(value) || value == 0)
		return;
	h->figure = figure;
	h->value = value;
	h->u95 = u95;
	h->b = *b;
	h->unit_value = unit_value;
	h->ch = ch;
	h->phase = phase;
}

/* "61 mW", "0.4 mA", "5.02 V": three significant digits with an SI prefix. */
static void fmt_si(double x, const char *unit, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *prefix;
	} pfx[] = { { 1, "" }, { 1e-3, "m" }, { 1e-6, "u" }, { 1e-9, "n" } };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pfx) - 1; i++)
		if (fabs(x) >= pfx[i].scale * (1 - 1e-9))
			break;
	snprintf(buf, len, "%.3g %s%s", x / pfx[i].scale, pfx[i].prefix, unit);
}

static const char *const ch_unit[UNC_CH_COUNT] = { "V", "A", "W" };

/* The declared gain of a quantity at a current, as the datasheet's percentage. */
static double gain_pct(const struct meter_accuracy *acc, int ch, double amps)
{
	const struct meter_acc_q *qa;
	double ga, gv;

	if (!acc)
		return NAN;
	qa = accuracy_current(acc, amps);
	ga = isfinite(qa->gain) ? qa->gain : 0;
	gv = isfinite(acc->v.gain) ? acc->v.gain : 0;
	if (ch == UNC_V)
		return gv * 100;
	if (ch == UNC_A)
		return ga * 100;
	return (isfinite(acc->w.gain) ? acc->w.gain : hypot(ga, gv)) * 100;
}

/* The largest term of the budget, in words a user can act on. */
static void dominant_text(const struct energy_phases *es, const struct result_power *p,
			  const struct headline *h, const struct unc_naming *nm, char *buf,
			  size_t len)
{
	const struct unc_terms *t = &es->unc[h->phase][h->ch];
	const double parts[] = { h->b.gain, h->b.offset, h->b.resolution, h->b.noise,
				 h->b.discretisation, h->b.baseline, h->b.sampling };
	double span = es->span_s[h->phase][h->ch], mean = 0, best = -1;
	const char *model = nm && nm->model && *nm->model ? nm->model : "meter";
	const char *unit = ch_unit[h->ch];
	char a[32], m[32];
	size_t i, k = 0;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (parts[i] > best) {
			best = parts[i];
			k = i;
		}
	}
	if (h->ch == UNC_W)
		mean = h->phase == PHASE_IDLE ? p->idle_w : p->active_w;
	else if (h->ch == UNC_A)
		mean = p->active_ma / MA_PER_A;
	else
		mean = p->active_v;
	fmt_si(mean, unit, m, sizeof(m));
	switch (k) {
	case 0:
		snprintf(buf, len, "%s gain %.2g %% of reading", model,
			 gain_pct(nm ? nm->acc : NULL, h->ch, p->active_ma / MA_PER_A));
		break;
	case 1:
		fmt_si(ratio(t->offset, span) * SQRT3, unit, a, sizeof(a));
		snprintf(buf, len, "%s offset %s at %s mean", model, a, m);
		break;
	case 2:
		fmt_si(t->step, unit, a, sizeof(a));
		snprintf(buf, len, "%s resolution %s at %s mean", model, a, m);
		break;
	case 3:
		snprintf(buf, len, "%s noise over %llu readings at %s mean", model,
			 (unsigned long long)es->samples[h->phase], m);
		break;
	case 4:
		snprintf(buf, len, "time discretisation: one reading every %.3g s while %s changed",
			 nm ? (double)nm->period_ns / 1e9 : NAN, h->ch == UNC_W ? "power" : "it");
		break;
	case 5:
		if (es->idle_readings)
			snprintf(buf, len, "idle baseline: %llu quiet readings (%llu excluded) over "
				 "%.3g s", (unsigned long long)es->idle_quiet,
				 (unsigned long long)es->idle_excluded, es->idle_s);
		else
			snprintf(buf, len, "idle baseline: %llu readings over %.3g s",
				 (unsigned long long)es->samples[PHASE_IDLE], es->idle_s);
		break;
	default:
		snprintf(buf, len, "%s", es->sampling_why ? es->sampling_why : "sampling");
		break;
	}
}

static void fill_budget(const struct headline *h, struct result_unc_budget *rb)
{
	double s = fabs(h->unit_value);

	rb->gain = ratio(h->b.gain, s);
	rb->offset = ratio(h->b.offset, s);
	rb->resolution = ratio(h->b.resolution, s);
	rb->noise = ratio(h->b.noise, s);
	rb->discretisation = ratio(h->b.discretisation, s);
	rb->baseline = ratio(h->b.baseline, s);
	rb->sampling = h->b.unseen ? NAN : ratio(h->b.sampling, s);
}

static void judge(const struct energy_phases *es, const struct result_power *p,
		  const struct headline *h, const struct unc_naming *nm, double limit,
		  struct result_validity *v)
{
	struct result_uncertainty *u = xcalloc(1, sizeof(*u));
	char dom[DOMINANT_LEN];

	free(v->uncertainty);
	v->uncertainty = u;
	u->limit = limit;
	u->u95_rel = NAN;
	fill_budget(h, &u->budget);
	if (!h->figure) {
		u->u95_rel = NAN;
		return;
	}
	u->figure = xstrdup(h->figure);
	u->u95_rel = ratio(h->u95, fabs(h->value));
	/* The meter may have missed the activity altogether: not known, and so not within
	 * any limit (energy_validity's caller also makes the job not valid). */
	if (h->b.known && h->b.unseen) {
		u->dominant = xstrdup(es->sampling_why ? es->sampling_why : "sampling: aliased");
		v->uncertain = 1;
		return;
	}
	if (!h->b.known) {
		u->dominant = xstrdup("meter accuracy not declared by its driver");
		return;
	}
	dominant_text(es, p, h, nm, dom, sizeof(dom));
	u->dominant = xstrdup(dom);
	v->uncertain = isfinite(u->u95_rel) && u->u95_rel > limit;
}

/* Budgets the headline may be drawn from. */
struct budgets {
	struct unc_budget active_ma, work_j, active_j, charge;
};

/* A figure that could not be computed has no uncertainty either. */
static void only_if(double value, double *u95)
{
	if (!isfinite(value))
		*u95 = NAN;
}

static void power_u95(const struct energy_phases *es, struct result_power *p, struct budgets *bs)
{
	double work[PHASE_COUNT], net[PHASE_COUNT], tailnet[PHASE_COUNT];
	double active[PHASE_COUNT] = { 0, 1, 0 }, tail[PHASE_COUNT] = { 0, 0, 1 };
	struct unc_budget b;

	p->idle_w_u95 = mean_u95(es, PHASE_IDLE, UNC_W, 1, &b);
	p->active_w_u95 = mean_u95(es, PHASE_ACTIVE, UNC_W, 1, &b);
	p->active_ma_u95 = mean_u95(es, PHASE_ACTIVE, UNC_A, MA_PER_A, &bs->active_ma);
	p->active_v_u95 = mean_u95(es, PHASE_ACTIVE, UNC_V, 1, &b);
	p->energy_active_j_u95 = sum_u95(es, UNC_W, active, 1, &bs->active_j);
	p->energy_tail_j_u95 = sum_u95(es, UNC_W, tail, 1, &b);
	energy_tail_net_coef(es, tailnet);
	p->energy_tail_net_j_u95 = sum_u95(es, UNC_W, tailnet, 1, &b);
	energy_net_coef(es, net);
	p->energy_net_j_u95 = sum_u95(es, UNC_W, net, 1, &b);
	p->charge_mah_u95 = sum_u95(es, UNC_A, active, 1 / J_PER_MWH, &bs->charge);
	energy_work_coef(es, work);
	sum_u95(es, UNC_W, work, 1, &bs->work_j);
	only_if(p->idle_w, &p->idle_w_u95);
	only_if(p->active_w, &p->active_w_u95);
	only_if(p->active_ma, &p->active_ma_u95);
	only_if(p->active_v, &p->active_v_u95);
	only_if(p->energy_active_j, &p->energy_active_j_u95);
	only_if(p->energy_tail_j, &p->energy_tail_j_u95);
	only_if(p->energy_tail_net_j, &p->energy_tail_net_j_u95);
	only_if(p->energy_net_j, &p->energy_net_j_u95);
	only_if(p->charge_mah, &p->charge_mah_u95);
}

static void efficiency_u95(const struct energy_phases *es, uint64_t bytes, uint64_t ios,
			   const struct result_power *p, const struct budgets *bs,
			   struct result_efficiency *e)
{
	double net[PHASE_COUNT], work_u95 = UNC_K * unc_standard(&bs->work_j), net_u95;
	struct unc_budget b;

	energy_net_coef(es, net);
	net_u95 = sum_u95(es, UNC_W, net, 1, &b);
	e->iops_per_ma_u95 = rel_u95(e->iops_per_ma, p->active_ma, p->active_ma_u95);
	e->iops_per_w_u95 = rel_u95(e->iops_per_w, p->active_w, p->active_w_u95);
	e->mbps_per_w_u95 = rel_u95(e->mbps_per_w, p->active_w, p->active_w_u95);
	e->j_per_gb_u95 = bytes ? work_u95 / ((double)bytes / 1e9) : NAN;
	e->j_per_gb_net_u95 = bytes ? net_u95 / ((double)bytes / 1e9) : NAN;
	e->uj_per_io_u95 = ios ? work_u95 * UJ_PER_J / (double)ios : NAN;
	e->uah_per_io_u95 = rel_u95(e->uah_per_io, p->charge_mah, p->charge_mah_u95);
	e->uah_per_mb_u95 = rel_u95(e->uah_per_mb, p->charge_mah, p->charge_mah_u95);
	only_if(e->j_per_gb, &e->j_per_gb_u95);
	only_if(e->j_per_gb_net, &e->j_per_gb_net_u95);
	only_if(e->uj_per_io, &e->uj_per_io_u95);
}

/* Below this share of the active energy a job's energy above idle is judged nothing: a
 * load at idle's level (a constant current) whose difference is rounding. */
#define NET_JUDGED_MIN_SHARE ESTIMATOR_NET_MIN_SHARE

/*
 * A job's energy above idle is a headline figure too (what its I/O cost): where it is
 * known less well than the figure picked, it is the one judged. Only for a job that did
 * I/O and drew more than idle by at least NET_JUDGED_MIN_SHARE of its active energy.
 */
static void net_judged(const struct energy_phases *es, uint64_t ios, const struct result_power *p,
		       struct headline *h)
{
	double net[PHASE_COUNT], u95;
	struct unc_budget b;
	struct headline hn;

	if (!ios || !h->figure || !(p->energy_net_j > NET_JUDGED_MIN_SHARE * p->energy_active_j))
		return;
	energy_net_coef(es, net);
	u95 = sum_u95(es, UNC_W, net, 1, &b);
	if (isfinite(h->u95) && !(u95 / p->energy_net_j > h->u95 / fabs(h->value)))
		return;
	memset(&hn, 0, sizeof(hn));
	pick(&hn, "energy_net_j", p->energy_net_j, u95, &b, p->energy_net_j, UNC_W, PHASE_ACTIVE);
	if (isfinite(u95) || b.unseen)
		*h = hn;
}

void uncertainty_fill(const struct energy_phases *es, uint64_t bytes, uint64_t ios,
		      const struct unc_naming *nm, double limit, struct result_power *p,
		      struct result_efficiency *e, struct result_validity *v)
{
	double work[PHASE_COUNT];
	struct budgets bs;
	struct headline h;

	memset(&h, 0, sizeof(h));
	power_u95(es, p, &bs);
	efficiency_u95(es, bytes, ios, p, &bs, e);
	energy_work_coef(es, work);
	pick(&h, "j_per_gb", e->j_per_gb, e->j_per_gb_u95, &bs.work_j,
	     energy_combined(es, p, work), UNC_W, PHASE_ACTIVE);
	pick(&h, "iops_per_ma", e->iops_per_ma, e->iops_per_ma_u95, &bs.active_ma, p->active_ma,
	     UNC_A, PHASE_ACTIVE);
	pick(&h, "energy_active_j", p->energy_active_j, p->energy_active_j_u95, &bs.active_j,
	     p->energy_active_j, UNC_W, PHASE_ACTIVE);
	pick(&h, "charge_mah", p->charge_mah, p->charge_mah_u95, &bs.charge, p->charge_mah,
	     UNC_A, PHASE_ACTIVE);
	net_judged(es, ios, p, &h);
	judge(es, p, &h, nm, limit, v);
}

/* An idle verdict's reason: up to 4 figures and 2 counts in a sentence. */
#define IDLE_REASON_LEN 256
/* Below this relative difference idle and active are the same level. */
#define IDLE_EQUAL_REL 1e-9

/* The reasons before what the uncertainty judged: "REASONS; largest term: DOMINANT". */
static void idle_uncertain(struct result_validity *v, const char *reasons)
{
	struct result_uncertainty *u = v->uncertainty;
	char buf[2 * IDLE_REASON_LEN + DOMINANT_LEN + 32];

	v->uncertain = 1;
	if (!u)
		return;
	snprintf(buf, sizeof(buf), "%s%s%s", reasons, u->dominant ? "; largest term: " : "",
		 u->dominant ? u->dominant : "");
	free(u->dominant);
	u->dominant = xstrdup(buf);
}

/* The first reason is the record's; every one goes to the verdict's words. */
static void idle_reason(struct result_power *p, char *all, size_t len, const char *reason)
{
	size_t used = strlen(all);

	if (p->idle_baseline && !p->idle_baseline->reason)
		p->idle_baseline->reason = xstrdup(reason);
	snprintf(all + used, len - used, "%s%s", used ? "; " : "", reason);
}

/* Idle above active: within the U95 of their difference uncertain (into why), beyond it
 * not valid. */
static void idle_above_active(const struct energy_phases *es, struct result_power *p,
			      struct result_validity *v, char *why, size_t len)
{
	double coef[PHASE_COUNT] = { 0 }, d, u95 = NAN;
	struct unc_budget b;
	char reason[IDLE_REASON_LEN];

	/* Equal levels (a constant load) differ by rounding only: not above. */
	if (!(p->idle_w - p->active_w > IDLE_EQUAL_REL * fabs(p->active_w)) ||
	    !isfinite(p->active_w))
		return;
	/* The U95 of active_w - idle_w: gain and offset largely cancel in it. */
	coef[PHASE_IDLE] = -ratio(1, es->span_s[PHASE_IDLE][UNC_W]);
	coef[PHASE_ACTIVE] = ratio(1, es->span_s[PHASE_ACTIVE][UNC_W]);
	d = p->idle_w - p->active_w;
	if (isfinite(coef[PHASE_IDLE]) && isfinite(coef[PHASE_ACTIVE])) {
		unc_combine(es, UNC_W, coef, &b);
		u95 = UNC_K * unc_standard(&b);
	}
	if (!isfinite(u95) || d <= u95) {
		if (isfinite(u95))
			snprintf(reason, sizeof(reason),
				 "idle %.4g W above active %.4g W by %.2g W, within their "
				 "difference's +-%.2g W: the net figures' sign is not known",
				 p->idle_w, p->active_w, d, u95);
		else
			snprintf(reason, sizeof(reason),
				 "idle %.4g W above active %.4g W by %.2g W, their difference's "
				 "uncertainty not known: the net figures' sign is not known",
				 p->idle_w, p->active_w, d);
		idle_reason(p, why, len, reason);
		return;
	}
	snprintf(reason, sizeof(reason),
		 "idle %.4g W above active %.4g W by %.2g W, beyond their difference's +-%.2g W: "
		 "not this device's idle (%llu of %llu readings excluded)",
		 p->idle_w, p->active_w, d, u95, (unsigned long long)es->idle_excluded,
		 (unsigned long long)es->idle_readings);
	if (p->idle_baseline && !p->idle_baseline->reason)
		p->idle_baseline->reason = xstrdup(reason);
	v->valid = 0;
	result_validity_add(v, reason);
}

void uncertainty_idle_judge(const struct energy_phases *es, unsigned need,
			    struct result_power *p, struct result_validity *v)
{
	char reason[IDLE_REASON_LEN], why[2 * IDLE_REASON_LEN] = "";

	if (es->idle_readings && es->idle_excluded && es->idle_quiet < need) {
		if (es->idle_all)
			snprintf(reason, sizeof(reason),
				 "idle baseline: no quiet reading in %.1f s (the target did I/O "
				 "throughout): its level is over all %llu readings", es->idle_s,
				 (unsigned long long)es->idle_readings);
		else
			snprintf(reason, sizeof(reason),
				 "idle baseline: %llu quiet readings (< %u) in %.1f s, %llu excluded: "
				 "the target did I/O", (unsigned long long)es->idle_quiet, need,
				 es->idle_s, (unsigned long long)es->idle_excluded);
		idle_reason(p, why, sizeof(why), reason);
	}
	idle_above_active(es, p, v, why, sizeof(why));
	if (*why)
		idle_uncertain(v, why);
}

void uncertainty_disagreement(struct result_validity *v, const char *why)
{
	struct result_uncertainty *u = v->uncertainty;
	char *lead;

	v->uncertain = 1;
	if (!u)
		return;
	/* without a known interval its "largest term" is only why none is known */
	lead = u->dominant && isfinite(u->u95_rel)
		       ? xasprintf("%s; largest term: %s", why, u->dominant)
		       : xstrdup(why);
	free(u->dominant);
	u->dominant = lead;
}
