/* SPDX-License-Identifier: MIT */
/* A measurement session: meters, their integrators, the event queue and the phase times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/registry/registry.h"
#include "energy/sampling.h"
#include "run/session.h"

/* Voltage a rail must have shown before the 5 V USB threshold applies to it. */
#define UV_ARM_V 4.5
#define UV_HYSTERESIS_V 0.05
#define PUMP_SAMPLES 256
#define PUMP_EVENTS 64
/* settle_after_losses(): how long a drained meter may take to store a new sample. */
#define SETTLE_MAX_NS (200 * NS_PER_MS)
#define SETTLE_STEP_NS NS_PER_MS

struct session *session_new(double uv_threshold_v)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->queue = event_queue_new();
	s->uv_threshold_v = uv_threshold_v;
	idle_watch_init(&s->watch, "", NULL);
	return s;
}

void session_watch_target(struct session *s, const char *disk, const char *root)
{
	idle_watch_free(&s->watch);
	idle_watch_init(&s->watch, disk, root);
}

void session_watch_poll(struct session *s, uint64_t now)
{
	idle_watch_poll(&s->watch, now);
}

uint64_t session_idle_reach_ns(const struct session *s, unsigned m)
{
	uint64_t period = session_period_ns(s, m);
	uint64_t window = period && period < SAMPLING_WINDOW_NS ? period : SAMPLING_WINDOW_NS;

	return period + window + s->idle_settle_ns;
}

unsigned session_quiet_short_of(const struct session *s, unsigned n)
{
	unsigned m, short_meters = 0;

	for (m = 0; m < s->nmeters; m++)
		short_meters += energy_idle_quiet(&s->meters[m].ej) < n;
	return short_meters;
}

int session_add_meters(struct session *s, char *const *specs, unsigned n, const char *sysfs_root)
{
	struct meter_dev *dev;
	unsigned i;
	int err;

	/* Every spec first: a typo in the second must not cost the first one's Bluetooth link. */
	for (i = 0; i < n && s->nmeters < MAX_METERS; i++) {
		err = meter_parse_spec(meter_registry, specs[i], sysfs_root ? sysfs_root : "", &dev);
		if (err)
			return err;
		meter_set_events(dev, s->queue);
		meter_set_cancel(dev, s->cancel);
		s->meters[s->nmeters++].dev = dev;
	}
	for (i = 0; i < s->nmeters; i++) {
		err = meter_open(s->meters[i].dev);
		if (err)
			return err;
	}
	return 0;
}

void session_add_sink(struct session *s, const struct session_sink_ops *ops, void *arg)
{
	if (s->nsinks < SESSION_MAX_SINKS)
		s->sinks[s->nsinks++] = (struct session_sink){ ops, arg };
}

int session_start(struct session *s)
{
	unsigned m;
	int err;

	for (m = 0; m < s->nmeters; m++) {
		err = meter_thread_start(s->meters[m].dev);
		if (err)
			return err;
	}
	return 0;
}

void session_stop(struct session *s)
{
	unsigned m;

	for (m = 0; s && m < s->nmeters; m++)
		meter_thread_stop(s->meters[m].dev);
}

void session_free(struct session *s)
{
	unsigned m;

	if (!s)
		return;
	session_stop(s);
	for (m = 0; m < s->nmeters; m++) {
		meter_close(s->meters[m].dev);
		meter_free(s->meters[m].dev);
		free(s->meters[m].trace_ns);
	}
	idle_watch_free(&s->watch);
	gpio_marker_close(s->marker);
	event_queue_free(s->queue);
	free(s);
}

