/* SPDX-License-Identifier: MIT */
/* The `run` and `measure` command lines: run options, job flags over a profile, --help. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/profile.h"
#include "cli/run_args.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"

#define MOD "options"

/*
 * The run table's base. `run` must stay the first member: run_config_free() frees the
 * table's strings through the copy in struct run_config, so the offsets must agree.
 */
struct run_args {
	struct run_opts run;
	int quiet;
	int verbose;
	int help;
};

#define ROFF(f) offsetof(struct run_args, f)
#define G_RUN "Run options (command line only: a shared profile never picks the device)"
#define G_OUT "Output"

/* In the order of enum samples_mode (run/output.h). */
static const struct opt_choice samples_choices[] = {
	{ "auto", "CSV; meters at >= 10 samples per bin as min/mean/max bins" },
	{ "raw", "CSV, every sample" },
	{ "binary", "NAME.samples.bin: every sample as a 40-byte record" },
	{ NULL, NULL },
};

const struct opt_desc run_options[] = {
	{ .name = "target", .type = OPT_STRP, .off = ROFF(run.target), .metavar = "PATH",
	  .help = "directory (a scratch file is created there and removed), file, or block "
		  "device (needs --allow-raw-device)",
	  .group = G_RUN },
	{ .name = "profile", .type = OPT_STRP, .off = ROFF(run.profile), .shortopt = 'p',
	  .metavar = "PROFILE", .help = "profile file or name (also the first argument)",
	  .group = G_RUN },
	{ .name = "jobs", .type = OPT_STRP, .off = ROFF(run.jobs_filter), .metavar = "A,B",
	  .help = "run only these sections of the profile", .group = G_RUN },
	{ .name = "meter", .type = OPT_STRLIST, .off = ROFF(run.meters), .size = MAX_METERS,
	  .count_off = ROFF(run.nmeters), .metavar = "SPEC",
	  .help = "meter DRIVER:CONNECTION[,key=value] (repeatable; `iowatt meters --help` "
		  "lists drivers and keys)",
	  .group = G_RUN },
	{ .name = "dry-run", .type = OPT_FLAG, .off = ROFF(run.dry_run),
	  .help = "print the plan (jobs, bytes moved, estimated time) and stop: nothing is "
		  "opened, created or written",
	  .group = G_RUN },
	{ .name = "no-meter", .type = OPT_FLAG, .off = ROFF(run.no_meter),
	  .help = "measure I/O only, no power", .group = G_RUN },
	{ .name = "keep", .type = OPT_FLAG, .off = ROFF(run.keep),
	  .help = "keep the scratch file after the run", .group = G_RUN },
	{ .name = "allow-raw-device", .type = OPT_FLAG, .off = ROFF(run.allow_raw_device),
	  .help = "allow a block device as target: writes DESTROY its data", .group = G_RUN },
	{ .name = "force", .type = OPT_FLAG, .off = ROFF(run.force),
	  .help = "skip the safety checks (mounted device, low free space) and let write "
		  "jobs overwrite an existing file (never extended for a read job)",
	  .group = G_RUN },
	{ .name = "same-size", .type = OPT_FLAG, .off = ROFF(run.same_size),
	  .help = "size=auto: calibrate each job once before the first round and keep that "
		  "size for every round (default: calibrate before each round)",
	  .group = G_RUN },
	{ .name = "same-size-as", .type = OPT_STRLIST, .off = ROFF(run.same_size_as),
	  .size = MAX_SAME_SIZE_FILES, .count_off = ROFF(run.nsame_size_as), .metavar = "RESULT",
	  .help = "size=auto, --same-size: no smaller than a job of the same name used in "
		  "RESULT (another device's run): every device gets the largest size (repeatable)",
	  .group = G_RUN },
	{ .name = "stop-on-undervoltage", .type = OPT_FLAG, .off = ROFF(run.stop_on_undervoltage),
	  .help = "stop the run at the first undervoltage event", .group = G_RUN },
	{ .name = "uv-threshold", .type = OPT_DOUBLE, .off = ROFF(run.uv_threshold_v),
	  .def = "4.75", .min = 0.5, .max = 60, .metavar = "VOLTS",
	  .help = "a meter voltage below this is an undervoltage event", .group = G_RUN },
	{ .name = "uv-gpio", .type = OPT_STRP, .off = ROFF(run.uv_gpio),
	  .metavar = "CHIP:LINE[,active_low]", .help = "GPIO line that signals undervoltage",
	  .group = G_RUN },
	{ .name = "mark-gpio", .type = OPT_STRP, .off = ROFF(run.mark_gpio),
	  .metavar = "CHIP:LINE", .help = "GPIO line driven high during each active phase",
	  .group = G_RUN },
	{ .name = "kmsg", .type = OPT_STRP, .off = ROFF(run.kmsg_path), .def = "/dev/kmsg",
	  .metavar = "PATH|none", .help = "kernel log to watch for undervoltage and USB resets",
	  .group = G_RUN },
	{ .name = "sysfs-root", .type = OPT_STRP, .off = ROFF(run.sysfs_root), .def = "",
	  .metavar = "DIR", .help = "read sysfs under DIR instead of /sys (tests)",
	  .group = G_RUN },
	{ .name = "output", .type = OPT_STRP, .off = ROFF(run.output_dir), .shortopt = 'o',
	  .def = "results", .metavar = "DIR", .help = "directory for result files",
	  .group = G_OUT },
	{ .name = "json-out", .type = OPT_STRP, .off = ROFF(run.json_out), .metavar = "FILE",
	  .help = "write the JSON result exactly here", .group = G_OUT },
	{ .name = "samples", .type = OPT_ENUM, .off = ROFF(run.samples_mode), .def = "auto",
	  .choices = samples_choices, .metavar = "MODE",
	  .help = "the samples file: auto bins fast meters (>= 10 samples per --samples-bin) "
		  "into min/mean/max rows", .group = G_OUT },
	{ .name = "samples-bin", .type = OPT_DURATION, .off = ROFF(run.samples_bin_ns),
	  .def = "1ms", .min = 1e4, .max = 6e10, .metavar = "TIME",
	  .help = "bin width of --samples auto (energy always integrates every sample)",
	  .group = G_OUT },
	{ .name = "progress", .type = OPT_FLAG, .off = ROFF(run.progress), .def = "auto",
	  .help = "show progress on stderr (auto: when stderr is a terminal)",
	  .group = G_OUT },
	{ .name = "no-progress", .type = OPT_NOFLAG, .off = ROFF(run.progress),
	  .help = "never show progress", .group = G_OUT },
	{ .name = "quiet", .type = OPT_COUNT, .off = ROFF(quiet), .shortopt = 'q',
	  .help = "only warnings and errors (twice: errors only)", .group = G_OUT },
	{ .name = "verbose", .type = OPT_COUNT, .off = ROFF(verbose), .shortopt = 'v',
	  .help = "debug messages", .group = G_OUT },
	{ .name = "help", .type = OPT_FLAG, .off = ROFF(help), .shortopt = 'h',
	  .help = "show this help", .group = G_OUT },
};

