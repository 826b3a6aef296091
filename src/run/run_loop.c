/* SPDX-License-Identifier: MIT */
/* The run loop: set up target, meters and outputs, run every job in rounds, write the result. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/repeats.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "io/bench.h"
#include "report/summary.h"
#include "run/context.h"
#include "run/dry_run.h"
#include "run/fio_cmdline.h"
#include "plan/meter_fit.h"
#include "plan/model_forecast.h"
#include "run/run.h"
#include "run/run_loop.h"
#include "plan/run_plan.h"
#include "sources/registry/registry.h"

/*
 * The result is rewritten while the run goes on so that a crash keeps what was done; at
 * most once a second, or a run of many short loops spends its time rewriting a growing
 * file (1200 loops took 113 s against 12.8 s for 300).
 */
#define CHECKPOINT_MIN_NS 1000000000ull

static void checkpoint(struct run_ctx *rc)
{
	uint64_t now = now_ns();

	if (rc->checkpoint_ns && now - rc->checkpoint_ns < CHECKPOINT_MIN_NS)
		return;
	result_builder_write(&rc->rb, rc->session, rc->out.json_path, RESULT_RUNNING);
	rc->checkpoint_ns = now_ns();
}

static char *profile_stem(const struct run_config *cfg, int measure)
{
	char *copy, *base, *dot, *stem;

	if (measure)
		return xstrdup("measure");
	if (!cfg->run.profile)
		return xstrdup("cli");
	copy = xstrdup(cfg->run.profile);
	base = basename(copy);
	dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
	stem = xstrdup(base);
	free(copy);
	return stem;
}

/* A 2 Hz tester needs 10 s of active phase for enough samples: say so before the run. */
static void announce_meters(const struct session *s)
{
	unsigned m;
	char a[32], b[32];
	int emulated = 0;

	for (m = 0; m < s->nmeters; m++) {
		const struct meter_info *in = meter_info(s->meters[m].dev);
		uint64_t need = ENERGY_MIN_SAMPLES * in->period_ns;

		log_info(NULL, "meter %s: %s%s, one reading every %s: a job needs an active "
			       "phase of at least %s for a valid result (%u samples); shorter jobs "
			       "are reported invalid with the size that would do",
			 in->spec, in->model, in->emulated ? " [EMULATED]" : "",
			 fmt_duration(in->period_ns, a, sizeof(a)), fmt_duration(need, b, sizeof(b)),
			 ENERGY_MIN_SAMPLES);
		if (in->emulated && !emulated++)
			printf("NOTE: power figures in this run come from an EMULATED meter "
			       "(iowatt emulate), not from hardware.\n");
		if (in->manual)
			printf("NOTE: power figures from %s are hand readings (manual meter).\n",
			       in->spec);
	}
}

/* The target file or device, checked against every job before anything runs. */
static int open_target(struct run_ctx *rc)
{
	const struct run_config *cfg = rc->cfg;
	const char *limit;
	uint64_t avail;
	size_t j;
	int err;

	/* Before the file exists: buffers that cannot be had leave nothing to clean up. */
	if (!mem_available(&avail, &limit))
		for (j = 0; j < cfg->njobs; j++)
			if ((err = bench_check_memory(&cfg->jobs[j], avail, limit)))
				return err;
	err = target_open(&rc->tg, &cfg->run, cfg->jobs, cfg->njobs);
	if (err)
		return err;
	rc->have_target = 1;
	rc->tg.stop_flag = &rc->stop.signal; /* Ctrl-C also stops a long layout */
	for (j = 0; j < cfg->njobs; j++) {
		err = target_check_job(&rc->tg, &cfg->jobs[j]);
		if (err)
			return err;
	}
	return 0;
}

/* measure --target: the disk whose counters give the command's I/O; nothing is opened. */
static int measure_disk(struct run_ctx *rc)
{
	const struct run_opts *ro = &rc->cfg->run;
	int err = run_plan_disk(ro->target, ro->sysfs_root, rc->io_disk, sizeof(rc->io_disk));

	if (err)
		log_err(NULL, "option --target %s: no block device under it (%s): its I/O cannot "
			"be counted", ro->target, strerror(-err));
	return err;
}

