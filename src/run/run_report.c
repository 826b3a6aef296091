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

#define VALID_MIN_SAMPLES 20
#define VALID_MIN_COVERAGE 0.95

static json_t *phase_json(uint64_t t0, uint64_t t1)
{
	return json_pack("{s:I,s:I}", "t_start_ns", (json_int_t)t0, "t_end_ns", (json_int_t)t1);
}

static json_t *temp_json(double start, double end, double max)
{
	json_t *o = json_object();

	json_object_set_new(o, "start", isnan(start) ? json_null() : json_real(start));
	json_object_set_new(o, "end", isnan(end) ? json_null() : json_real(end));
	json_object_set_new(o, "max", isnan(max) ? json_null() : json_real(max));
	return o;
}

/* Does [a0, a1] overlap an event? Undervoltage spans run to their END event. */
static int event_span(const struct run_ctx *rc, size_t i, uint64_t *t0, uint64_t *t1)
{
	const struct run_event *ev = &rc->events[i];
	size_t j;

	*t0 = ev->t_ns;
	*t1 = ev->t_end_ns ? ev->t_end_ns : ev->t_ns;
	if (ev->kind != EV_UNDERVOLTAGE || ev->t_end_ns)
		return 0;
	for (j = i + 1; j < rc->nevents; j++) {
		if (rc->events[j].kind == EV_UNDERVOLTAGE_END &&
		    !strcmp(rc->events[j].source, ev->source)) {
			*t1 = rc->events[j].t_ns;
			return 0;
		}
	}
	*t1 = UINT64_MAX; /* still under-voltage */
	return 1;
}

/* Attach overlapping events to the job; returns how many invalidate the active phase. */
static unsigned job_events(struct run_ctx *rc, json_t *entry, uint64_t t_idle, uint64_t t_active,
			   uint64_t t_end, uint64_t t_tail_end, char *why, size_t whylen)
{
	json_t *arr = json_array();
	unsigned bad = 0;
	uint64_t e0, e1;
	size_t i;

	for (i = 0; i < rc->nevents; i++) {
		const struct run_event *ev = &rc->events[i];

		event_span(rc, i, &e0, &e1);
		if (e1 < t_idle || e0 > t_tail_end)
			continue;
		json_array_append_new(
			arr, json_pack("{s:I,s:I,s:s,s:s,s:s}", "t_ns", (json_int_t)ev->t_ns,
				       "t_end_ns", (json_int_t)ev->t_end_ns, "kind",
				       event_kind_name(ev->kind), "source", ev->source, "text",
				       ev->text));
		if (event_invalidates(ev->kind) && e1 >= t_active && e0 <= t_end) {
			if (!bad)
				snprintf(why, whylen, "%s during the active phase at +%.1f s (%s: %s)",
					 event_kind_name(ev->kind),
					 (double)(ev->t_ns > t_active ? ev->t_ns - t_active : 0) / 1e9,
					 ev->source, ev->text);
			bad++;
		}
	}
	json_object_set_new(entry, "events", arr);
	return bad;
}

/*
 * "raise size or loops" is more use with a number: the size that would give the meter
 * enough samples at the throughput this job just had (a quarter to spare, rounded up to a
 * power of two MiB so it reads well and stays a multiple of power-of-two block sizes).
 */
static void suggest_size(const struct job_opts *jo, const struct energy_summary *es,
			 char *reason, size_t len)
{
	const char *tail = "raise size or loops";
	char *at = strstr(reason, tail);
	double need_s = (double)VALID_MIN_SAMPLES * (double)es->period_ns / 1e9;
	uint64_t want, size_mib = 1;

	if (!at || !jo || !(es->active_s > 0) || !es->period_ns)
		return;
	want = (uint64_t)((double)jo->size * need_s / es->active_s * 1.25);
	while (size_mib * 1048576 < want && size_mib < (1ull << 30))
		size_mib <<= 1;
	want = size_mib * 1048576;
	if (want % jo->bs)
		want += jo->bs - want % jo->bs;
	if (!(want % (1024 * 1048576ull)))
		snprintf(at, len - (size_t)(at - reason), "try --size %lluG or loops",
			 (unsigned long long)(want / (1024 * 1048576ull)));
	else if (want % 1048576)
		snprintf(at, len - (size_t)(at - reason), "try --size %llu or loops",
			 (unsigned long long)want);
	else
		snprintf(at, len - (size_t)(at - reason), "try --size %lluM or loops",
			 (unsigned long long)(want / 1048576));
}

