/* SPDX-License-Identifier: MIT */
/* Building the result document as the run goes: the run's events, each job's figures. */
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/repeats.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "core/version.h"
#include "run/result_builder.h"
#include "run/result_from_bench.h"
#include "run/result_job_options.h"
#include "energy/energy_pool.h"
#include "energy/event_check.h"
#include "energy/estimator.h"
#include "energy/sampling.h"
#include "energy/uncertainty.h"
#include "sources/gpio.h"

/* Headroom on the size that would just give enough samples at the measured throughput. */
#define SIZE_HEADROOM 1.25
#define REASON_MAX 256
#define TIMES_LEN 32

static struct result_span *span_new(uint64_t t0, uint64_t t1)
{
	struct result_span *s = xcalloc(1, sizeof(*s));

	s->t_start_ns = t0;
	s->t_end_ns = t1;
	return s;
}

static void set_span(struct result_span **at, uint64_t t0, uint64_t t1)
{
	free(*at);
	*at = span_new(t0, t1);
}

void result_builder_init(struct result_builder *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->events = event_queue_new_cap(RUN_MAX_EVENTS);
}

void result_builder_free(struct result_builder *rb)
{
	result_free(&rb->rep);
	event_queue_free(rb->events);
	rb->events = NULL;
}

static void record_event(void *arg, const struct run_event *ev)
{
	struct result_builder *rb = arg;

	event_push(rb->events, ev);
	if (event_queue_dropped(rb->events) && !rb->warned_full) {
		rb->warned_full = 1;
		log_warn(NULL, "more than %d event entries in this run (each one kind from one "
			       "source in one phase): the oldest informational ones are not kept",
			 RUN_MAX_EVENTS);
	}
}

/* Each phase's events coalesce apart from the last phase's: a flood in the idle phase
 * neither counts in nor reaches into the active phase that follows. */
static void record_phase(void *arg, int phase, uint64_t t_ns)
{
	struct result_builder *rb = arg;

	(void)phase;
	(void)t_ns;
	event_queue_seal(rb->events);
}

const struct session_sink_ops result_builder_sink_ops = {
	.event = record_event,
	.phase = record_phase,
};

/* The record as an array, oldest first; caller frees. */
static struct run_event *recorded(struct result_builder *rb, size_t *n)
{
	struct run_event *evs;

	*n = event_queue_count(rb->events);
	evs = xcalloc(*n + 1, sizeof(*evs));
	*n = event_queue_peek(rb->events, 0, evs, *n);
	return evs;
}

/*
 * The end that closes an undervoltage whose last occurrence was at uv_last: the first END
 * after it when that is known (a single END, or the first of a coalesced one after it),
 * else a coalesced END's last (some END between closed it: the span may only grow). 0: this
 * END closes nothing of it. Two single events pair as they come, whatever their times.
 */
static uint64_t end_of(const struct run_event *uv, const struct run_event *end, uint64_t uv_last)
{
	if (end->t_ns >= uv_last || (event_count(uv) == 1 && event_count(end) == 1))
		return end->t_ns;
	return event_last_ns(end) >= uv_last ? event_last_ns(end) : 0;
}

/* Does evs[j] end an undervoltage of ev's source (*by: the other source that did)? */
static uint64_t ends_span(const struct run_event *ev, const struct run_event *e, int kmsg,
			  uint64_t uv_last, const char **by)
{
	uint64_t t;

	if (e->kind != EV_UNDERVOLTAGE_END)
		return 0;
	if (strcmp(e->source, ev->source) && !(kmsg && !strcmp(e->source, "rpi_volt")))
		return 0;
	t = end_of(ev, e, uv_last);
	if (t && strcmp(e->source, ev->source))
		*by = "rpi_volt";
	return t;
}

/*
 * An event's span; an undervoltage lasts until its source's END event (or still does).
 * The Pi's kernel rate-limits "Under-voltage detected" and "Voltage normalised" apart (3
 * per 5 min each), so a kmsg span may never see its end line: where rpi_volt is in the
 * run, the return of its alarm to 0 ends the kmsg span too, and *by names it. A coalesced
 * undervoltage spans from its first occurrence to the end after its last; a coalesced END
 * recorded before it (its first occurrence came first) may hold that end.
 */
