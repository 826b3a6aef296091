/* SPDX-License-Identifier: MIT */
/* `iowatt run` and `iowatt measure`: set up target, meters and outputs, run every job. */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_args.h"
#include "core/log.h"
#include "core/options.h"
#include "core/util.h"
#include "core/version.h"
#include "report/summary.h"
#include "result/result.h"
#include "run/context.h"
#include "run/run.h"

static uint64_t first_signal_ns;

/*
 * The first SIGINT/SIGTERM asks for an orderly stop (drain, partial result, cleanup). A
 * second one means "out now", but only if it comes later than 0.5 s: `timeout` and
 * terminals can deliver one Ctrl-C twice (to the process group and forwarded), and that
 * must not cost the user the partial result.
 */
static void on_signal(int sig)
{
	uint64_t t = now_ns(); /* clock_gettime is async-signal-safe */

	if (run_signal) {
		if (t - first_signal_ns < 500 * NS_PER_MS)
			return;
		target_cleanup_signal_safe();
		_exit(128 + sig);
	}
	first_signal_ns = t;
	run_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* An ssh session to the board that drops must not leave the test file behind. */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

static int exit_code_for(int err)
{
	switch (err) {
	case -EINVAL:
	case -EPERM:
	case -EACCES:
	case -EEXIST:
	case -ENOENT:
	case -EBUSY:
	case -ENODEV:
	case -ENOTSUP:
		return EXIT_USAGE;
	default:
		return EXIT_FAIL;
	}
}

static char *command_line(int argc, char **argv, int measure)
{
	size_t len = 32;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	s = xmalloc(len);
	snprintf(s, len, "iowatt %s", measure ? "measure" : "run");
	for (i = 1; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
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

/* The run-level part of the report, known before the first job. */
static void report_begin(struct run_ctx *rc, int argc, char **argv, int measure)
{
	struct run_report *r = &rc->rep;
	char created[32];
	time_t t = time(NULL);
	struct tm tm;
	unsigned m;

	gmtime_r(&t, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->schema_version = RESULT_SCHEMA_VERSION;
	r->tool.name = xstrdup("iowatt");
	r->tool.version = xstrdup(iowatt_version);
	r->created = xstrdup(created);
	r->command = command_line(argc, argv, measure);
	r->profile = rc->cfg->run.profile ? xstrdup(rc->cfg->run.profile) : NULL;
	r->status = REPORT_RUNNING;
	r->t0_ns = rc->t0_ns;
	for (m = 0; m < rc->nmeters; m++) {
		r->emulated |= !!meter_info(rc->meters[m].dev)->emulated;
		r->manual |= !!meter_info(rc->meters[m].dev)->manual;
	}
	if (rc->have_target)
		r->context = context_collect(&rc->tg, rc->cfg->run.sysfs_root ?
						      rc->cfg->run.sysfs_root : "");
	r->files.intervals = xstrdup(basename(rc->intervals_path));
	r->files.samples = rc->nmeters ? xstrdup(basename(rc->samples_path)) : NULL;
	r->jobs = xcalloc(1, sizeof(*r->jobs));
}

/* Every spec is checked before any meter is opened: a typo in the second one must not
 * cost the first one's Bluetooth connection. */
static int open_meters(struct run_ctx *rc)
{
	const struct run_opts *ro = &rc->cfg->run;
	struct meter_dev *dev;
	unsigned i, m;
	int err;

	for (i = 0; i < ro->nmeters; i++) {
		err = meter_parse_spec(ro->meters[i], ro->sysfs_root ? ro->sysfs_root : "", &dev);
		if (err)
			return err;
		meter_set_events(dev, rc->queue);
		rc->meters[rc->nmeters++].dev = dev;
	}
	for (m = 0; m < rc->nmeters; m++) {
		err = meter_open(rc->meters[m].dev);
		if (err)
			return err;
	}
	return 0;
}

/* A 2 Hz tester needs 10 s of active phase for enough samples: say so before the run. */
static void announce_meters(const struct run_ctx *rc)
{
	unsigned m;
	char a[32], b[32];

	for (m = 0; m < rc->nmeters; m++) {
		const struct meter_info *in = meter_info(rc->meters[m].dev);
		uint64_t need = ENERGY_MIN_SAMPLES * in->period_ns;

		log_info(NULL, "meter %s: %s%s, one reading every %s: a job needs an active "
			       "phase of at least %s for a valid result (%u samples); shorter jobs "
			       "are reported invalid with the size that would do",
			 in->spec, in->model, in->emulated ? " [EMULATED]" : "",
			 fmt_duration(in->period_ns, a, sizeof(a)), fmt_duration(need, b, sizeof(b)),
			 ENERGY_MIN_SAMPLES);
		if (in->emulated)
			printf("NOTE: power figures in this run come from an EMULATED meter "
			       "(iowatt emulate), not from hardware.\n");
		if (in->manual)
			printf("NOTE: power figures from %s are hand readings (manual meter).\n",
			       in->spec);
	}
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
		.events = rc->queue,
	};
	int err;

	if (ro->mark_gpio) {
		err = gpio_marker_open(ro->mark_gpio, &rc->marker);
		if (err)
			return err;
	}
	err = sources_open(&sc, &rc->sources);
	return err ? err : sources_start(rc->sources);
}

static void shutdown_meters(struct run_ctx *rc)
{
	unsigned m;

	for (m = 0; m < rc->nmeters; m++)
		meter_thread_stop(rc->meters[m].dev);
	sources_stop(rc->sources);
}

static void free_ctx(struct run_ctx *rc)
{
	unsigned m;

	for (m = 0; m < rc->nmeters; m++) {
		meter_close(rc->meters[m].dev);
		meter_free(rc->meters[m].dev);
	}
	sources_close(rc->sources);
	gpio_marker_close(rc->marker);
	run_output_close(rc);
	event_queue_free(rc->queue);
	if (rc->have_target)
		target_cleanup(&rc->tg);
	report_free(&rc->rep);
	free(rc->json_path);
	free(rc->intervals_path);
	free(rc->samples_path);
	free(rc);
}

/* Every event of the run, once it has ended. */
static void report_events(struct run_ctx *rc)
{
	struct run_report *r = &rc->rep;
	size_t i;

	r->events = xcalloc(rc->nevents + 1, sizeof(*r->events));
	for (i = 0; i < rc->nevents; i++) {
		const struct run_event *ev = &rc->events[i];
		struct report_event *out = &r->events[r->nevents++];

		out->t_ns = ev->t_ns;
		out->t_end_ns = ev->t_end_ns;
		out->kind = ev->kind;
		out->source = xstrdup(ev->source);
		out->text = xstrdup(ev->text);
	}
}

/* A job whose file could not be prepared: its options and why. */
static void report_unprepared(struct run_ctx *rc, const struct job_opts *jo, int err)
{
	int stopped = run_should_stop(rc);
	struct job_report *j = report_add_job(&rc->rep);

	rc->any_failed |= !stopped;
	j->jobname = xstrdup(jo->name);
	j->loop = 1;
	j->status = stopped ? REPORT_INTERRUPTED : REPORT_FAILED;
	j->error = xstrdup(stopped ? "stopped while preparing the file" : strerror(-err));
	report_job_options(j, jo);
}

static int run_main(int argc, char **argv, int measure)
{
	struct run_config cfg;
	struct run_ctx *rc;
	int status;
	size_t j;
	unsigned loop;
	char *stem;
	int err, code = EXIT_OK;

	memset(&cfg, 0, sizeof(cfg));
	err = run_config_parse(argc, argv, &cfg, measure);
	if (err) {
		run_config_free(&cfg);
		return err == 1 ? EXIT_OK : EXIT_USAGE;
	}
	rc = xcalloc(1, sizeof(*rc));
	rc->cfg = &cfg;
	rc->queue = event_queue_new();
	rc->t0_ns = now_ns();
	rc->progress = cfg.run.progress < 0 ? isatty(STDERR_FILENO) : cfg.run.progress;
	install_signals();

	if (!measure) {
		err = target_open(&rc->tg, &cfg.run, cfg.jobs, cfg.njobs);
		if (err)
			goto fail;
		rc->have_target = 1;
		rc->tg.stop_flag = &run_signal; /* Ctrl-C also stops a long layout */
		for (j = 0; j < cfg.njobs; j++) {
			err = target_check_job(&rc->tg, &cfg.jobs[j]);
			if (err)
				goto fail;
		}
	}
	err = open_meters(rc);
	if (err)
		goto fail;
	announce_meters(rc);
	err = open_sources(rc);
	if (err)
		goto fail;
	stem = profile_stem(&cfg, measure);
	err = run_output_open(rc, stem);
	free(stem);
	if (err)
		goto fail;
	report_begin(rc, argc, argv, measure);
	for (j = 0; j < rc->nmeters; j++) {
		err = meter_thread_start(rc->meters[j].dev);
		if (err)
			goto fail;
	}

	for (j = 0; j < cfg.njobs && !run_should_stop(rc); j++) {
		const struct job_opts *jo = &cfg.jobs[j];

		if (measure) {
			err = run_command(rc, jo, cfg.cmd_argv);
			break;
		}
		err = target_prepare_job(&rc->tg, jo);
		if (err) {
			report_unprepared(rc, jo, err);
			run_write_result(rc, REPORT_RUNNING);
			continue;
		}
		for (loop = 1; loop <= jo->loops && !run_should_stop(rc); loop++) {
			run_job_loop(rc, jo, loop);
			/* Rewritten after every job: a crash keeps what was done. */
			run_write_result(rc, REPORT_RUNNING);
		}
	}
	shutdown_meters(rc);
	run_pump(rc, now_ns() + RUN_FEED_LAG_NS);
	report_events(rc);

	if (run_signal || rc->stop_reason)
		status = REPORT_INTERRUPTED;
	else if (rc->any_failed)
		status = REPORT_FAILED;
	else
		status = REPORT_OK;
	run_output_flush(rc);
	err = run_write_result(rc, status);
	report_print_summary(stdout, &rc->rep);
	if (!err)
		printf("result: %s\n", rc->json_path);
	printf("series: %s\n", rc->intervals_path);
	if (rc->nmeters)
		printf("samples: %s\n", rc->samples_path);
	fflush(stdout);

	if (run_signal == SIGINT)
		code = EXIT_SIGINT;
	else if (run_signal)
		code = 128 + run_signal; /* 143 for SIGTERM, 129 for SIGHUP */
	else if (rc->stop_reason || rc->any_failed || err)
		code = EXIT_FAIL;
	free_ctx(rc);
	run_config_free(&cfg);
	return code;

fail:
	shutdown_meters(rc);
	code = exit_code_for(err);
	free_ctx(rc);
	run_config_free(&cfg);
	return code;
}

int cmd_run(int argc, char **argv)
{
	return run_main(argc, argv, 0);
}

int cmd_measure(int argc, char **argv)
{
	return run_main(argc, argv, 1);
}
