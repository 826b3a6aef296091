/* SPDX-License-Identifier: MIT */
/* One metered job: idle baseline, the active phase around an activity, the tail. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/units.h"
#include "run/run.h"

/* A meter that delivers nothing must not hang the idle phase this long past its length. */
#define IDLE_GRACE_NS (30 * NS_PER_SEC)
/* After the tail: room for the sample that closes its last segment. */
#define TAIL_CLOSE_NS (100 * NS_PER_MS)
/*
 * ... and the most it waits for that sample once a stop was asked for: a stopped job is
 * never valid, so its last segment is not worth keeping the user waiting; the result is
 * written within about half a second of Ctrl-C or SIGTERM even while a flooding link
 * shares the CPU (t_netflood).
 */
#define STOP_CLOSE_NS (250 * NS_PER_MS)
#define FMT_LEN 32
/* idle_max 0: the idle phase may run this many times its length for quiet samples. */
#define IDLE_MAX_FACTOR 3

int run_should_stop(const struct run_ctx *rc)
{
	return run_stop_requested(&rc->stop);
}

void run_take_temps(struct run_ctx *rc)
{
	struct temp_sample *t;
	size_t n = sources_temps_take(rc->sources, &t);

	result_builder_temps(&rc->rb, t, n);
	free(t);
}

/* When the idle phase gives up on the sample count: twice the time it should take. */
static uint64_t idle_cap(const struct session *s, const struct job_opts *jo, uint64_t t_idle)
{
	uint64_t cap = t_idle + jo->idle_ns + SESSION_FEED_LAG_NS + IDLE_GRACE_NS, need;
	unsigned m;

	for (m = 0; m < s->nmeters; m++) {
		need = 2 * (uint64_t)jo->idle_samples * session_period_ns(s, m);
		if (t_idle + need + SESSION_FEED_LAG_NS > cap)
			cap = t_idle + need + SESSION_FEED_LAG_NS;
	}
	return cap;
}

/*
 * Idle baseline: idle_ns and at least idle_samples quiet samples from every meter (the
 * target did no I/O within a reading's reach: energy/idle_baseline.h), run on for them up to
 * the cap. The target's counters are read every IDLE_WATCH_POLL_NS in between pumps.
 */
static void phase_idle(struct run_ctx *rc, const struct job_opts *jo)
{
	struct session *s = rc->session;
	uint64_t t_idle, deadline, cap, quiet_cap, now, pumped = 0;
	int short_of;
	char a[FMT_LEN], b[FMT_LEN];

	s->idle_settle_ns = jo->idle_settle_ns;
	t_idle = session_job_begin(s);
	deadline = t_idle + jo->idle_ns;
	if (!s->nmeters || (!jo->idle_ns && !jo->idle_samples))
		return;
	cap = idle_cap(s, jo, t_idle);
	/* With enough samples, waiting for quiet ones ends at idle_max (0: 3 x idle), at
	 * least idle. */
	quiet_cap = jo->idle_max_ns ? jo->idle_max_ns : IDLE_MAX_FACTOR * jo->idle_ns;
	quiet_cap = t_idle + (quiet_cap > jo->idle_ns ? quiet_cap : jo->idle_ns) +
		    SESSION_FEED_LAG_NS;
	for (;;) {
		now = now_ns();
		session_watch_poll(s, now);
		if (now - pumped < SESSION_PUMP_NS) {
			sleep_ns(IDLE_WATCH_POLL_NS);
			continue;
		}
		pumped = now;
		session_pump(s, now);
		if (run_should_stop(rc))
			break;
		short_of = !!session_short_of(s, PHASE_IDLE, jo->idle_samples);
		if (now >= deadline + SESSION_FEED_LAG_NS && !short_of &&
		    !session_quiet_short_of(s, jo->idle_samples))
			break;
		if (now >= cap && short_of) {
			log_warn(NULL, "job '%s': idle baseline got fewer than %u samples in %s",
				 jo->name, jo->idle_samples, fmt_duration(now - t_idle, a, sizeof(a)));
			break;
		}
		if (now >= quiet_cap && !short_of) {
			log_warn(NULL, "job '%s': idle baseline got fewer than %u quiet samples in %s: "
				 "the target did I/O (option idle_max)", jo->name, jo->idle_samples,
				 fmt_duration(now - t_idle, a, sizeof(a)));
			break;
		}
		if (now >= deadline + SESSION_FEED_LAG_NS)
			progress_set(&rc->progress, "%s: idle baseline %s, waiting for %s", jo->name,
				     fmt_duration(now - t_idle, a, sizeof(a)),
				     short_of ? "samples" : "quiet samples (the target did I/O)");
		else
			progress_set(&rc->progress, "%s: idle baseline %s / %s", jo->name,
				     fmt_duration(now - t_idle, a, sizeof(a)),
				     fmt_duration(jo->idle_ns, b, sizeof(b)));
		sleep_ns(IDLE_WATCH_POLL_NS);
	}
}

