/* SPDX-License-Identifier: MIT */
/* The `run` and `measure` command lines: run options, job flags over a profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_args.h"
#include "cli/run_help.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "run/run_config.h"
#include "run/run_options.h"

#define MOD "options"

struct parse_state {
	struct run_args a;
	struct job_setting *flags; /* job flags, applied to every job once they exist */
	size_t nflags;
	const char *positional;
	int measure;
	int cmd_at; /* argv index of the measured command, 0 = none */
};

/* Job flags are checked on a scratch job as they come, so errors name the flag at once. */
static int take_job_flag(struct parse_state *ps, const struct opt_desc *d, const char *value,
			 const char *spelled)
{
	struct job_opts scratch;
	char err[400];

	if (ps->measure && !job_option_is_phase(d)) {
		log_err(MOD, "option --%s: measure runs a command, not an I/O job; only the "
			"metering-phase options apply (idle, idle_samples, tail_tolerance, "
			"tail_hold, tail_max, interval)", spelled);
		return -EINVAL;
	}
	job_defaults(&scratch);
	if (opt_set(d, &scratch, value, err, sizeof(err))) {
		log_err(MOD, "option --%s: %s", spelled, err);
		return -EINVAL;
	}
	ps->flags[ps->nflags].d = d;
	ps->flags[ps->nflags].value = value;
	ps->nflags++;
	return 0;
}

static int take_option(struct parse_state *ps, const struct opt_desc *rd,
		       const struct opt_desc *jd, const char *value, const char *spelled)
{
	char err[400];

	if (jd)
		return take_job_flag(ps, jd, value, spelled);
	if (ps->measure && run_option_run_only(rd)) {
		log_err(MOD, "option --%s is for iowatt run: measure meters a command, with no "
			"profile and no scratch file", spelled);
		return -EINVAL;
	}
	if (opt_set(rd, &ps->a, value, err, sizeof(err))) {
		log_err(MOD, "option --%s: %s", spelled, err);
		return -EINVAL;
	}
	return 0;
}

/* --name, --name=value or --name value; *i advances past a consumed value. */
static int parse_long(struct parse_state *ps, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '='), *value = NULL;
	const struct opt_desc *rd, *jd = NULL, *jt;
	char name[64];
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg), njob;

	if (n >= sizeof(name)) {
		log_err(MOD, "unknown option --%.*s", (int)n, arg);
		return -EINVAL;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	jt = job_option_table(&njob);
	rd = opt_find(run_options, run_options_count, name);
	if (!rd)
		jd = opt_find(jt, njob, name);
	if (!rd && !jd) {
		const char *hint = opt_suggest(run_options, run_options_count, name);

		if (!hint)
			hint = opt_suggest(jt, njob, name);
		if (hint)
			log_err(MOD, "unknown option --%s; did you mean --%s?", name, hint);
		else
			log_err(MOD, "unknown option --%s (iowatt %s --help lists them)", name,
				ps->measure ? "measure" : "run");
		return -EINVAL;
	}
	if (opt_takes_value(rd ? rd : jd)) {
		if (eq) {
			value = eq + 1;
		} else if (*i + 1 < argc) {
			value = argv[++*i];
		} else {
			log_err(MOD, "option --%s needs a value", name);
			return -EINVAL;
		}
	} else if (eq) {
		log_err(MOD, "option --%s takes no value", name);
		return -EINVAL;
	}
	return take_option(ps, rd, jd, value, name);
}

/* -q, -vv, -o DIR, -oDIR. */
static int parse_short(struct parse_state *ps, int argc, char **argv, int *i)
{
	const char *p = argv[*i] + 1, *value;
	const struct opt_desc *d;
	size_t k;

	for (; *p; p++) {
		d = NULL;
		for (k = 0; k < run_options_count; k++)
			if (run_options[k].shortopt == *p)
				d = &run_options[k];
		if (!d) {
			log_err(MOD, "unknown option -%c (iowatt %s --help lists them)", *p,
				ps->measure ? "measure" : "run");
			return -EINVAL;
		}
		if (!opt_takes_value(d)) {
			if (take_option(ps, d, NULL, NULL, d->name))
				return -EINVAL;
			continue;
		}
		if (p[1]) {
			value = p + 1;
		} else if (*i + 1 < argc) {
			value = argv[++*i];
		} else {
			log_err(MOD, "option -%c needs a value", *p);
			return -EINVAL;
		}
		return take_option(ps, d, NULL, value, d->name);
	}
	return 0;
}

