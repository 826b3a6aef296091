/* SPDX-License-Identifier: MIT */
/* One metered job: idle baseline, the fixed-size active phase, the tail; energy per phase. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "result/result.h"
#include "run/run.h"

/* Voltage a rail must have shown before the 5 V USB threshold applies to it. */
#define UV_ARM_V 4.5
#define UV_HYSTERESIS_V 0.05

volatile sig_atomic_t run_signal;

extern char **environ;

int run_should_stop(const struct run_ctx *rc)
{
	return run_signal || rc->stop_reason;
}

static void note_event(struct run_ctx *rc, const struct run_event *ev)
{
	if (ev->kind == EV_UNDERVOLTAGE) {
		rc->uv_events++;
		if (rc->cfg->run.stop_on_undervoltage && !rc->stop_reason) {
			rc->stop_reason = -1;
			run_progress_clear(rc);
			log_warn(NULL, "undervoltage (%s: %s): stopping the run as asked "
				       "(--stop-on-undervoltage)", ev->source, ev->text);
		}
	}
	if (rc->nevents < RUN_MAX_EVENTS) {
		rc->events[rc->nevents++] = *ev;
		return;
	}
	/*
	 * Full (a flapping source): informational events may be lost, never one that
	 * decides validity or ends an undervoltage span. It takes the place of the newest
	 * event that decides nothing.
	 */
	if (event_invalidates(ev->kind) || ev->kind == EV_UNDERVOLTAGE_END) {
		size_t i = RUN_MAX_EVENTS;

		while (i-- > 0) {
			int k = rc->events[i].kind;

			if (!event_invalidates(k) && k != EV_UNDERVOLTAGE_END) {
				memmove(&rc->events[i], &rc->events[i + 1],
					(RUN_MAX_EVENTS - i - 1) * sizeof(rc->events[0]));
				rc->events[RUN_MAX_EVENTS - 1] = *ev;
				break;
			}
		}
	}
	if (!rc->events_dropped++)
		log_warn(NULL, "more than %d events in this run: later informational events "
			       "are not kept", RUN_MAX_EVENTS);
}

/* A meter on a 5 V USB line that sags below the threshold is an undervoltage source too. */
static void check_meter_voltage(struct run_ctx *rc, struct run_meter *rm,
				const struct meter_sample *s)
{
	double thr = rc->cfg->run.uv_threshold_v;

	if (thr <= 0 || isnan(s->v))
		return;
	if (s->v >= UV_ARM_V)
		rm->uv_armed = 1;
	if (!rm->uv_armed)
		return;
	if (!rm->uv_low && s->v < thr) {
		rm->uv_low = 1;
		event_pushf(rc->queue, EV_UNDERVOLTAGE, s->t_ns, meter_info(rm->dev)->spec,
			     "meter voltage %.3f V below %.2f V", s->v, thr);
	} else if (rm->uv_low && s->v >= thr + UV_HYSTERESIS_V) {
		rm->uv_low = 0;
		event_pushf(rc->queue, EV_UNDERVOLTAGE_END, s->t_ns, meter_info(rm->dev)->spec,
			     "meter voltage back to %.3f V", s->v);
	}
}

void run_pump(struct run_ctx *rc, uint64_t now)
{
	struct meter_sample buf[256];
	struct run_event evs[64];
	uint64_t cut = now > RUN_FEED_LAG_NS ? now - RUN_FEED_LAG_NS : 0;
	unsigned m, i, n;
	size_t ne, k;

	for (m = 0; m < rc->nmeters; m++) {
		struct run_meter *rm = &rc->meters[m];

		do {
			n = meter_pop(rm->dev, buf, ARRAY_SIZE(buf), cut);
			for (i = 0; i < n; i++) {
				run_output_sample(rc, m, &buf[i]);
				energy_feed(&rm->ej, &buf[i]);
				check_meter_voltage(rc, rm, &buf[i]);
				rm->last = buf[i];
				rm->have_last = 1;
			}
		} while (n == ARRAY_SIZE(buf));
	}
	do {
		ne = event_pop(rc->queue, evs, ARRAY_SIZE(evs));
		for (k = 0; k < ne; k++)
			note_event(rc, &evs[k]);
	} while (ne == ARRAY_SIZE(evs));
	run_output_flush(rc);
}

/* The GPIO marker's edge for a phase, as soon as the phase is known to have begun. */
static void mark_phase(struct run_ctx *rc, int phase)
{
	if (rc->marker && !rc->mark_ns[phase])
		gpio_marker_phase(rc->marker, phase, &rc->mark_ns[phase]);
}

