/* SPDX-License-Identifier: MIT */
/* A job's report: phase windows, overlapping events, power, efficiency and validity per meter. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "result/result.h"
#include "run/run.h"

/* Headroom on the size that would just give enough samples at the measured throughput. */
#define SIZE_HEADROOM 1.25
#define REASON_MAX 256

static struct report_span *span_new(uint64_t t0, uint64_t t1)
{
	struct report_span *s = xcalloc(1, sizeof(*s));

	s->t_start_ns = t0;
	s->t_end_ns = t1;
	return s;
}

static void set_span(struct report_span **at, uint64_t t0, uint64_t t1)
{
	free(*at);
	*at = span_new(t0, t1);
}

/* Does [a0, a1] overlap an event? Undervoltage spans run to their END event. */
static void event_span(const struct run_ctx *rc, size_t i, uint64_t *t0, uint64_t *t1)
{
	const struct run_event *ev = &rc->events[i];
	size_t j;

	*t0 = ev->t_ns;
	*t1 = ev->t_end_ns ? ev->t_end_ns : ev->t_ns;
	if (ev->kind != EV_UNDERVOLTAGE || ev->t_end_ns)
		return;
	for (j = i + 1; j < rc->nevents; j++) {
		if (rc->events[j].kind == EV_UNDERVOLTAGE_END &&
		    !strcmp(rc->events[j].source, ev->source)) {
			*t1 = rc->events[j].t_ns;
			return;
		}
	}
	*t1 = UINT64_MAX; /* still under-voltage */
}

static void event_copy(struct report_event *out, const struct run_event *ev)
{
	out->t_ns = ev->t_ns;
	out->t_end_ns = ev->t_end_ns;
	out->kind = ev->kind;
	out->source = xstrdup(ev->source);
	out->text = xstrdup(ev->text);
}

/* Attach overlapping events to the job; returns how many invalidate the active phase. */
static unsigned job_events(struct run_ctx *rc, struct job_report *j, const struct run_times *t,
			   char *why, size_t whylen)
{
	unsigned bad = 0;
	uint64_t e0, e1;
	size_t i;

	j->events = xcalloc(rc->nevents + 1, sizeof(*j->events));
	for (i = 0; i < rc->nevents; i++) {
		const struct run_event *ev = &rc->events[i];

		event_span(rc, i, &e0, &e1);
		if (e1 < t->idle_ns || e0 > t->tail_end_ns)
			continue;
		event_copy(&j->events[j->nevents++], ev);
		if (event_invalidates(ev->kind) && e1 >= t->active_ns && e0 <= t->end_ns) {
			if (!bad)
				snprintf(why, whylen, "%s during the active phase at +%.1f s (%s: %s)",
					 event_kind_name(ev->kind),
					 (double)(ev->t_ns > t->active_ns ? ev->t_ns - t->active_ns : 0) /
						 1e9,
					 ev->source, ev->text);
			bad++;
		}
	}
	return bad;
}

/*
 * "raise size or loops" is more use with a number: the size that would give the meter
 * enough samples at the throughput this job just had (a quarter to spare, rounded up to a
 * power of two MiB so it reads well and stays a multiple of power-of-two block sizes).
 */
static const char *size_remedy(const struct job_opts *jo, const struct energy_summary *es,
			       char *buf, size_t len)
{
	double need_s = (double)ENERGY_MIN_SAMPLES * (double)es->period_ns / 1e9;
	uint64_t want, size_mib = 1;

	if (!jo || !(es->active_s > 0) || !es->period_ns)
		return NULL;
	want = (uint64_t)((double)jo->size * need_s / es->active_s * SIZE_HEADROOM);
	while (size_mib * MIB < want && size_mib < (1ull << 30))
		size_mib <<= 1;
	want = size_mib * MIB;
	if (want % jo->bs)
		want += jo->bs - want % jo->bs;
	if (!(want % GIB))
		snprintf(buf, len, "try --size %" PRIu64 "G or loops", (uint64_t)(want / GIB));
	else if (want % MIB)
		snprintf(buf, len, "try --size %" PRIu64 " or loops", want);
	else
		snprintf(buf, len, "try --size %" PRIu64 "M or loops", (uint64_t)(want / MIB));
	return buf;
}