const size_t run_options_count = ARRAY_SIZE(run_options);

/* A job flag kept until the profile is loaded, then applied to every job. */
struct job_flag {
	const struct opt_desc *d;
	const char *value;
	const char *spelled;
};

struct parse_state {
	struct run_args a;
	struct job_flag *flags;
	size_t nflags;
	const char *positional;
	int measure;
	int cmd_at; /* argv index of the measured command, 0 = none */
};

/* Run options that mean nothing to measure: it runs no profile and writes no scratch file. */
static int measure_excludes(const struct opt_desc *d)
{
	static const char *const run_only[] = { "profile",	   "jobs",	"dry-run",
						"keep",		   "allow-raw-device",
						"same-size",	   "same-size-as" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(run_only); i++)
		if (!strcmp(d->name, run_only[i]))
			return 1;
	return 0;
}

#define MEASURE_TARGET_HELP                                                                 \
	"count the I/O of the device under PATH (a directory, file or block device on it; "  \
	"nothing is created) from /proc/diskstats; fio's own JSON figures win when it writes " \
	"them"
#define MEASURE_NO_METER_HELP "I/O figures only, no power"
#define MEASURE_FORCE_HELP "replace an existing --json-out file and its CSVs"

/* The options `run` (or `measure`) takes: run options, then job options. Caller frees. */
static struct opt_desc *help_table(int measure, size_t *count)
{
	size_t njob, i, n = 0;
	const struct opt_desc *jt = job_option_table(&njob);
	struct opt_desc *sel = xcalloc(run_options_count + njob, sizeof(*sel));