/* A meter on a 5 V USB line that sags below the threshold is an undervoltage source too. */
static void check_voltage(struct session *s, struct session_meter *sm, const struct meter_sample *x)
{
	double thr = s->uv_threshold_v;

	if (thr <= 0 || isnan(x->v))
		return;
	if (x->v >= UV_ARM_V)
		sm->uv_armed = 1;
	if (!sm->uv_armed)
		return;
	if (!sm->uv_low && x->v < thr) {
		sm->uv_low = 1;
		event_pushf(s->queue, EV_UNDERVOLTAGE, x->t_ns, meter_info(sm->dev)->spec,
			    "meter voltage %.3f V below %.2f V", x->v, thr);
	} else if (sm->uv_low && x->v >= thr + UV_HYSTERESIS_V) {
		sm->uv_low = 0;
		event_pushf(s->queue, EV_UNDERVOLTAGE_END, x->t_ns, meter_info(sm->dev)->spec,
			    "meter voltage back to %.3f V", x->v);
	}
}

/* The sample's time onto the job's trace, for a meter slow enough to miss activity. */
static void trace_sample(struct session_meter *sm, uint64_t t_ns)
{
	if (meter_info(sm->dev)->period_ns < SAMPLING_MIN_PERIOD_NS)
		return;
	if (sm->ntrace == sm->trace_cap) {
		sm->trace_cap = sm->trace_cap ? sm->trace_cap * 2 : 256;
		sm->trace_ns = xrealloc(sm->trace_ns, sm->trace_cap * sizeof(*sm->trace_ns));
	}
	sm->trace_ns[sm->ntrace++] = t_ns;
}

static void feed_meter(struct session *s, unsigned m, uint64_t cut)
{
	struct session_meter *sm = &s->meters[m];
	struct meter_sample buf[PUMP_SAMPLES];
	unsigned i, k, n;

	do {
		n = meter_pop(sm->dev, buf, PUMP_SAMPLES, cut);
		for (i = 0; i < n; i++) {
			for (k = 0; k < s->nsinks; k++)
				if (s->sinks[k].ops->sample)
					s->sinks[k].ops->sample(s->sinks[k].arg, m, &buf[i]);
			energy_feed(&sm->ej, &buf[i]);
			trace_sample(sm, buf[i].t_ns);
			check_voltage(s, sm, &buf[i]);
			sm->last = buf[i];
			sm->have_last = 1;
		}
	} while (n == PUMP_SAMPLES);
}

void session_pump(struct session *s, uint64_t now)
{
	struct run_event evs[PUMP_EVENTS];
	uint64_t cut = now > SESSION_FEED_LAG_NS ? now - SESSION_FEED_LAG_NS : 0;
	unsigned m, k;
	size_t ne, i, left;

	/* Before the samples: every reading fed is then judged against the I/O up to now
	 * (the clock's now: a caller may pump ahead of it to drain the meters). */
	idle_watch_poll(&s->watch, now_ns());
	for (m = 0; m < s->nmeters; m++)
		feed_meter(s, m, cut);
	/* What is queued now, not what arrives meanwhile: a source that pushes as fast as the
	 * sinks take must not keep the run from looking at its stop flag. */
	left = event_queue_count(s->queue);
	while (left) {
		ne = event_pop(s->queue, evs, left < PUMP_EVENTS ? left : PUMP_EVENTS);
		if (!ne)
			break;
		left -= ne;
		for (i = 0; i < ne; i++)
			for (k = 0; k < s->nsinks; k++)
				if (s->sinks[k].ops->event)
					s->sinks[k].ops->event(s->sinks[k].arg, &evs[i]);
	}
	for (k = 0; k < s->nsinks; k++)
		if (s->sinks[k].ops->flush)
			s->sinks[k].ops->flush(s->sinks[k].arg, now);
}

void session_mark(struct session *s, int phase)
{
	if (s->marker && !s->mark_ns[phase])
		gpio_marker_phase(s->marker, phase, &s->mark_ns[phase]);
}