static void event_span(const struct run_event *evs, size_t n, size_t i, uint64_t *t0,
		       uint64_t *t1, const char **by)
{
	const struct run_event *ev = &evs[i];
	int kmsg = !strcmp(ev->source, "kmsg");
	uint64_t last = event_last_ns(ev), t;
	size_t j;

	*by = NULL;
	*t0 = ev->t_ns;
	*t1 = ev->t_end_ns > last ? ev->t_end_ns : last;
	if (ev->kind != EV_UNDERVOLTAGE || ev->t_end_ns)
		return;
	for (j = i + 1; j < n; j++)
		if ((t = ends_span(ev, &evs[j], kmsg, last, by)))
			goto found;
	for (j = 0; event_count(ev) > 1 && j < i; j++)
		if (evs[j].count > 1 && (t = ends_span(ev, &evs[j], kmsg, last, by)))
			goto found;
	*by = NULL;
	*t1 = UINT64_MAX; /* still under-voltage */
	return;
found:
	*t1 = t;
}

static void event_copy(struct result_event *out, const struct run_event *ev)
{
	out->t_ns = ev->t_ns;
	out->t_end_ns = ev->t_end_ns;
	if (event_count(ev) > 1) {
		out->count = event_count(ev);
		out->t_last_ns = event_last_ns(ev);
	}
	out->kind = ev->kind;
	out->source = xstrdup(ev->source);
	out->text = xstrdup(ev->text);
}

/* ", 1234 times" for a coalesced event, "" for one. */
static const char *times(const struct run_event *ev, char *buf, size_t len)
{
	if (event_count(ev) == 1)
		return "";
	snprintf(buf, len, ", %" PRIu64 " times", event_count(ev));
	return buf;
}

/* Attach the events that overlap the job's phases; why says what invalidates its active
 * phase ("" if nothing does). */
static void job_events(struct result_builder *rb, const struct phase_times *t,
		       struct job_result *j, char *why, size_t whylen)
{
	size_t n, i;
	struct run_event *evs = recorded(rb, &n);
	const char *by;
	uint64_t e0, e1;
	char count[TIMES_LEN];

	j->events = xcalloc(n + 1, sizeof(*j->events));
	for (i = 0; i < n; i++) {
		const struct run_event *ev = &evs[i];

		event_span(evs, n, i, &e0, &e1, &by);
		if (e1 < t->idle_ns || e0 > t->tail_end_ns)
			continue;
		event_copy(&j->events[j->nevents], ev);
		if (by) {
			j->events[j->nevents].t_end_ns = e1;
			j->events[j->nevents].end_source = xstrdup(by);
		}
		j->nevents++;
		if (event_invalidates(ev->kind) && e1 >= t->active_ns && e0 <= t->end_ns && !*why)
			snprintf(why, whylen, "%s during the active phase at +%.1f s (%s: %s)%s",
				 event_kind_name(ev->kind),
				 (double)(ev->t_ns > t->active_ns ? ev->t_ns - t->active_ns : 0) / 1e9,
				 ev->source, ev->text, times(ev, count, sizeof(count)));
	}
	free(evs);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * "raise size" is more use with a number: the size that would give the meter enough
 * samples at the throughput this job just had, with a quarter to spare, as a person
 * would type it. With a power-of-two bs that is a power of two MiB ("--size 256M"); a
 * size must be a multiple of bs, so with bs=2300 it is the smallest run of whole MB
 * (10^6 B) that holds whole records, doubled until it is enough ("--size 184MB").
 * Loops would not help: each loop is judged on its own samples.
 */
static const char *size_remedy(const struct job_opts *jo, double active_s, uint64_t period_ns,
			       char *buf, size_t len)
{
	double need_s = (double)ENERGY_MIN_SAMPLES * (double)period_ns / 1e9;
	uint64_t want, unit, n = 1;

	if (!jo || !(active_s > 0) || !period_ns || !jo->bs)
		return NULL;
	want = (uint64_t)((double)jo->size * need_s / active_s * SIZE_HEADROOM);
	if (!(jo->bs & (jo->bs - 1))) {
		unit = jo->bs > MIB ? jo->bs : MIB;
		while (n * unit < want && n < (1ull << 40) / unit)
			n <<= 1;
		want = n * unit;
		if (!(want % GIB))
			snprintf(buf, len, "try --size %" PRIu64 "G", (uint64_t)(want / GIB));
		else
			snprintf(buf, len, "try --size %" PRIu64 "M", (uint64_t)(want / MIB));
		return buf;
	}
	unit = jo->bs / gcd_u64(jo->bs, MB) * MB;
	while (n * unit < want && n < (1ull << 40) / unit)
		n <<= 1;
	snprintf(buf, len, "try --size %" PRIu64 "MB", (uint64_t)(n * unit / MB));
	return buf;
}

const char *job_remedy(const struct job_opts *jo, int status, int stopping, uint64_t bytes,
		       double active_s, uint64_t period_ns, char *buf, size_t len)
{
	if (status == RESULT_FAILED)
		return "the job failed (see its error): its figures are partial";
	if (status == RESULT_INTERRUPTED)
		return "the job was interrupted";
	/* measure: the command's length is the user's, there is no size to raise. */
	if (!jo)
		return "meter a command that runs longer";
	if (stopping || !bytes)
		return NULL;
	/* a paced or bursty job made bigger stays itself only as more of its bursts */
	if (jo->rate_iops || jo->thinktime_ns)
		return "try --size auto (more of its own bursts) or a faster meter";
	return size_remedy(jo, active_s, period_ns, buf, len);
}

/* "UM25C (emulated)" -> "UM25C": how the dominant uncertainty term names the meter. */
static void model_word(const char *model, char *buf, size_t len)
{
	size_t n = strcspn(model, " ,(@");

	snprintf(buf, len, "%.*s", (int)n, model);
}

/*
 * The sampling term (energy/sampling.h) into es: from the meter's sample times, the job's
 * activity and the active phase's energy above idle as measured. A job whose activity's
 * energy the readings cannot know is not valid, and says why.
 */
static void sampling_term(const struct session_meter *sm, const struct job_close *jc,
			  const struct session *s, const struct result_power *p,
			  const struct emodel_fit *fit, struct energy_phases *es,
			  struct sampling_est *se, struct result_validity *v)
{
	const struct meter_info *in = meter_info(sm->dev);
	struct sampling_in si = {
		.t_ns = sm->trace_ns, .n = sm->ntrace, .period_ns = in->period_ns,
		.window_ns = SAMPLING_WINDOW_NS, .active_ns = s->times.active_ns,
		.end_ns = s->times.end_ns, .act = jc->act,
	};
	char reason[REASON_MAX + SAMPLING_WHY_LEN];