/* The marker output and the event sources (kernel log, Pi flags, --uv-gpio, temperatures). */
static int open_sources(struct run_ctx *rc)
{
	const struct run_opts *ro = &rc->cfg->run;
	struct sources_config sc = {
		.sysfs_root = ro->sysfs_root ? ro->sysfs_root : "",
		.kmsg_path = ro->kmsg_path ? ro->kmsg_path : "/dev/kmsg",
		.kmsg_replay = ro->kmsg_path && strcmp(ro->kmsg_path, "/dev/kmsg") != 0,
		.target_blockdev = rc->have_target ? rc->tg.blockdev : "",
		.uv_gpio = ro->uv_gpio,
		.events = rc->session->queue,
	};
	int err;

	if (ro->mark_gpio) {
		err = gpio_marker_open(ro->mark_gpio, &rc->session->marker);
		if (err)
			return err;
	}
	err = sources_open(&sc, source_registry, &rc->sources);
	return err ? err : sources_start(rc->sources);
}

/* The document's root, and the session's sinks: sample series, event record, stop, line. */
static void begin_result(struct run_ctx *rc, const char *command)
{
	const struct run_opts *ro = &rc->cfg->run;
	struct result_start st = {
		.command = command, .profile = ro->profile, .label = ro->label, .t0_ns = rc->t0_ns, .session = rc->session,
		.intervals_path = rc->out.intervals_path,
		.samples_path = rc->session->nmeters ? rc->out.samples_path : NULL,
	};

	if (rc->have_target)
		st.context = context_collect(&rc->tg, ro->sysfs_root ? ro->sysfs_root : "");
	result_builder_begin(&rc->rb, &st);
	session_add_sink(rc->session, &run_output_sink_ops, &rc->out);
	session_add_sink(rc->session, &result_builder_sink_ops, &rc->rb);
	session_add_sink(rc->session, &run_stop_sink_ops, &rc->stop);
	session_add_sink(rc->session, &progress_sink_ops, &rc->progress);
}

/* Everything before the first job. 0 or -errno (logged). */
static int set_up(struct run_ctx *rc, const char *command, int measure)
{
	const struct run_opts *ro = &rc->cfg->run;
	char *stem, disk[64];
	int err;

	err = run_output_check(ro, !measure);
	if (err)
		return err;
	/* A size source that cannot be read would be skipped later, after the I/O began. */
	err = size_auto_check_results(ro);
	if (!err && !measure)
		err = run_plan_open_basis(&rc->basis, ro, disk, sizeof(disk));
	if (!err && !measure && ro->costs_from)
		err = rate_basis_load(&rc->costs, ro->costs_from, "--costs-from");
	if (err)
		return err;
	if (!measure && (err = open_target(rc)))
		return err;
	if (measure && ro->target && (err = measure_disk(rc)))
		return err;
	/* The idle phases tell quiet readings by the target's I/O counters. */
	session_watch_target(rc->session, measure ? rc->io_disk : rc->tg.blockdev,
			     ro->sysfs_root);
	err = session_add_meters(rc->session, ro->meters, ro->nmeters, ro->sysfs_root);
	if (err)
		return err;
	announce_meters(rc->session);
	err = open_sources(rc);
	if (err)
		return err;
	stem = profile_stem(rc->cfg, measure);
	err = run_output_open(&rc->out, ro, stem, rc->session);
	free(stem);
	if (err)
		return err;
	begin_result(rc, command);
	return session_start(rc->session);
}

/* The rounds a job takes part in: repeat, or at most repeat_until_steady. */
static unsigned job_rounds(const struct job_opts *jo)
{
	return jo->repeat_until_steady ? jo->repeat_until_steady : jo->repeat;
}

/* The slowest open meter's period and spec; 0 without a meter. */
static uint64_t slowest_period(const struct run_ctx *rc, const char **spec)
{
	uint64_t best = 0;
	unsigned m;

	*spec = "";
	for (m = 0; m < rc->session->nmeters; m++) {
		const struct meter_info *in = meter_info(rc->session->meters[m].dev);

		if (in->period_ns > best) {
			best = in->period_ns;
			*spec = in->spec;
		}
	}
	return best;
}

/* The declared accuracy of the meter of that period (NULL: none). */
static const struct meter_accuracy *slowest_accuracy(const struct run_ctx *rc, uint64_t period)
{
	unsigned m;

	for (m = 0; period && m < rc->session->nmeters; m++)
		if (meter_info(rc->session->meters[m].dev)->period_ns == period)
			return &meter_info(rc->session->meters[m].dev)->accuracy;
	return NULL;
}