static void set_phase(struct run_ctx *rc, int phase, uint64_t t_ns)
{
	unsigned m;

	mark_phase(rc, phase);
	for (m = 0; m < rc->nmeters; m++) {
		energy_phase_begin(&rc->meters[m].ej, phase, t_ns);
		meter_set_phase(rc->meters[m].dev, phase, t_ns);
	}
}

/* Idle baseline: idle_ns and at least idle_samples samples from every meter. */
static uint64_t phase_idle(struct run_ctx *rc, const struct job_opts *jo)
{
	uint64_t t_idle = now_ns(), deadline, cap, now;
	unsigned m, short_meters;
	char a[32], b[32];

	memset(rc->mark_ns, 0, sizeof(rc->mark_ns));

	for (m = 0; m < rc->nmeters; m++) {
		struct run_meter *rm = &rc->meters[m];

		energy_job_init(&rm->ej, meter_info(rm->dev)->period_ns);
		/* The last sample before the phase is the left end of its first segment. */
		if (rm->have_last)
			energy_feed(&rm->ej, &rm->last);
	}
	set_phase(rc, PHASE_IDLE, t_idle);
	if (!rc->nmeters || (!jo->idle_ns && !jo->idle_samples))
		return t_idle;
	deadline = t_idle + jo->idle_ns;
	/* A meter that delivers nothing must not hang the run: give up on the sample count
	 * after twice the time it should have taken, and let validity say so. */
	cap = deadline + RUN_FEED_LAG_NS + 30 * NS_PER_SEC;
	for (m = 0; m < rc->nmeters; m++) {
		uint64_t need = 2 * (uint64_t)jo->idle_samples *
				meter_info(rc->meters[m].dev)->period_ns;

		if (t_idle + need + RUN_FEED_LAG_NS > cap)
			cap = t_idle + need + RUN_FEED_LAG_NS;
	}
	for (;;) {
		now = now_ns();
		run_pump(rc, now);
		if (run_should_stop(rc))
			break;
		short_meters = 0;
		for (m = 0; m < rc->nmeters; m++)
			if (rc->meters[m].ej.ph[PHASE_IDLE].samples < jo->idle_samples)
				short_meters++;
		if (now >= deadline + RUN_FEED_LAG_NS && !short_meters)
			break;
		if (now >= cap) {
			log_warn(NULL, "job '%s': idle baseline got fewer than %u samples in %s",
				 jo->name, jo->idle_samples, fmt_duration(now - t_idle, a, sizeof(a)));
			break;
		}
		run_progress(rc, "%s: idle baseline %s / %s", jo->name,
			     fmt_duration(now - t_idle, a, sizeof(a)),
			     fmt_duration(jo->idle_ns, b, sizeof(b)));
		sleep_ns(RUN_PUMP_NS);
	}
	return t_idle;
}

/* Tail: until power is back within tolerance of idle for tail_hold, or tail_max. */
static uint64_t phase_tail(struct run_ctx *rc, const struct job_opts *jo, uint64_t t_end)
{
	uint64_t cap = t_end + jo->tail_max_ns, now, cut, t_tail_end, bound;
	unsigned m, settled, have;
	char a[32];

	set_phase(rc, PHASE_TAIL, t_end);
	if (!rc->nmeters)
		return t_end;
	for (;;) {
		now = now_ns();
		/* Never feed past the cap: what is fed stays in the tail's totals. */
		if (now > cap + RUN_FEED_LAG_NS)
			now = cap + RUN_FEED_LAG_NS;
		run_pump(rc, now);
		cut = now - RUN_FEED_LAG_NS;
		settled = 0;
		for (m = 0; m < rc->nmeters; m++)
			settled += !!energy_tail_settled(&rc->meters[m].ej, jo->tail_tolerance,
							 jo->tail_hold_ns);
		if (settled == rc->nmeters && cut > t_end) {
			t_tail_end = cut < cap ? cut : cap;
			break;
		}
		if (cut >= cap) {
			t_tail_end = cap;
			break;
		}
		if (run_should_stop(rc)) {
			t_tail_end = cut > t_end ? cut : t_end;
			break;
		}
		run_progress(rc, "%s: tail %s, waiting for power to settle", jo->name,
			     fmt_duration(now > t_end ? now - t_end : 0, a, sizeof(a)));
		sleep_ns(RUN_PUMP_NS);
	}
	for (m = 0; m < rc->nmeters; m++)
		energy_phase_end(&rc->meters[m].ej, PHASE_TAIL, t_tail_end);
	/* The segment that crosses the tail's end needs the sample after it. */
	bound = now_ns() + RUN_FEED_LAG_NS + 100 * NS_PER_MS;
	for (m = 0; m < rc->nmeters; m++)
		bound += 2 * meter_info(rc->meters[m].dev)->period_ns;
	for (;;) {
		now = now_ns();
		run_pump(rc, now);
		have = 0;
		for (m = 0; m < rc->nmeters; m++)
			have += rc->meters[m].have_last && rc->meters[m].last.t_ns >= t_tail_end;
		/* Bounded, so it runs after Ctrl-C too: the stopped job's last samples count. */
		if (have == rc->nmeters || now >= bound)
			break;
		sleep_ns(RUN_PUMP_NS / 2);
	}
	return t_tail_end;
}