	si.act_j = p->energy_active_j - p->idle_w * es->active_s;
	/* a meter without voltage has no energy to scale the term by: not judged */
	if (!isfinite(si.act_j))
		return;
	si.act_j = estimator_sampling_scale_j(si.act_j, fit, p->energy_tail_net_j);
	sampling_estimate(&si, se);
	if (!se->evaluated)
		return;
	es->sampling_why = se->why;
	es->sampling_u[UNC_W] = se->u_j;
	/* the same energy as charge at the phase's mean voltage */
	es->sampling_u[UNC_A] = p->active_v > 0 ? se->u_j / p->active_v : 0;
	/* aliased, but the model knows the energy from the readings that caught some */
	if (isnan(se->u_j) && !estimator_model_sees_aliased(fit)) {
		v->valid = 0;
		snprintf(reason, sizeof(reason),
			 "%s: at some phase its readings see %.0f %% of the activity, at another "
			 "%.0f %%, so its energy cannot be known; try rate_dither=100%% or a "
			 "faster meter", se->why, fmax(se->g_min, 0) * 100, se->g_max * 100);
		result_validity_add(v, reason);
	}
}

/* What the idle baseline's record holds besides the estimate: the disk watched, how far
 * the phase ran past its `idle` length for quiet readings. */
static void idle_record(const struct session *s, const struct job_close *jc,
			const struct energy_phases *es, struct result_power *p)
{
	struct result_idle_baseline *b;
	double want_s = jc->jo ? (double)jc->jo->idle_ns / 1e9 : 0;

	if (!es->idle_readings)
		return;
	b = xcalloc(1, sizeof(*b));
	p->idle_baseline = b;
	b->estimator = xstrdup(IDLE_ESTIMATOR);
	b->readings = es->idle_offered;
	b->quiet = es->idle_quiet;
	b->excluded = es->idle_excluded;
	b->exclusion_s = es->idle_exclusion_s;
	b->watched = idle_watch_on(&s->watch) ? xstrdup(s->watch.disk) : NULL;
	b->extended_s = es->idle_s > want_s ? es->idle_s - want_s : 0;
}

/* One meter's power, efficiency and validity for the job. */
/* The marker's edges that bracket the readings event-locked uses (the active phase's rise
 * and fall; the start pulse comes seconds earlier, before a meter's stamps have settled)
 * against the meter's inputs. */
static const struct el_align *marker_align(const struct session *s,
					   const struct session_meter *sm,
					   const struct job_close *jc, struct el_align *al)
{
	struct gpio_mark_edge e[16];
	struct el_mark m[16];
	size_t n, i;

	if (!s->marker)
		return NULL;
	n = gpio_marker_edges(s->marker, s->mark_ns[PHASE_ACTIVE] ? s->mark_ns[PHASE_ACTIVE]
								    : s->times.active_ns,
			      e, ARRAY_SIZE(e));
	for (i = 0; i < n; i++)
		m[i] = (struct el_mark){ e[i].t_ns, e[i].half_ns, e[i].level };
	el_marker_align(&sm->ej.logic, m, n, jc->mark_input, al);
	return al;
}

static void meter_figures(const struct session *s, const struct session_meter *sm,
			  const struct job_close *jc, int status, const char *why,
			  struct result_meter_figures *f)
{
	const struct meter_info *in = meter_info(sm->dev);
	struct energy_phases es;
	struct sampling_est se;
	struct emodel_fit fit;
	struct el_align al;
	double limit = jc->jo ? jc->jo->max_uncertainty : UNC_LIMIT;
	char remedy[64], model[METER_MODEL_LEN];
	struct unc_naming nm = { model, &in->accuracy, in->period_ns };