/* What the plan said of the job as it ran (its chosen size, its calibrated rate). */
static void record_meter_fit(struct run_ctx *rc, size_t j, struct job_result *res)
{
	struct model_forecast mf;
	struct meter_fit f;
	const char *spec;
	uint64_t period = slowest_period(rc, &spec);

	if (!period || res->meter_fit)
		return;
	meter_fit_judge(&rc->jobs[j], period, size_auto_choosing_bps(&rc->sizes[j]), &f);
	res->meter_fit = meter_fit_report(&f);
	if (res->meter_fit) {
		model_forecast_judge(&rc->jobs[j], period, slowest_accuracy(rc, period),
				     &rc->costs, &mf);
		res->meter_fit->model = model_forecast_report(&mf);
	}
}

/*
 * size=auto's retake: job j's loop again at size. The first run is set aside, not freed,
 * until the second has finished: stopped, failed or not prepared, the second is dropped
 * and the first kept as it was, so nothing measured is lost. Either way the run kept
 * finished its size.
 */
static void retake_loop(struct run_ctx *rc, size_t j, unsigned round, unsigned loop,
		       uint64_t size)
{
	struct run_result *rep = &rc->rb.rep;
	const struct job_opts *jo = &rc->jobs[j];
	struct job_result first = rep->jobs[rep->njobs - 1];
	struct size_choice before = rc->sizes[j];
	int err;

	target_job_done(&rc->tg, jo, 1);
	size_auto_retake(rc, j, &first, size);
	rep->njobs--; /* set aside: first owns its memory now */
	err = run_prepare_job(rc, j, jo);
	if (!err && !run_should_stop(rc)) {
		int done = run_job_loop(rc, jo, round, loop);

		if (done && !run_should_stop(rc)) {
			run_lead_in_retaken(rc, j, &first);
			result_job_free(&first);
			return;
		}
		result_drop_last_job(rep);
	}
	size_auto_retake_undo(rc, j, &before,
			      err ? "; that run could not be prepared: the first run kept"
			      : run_should_stop(rc) ? "; that run was stopped: the first run kept"
						    : "; that run did not finish: the first run kept");
	*result_add_job(rep) = first;
}

/* One job's turn in a round: size=auto resolved, then its loops back to back. */
static void run_job_round(struct run_ctx *rc, size_t j, unsigned round)
{
	const struct job_opts *jo = &rc->jobs[j];
	struct run_result *rep = &rc->rb.rep;
	unsigned loop;
	int err, finished = 1;

	err = size_auto_resolve(rc, j);
	if (!err)
		err = run_prepare_job(rc, j, jo);
	if (err) {
		rc->any_failed |= !run_should_stop(rc);
		result_builder_unprepared(&rc->rb, jo, round, err, run_should_stop(rc));
		run_lead_in_give(rc, j);
		checkpoint(rc);
		return;
	}
	for (loop = 1; loop <= jo->loops && !run_should_stop(rc); loop++) {
		int done = run_job_loop(rc, jo, round, loop);
		uint64_t size = done && !run_should_stop(rc)
					? size_auto_retake_size(rc, j, &rep->jobs[rep->njobs - 1])
					: 0;

		/* The calibrated size ran too short or too uncertain for the meter: the loop
		 * again, longer (size_auto.h). */
		if (size)
			retake_loop(rc, j, round, loop, size);
		run_lead_in_give(rc, j);
		rc->sizes[j].runs_kept++;
		finished &= done;
		if (rc->cfg->jobs[j].size_auto_ns)
			rep->jobs[rep->njobs - 1].size_auto =
				size_auto_report(&rc->sizes[j], jo, &rep->jobs[rep->njobs - 1]);
		record_meter_fit(rc, j, &rep->jobs[rep->njobs - 1]);
		checkpoint(rc);
	}
	target_job_done(&rc->tg, jo, finished && !run_should_stop(rc));
}

/* repeat_until_steady: after its round, a job that reached steady state is done. */
static int now_steady(struct run_ctx *rc, const struct job_opts *jo, unsigned round)
{
	struct result_steady st;
	int rc_steady;

	if (!jo->repeat_until_steady)
		return 0;
	rc_steady = result_steady_of(&rc->rb.rep, jo->name, &st);
	if (rc_steady == 1)
		log_info(NULL, "job '%s': steady on %s after round %u (rounds %u-%u within "
			       "%.1f %% of their mean, fit line %.1f %%): no more rounds",
			 jo->name, st.metric, round, st.first_round, st.last_round,
			 st.range_rel * 100, st.slope_rel * 100);
	free(st.metric);
	return rc_steady == 1;
}

