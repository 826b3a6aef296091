/* SPDX-License-Identifier: MIT */
/* A run's jobs: a profile's sections or one inline job, the command line's job flags over each. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "run/profile.h"
#include "run/run_config.h"
#include "run/run_options.h"

#define MOD "options"

/* The command line's job settings over one job; each was checked when it was given. */
static int apply_settings(const struct job_setting *set, size_t nset, struct job_opts *jo)
{
	char err[400];
	size_t i;

	for (i = 0; i < nset; i++) {
		if (opt_set(set[i].d, jo, set[i].value, err, sizeof(err))) {
			log_err(MOD, "option --%s: %s", set[i].d->name, err);
			return -EINVAL;
		}
	}
	return 0;
}

/* Keep only the sections --jobs names, in profile order; every name must exist. */
static int filter_jobs(struct run_config *cfg, const char *list)
{
	char *copy = xstrdup(list), *tok, *save = NULL, names[512];
	unsigned char *keep = xcalloc(cfg->njobs, 1);
	size_t i, n = 0, used = 0;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < cfg->njobs; i++)
			if (!strcmp(cfg->jobs[i].name, tok))
				break;
		if (i == cfg->njobs) {
			names[0] = '\0';
			for (i = 0; i < cfg->njobs && used < sizeof(names); i++)
				used += (size_t)snprintf(names + used, sizeof(names) - used,
							 "%s%s", i ? ", " : "", cfg->jobs[i].name);
			log_err(MOD, "option --jobs: no job '%s' in %s (it has %s)", tok,
				cfg->run.profile, names);
			rc = -EINVAL;
			goto out;
		}
		keep[i] = 1;
	}
	for (i = 0; i < cfg->njobs; i++)
		if (keep[i])
			cfg->jobs[n++] = cfg->jobs[i];
	if (!n) {
		log_err(MOD, "option --jobs: no job names given");
		rc = -EINVAL;
	}
	cfg->njobs = n;
out:
	free(keep);
	free(copy);
	return rc;
}

/* "randread-4k-q32t1": what the inline job does, as CrystalDiskMark names its tests. */
static void inline_name(struct job_opts *jo)
{
	char bs[32];
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob), *d = opt_find(jt, njob, "bs");

	opt_format(d, jo, bs, sizeof(bs));
	snprintf(jo->name, sizeof(jo->name), "%s-%s-q%ut%u", rw_name(jo->rw), bs, jo->iodepth,
		 jo->numjobs);
}

/* Job names end up in file names and CSV columns: keep the command's name plain. */
static void measure_name(struct job_opts *jo, const char *cmd)
{
	const char *base = strrchr(cmd, '/');
	char *p;

	snprintf(jo->name, sizeof(jo->name), "%s", base ? base + 1 : cmd);
	for (p = jo->name; *p; p++)
		if (!strchr("._+-", *p) && !(*p >= 'a' && *p <= 'z') &&
		    !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
			*p = '_';
	if (!jo->name[0])
		snprintf(jo->name, sizeof(jo->name), "command");
}

/* A fio file's filename= is the target unless --target names another. */
static void fio_target(struct run_config *cfg, struct profile_info *info)
{
	if (!info->target)
		return;
	if (cfg->run.target && strcmp(cfg->run.target, info->target)) {
		log_info(MOD, "%s:%d: --target %s is used instead of the file's %s", cfg->run.profile,
			 info->target_line, cfg->run.target, info->target);
	} else if (!cfg->run.target) {
		log_info(MOD, "%s:%d: the target is %s (iowatt's target rules hold: a file it "
			 "did not create is only read unless --force, a device needs "
			 "--allow-raw-device)", cfg->run.profile, info->target_line, info->target);
		cfg->run.target = info->target;
		info->target = NULL;
	}
	free(info->target);
}

/* The profile's jobs (only those --jobs names), or one job from the flags alone. */
static int load_jobs(struct run_config *cfg)
{
	struct profile_info info;
	char *path;

	if (!cfg->run.profile) {
		if (cfg->run.jobs_filter) {
			log_err(MOD, "option --jobs selects sections of a profile; none was given");
			return -EINVAL;
		}
		cfg->jobs = xcalloc(1, sizeof(*cfg->jobs));
		cfg->njobs = 1;
		job_defaults(cfg->jobs);
		return 0;
	}
	path = profile_find(cfg->run.profile, NULL);
	if (!path)
		return -EINVAL;
	free(cfg->run.profile);
	cfg->run.profile = path;
	if (profile_load(path, &cfg->jobs, &cfg->njobs, &info))
		return -EINVAL;
	fio_target(cfg, &info);
	if (cfg->run.jobs_filter && filter_jobs(cfg, cfg->run.jobs_filter))
		return -EINVAL;
	return 0;
}

int run_config_jobs(struct run_config *cfg, const struct job_setting *set, size_t nset)
{
	size_t i;

	if (load_jobs(cfg))
		return -EINVAL;
	for (i = 0; i < cfg->njobs; i++) {
		if (apply_settings(set, nset, &cfg->jobs[i]))
			return -EINVAL;
		if (!cfg->run.profile)
			inline_name(&cfg->jobs[i]);
		job_fixup(&cfg->jobs[i]);
		if (job_validate(&cfg->jobs[i]))
			return -EINVAL;
	}
	return 0;
}

int run_config_measure_job(struct run_config *cfg, const struct job_setting *set, size_t nset)
{
	cfg->jobs = xcalloc(1, sizeof(*cfg->jobs));
	cfg->njobs = 1;
	job_defaults(cfg->jobs);
	measure_name(cfg->jobs, cfg->cmd_argv[0]);
	if (apply_settings(set, nset, cfg->jobs))
		return -EINVAL;
	return job_validate_phases(cfg->jobs);
}

void run_config_free(struct run_config *cfg)
{
	int i;

	opt_free_strings(run_options, run_options_count, &cfg->run);
	free(cfg->jobs);
	for (i = 0; i < cfg->cmd_argc; i++)
		free(cfg->cmd_argv[i]);
	free(cfg->cmd_argv);
	memset(cfg, 0, sizeof(*cfg));
}
