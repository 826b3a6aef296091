/* SPDX-License-Identifier: MIT */
/* The `run` and `measure` command lines: run options, job flags over a profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_args.h"
#include "cli/run_help.h"
#include "core/cmdline.h"
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
	struct cmdline_parse line; /* the profile, or measure's command, in its operands */
	int measure;
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
	if (!ps->measure && run_option_measure_only(rd)) {
		log_err(MOD, "option --%s is for iowatt measure: iowatt run starts no command",
			spelled);
		return -EINVAL;
	}
	if (opt_set(rd, &ps->a, value, err, sizeof(err))) {
		log_err(MOD, "option --%s: %s", spelled, err);
		return -EINVAL;
	}
	return 0;
}

/* The parser's table holds run's options before the job's: a name is run's first. */
static int take_parsed(struct cmdline_parse *p, const struct opt_desc *d, const char *value,
		       const char *spelled)
{
	struct parse_state *ps = p->ctx;
	const struct opt_desc *rd = opt_find(run_options, run_options_count, d->name), *jt, *jd;
	size_t njob;

	if (rd)
		return take_option(ps, rd, NULL, value, spelled);
	jt = job_option_table(&njob);
	jd = opt_find(jt, njob, d->name);
	return take_option(ps, NULL, jd, value, spelled);
}

/* Options, then the profile (run) or the command (measure) among the operands. */
static int parse_argv(struct parse_state *ps, int argc, char **argv)
{
	ps->line.cmd = run_cmdline(ps->measure);
	/* each knows the other's options too, to say why they do not apply */
	ps->line.opts = run_parse_options(&ps->line.nopts);
	ps->line.take = take_parsed;
	ps->line.ctx = ps;
	if (cmdline_parse(&ps->line, argc, argv))
		return -EINVAL;
	if (ps->line.dashdash && !ps->measure) {
		log_err(MOD, "'--' is for iowatt measure: iowatt run takes a profile and options");
		return -EINVAL;
	}
	if (!ps->measure && ps->line.noperands > 1) {
		log_err(MOD, "more than one profile given ('%s' and '%s')", ps->line.operands[0],
			ps->line.operands[1]);
		return -EINVAL;
	}
	return 0;
}

static int build_measure(struct parse_state *ps, struct run_config *cfg)
{
	int i;

	if (ps->a.run.profile) {
		log_err(MOD, "measure meters a command and takes no profile");
		return -EINVAL;
	}
	if (!ps->line.noperands) {
		log_err(MOD, "measure needs a command: iowatt measure [OPTIONS] -- COMMAND "
			"[ARGS...]");
		return -EINVAL;
	}
	cfg->cmd_argc = (int)ps->line.noperands;
	cfg->cmd_argv = xcalloc((size_t)cfg->cmd_argc + 1, sizeof(char *));
	for (i = 0; i < cfg->cmd_argc; i++)
		cfg->cmd_argv[i] = xstrdup(ps->line.operands[i]);
	return run_config_measure_job(cfg, ps->flags, ps->nflags);
}

static int build_run(struct parse_state *ps, struct run_config *cfg)
{
	const char *prof = ps->a.run.profile;
	const char *positional = ps->line.noperands ? ps->line.operands[0] : NULL;

	if (positional && prof) {
		log_err(MOD, "two profiles given ('%s' and -p %s)", positional, prof);
		return -EINVAL;
	}
	if (positional) {
		free(cfg->run.profile);
		cfg->run.profile = xstrdup(positional);
	}
	/* After the jobs: a fio job file's filename= is a target. */
	if (run_config_jobs(cfg, ps->flags, ps->nflags))
		return -EINVAL;
	if (!cfg->run.target) {
		log_err(MOD, "option --target is required: give a directory on the device to test "
			"(a scratch file is created there and removed afterwards), e.g. "
			"--target /mnt/usb");
		return -EINVAL;
	}
	return 0;
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
	if (ps.line.help) {
		cmdline_help(stdout, ps.line.cmd);
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
	rc = measure_mode ? build_measure(&ps, cfg) : build_run(&ps, cfg);
out:
	cmdline_parse_free(&ps.line);
	free(ps.flags);
	if (rc)
		run_config_free(cfg);
	return rc;
}