/* The slowest meter's sample period: what size=auto sizes for (0 without a meter). */
static uint64_t slowest_period_ns(const struct session *s)
{
	uint64_t p = 0;
	unsigned m;

	for (m = 0; m < s->nmeters; m++)
		if (meter_info(s->meters[m].dev)->period_ns > p)
			p = meter_info(s->meters[m].dev)->period_ns;
	return p;
}

/* The ETA's basis in a run: the earlier result, or rounds_done rounds of this one. */
static struct plan_basis run_basis(const struct run_ctx *rc, unsigned rounds_done, char *name,
				   size_t len)
{
	struct plan_basis in = {
		.metered = rc->session->nmeters > 0, .period_ns = slowest_period_ns(rc->session),
		.period_known = 1, .rounds_done = rounds_done, .name = name,
		.feed_lag_ns = SESSION_FEED_LAG_NS,
	};

	if (rounds_done) {
		in.rep = &rc->rb.rep;
		snprintf(name, len, "this run's first %u round%s", rounds_done,
			 rounds_done == 1 ? "" : "s");
	} else if (rc->basis.have) {
		in.rep = &rc->basis.rep;
		snprintf(name, len, "the earlier result %s", rc->basis.path);
	}
	return in;
}

/* The plan, before anything runs (the disk from the opened target). */
static void print_plan(const struct run_ctx *rc)
{
	char name[PATH_MAX + 64];
	const char *spec;
	uint64_t period = slowest_period(rc, &spec);
	struct plan_basis in = run_basis(rc, 0, name, sizeof(name));

	run_plan_print(stdout, rc->cfg, rc->tg.blockdev, &in);
	meter_fit_plan(stdout, rc->cfg, period, spec);
	model_forecast_plan(stdout, rc->cfg, period, slowest_accuracy(rc, period), &rc->costs);
	fflush(stdout);
}

/* The ETA again once calibrations or whole rounds have measured this run's own rates. */
static void print_eta(const struct run_ctx *rc, unsigned rounds_done, unsigned rounds)
{
	char name[PATH_MAX + 64], lead[96];
	struct plan_basis in = run_basis(rc, rounds_done, name, sizeof(name));

	in.sizes = rc->sizes;
	if (rounds_done)
		snprintf(lead, sizeof(lead), "estimated duration of rounds %u-%u", rounds_done + 1,
			 rounds);
	else
		snprintf(lead, sizeof(lead), "estimated duration after the calibrations");
	run_plan_eta(stdout, rc->cfg, &in, lead);
}

/*
 * Rounds: every job once, then again (A B C, A B C ...), so that warming up, a filling
 * cache or a drifting supply spreads over all jobs instead of landing on the last ones.
 */
static void run_jobs(struct run_ctx *rc, int measure)
{
	const struct run_config *cfg = rc->cfg;
	unsigned round, rounds = 0;
	unsigned char *done;
	size_t j;

	if (measure) {
		if (cfg->njobs && !run_should_stop(rc))
			run_command(rc, &cfg->jobs[0], cfg->cmd_argv);
		return;
	}
	done = xcalloc(cfg->njobs + 1, 1);
	rc->jobs = xcalloc(cfg->njobs + 1, sizeof(*rc->jobs));
	rc->sizes = xcalloc(cfg->njobs + 1, sizeof(*rc->sizes));
	rc->lead_in = xcalloc(cfg->njobs + 1, sizeof(*rc->lead_in));
	for (j = 0; j < cfg->njobs; j++) {
		rc->jobs[j] = cfg->jobs[j];
		if (job_rounds(&cfg->jobs[j]) > rounds)
			rounds = job_rounds(&cfg->jobs[j]);
	}
	/* --same-size: every size=auto job is sized before anything is measured; a job whose
	 * calibration failed tries again at its turn and is reported there */
	if (cfg->run.same_size) {
		size_auto_resolve_all(rc);
		print_eta(rc, 0, rounds);
	}
	for (round = 1; round <= rounds && !run_should_stop(rc); round++) {
		for (j = 0; j < cfg->njobs && !run_should_stop(rc); j++) {
			const struct job_opts *jo = &cfg->jobs[j];

			if (done[j] || round > job_rounds(jo))
				continue;
			if (rounds > 1)
				log_info(NULL, "round %u of %u: job '%s'", round, job_rounds(jo),
					 jo->name);
			run_job_round(rc, j, round);
			done[j] = now_steady(rc, jo, round);
		}
		if (round < rounds && !run_should_stop(rc))
			print_eta(rc, round, rounds);
	}
	free(done);
}