	f->spec = xstrdup(in->spec);
	f->power.meter = xstrdup(in->spec);
	energy_summarize(&sm->ej, &es, &f->power);
	efficiency_compute(&es, &f->power, jc->bytes, jc->ios, &f->efficiency);
	f->validity.reasons = xcalloc(1, sizeof(char *));
	energy_validity(&es, ENERGY_MIN_SAMPLES, ENERGY_MIN_COVERAGE,
			job_remedy(jc->measure ? NULL : jc->jo, status, jc->stopping, jc->bytes,
				   es.active_s, es.period_ns, remedy, sizeof(remedy)),
			&f->validity);
	/* Figures of a job that did not run to its end describe part of it, however many
	 * samples that part had. */
	if (status == RESULT_INTERRUPTED || status == RESULT_FAILED) {
		f->validity.valid = 0;
		result_validity_add(&f->validity, status == RESULT_INTERRUPTED
			? "the job was interrupted: its figures cover only the part that ran"
			: "the job failed: its figures cover only the part that ran");
	}
	if (*why) {
		f->validity.valid = 0;
		result_validity_add(&f->validity, why);
	}
	f->validity.emulated = !!in->emulated;
	f->validity.manual = !!in->manual;
	f->power.idle_ma_stats = energy_ma_stats(&sm->ej, PHASE_IDLE);
	f->power.active_ma_stats = energy_ma_stats(&sm->ej, PHASE_ACTIVE);
	f->power.tail_ma_stats = energy_ma_stats(&sm->ej, PHASE_TAIL);
	/* the model over the active phase and the tail */
	f->power.energy_model = energy_model_figures(
	    &sm->ej.model_rd, jc->cmpl, s->times.active_ns,
	    s->times.tail_end_ns > s->times.end_ns ? s->times.tail_end_ns : s->times.end_ns,
	    f->power.idle_w, es.idle_u_w, in->period_ns, &fit);
	sampling_term(sm, jc, s, &f->power, &fit, &es, &se, &f->validity);
	model_word(in->model, model, sizeof(model));
	uncertainty_fill(&es, jc->bytes, jc->ios, &nm, limit, &f->power, &f->efficiency,
			 &f->validity);
	estimator_apply(&fit, &es, jc->bytes, jc->ios, limit, model, &f->power, &f->efficiency,
			&f->validity);
	idle_record(s, jc, &es, &f->power);
	f->power.event_locked = event_locked_figures(&sm->ej.el, jc->cmpl, f->power.idle_w,
						     es.idle_u_w, marker_align(s, sm, jc, &al));
	if (f->power.event_locked)
		event_locked_check(f->power.event_locked, &sm->ej.el, jc->cmpl, f->power.idle_w,
				   es.idle_u_w);
	uncertainty_idle_judge(&es, jc->jo ? jc->jo->idle_samples : 0, &f->power, &f->validity);
	event_locked_judge(f->power.event_locked, &f->validity);
}

/* power / efficiency / validity per meter; the first meter's also at the job's top level. */
static void job_energy(const struct session *s, const struct job_close *jc, struct job_result *j,
		       const char *why)
{
	unsigned m;

	j->meters = xcalloc(s->nmeters, sizeof(*j->meters));
	for (m = 0; m < s->nmeters; m++)
		meter_figures(s, &s->meters[m], jc, j->status, why, &j->meters[j->nmeters++]);
	j->power = result_power_dup(&j->meters[0].power);
	j->efficiency = result_efficiency_dup(&j->meters[0].efficiency);
	j->validity = result_validity_dup(&j->meters[0].validity);
}

static void job_marker(const struct session *s, const char *spec, struct job_result *j)
{
	j->marker = xcalloc(1, sizeof(*j->marker));
	j->marker->spec = xstrdup(spec);
	j->marker->pulse_ns = s->mark_ns[PHASE_IDLE];
	j->marker->rise_ns = s->mark_ns[PHASE_ACTIVE];
	j->marker->fall_ns = s->mark_ns[PHASE_TAIL];
}

static void job_temps(const struct temps *t_start, const struct temps *now, struct job_result *j)
{
	j->temperatures = xcalloc(1, sizeof(*j->temperatures));
	j->temperatures->soc_c = (struct result_temp){ t_start->soc_c, now->soc_c, now->soc_max_c };
	j->temperatures->drive_c =
		(struct result_temp){ t_start->drive_c, now->drive_c, now->drive_max_c };
}

/* A paced job kept its rate when its I/Os came within this share of the rate's. */
#define PACE_KEPT 0.95

/*
 * A paced job whose device could not keep its rate (130 of 150 IOPS under load): its
 * figures describe the rate it had, not the one asked. Each thread's n I/Os at its slots
 * span n - 1 of them.
 */
static void pace_record(const struct job_close *jc, const struct phase_times *t,
			struct job_result *j)
{
	const struct job_opts *jo = jc->jo;
	double active_s = (double)(t->end_ns - t->active_ns) / 1e9, want, kept;
	char buf[160];

