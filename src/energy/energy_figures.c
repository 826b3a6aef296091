/* SPDX-License-Identifier: MIT */
/* A job's figures over its phases' integrals: the energies they combine, efficiency, validity. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "energy/energy.h"

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/*
 * A figure per mA or per W: known whenever the current or power is, whatever its sign. A
 * sleep current at a meter's offset averages a few nA below zero; hiding IOPS/mA then
 * (as ratio() did) hid a known figure. Undefined only at exactly 0 or unknown.
 */
static double per(double num, double den)
{
	return den != 0 && isfinite(den) ? num / den : NAN;
}

/*
 * The idle power is the idle integral over the time W was known in it, so "idle_w x T"
 * is that integral times T / that time. A phase of no length subtracts nothing, even
 * without an idle phase.
 */
static double idle_times(const struct energy_phases *es, double t_s)
{
	return t_s > 0 ? -ratio(t_s, es->span_s[PHASE_IDLE][UNC_W]) : 0;
}

void energy_tail_net_coef(const struct energy_phases *es, double coef[PHASE_COUNT])
{
	coef[PHASE_IDLE] = idle_times(es, es->tail_s);
	coef[PHASE_ACTIVE] = 0;
	coef[PHASE_TAIL] = 1;
}

/* The tail's idle share is what the drive draws anyway: only what it spent above idle
 * after the last I/O belongs to the work (docs/energy.md). */
void energy_work_coef(const struct energy_phases *es, double coef[PHASE_COUNT])
{
	energy_tail_net_coef(es, coef);
	coef[PHASE_ACTIVE] = 1;
}

void energy_net_coef(const struct energy_phases *es, double coef[PHASE_COUNT])
{
	energy_work_coef(es, coef);
	coef[PHASE_IDLE] = idle_times(es, es->tail_s + es->active_s);
}

double energy_combined(const struct energy_phases *es, const struct result_power *p,
		       const double coef[PHASE_COUNT])
{
	/* idle: its integral over the time W was known, which is what idle_w averages */
	const double e[PHASE_COUNT] = { p->idle_w * es->span_s[PHASE_IDLE][UNC_W],
					p->energy_active_j, p->energy_tail_j };
	double sum = 0;
	int ph;

	for (ph = 0; ph < PHASE_COUNT; ph++)
		if (coef[ph] != 0)
			sum += coef[ph] * e[ph];
	return sum;
}

void efficiency_compute(const struct energy_phases *es, const struct result_power *p,
			uint64_t bytes, uint64_t ios, struct result_efficiency *e)
{
	double iops = ios ? ratio((double)ios, es->active_s) : NAN;
	double mbps = bytes ? ratio((double)bytes / 1e6, es->active_s) : NAN;
	double gb = (double)bytes / 1e9;
	double work[PHASE_COUNT], work_j;

	energy_work_coef(es, work);
	work_j = energy_combined(es, p, work);
	double charge_uah = p->charge_mah * 1e3;

	e->iops_per_ma = per(iops, p->active_ma);
	e->iops_per_w = per(iops, p->active_w);
	e->mbps_per_w = per(mbps, p->active_w);
	e->j_per_gb = bytes ? work_j / gb : NAN;
	e->j_per_gb_net = bytes ? p->energy_net_j / gb : NAN;
	e->uj_per_io = ios ? work_j * 1e6 / (double)ios : NAN;
	e->uah_per_io = ios ? charge_uah / (double)ios : NAN;
	e->uah_per_mb = bytes ? charge_uah / ((double)bytes / 1e6) : NAN;
}

/* Reasons are short but carry their numbers, so a longer line is a bug, not truncation. */
#define REASON_MAX 200
#define DEFAULT_REMEDY "raise size or loops"

int energy_validity(const struct energy_phases *es, unsigned min_samples, double min_coverage,
		    const char *remedy, struct result_validity *v)
{
	static const char *const phase_names[PHASE_COUNT] = { "idle", "active", "tail" };
	char reason[REASON_MAX];
	int valid = 1, i;
	double gap_s;

	v->coverage = es->coverage;
	v->samples_active = es->samples_active;
	gap_s = isfinite(es->coverage) && es->active_s > 0 ? es->active_s * (1 - es->coverage) : 0;
	if (es->samples_active < min_samples && es->period_ns &&
	    gap_s * 1e9 >= 2.0 * (double)es->period_ns) {
		/* Too few samples because the meter went quiet (a stall, a disconnect): the
		 * job's length was not the problem, the gap was. */
		snprintf(reason, sizeof(reason),
			 "active phase has %" PRIu64 " samples (< %u): the meter gave none for "
			 "%.1f s of it (a stall or disconnect, about %.0f samples lost)",
			 es->samples_active, min_samples, gap_s,
			 floor(gap_s * 1e9 / (double)es->period_ns));
		result_validity_add(v, reason);
		valid = 0;
	} else if (es->samples_active < min_samples) {
		if (es->period_ns)
			snprintf(reason, sizeof(reason),
				 "active phase has %" PRIu64 " samples (< %u): at %.3g Hz a job "
				 "needs >= %.3g s; %s",
				 es->samples_active, min_samples, 1e9 / (double)es->period_ns,
				 (double)min_samples * (double)es->period_ns / 1e9,
				 remedy ? remedy : DEFAULT_REMEDY);
		else
			snprintf(reason, sizeof(reason),
				 "active phase has %" PRIu64 " samples (< %u); %s",
				 es->samples_active, min_samples, remedy ? remedy : DEFAULT_REMEDY);
		result_validity_add(v, reason);
		valid = 0;
	}
	if (!(es->coverage >= min_coverage)) {
		snprintf(reason, sizeof(reason),
			 "meter covered %.1f %% of the active phase (< %.0f %%): gaps longer "
			 "than 2 periods or samples missing at its ends",
			 isfinite(es->coverage) ? es->coverage * 100 : 0.0, min_coverage * 100);
		result_validity_add(v, reason);
		valid = 0;
	}
	for (i = 0; i < PHASE_COUNT; i++) {
		if (!es->losses[i])
			continue;
		snprintf(reason, sizeof(reason),
			 "meter samples lost %" PRIu64 " time(s) in the %s phase (ring full or "
			 "the device dropped them)", es->losses[i], phase_names[i]);
		result_validity_add(v, reason);
		valid = 0;
	}
	for (i = 0; i < PHASE_COUNT; i++) {
		if (!es->out_of_range[i])
			continue;
		snprintf(reason, sizeof(reason),
			 "%" PRIu64 " meter reading(s) in the %s phase could not be true (out "
			 "of the meter's range, or W not V x A) and were dropped: see the events",
			 es->out_of_range[i], phase_names[i]);
		result_validity_add(v, reason);
		valid = 0;
	}
	v->valid = valid;
	return valid;
}