static int parse_argv(struct parse_state *ps, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (!ps->measure) {
				log_err(MOD, "'--' is for iowatt measure: iowatt run takes a profile "
					"and options");
				return -EINVAL;
			}
			ps->cmd_at = i + 1;
			return 0;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (parse_long(ps, argc, argv, &i))
				return -EINVAL;
		} else if (a[0] == '-' && a[1]) {
			if (parse_short(ps, argc, argv, &i))
				return -EINVAL;
		} else if (ps->measure) {
			/* Like env(1): options end at the command. */
			ps->cmd_at = i;
			return 0;
		} else if (ps->positional) {
			log_err(MOD, "more than one profile given ('%s' and '%s')", ps->positional,
				a);
			return -EINVAL;
		} else {
			ps->positional = a;
		}
	}
	return 0;
}

static int build_measure(struct parse_state *ps, int argc, char **argv, struct run_config *cfg)
{
	int i;

	if (ps->positional || ps->a.run.profile) {
		log_err(MOD, "measure meters a command and takes no profile");
		return -EINVAL;
	}
	if (!ps->cmd_at || ps->cmd_at >= argc) {
		log_err(MOD, "measure needs a command: iowatt measure [OPTIONS] -- COMMAND "
			"[ARGS...]");
		return -EINVAL;
	}
	cfg->cmd_argc = argc - ps->cmd_at;
	cfg->cmd_argv = xcalloc((size_t)cfg->cmd_argc + 1, sizeof(char *));
	for (i = 0; i < cfg->cmd_argc; i++)
		cfg->cmd_argv[i] = xstrdup(argv[ps->cmd_at + i]);
	return run_config_measure_job(cfg, ps->flags, ps->nflags);
}

static int build_run(struct parse_state *ps, struct run_config *cfg)
{
	const char *prof = ps->a.run.profile;

	if (ps->positional && prof) {
		log_err(MOD, "two profiles given ('%s' and -p %s)", ps->positional, prof);
		return -EINVAL;
	}
	if (!cfg->run.target) {
		log_err(MOD, "option --target is required: give a directory on the device to test "
			"(a scratch file is created there and removed afterwards), e.g. "
			"--target /mnt/usb");
		return -EINVAL;
	}
	if (ps->positional) {
		free(cfg->run.profile);
		cfg->run.profile = xstrdup(ps->positional);
	}
	return run_config_jobs(cfg, ps->flags, ps->nflags);
}

int run_config_parse(int argc, char **argv, struct run_config *cfg, int measure_mode)
{
	struct parse_state ps;
	int level, rc;

	memset(cfg, 0, sizeof(*cfg));
	memset(&ps, 0, sizeof(ps));
	ps.measure = measure_mode;
	ps.flags = xcalloc((size_t)(argc > 0 ? argc : 1), sizeof(*ps.flags));
	opt_apply_defaults(run_options, run_options_count, &ps.a);
	ps.a.run.progress = -1; /* auto: the flags only ever set 1 or 0 */
	rc = parse_argv(&ps, argc, argv);
	cfg->run = ps.a.run; /* the strings now belong to cfg */
	if (rc)
		goto out;
	if (ps.a.help) {
		run_help_print(stdout, measure_mode);
		rc = 1;
		goto out;
	}
	level = LOG_INFO - ps.a.quiet + ps.a.verbose;
	log_set_level(level < LOG_ERR ? LOG_ERR : level > LOG_DEBUG ? LOG_DEBUG : level);
	if (cfg->run.no_meter && cfg->run.nmeters) {
		log_err(MOD, "options --no-meter and --meter contradict each other");
		rc = -EINVAL;
		goto out;
	}
	rc = measure_mode ? build_measure(&ps, argc, argv, cfg) : build_run(&ps, cfg);
out:
	free(ps.flags);
	if (rc)
		run_config_free(cfg);
	return rc;
}