	if (!jo || jc->measure || !jo->rate_iops || jc->ios <= jo->numjobs || !(active_s > 0) ||
	    j->status != RESULT_OK)
		return;
	want = (double)jo->rate_iops * jo->numjobs;
	kept = (double)(jc->ios - jo->numjobs) / active_s;
	if (kept >= PACE_KEPT * want)
		return;
	snprintf(buf, sizeof(buf), "kept %.4g of %.4g IOPS (%.0f %%): the device could not keep "
		 "the rate; the figures describe %.4g IOPS", kept, want, 100 * kept / want, kept);
	free(j->pace);
	j->pace = xstrdup(buf);
}

void result_builder_job(struct result_builder *rb, const struct session *s,
			const struct job_close *jc, struct job_result *j)
{
	const struct phase_times *t = &s->times;
	char why[REASON_MAX] = "";

	if (!j->phases)
		j->phases = xcalloc(1, sizeof(*j->phases));
	set_span(&j->phases->active, t->active_ns, t->end_ns);
	if (s->nmeters) {
		set_span(&j->phases->idle, t->idle_ns, t->idle_end_ns ? t->idle_end_ns : t->active_ns);
		set_span(&j->phases->tail, t->end_ns, t->tail_end_ns);
	}
	if (s->marker)
		job_marker(s, jc->marker_spec, j);
	job_events(rb, t, j, why, sizeof(why));
	pace_record(jc, t, j);
	if (s->nmeters)
		job_energy(s, jc, j, why);
	if (jc->t_now)
		job_temps(jc->t_start, jc->t_now, j);
}

void result_builder_begin(struct result_builder *rb, const struct result_start *st)
{
	struct run_result *r = &rb->rep;
	char created[32], *copy;
	time_t now = time(NULL);
	struct tm tm;
	unsigned m;

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->schema_version = RESULT_SCHEMA_VERSION;
	r->tool.name = xstrdup("iowatt");
	r->tool.version = xstrdup(iowatt_version);
	r->created = xstrdup(created);
	r->command = xstrdup(st->command);
	r->profile = st->profile ? xstrdup(st->profile) : NULL;
	r->label = st->label && *st->label ? xstrdup(st->label) : NULL;
	r->status = RESULT_RUNNING;
	r->t0_ns = st->t0_ns;
	for (m = 0; m < st->session->nmeters; m++) {
		r->emulated |= !!meter_info(st->session->meters[m].dev)->emulated;
		r->manual |= !!meter_info(st->session->meters[m].dev)->manual;
	}
	r->context = st->context;
	copy = xstrdup(st->intervals_path);
	r->files.intervals = xstrdup(basename(copy));
	free(copy);
	if (st->samples_path) {
		copy = xstrdup(st->samples_path);
		r->files.samples = xstrdup(basename(copy));
		free(copy);
	}
	r->jobs = xcalloc(1, sizeof(*r->jobs));
}

void result_builder_unprepared(struct result_builder *rb, const struct job_opts *jo,
			       unsigned round, int err, int stopped)
{
	struct job_result *j = result_add_job(&rb->rep);

	j->jobname = xstrdup(jo->name);
	j->round = round;
	j->loop = 1;
	j->status = stopped ? RESULT_INTERRUPTED : RESULT_FAILED;
	j->error = xstrdup(stopped ? "stopped while preparing the file" : strerror(-err));
	result_job_options(j, jo);
}

void result_job_lead_in(struct job_result *j, const struct run_lead_in *l)
{
	if (!l->calib_end_ns && !l->prep_end_ns && !l->retaken_end_ns)
		return;
	if (!j->phases)
		j->phases = xcalloc(1, sizeof(*j->phases));
	if (l->calib_end_ns)
		set_span(&j->phases->calibration, l->calib_start_ns, l->calib_end_ns);
	if (l->prep_end_ns)
		set_span(&j->phases->prepare, l->prep_start_ns, l->prep_end_ns);
	if (l->retaken_end_ns)
		set_span(&j->phases->retaken, l->retaken_start_ns, l->retaken_end_ns);
}

void result_builder_temps(struct result_builder *rb, const struct temp_sample *t, size_t n)
{
	struct run_result *r = &rb->rep;
	size_t i;

	if (!n)
		return;
	r->temp_series = xrealloc(r->temp_series, (r->ntemp_series + n) * sizeof(*r->temp_series));
	for (i = 0; i < n; i++)
		r->temp_series[r->ntemp_series++] =
			(struct result_temp_sample){ t[i].t_ns, t[i].soc_c, t[i].drive_c };
}

void result_builder_events(struct result_builder *rb)
{
	struct run_result *r = &rb->rep;
	struct run_event *evs = recorded(rb, &r->nevents);
	size_t i;

	free(r->events);
	r->events = xcalloc(r->nevents + 1, sizeof(*r->events));
	for (i = 0; i < r->nevents; i++)
		event_copy(&r->events[i], &evs[i]);
	free(evs);
}

/* "V A W" for the quantities a meter reads with their sign; NULL: none. */
static char *signed_names(unsigned q)
{
	char buf[8] = "";

	if (!q)
		return NULL;
	snprintf(buf, sizeof(buf), "%s%s%s", q & METER_SIGNED_V ? "V " : "",
		 q & METER_SIGNED_A ? "A " : "", q & METER_SIGNED_W ? "W " : "");
	buf[strlen(buf) - 1] = '\0';
	return xstrdup(buf);
}

static void meter_fill(struct result_meter *m, const struct meter_dev *dev)
{
	const struct meter_info *in = meter_info(dev);
	struct meter_counters n;

	meter_counters(dev, &n);
	m->spec = xstrdup(in->spec);
	m->driver = xstrdup(in->driver);
	m->model = xstrdup(in->model);
	m->accuracy = result_accuracy_from(&in->accuracy);
	m->board_level = !!in->board_level;
	m->emulated = !!in->emulated;
	m->manual = !!in->manual;
	m->period_ms = (double)in->period_ns / 1e6;
	m->samples = n.samples;
	m->frames_bad = n.frames_bad;
	m->gaps = n.gaps;
	m->reconnects = n.reconnects;
	m->overruns = n.overruns;
	m->out_of_range = n.out_of_range;
	m->counter_jumps = n.counter_jumps;
	m->counter_lost = n.counter_lost;
	m->link_rtt_ms = in->link_rtt_ms;
	m->processing = in->processing[0] ? xstrdup(in->processing) : NULL;
	m->signed_q = signed_names(in->signed_q);
}

int result_builder_write(struct result_builder *rb, const struct session *s, const char *path,
			 int status)
{
	struct run_result *r = &rb->rep;
	size_t m;

	result_meters_free(r);
	r->meters = xcalloc(s->nmeters + 1, sizeof(*r->meters));
	r->nmeters = s->nmeters;
	for (m = 0; m < s->nmeters; m++)
		meter_fill(&r->meters[m], s->meters[m].dev);
	r->status = status;
	result_summarize(r);
	energy_pool_run(r);
	return result_write(path, r);
}