/* Drain what the meters still hold, write the final document, print the summary. */
static int finish(struct run_ctx *rc)
{
	int status = run_should_stop(rc) ? RESULT_INTERRUPTED
		     : rc->any_failed	  ? RESULT_FAILED : RESULT_OK;
	int err;

	session_stop(rc->session);
	sources_stop(rc->sources);
	session_pump(rc->session, now_ns() + SESSION_FEED_LAG_NS);
	result_builder_events(&rc->rb);
	run_take_temps(rc);
	err = result_builder_write(&rc->rb, rc->session, rc->out.json_path, status);
	summary_print_summary(stdout, &rc->rb.rep);
	if (!err)
		printf("result: %s\n", rc->out.json_path);
	printf("series: %s\n", rc->out.intervals_path);
	if (rc->session->nmeters)
		printf("samples: %s\n", rc->out.samples_path);
	fflush(stdout);
	return err;
}

/* What --strict judges: the finished jobs' verdicts (a failed or stopped job has its own
 * status). A fio job's row with no power of its own (its energy shared with another job's,
 * the command's row holding it) publishes no figure to judge. */
static void verdicts(const struct run_result *rep, struct run_outcome *out)
{
	size_t i;

	for (i = 0; i < rep->njobs; i++) {
		const struct job_result *j = &rep->jobs[i];

		if (j->status != RESULT_OK || !j->validity)
			continue;
		if (j->io_source && !strcmp(j->io_source, "fio") && !j->power && !j->validity->valid)
			continue;
		out->any_invalid |= !j->validity->valid;
		out->any_uncertain |= j->validity->valid && j->validity->uncertain;
	}
}

/* Sources push into the session's queue: they go first. */
static void tear_down(struct run_ctx *rc)
{
	free(rc->jobs);
	free(rc->sizes);
	free(rc->lead_in);
	rate_basis_close(&rc->basis);
	rate_basis_close(&rc->costs);
	sources_close(rc->sources);
	session_free(rc->session);
	wear_start(&rc->wear, NULL, NULL);
	run_output_close(&rc->out);
	if (rc->have_target)
		target_cleanup(&rc->tg);
	result_builder_free(&rc->rb);
	run_stop_unwatch(&rc->stop);
}

int run_execute(const struct run_config *cfg, const char *command, int measure,
		struct run_outcome *out)
{
	struct run_ctx rc;
	int err;

	memset(out, 0, sizeof(*out));
	if (cfg->run.explain)
		return fio_cmdline_print(stdout, cfg);
	if (cfg->run.dry_run)
		return run_dry(cfg);
	memset(&rc, 0, sizeof(rc));
	rc.cfg = cfg;
	rc.t0_ns = now_ns();
	rc.progress.enabled = cfg->run.progress < 0 ? isatty(STDERR_FILENO) : cfg->run.progress;
	rc.stop.on_undervoltage = cfg->run.stop_on_undervoltage;
	rc.stop.progress = &rc.progress;
	err = run_stop_watch(&rc.stop, target_cleanup_signal_safe);
	rc.session = session_new(cfg->run.uv_threshold_v);
	rc.session->cancel = &rc.stop.signal;
	result_builder_init(&rc.rb);
	if (!err)
		err = set_up(&rc, command, measure);
	if (!err) {
		if (!measure)
			print_plan(&rc);
		run_jobs(&rc, measure);
		out->ran = 1;
		err = finish(&rc);
	} else {
		/* A signal during set-up (a slow layout, a meter that does not answer) is the
		 * user's stop, not a failure of the set-up: out->signal says so. */
		session_stop(rc.session);
		sources_stop(rc.sources);
	}
	out->signal = rc.stop.signal;
	out->undervoltage = rc.stop.undervoltage;
	out->any_failed = rc.any_failed;
	verdicts(&rc.rb.rep, out);
	tear_down(&rc);
	return err;
}