static void start_temps(struct run_ctx *rc, struct temps *t)
{
	sources_temps_reset(rc->sources);
	sources_temps_get(rc->sources, t);
}

static double mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / 1e6 / ((double)ns / 1e9) : 0.0;
}

int run_job_loop(struct run_ctx *rc, const struct job_opts *jo, unsigned loop)
{
	uint64_t t_idle, t_active, t_end, t_tail_end, t_iv, now, total, done;
	uint64_t prev_ios[DDIR_COUNT] = { 0 }, prev_bytes[DDIR_COUNT] = { 0 };
	uint64_t d_ios[DDIR_COUNT], d_bytes[DDIR_COUNT];
	struct bench_progress p;
	struct bench_result br;
	struct temps t_start;
	struct bench *b = NULL;
	struct job_report *j;
	struct run_times times;
	struct run_io io;
	int stopping = 0, rc_start, d;
	double rate = 0;
	char eta[32];

	memset(&br, 0, sizeof(br));
	start_temps(rc, &t_start);
	t_idle = phase_idle(rc, jo);
	t_active = now_ns();
	if (run_should_stop(rc)) {
		br.status = BENCH_INTERRUPTED;
		br.t_start_ns = br.t_end_ns = t_active;
	} else {
		rc_start = bench_start(jo, rc->tg.path, &b);
		if (rc_start) {
			br.status = BENCH_FAILED;
			br.err = rc_start;
			snprintf(br.errmsg, sizeof(br.errmsg), "could not start: %s",
				 strerror(-rc_start));
			br.t_start_ns = br.t_end_ns = t_active;
		} else {
			/*
			 * The active phase starts with the first I/O, after the workers have
			 * opened the file and filled their buffers, so that energy and IOPS
			 * share one window. Samples are fed RUN_FEED_LAG_NS late, so setting
			 * the boundary now still comes before the samples around it.
			 */
			t_active = bench_start_ns(b);
		}
	}
	set_phase(rc, PHASE_ACTIVE, t_active);
	total = jo->size * jo->numjobs;
	t_iv = t_active;
	while (b && !bench_wait(b, RUN_PUMP_NS)) {
		if (run_should_stop(rc) && !stopping) {
			bench_stop(b);
			stopping = 1;
		}
		now = now_ns();
		run_pump(rc, now);
		bench_get_progress(b, &p);
		if (now - t_iv >= jo->interval_ns) {
			for (d = 0; d < DDIR_COUNT; d++) {
				d_ios[d] = p.ios[d] - prev_ios[d];
				d_bytes[d] = p.bytes[d] - prev_bytes[d];
				prev_ios[d] = p.ios[d];
				prev_bytes[d] = p.bytes[d];
			}
			run_output_interval(rc, jo->name, loop, t_iv, now, d_ios, d_bytes);
			rate = mbps(d_bytes[0] + d_bytes[1], now - t_iv);
			t_iv = now;
		}
		done = p.bytes[0] + p.bytes[1];
		if (t_iv == t_active) /* before the first interval: the average so far */
			rate = mbps(done, now - t_active);
		if (rate > 0 && total > done)
			fmt_duration((uint64_t)((double)(total - done) / (rate * 1e6) * 1e9), eta,
				     sizeof(eta));
		else
			snprintf(eta, sizeof(eta), "-");
		run_progress(rc, "%s [%u/%u] %3.0f%%  %.1f MB/s  %.0f IOPS  ETA %s", jo->name,
			     loop, jo->loops, total ? 100.0 * (double)done / (double)total : 0.0,
			     rate, rate > 0 ? rate * 1e6 / (double)jo->bs : 0.0, eta);
	}
	if (b) {
		/* Drop the marker before the join: its edge should trail the last I/O by as
		 * little as possible. */
		mark_phase(rc, PHASE_TAIL);
		bench_finish(b, &br);
		for (d = 0; d < DDIR_COUNT; d++) {
			d_ios[d] = br.dir[d].total_ios - prev_ios[d];
			d_bytes[d] = br.dir[d].io_bytes - prev_bytes[d];
		}
		t_end = br.t_end_ns > t_active ? br.t_end_ns : now_ns();
		if (t_end > t_iv)
			run_output_interval(rc, jo->name, loop, t_iv, t_end, d_ios, d_bytes);
	} else {
		t_end = now_ns();
	}
	t_tail_end = phase_tail(rc, jo, t_end);
	run_progress_clear(rc);

	j = report_add_job(&rc->rep);
	report_job_from_bench(j, jo, loop, &br);
	times = (struct run_times){ t_idle, t_active, t_end, t_tail_end };
	io.bytes = br.dir[0].io_bytes + br.dir[1].io_bytes;
	io.ios = br.dir[0].total_ios + br.dir[1].total_ios;
	run_job_report(rc, jo, j, &times, &io, &t_start);
	if (br.status == BENCH_FAILED)
		rc->any_failed = 1;
	return 0;
}