	for (i = 0; i < run_options_count; i++) {
		if (measure && measure_excludes(&run_options[i]))
			continue;
		sel[n] = run_options[i];
		if (measure && !strcmp(sel[n].name, "target"))
			sel[n].help = MEASURE_TARGET_HELP;
		if (measure && !strcmp(sel[n].name, "no-meter"))
			sel[n].help = MEASURE_NO_METER_HELP;
		if (measure && !strcmp(sel[n].name, "force"))
			sel[n].help = MEASURE_FORCE_HELP;
		n++;
	}
	for (i = 0; i < njob; i++)
		if (!measure || job_option_is_phase(&jt[i]))
			sel[n++] = jt[i];
	*count = n;
	return sel;
}

void run_options_man(FILE *fp)
{
	size_t n;
	struct opt_desc *sel = help_table(0, &n);

	opt_print_man(fp, sel, n);
	free(sel);
}

static void print_help(FILE *fp, int measure)
{
	struct opt_desc *sel;
	char names[512];
	size_t n;

	if (measure)
		fprintf(fp, "usage: iowatt measure [OPTIONS] [--] COMMAND [ARGS...]\n\n"
			    "Meters COMMAND: an idle baseline, the command, then the tail until "
			    "power settles.\n");
	else {
		profile_names(names, sizeof(names));
		fprintf(fp, "usage: iowatt run [PROFILE] --target PATH [OPTIONS] [JOB OPTIONS]\n"
			    "       iowatt run --target DIR --rw randread --bs 4k --iodepth 32 "
			    "--size 256m\n\n"
			    "PROFILE is an INI file or the name of a shipped one%s%s.\n"
			    "Job options given as flags override every job of the profile.\n",
			names[0] ? ":\n  " : "", names);
	}
	if (measure)
		fprintf(fp, "Options take dashes or underscores alike (--tail-hold = --tail_hold), "
			    "as\n--opt VALUE or --opt=VALUE. Times: 500ms, 10s, 2m (a bare number is "
			    "seconds).\n");
	else
		fprintf(fp, "Options take dashes or underscores alike (--rate-iops = --rate_iops), "
			    "as\n--opt VALUE or --opt=VALUE. Sizes: 2300, 4k, 1m, 2g, 1MiB (base 1024), "
			    "50MB (base\n1000). Times: 500ms, 10s, 2m (a bare number is seconds).\n");
	sel = help_table(measure, &n);
	opt_print_help(fp, sel, n);
	free(sel);
}

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
	ps->flags[ps->nflags].spelled = d->name; /* outlives the caller's buffer */
	ps->nflags++;
	return 0;
}

static int take_option(struct parse_state *ps, const struct opt_desc *rd,
		       const struct opt_desc *jd, const char *value, const char *spelled)
{
	char err[400];

	if (jd)
		return take_job_flag(ps, jd, value, spelled);
	if (ps->measure && measure_excludes(rd)) {
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

static int apply_flags(const struct parse_state *ps, struct job_opts *jo)
{
	char err[400];
	size_t i;

	for (i = 0; i < ps->nflags; i++) {
		if (opt_set(ps->flags[i].d, jo, ps->flags[i].value, err, sizeof(err))) {
			log_err(MOD, "option --%s: %s", ps->flags[i].spelled, err);
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
	cfg->jobs = xcalloc(1, sizeof(*cfg->jobs));
	cfg->njobs = 1;
	job_defaults(cfg->jobs);
	measure_name(cfg->jobs, cfg->cmd_argv[0]);
	if (apply_flags(ps, cfg->jobs))
		return -EINVAL;
	return job_validate_phases(cfg->jobs);
}

/* The profile's jobs (only those --jobs names), or one job from the flags alone. */
static int load_jobs(struct run_config *cfg)
{
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
	if (profile_load(path, &cfg->jobs, &cfg->njobs))
		return -EINVAL;
	if (cfg->run.jobs_filter && filter_jobs(cfg, cfg->run.jobs_filter))
		return -EINVAL;
	return 0;
}

static int build_run(struct parse_state *ps, struct run_config *cfg)
{
	const char *prof = ps->a.run.profile;
	size_t i;

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
	if (load_jobs(cfg))
		return -EINVAL;
	for (i = 0; i < cfg->njobs; i++) {
		if (apply_flags(ps, &cfg->jobs[i]))
			return -EINVAL;
		if (!cfg->run.profile)
			inline_name(&cfg->jobs[i]);
		job_fixup(&cfg->jobs[i]);
		if (job_validate(&cfg->jobs[i]))
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
	if (ps.a.help) {
		print_help(stdout, measure_mode);
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