/*
 * Until power is back within tolerance of idle for tail_hold (*settled), or tail_max, or
 * a stop: the time fed up to.
 */
static uint64_t tail_wait(struct run_ctx *rc, const struct job_opts *jo, uint64_t t_end,
			  int *settled)
{
	uint64_t cap = t_end + jo->tail_max_ns, now, cut;
	char a[FMT_LEN];

	*settled = 0;
	for (;;) {
		now = now_ns();
		/* Never feed past the cap: what is fed stays in the tail's totals. */
		if (now > cap + SESSION_FEED_LAG_NS)
			now = cap + SESSION_FEED_LAG_NS;
		session_pump(rc->session, now);
		cut = now - SESSION_FEED_LAG_NS;
		if (session_settled(rc->session, jo->tail_tolerance, jo->tail_hold_ns) &&
		    cut > t_end) {
			*settled = 1;
			return cut < cap ? cut : cap;
		}
		if (cut >= cap)
			return cap;
		if (run_should_stop(rc))
			return cut > t_end ? cut : t_end;
		progress_set(&rc->progress, "%s: tail %s, waiting for power to settle", jo->name,
			     fmt_duration(now > t_end ? now - t_end : 0, a, sizeof(a)));
		sleep_ns(SESSION_PUMP_NS);
	}
}

/* The segment that crosses the tail's end needs the sample after it. Bounded, so it runs
 * after Ctrl-C too: the stopped job's last samples count, but a slow meter's next sample
 * is not worth more than STOP_CLOSE_NS of a stop the user asked for. */
static void tail_close(struct run_ctx *rc, uint64_t t_tail_end)
{
	struct session *s = rc->session;
	uint64_t start = now_ns(), bound = start + SESSION_FEED_LAG_NS + TAIL_CLOSE_NS, now;
	unsigned m;

	for (m = 0; m < s->nmeters; m++)
		bound += 2 * session_period_ns(s, m);
	if (run_should_stop(rc) && bound > start + STOP_CLOSE_NS)
		bound = start + STOP_CLOSE_NS;
	for (;;) {
		now = now_ns();
		session_pump(s, now);
		if (session_sampled_past(s, t_tail_end) || now >= bound)
			break;
		sleep_ns(SESSION_PUMP_NS / 2);
	}
}

static void phase_tail(struct run_ctx *rc, const struct job_opts *jo, uint64_t t_end)
{
	uint64_t t_cut;
	int settled;

	session_phase(rc->session, PHASE_TAIL, t_end);
	if (!rc->session->nmeters)
		return;
	t_cut = tail_wait(rc, jo, t_end, &settled);
	tail_close(rc, session_tail_end(rc->session, t_cut, settled));
}

/* The active phase: the activity runs while samples and events are pumped. */
static uint64_t phase_active(struct run_ctx *rc, const struct run_activity_ops *ops, void *arg)
{
	uint64_t t_active = now_ns(), t_end, now;
	int started = run_should_stop(rc) ? -EINTR : ops->start(arg, &t_active);

	session_phase(rc->session, PHASE_ACTIVE, t_active);
	if (started)
		return now_ns();
	while (!ops->wait(arg, SESSION_PUMP_NS)) {
		if (run_should_stop(rc))
			ops->stop(arg, rc->stop.signal);
		now = now_ns();
		session_pump(rc->session, now);
		ops->tick(arg, now);
	}
	/* The marker's edge trails the activity's end by as little as possible. */
	session_mark(rc->session, PHASE_TAIL);
	ops->finish(arg, &t_end);
	return t_end;
}

void run_phases(struct run_ctx *rc, const struct job_opts *jo, const struct run_activity_ops *ops,
		void *arg, struct temps *t_start)
{
	sources_temps_reset(rc->sources);
	sources_temps_get(rc->sources, t_start);
	phase_idle(rc, jo);
	wear_start(&rc->wear, rc->cfg->run.sysfs_root,
		   rc->have_target ? rc->tg.blockdev : rc->io_disk);
	phase_tail(rc, jo, phase_active(rc, ops, arg));
	wear_stop(&rc->wear);
	progress_clear(&rc->progress);
}

void run_job_close(struct run_ctx *rc, const struct job_opts *jo, int measure,
		   struct job_result *j, const struct temps *t_start, uint64_t bytes,
		   uint64_t ios, const struct activity *act, const struct completions *cmpl)
{
	struct temps t_now;
	struct job_close jc = {
		.jo = jo, .measure = measure, .bytes = bytes, .ios = ios, .t_start = t_start,
		.act = act, .cmpl = cmpl,
		.stopping = run_should_stop(rc), .marker_spec = rc->cfg->run.mark_gpio,
		.mark_input = rc->cfg->run.mark_input - 1,
	};

	if (rc->sources) {
		sources_temps_get(rc->sources, &t_now);
		jc.t_now = &t_now;
	}
	result_builder_job(&rc->rb, rc->session, &jc, j);
	j->wear = wear_result(&rc->wear, j->write ? j->write->io_bytes : 0);
	run_take_temps(rc);
}
