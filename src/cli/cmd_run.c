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

static json_t *new_root(struct run_ctx *rc, int argc, char **argv, int measure)
{
	char created[32], *cmd;
	time_t t = time(NULL);
	struct tm tm;
	json_t *root, *ctx;
	unsigned m;
	int emulated = 0, manual = 0;

	gmtime_r(&t, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (m = 0; m < rc->nmeters; m++) {
		emulated |= meter_info(rc->meters[m].dev)->emulated;
		manual |= meter_info(rc->meters[m].dev)->manual;
	}
	cmd = command_line(argc, argv, measure);
	ctx = rc->have_target ? context_collect(&rc->tg, rc->cfg->run.sysfs_root ?
						 rc->cfg->run.sysfs_root : "") : json_object();
	root = json_pack("{s:i,s:{s:s,s:s},s:s,s:s,s:s*,s:s,s:I,s:b,s:o,s:[],s:{s:s,s:s*},s:[]}",
			 "schema_version", RESULT_SCHEMA_VERSION, "tool", "name", "iowatt",
			 "version", iowatt_version, "created", created, "command", cmd, "profile",
			 rc->cfg->run.profile, "status", "running", "t0_ns",
			 (json_int_t)rc->t0_ns, "emulated", emulated, "context", ctx ? ctx :
			 json_object(), "meters", "files", "intervals",
			 basename(rc->intervals_path), "samples",
			 rc->nmeters ? basename(rc->samples_path) : NULL, "jobs");
	free(cmd);
	json_object_set_new(root, "manual", json_boolean(manual));
	return root;
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

/* A 2 Hz tester needs 10 s of active phase for 20 samples: say so before the run. */
static void announce_meters(const struct run_ctx *rc)
{
	unsigned m;
	char a[32], b[32];

	for (m = 0; m < rc->nmeters; m++) {
		const struct meter_info *in = meter_info(rc->meters[m].dev);
		uint64_t need = 20 * in->period_ns;

		log_info(NULL, "meter %s: %s%s, one reading every %s: a job needs an active "
			       "phase of at least %s for a valid result (20 samples); shorter jobs "
			       "are reported invalid with the size that would do",
			 in->spec, in->model, in->emulated ? " [EMULATED]" : "",
			 fmt_duration(in->period_ns, a, sizeof(a)), fmt_duration(need, b, sizeof(b)));
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
	json_decref(rc->root);
	free(rc->json_path);
	free(rc->intervals_path);
	free(rc->samples_path);
	free(rc);
}

static void append_run_events(struct run_ctx *rc)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < rc->nevents; i++) {
		const struct run_event *ev = &rc->events[i];

		json_array_append_new(arr, json_pack("{s:I,s:I,s:s,s:s,s:s}", "t_ns",
						     (json_int_t)ev->t_ns, "t_end_ns",
						     (json_int_t)ev->t_end_ns, "kind",
						     event_kind_name(ev->kind), "source", ev->source,
						     "text", ev->text));
	}
	json_object_set_new(rc->root, "events", arr);
}

static int run_main(int argc, char **argv, int measure)
{
	struct run_config cfg;
	struct run_ctx *rc;
	const char *status;
	json_t *entry;
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
	rc->root = new_root(rc, argc, argv, measure);
	rc->jobs = json_object_get(rc->root, "jobs");
	for (j = 0; j < rc->nmeters; j++) {
		err = meter_thread_start(rc->meters[j].dev);
		if (err)
			goto fail;
	}

	for (j = 0; j < cfg.njobs && !run_should_stop(rc); j++) {
		const struct job_opts *jo = &cfg.jobs[j];

		if (measure) {
			err = run_command(rc, jo, cfg.cmd_argv, &entry);
			json_array_append_new(rc->jobs, entry);
			break;
		}
		err = target_prepare_job(&rc->tg, jo);
		if (err) {
			int stopped = run_should_stop(rc);

			rc->any_failed |= !stopped;
			entry = json_pack("{s:s,s:i,s:s,s:s,s:o}", "jobname", jo->name, "loop", 1,
					  "status", stopped ? "interrupted" : "failed", "error",
					  stopped ? "stopped while preparing the file" : strerror(-err),
					  "options", result_options_json(jo));
			json_array_append_new(rc->jobs, entry);
			run_write_result(rc, "running");
			continue;
		}
		for (loop = 1; loop <= jo->loops && !run_should_stop(rc); loop++) {
			run_job_loop(rc, jo, loop, &entry);
			json_array_append_new(rc->jobs, entry);
			/* Rewritten after every job: a crash keeps what was done. */
			run_write_result(rc, "running");
		}
	}
	shutdown_meters(rc);
	run_pump(rc, now_ns() + RUN_FEED_LAG_NS);
	append_run_events(rc);

	if (run_signal || rc->stop_reason)
		status = "interrupted";
	else if (rc->any_failed)
		status = "failed";
	else
		status = "ok";
	run_output_flush(rc);
	err = run_write_result(rc, status);
	result_print_summary(stdout, rc->root);
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