/* One meter's power, efficiency and validity for the job. */
static void meter_figures(struct run_ctx *rc, struct run_meter *rm, const struct job_opts *jo,
			  const struct run_io *io, const char *why, struct report_meter_figures *f)
{
	const struct meter_info *in = meter_info(rm->dev);
	struct energy_summary es;
	struct efficiency ef;
	char remedy[64];

	energy_summarize(&rm->ej, &es);
	efficiency_compute(&es, io->bytes, io->ios, &ef);
	f->spec = xstrdup(in->spec);
	energy_power_fill(&f->power, &es, in->spec);
	energy_efficiency_fill(&f->efficiency, &ef);
	f->validity.reasons = xcalloc(1, sizeof(char *));
	energy_validity(&es, ENERGY_MIN_SAMPLES, ENERGY_MIN_COVERAGE,
			/* A job that moved nothing (never started) has no throughput to size from. */
			run_should_stop(rc) || !io->bytes ? NULL
							  : size_remedy(jo, &es, remedy, sizeof(remedy)),
			&f->validity);
	if (*why) {
		f->validity.valid = 0;
		report_validity_add(&f->validity, why);
	}
	f->validity.emulated = !!in->emulated;
	f->validity.manual = !!in->manual;
}

/* power / efficiency / validity per meter; the first meter's also at the job's top level. */
static void job_energy(struct run_ctx *rc, const struct job_opts *jo, struct job_report *j,
		       const struct run_io *io, const char *why)
{
	unsigned m;

	j->meters = xcalloc(rc->nmeters, sizeof(*j->meters));
	for (m = 0; m < rc->nmeters; m++)
		meter_figures(rc, &rc->meters[m], jo, io, why, &j->meters[j->nmeters++]);
	j->power = report_power_dup(&j->meters[0].power);
	j->efficiency = report_efficiency_dup(&j->meters[0].efficiency);
	j->validity = report_validity_dup(&j->meters[0].validity);
}

static void job_marker(struct run_ctx *rc, struct job_report *j)
{
	j->marker = xcalloc(1, sizeof(*j->marker));
	j->marker->spec = xstrdup(rc->cfg->run.mark_gpio);
	j->marker->pulse_ns = rc->mark_ns[PHASE_IDLE];
	j->marker->rise_ns = rc->mark_ns[PHASE_ACTIVE];
	j->marker->fall_ns = rc->mark_ns[PHASE_TAIL];
}

static void job_temps(struct run_ctx *rc, struct job_report *j, const struct temps *t_start)
{
	struct temps now;

	sources_temps_get(rc->sources, &now);
	j->temperatures = xcalloc(1, sizeof(*j->temperatures));
	j->temperatures->soc_c = (struct report_temp){ t_start->soc_c, now.soc_c, now.soc_max_c };
	j->temperatures->drive_c =
		(struct report_temp){ t_start->drive_c, now.drive_c, now.drive_max_c };
}

void run_job_report(struct run_ctx *rc, const struct job_opts *jo, struct job_report *j,
		    const struct run_times *t, const struct run_io *io, const struct temps *t_start)
{
	char why[REASON_MAX] = "";

	if (!j->phases)
		j->phases = xcalloc(1, sizeof(*j->phases));
	set_span(&j->phases->active, t->active_ns, t->end_ns);
	if (rc->nmeters) {
		set_span(&j->phases->idle, t->idle_ns, t->active_ns);
		set_span(&j->phases->tail, t->end_ns, t->tail_end_ns);
	}
	if (rc->marker)
		job_marker(rc, j);
	job_events(rc, j, t, why, sizeof(why));
	if (rc->nmeters)
		job_energy(rc, jo, j, io, why);
	if (rc->sources)
		job_temps(rc, j, t_start);
}