void session_phase(struct session *s, int phase, uint64_t t_ns)
{
	unsigned m, k;

	session_mark(s, phase);
	for (k = 0; k < s->nsinks; k++)
		if (s->sinks[k].ops->phase)
			s->sinks[k].ops->phase(s->sinks[k].arg, phase, t_ns);
	for (m = 0; m < s->nmeters; m++) {
		energy_phase_begin(&s->meters[m].ej, phase, t_ns);
		meter_set_phase(s->meters[m].dev, phase, t_ns);
	}
	if (phase == PHASE_IDLE)
		s->times.idle_ns = t_ns;
	else if (phase == PHASE_ACTIVE)
		s->times.active_ns = t_ns;
	else
		s->times.end_ns = s->times.tail_end_ns = t_ns;
}

static int watch_busy(const void *arg, uint64_t t0_ns, uint64_t t1_ns)
{
	return idle_watch_busy(arg, t0_ns, t1_ns);
}

/* A meter's integrator for a new job: its idle readings judged against the watch. */
static void meter_job_init(const struct session *s, unsigned m, struct energy_job *ej)
{
	const struct session_meter *sm = &s->meters[m];

	energy_job_init(ej, meter_info(sm->dev)->period_ns);
	energy_job_accuracy(ej, &meter_info(sm->dev)->accuracy);
	energy_job_idle_watch(ej, idle_watch_on(&s->watch) ? watch_busy : NULL, &s->watch,
			      session_idle_reach_ns(s, m));
}

/*
 * A fast meter's ring fills while the main thread prepares a job (a file layout takes
 * seconds; a PPK2 fills its ring in half a second). The samples lost then belong to no
 * phase, but the hole ends at the first sample stored after it: that sample must be in
 * the ring before the idle phase begins, or the hole would invalidate the idle phase.
 * So a meter that lost samples since the last job is drained up to now, and the idle
 * phase waits (a bounded time) until it has stored a new sample.
 */
static void settle_after_losses(struct session *s)
{
	struct meter_counters c;
	uint64_t stored[MAX_METERS] = { 0 }, end = now_ns() + SETTLE_MAX_NS, now;
	unsigned m, lossy = 0, waiting;

	for (m = 0; m < s->nmeters; m++) {
		meter_counters(s->meters[m].dev, &c);
		if (c.overruns == s->meters[m].overruns_seen)
			continue;
		s->meters[m].overruns_seen = c.overruns;
		lossy |= 1u << m;
	}
	if (!lossy)
		return;
	session_pump(s, now_ns() + SESSION_FEED_LAG_NS);
	for (m = 0; m < s->nmeters; m++) {
		meter_counters(s->meters[m].dev, &c);
		stored[m] = c.samples;
	}
	do {
		sleep_ns(SETTLE_STEP_NS);
		now = now_ns();
		for (m = 0, waiting = 0; m < s->nmeters; m++) {
			meter_counters(s->meters[m].dev, &c);
			waiting += (lossy >> m & 1u) && c.samples == stored[m];
		}
	} while (waiting && now < end);
}

uint64_t session_job_begin(struct session *s)
{
	uint64_t t;
	unsigned m;

	settle_after_losses(s);
	t = now_ns();

	memset(s->mark_ns, 0, sizeof(s->mark_ns));
	memset(&s->times, 0, sizeof(s->times));
	for (m = 0; m < s->nmeters; m++) {
		struct session_meter *sm = &s->meters[m];

		meter_job_init(s, m, &sm->ej);
		sm->ntrace = 0;
		/* The last sample before the phase is the left end of its first segment. */
		if (sm->have_last) {
			energy_feed(&sm->ej, &sm->last);
			trace_sample(sm, sm->last.t_ns);
		}
	}
	idle_watch_reset(&s->watch, t);
	session_phase(s, PHASE_IDLE, t);
	return t;
}

uint64_t session_tail_end(struct session *s, uint64_t t_cut, int settled)
{
	uint64_t end = s->times.end_ns, t;
	unsigned m;

	for (m = 0; m < s->nmeters; m++) {
		t = energy_tail_finish(&s->meters[m].ej, t_cut, settled);
		if (t > end)
			end = t;
	}
	s->times.tail_end_ns = end;
	return end;
}