/* The command gets default signal dispositions: iowatt ignores SIGPIPE and catches
 * SIGINT/SIGTERM/SIGHUP, and an ignored signal would stay ignored across exec. */
static int spawn_command(pid_t *pid, char **argv)
{
	posix_spawnattr_t attr;
	sigset_t def, none;
	int err;

	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	sigaddset(&def, SIGQUIT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	err = posix_spawnp(pid, argv[0], NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return err;
}

/* How the command ended, into the job. */
static void command_status(struct run_ctx *rc, struct job_report *j, int err, int forwarded,
			   int status)
{
	j->status = err || forwarded ? REPORT_INTERRUPTED : REPORT_OK;
	if (err && err != -EINTR) {
		j->status = REPORT_FAILED;
		j->error = xstrdup(strerror(-err));
		rc->any_failed = 1;
		return;
	}
	if (err)
		return;
	if (WIFEXITED(status))
		j->exit_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		j->exit_signal = WTERMSIG(status);
	/* The figures are kept either way; a command that failed is not a clean run. */
	if (!forwarded && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		j->status = REPORT_FAILED;
		j->error = xstrdup(WIFEXITED(status) ? "the command exited non-zero"
						      : "the command was killed");
		rc->any_failed = 1;
	}
}

int run_command(struct run_ctx *rc, const struct job_opts *jo, char **argv)
{
	struct run_times t;
	struct run_io io = { 0, 0 };
	struct temps t_start;
	struct job_report *j;
	pid_t pid = -1;
	int status = 0, err, forwarded = 0, i;
	char a[32];

	start_temps(rc, &t_start);
	t.idle_ns = phase_idle(rc, jo);
	t.active_ns = now_ns();
	set_phase(rc, PHASE_ACTIVE, t.active_ns);
	err = run_should_stop(rc) ? -EINTR : spawn_command(&pid, argv);
	if (err > 0) {
		log_err(NULL, "cannot run '%s': %s", argv[0], strerror(err));
		err = -err;
	}
	while (!err) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (run_signal && !forwarded) {
			kill(pid, run_signal);
			forwarded = 1;
		}
		run_pump(rc, now_ns());
		run_progress(rc, "measuring '%s' %s", argv[0],
			     fmt_duration(now_ns() - t.active_ns, a, sizeof(a)));
		sleep_ns(RUN_PUMP_NS);
	}
	t.end_ns = now_ns();
	mark_phase(rc, PHASE_TAIL);
	t.tail_end_ns = phase_tail(rc, jo, t.end_ns);
	run_progress_clear(rc);

	j = report_add_job(&rc->rep);
	j->jobname = xstrdup(jo->name);
	j->loop = 1;
	for (i = 0; argv[i]; i++)
		;
	j->command = xcalloc((size_t)i + 1, sizeof(*j->command));
	for (j->ncommand = 0; argv[j->ncommand]; j->ncommand++)
		j->command[j->ncommand] = xstrdup(argv[j->ncommand]);
	j->phases = xcalloc(1, sizeof(*j->phases));
	command_status(rc, j, err, forwarded, status);
	run_job_report(rc, NULL, j, &t, &io, &t_start);
	return err == -EINTR ? 0 : err;
}