/* power / efficiency / validity per meter; the first meter's also at the job's top level. */
static void job_energy_json(struct run_ctx *rc, const struct job_opts *jo, json_t *entry,
			    uint64_t bytes, uint64_t ios, unsigned invalid_events, const char *why)
{
	char reasons[ENERGY_MAX_REASONS + 1][160];
	struct energy_summary es;
	struct efficiency ef;
	json_t *marr = json_array();
	unsigned m, nr, r;
	int valid;

	for (m = 0; m < rc->nmeters; m++) {
		struct run_meter *rm = &rc->meters[m];
		json_t *mj, *pw, *eff, *val;

		energy_summarize(&rm->ej, &es);
		efficiency_compute(&es, bytes, ios, &ef);
		nr = 0;
		valid = energy_validity(&es, VALID_MIN_SAMPLES, VALID_MIN_COVERAGE, reasons, &nr);
		/* A job that moved nothing (never started) has no throughput to size from. */
		if (nr && bytes && !run_should_stop(rc))
			suggest_size(jo, &es, reasons[0], sizeof(reasons[0]));
		if (invalid_events) {
			valid = 0;
			snprintf(reasons[nr++], sizeof(reasons[0]), "%s", why);
		}
		pw = energy_power_json(&es, meter_info(rm->dev)->spec);
		eff = energy_efficiency_json(&ef);
		val = json_pack("{s:b,s:f,s:I,s:[],s:b,s:b}", "valid", valid,
				"coverage", isnan(es.coverage) ? 0.0 : es.coverage,
				"samples_active", (json_int_t)es.samples_active, "reasons",
				"emulated", meter_info(rm->dev)->emulated, "manual",
				meter_info(rm->dev)->manual);
		for (r = 0; r < nr; r++)
			json_array_append_new(json_object_get(val, "reasons"),
					      json_string(reasons[r]));
		mj = json_pack("{s:s,s:O,s:O,s:O}", "spec", meter_info(rm->dev)->spec, "power", pw,
			       "efficiency", eff, "validity", val);
		json_array_append_new(marr, mj);
		if (m == 0) {
			json_object_set(entry, "power", pw);
			json_object_set(entry, "efficiency", eff);
			json_object_set(entry, "validity", val);
		}
		json_decref(pw);
		json_decref(eff);
		json_decref(val);
	}
	json_object_set_new(entry, "meters", marr);
}

void run_job_report(struct run_ctx *rc, const struct job_opts *jo, json_t *entry,
		    uint64_t t_idle, uint64_t t_active, uint64_t t_end, uint64_t t_tail_end,
		    uint64_t bytes, uint64_t ios, const struct temps *t_start)
{
	json_t *phases = json_object_get(entry, "phases");
	struct temps t_now;
	unsigned bad;
	char why[256] = "";

	if (!phases) {
		phases = json_object();
		json_object_set_new(entry, "phases", phases);
	}
	json_object_set_new(phases, "active", phase_json(t_active, t_end));
	if (rc->nmeters) {
		json_object_set_new(phases, "idle", phase_json(t_idle, t_active));
		json_object_set_new(phases, "tail", phase_json(t_end, t_tail_end));
	}
	if (rc->marker)
		json_object_set_new(entry, "marker",
				    json_pack("{s:s,s:I,s:I,s:I}", "spec", rc->cfg->run.mark_gpio,
					      "pulse_ns", (json_int_t)rc->mark_ns[PHASE_IDLE],
					      "rise_ns", (json_int_t)rc->mark_ns[PHASE_ACTIVE],
					      "fall_ns", (json_int_t)rc->mark_ns[PHASE_TAIL]));
	bad = job_events(rc, entry, t_idle, t_active, t_end, t_tail_end, why, sizeof(why));
	if (rc->nmeters)
		job_energy_json(rc, jo, entry, bytes, ios, bad, why);
	if (rc->sources) {
		sources_temps_get(rc->sources, &t_now);
		json_object_set_new(entry, "temperatures",
				    json_pack("{s:o,s:o}", "soc_c",
					      temp_json(t_start->soc_c, t_now.soc_c, t_now.soc_max_c),
					      "drive_c",
					      temp_json(t_start->drive_c, t_now.drive_c,
							t_now.drive_max_c)));
	}
}