struct replay_state {
	struct energy_job *ej;
	uint64_t from_ns;
	struct meter_sample before; /* the last sample before from_ns: a segment's left end */
	int have_before;
};

static void replay_feed(void *arg, const struct meter_sample *x)
{
	struct replay_state *rs = arg;

	if (x->t_ns < rs->from_ns) {
		rs->before = *x;
		rs->have_before = 1;
		return;
	}
	if (rs->have_before) {
		energy_feed(rs->ej, &rs->before);
		rs->have_before = 0;
	}
	energy_feed(rs->ej, x);
}

int session_rephase(struct session *s, uint64_t t_active, uint64_t t_end, uint64_t t_tail_end,
		    session_replay_fn replay, void *arg)
{
	struct phase_times *t = &s->times;
	struct energy_job *fresh = xcalloc(s->nmeters ? s->nmeters : 1, sizeof(*fresh));
	uint64_t idle_end = t->idle_end_ns ? t->idle_end_ns : t->active_ns;
	struct replay_state rs;
	unsigned m;
	int err = 0;

	if (!t_tail_end)
		t_tail_end = t->tail_end_ns > t_end ? t->tail_end_ns : t_end;
	for (m = 0; m < s->nmeters && !err; m++) {
		meter_job_init(s, m, &fresh[m]);
		energy_phase_begin(&fresh[m], PHASE_IDLE, t->idle_ns);
		energy_phase_end(&fresh[m], PHASE_IDLE, idle_end);
		energy_phase_begin(&fresh[m], PHASE_ACTIVE, t_active);
		energy_phase_begin(&fresh[m], PHASE_TAIL, t_end);
		energy_phase_end(&fresh[m], PHASE_TAIL, t_tail_end);
		rs = (struct replay_state){ .ej = &fresh[m], .from_ns = t->idle_ns };
		err = replay(arg, m, replay_feed, &rs);
	}
	if (!err) {
		for (m = 0; m < s->nmeters; m++)
			s->meters[m].ej = fresh[m];
		t->idle_end_ns = idle_end;
		t->active_ns = t_active;
		t->end_ns = t_end;
		t->tail_end_ns = t_tail_end;
	}
	free(fresh);
	return err;
}

struct session_job_copy {
	struct phase_times times;
	struct energy_job ej[MAX_METERS];
};

struct session_job_copy *session_job_keep(const struct session *s)
{
	struct session_job_copy *c = xcalloc(1, sizeof(*c));
	unsigned m;

	c->times = s->times;
	for (m = 0; m < s->nmeters; m++)
		c->ej[m] = s->meters[m].ej;
	return c;
}

void session_job_put_back(struct session *s, struct session_job_copy *c)
{
	unsigned m;

	s->times = c->times;
	for (m = 0; m < s->nmeters; m++)
		s->meters[m].ej = c->ej[m];
	free(c);
}

unsigned session_short_of(const struct session *s, int phase, unsigned n)
{
	unsigned m, short_meters = 0;

	for (m = 0; m < s->nmeters; m++)
		short_meters += s->meters[m].ej.ph[phase].samples < n;
	return short_meters;
}

int session_settled(struct session *s, double tol, uint64_t hold_ns)
{
	unsigned m, settled = 0;

	for (m = 0; m < s->nmeters; m++)
		settled += !!energy_tail_settled(&s->meters[m].ej, tol, hold_ns);
	return settled == s->nmeters;
}

int session_sampled_past(const struct session *s, uint64_t t_ns)
{
	unsigned m;

	for (m = 0; m < s->nmeters; m++)
		if (!s->meters[m].have_last || s->meters[m].last.t_ns < t_ns)
			return 0;
	return 1;
}

uint64_t session_period_ns(const struct session *s, unsigned meter)
{
	return meter_info(s->meters[meter].dev)->period_ns;
}
