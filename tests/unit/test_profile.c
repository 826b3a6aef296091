/* SPDX-License-Identifier: MIT */
/* INI profiles: shipped ones validate, inheritance, overrides, FILE:LINE errors, argv forms. */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "capture.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "io/engine.h"
#include "run/profile.h"
#include "tap.h"

static char repo[PATH_MAX];

/* The source tree: the working directory under tests/run.sh, else from the binary's path. */
static void find_repo(void)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *s;

	if (!access("configs/quick.ini", R_OK) && getcwd(repo, sizeof(repo)))
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	s = strstr(exe, "/tests/");
	if (s) {
		*s = '\0';
		s = strrchr(exe, '/'); /* drop build-san/ */
		if (s)
			*s = '\0';
	}
	snprintf(repo, sizeof(repo), "%s", exe);
}

static char *data(const char *name)
{
	return xasprintf("%s/tests/data/profiles/%s", repo, name);
}

static char errbuf[16384];

/* profile_load with stderr captured into errbuf (newlines joined for one TAP line). */
static int load(const char *path, struct job_opts **jobs, size_t *njobs)
{
	struct capture cap;
	size_t i;
	int rc;

	*jobs = NULL; /* a failed load leaves nothing for the caller to free */
	*njobs = 0;
	capture_begin(&cap, 2);
	rc = profile_load(path, jobs, njobs, NULL);
	snprintf(errbuf, sizeof(errbuf), "%s", capture_end(&cap));
	for (i = 0; errbuf[i]; i++)
		if (errbuf[i] == '\n')
			errbuf[i] = errbuf[i + 1] ? '|' : '\0';
	return rc;
}

static void test_shipped(void)
{
	struct job_opts *jobs;
	size_t njobs, i;
	glob_t g;
	char *pat = xasprintf("%s/configs/*.ini", repo);
	size_t k;
	int bad, pinned;
	const struct io_engine *e;
	char why[160], skipped[320];

	ok(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc >= 6, "found the shipped profiles");
	for (k = 0; k < g.gl_pathc; k++) {
		const char *p = g.gl_pathv[k];

		if (load(p, &jobs, &njobs)) {
			/* A profile may pin an engine a minimal build lacks (sbc-fio: libaio). */
			if (strstr(errbuf, "for 'ioengine': expected one of"))
				skip(errbuf);
			else
				ok(0, "%s loads: %s", p, errbuf);
			continue;
		}
		bad = 0;
		pinned = 0;
		for (i = 0; i < njobs; i++) {
			job_fixup(&jobs[i]);
			if (!job_validate(&jobs[i]))
				continue;
			/* A job that pins an engine this kernel refuses (qemu-user: libaio). */
			e = io_engine_find(jobs[i].ioengine);
			if (e && e->probe && e->probe(why, sizeof(why)))
				pinned++;
			else
				bad++;
		}
		if (pinned && !bad) {
			snprintf(skipped, sizeof(skipped), "%s: %d jobs pin an engine that does not "
				 "run here (%s)", strrchr(p, '/') + 1, pinned, why);
			skip(skipped);
		} else {
			ok(njobs > 0 && !bad, "%s: %zu jobs load and validate",
			   strrchr(p, '/') + 1, njobs);
		}
		free(jobs);
	}
	globfree(&g);
	free(pat);
}

static struct job_opts *by_name(struct job_opts *jobs, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(jobs[i].name, name))
			return &jobs[i];
	return NULL;
}

static void test_shipped_content(void)
{
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob);
	struct job_opts *jobs, *j, def;
	char *p, *text, a[64], b[64];
	size_t njobs, i, n;
	FILE *fp;
	int same = 1, listed = 1;

	p = xasprintf("%s/configs/quick.ini", repo);
	is_int(load(p, &jobs, &njobs), 0, "quick.ini loads");
	is_int(njobs, 8, "quick has the CrystalDiskMark four, read and write");
	j = by_name(jobs, njobs, "RND4K-Q32T1-read");
	ok(j && j->iodepth == 32 && j->bs == 4096 && j->rw == RW_RANDREAD, "RND4K Q32T1 read");
	j = by_name(jobs, njobs, "SEQ1M-Q8T1-write");
	ok(j && j->iodepth == 8 && j->bs == 1 << 20 && j->rw == RW_WRITE, "SEQ1M Q8T1 write");
	free(jobs);
	free(p);

	p = xasprintf("%s/configs/db-log.ini", repo);
	is_int(load(p, &jobs, &njobs), 0, "db-log.ini loads");
	j = by_name(jobs, njobs, "WAL-2300-sync1");
	ok(j && j->bs == 2300 && j->size % 2300 == 0 && !j->direct && j->fdatasync == 1 &&
		   !strcmp(j->ioengine, "psync"),
	   "db-log: 2300-byte synced psync appends");
	free(jobs);
	free(p);

	p = xasprintf("%s/configs/sbc-fio.ini", repo);
	if (io_engine_find("libaio")) {
		jobs = NULL;
		is_int(load(p, &jobs, &njobs), 0, "sbc-fio.ini loads");
		j = jobs ? by_name(jobs, njobs, "RANDRW-4K-QD128") : NULL;
		ok(j && j->iodepth == 128 && j->rw == RW_RANDRW && j->numjobs == 1,
		   "seed 001 job");
		j = jobs ? by_name(jobs, njobs, "SEED003-randwrite") : NULL;
		ok(j && j->numjobs == 4 && j->iodepth == 8 && j->size == 30 << 20,
		   "seed 003 job");
		free(jobs);
	} else {
		skip("sbc-fio.ini reproduces libaio command lines; this build has no libaio");
	}
	free(p);

	/* Seed 004's iozone matrix: -i 0 1 2 at five record sizes, in iozone's order. */
	p = xasprintf("%s/configs/record-sweep.ini", repo);
	jobs = NULL;
	is_int(load(p, &jobs, &njobs), 0, "record-sweep.ini loads");
	{
		static const int ops[] = { RW_WRITE, RW_REWRITE, RW_READ, RW_REREAD, RW_RANDREAD,
					   RW_RANDWRITE };
		static const uint64_t recs[] = { 4 << 10, 16 << 10, 512 << 10, 1 << 20, 16 << 20 };
		size_t k, bad = 0;

		for (k = 0; jobs && k < njobs; k++)
			bad += jobs[k].rw != ops[k % 6] || jobs[k].bs != recs[k / 6] ||
			       jobs[k].size % jobs[k].bs || !jobs[k].direct;
		ok(njobs == 30 && !bad, "record-sweep: write, rewrite, read, reread, randread, "
		   "randwrite at 4k, 16k, 512k, 1m, 16m (%zu jobs)", njobs);
		ok(!strcmp(rw_name(RW_REWRITE), "rewrite") && !strcmp(rw_name(RW_REREAD), "reread") &&
			   rw_writes(RW_REWRITE) && !rw_reads(RW_REWRITE) && rw_reads(RW_REREAD) &&
			   !rw_writes(RW_REREAD) && !rw_is_random(RW_REREAD),
		   "rewrite writes and reread reads, both sequential");
	}
	free(jobs);
	free(p);

	/* defaults.ini is the reference: its [global] must equal the built-in defaults. */
	p = xasprintf("%s/configs/defaults.ini", repo);
	is_int(load(p, &jobs, &njobs), 0, "defaults.ini loads");
	job_defaults(&def);
	for (i = 0; njobs && i < njob; i++) {
		const struct opt_desc *d = &jt[i];

		if (!strcmp(d->name, "size"))
			continue;
		opt_format(d, &jobs[0], a, sizeof(a));
		opt_format(d, &def, b, sizeof(b));
		if (strcmp(a, b)) {
			same = 0;
			printf("# defaults.ini %s=%s, built-in %s\n", d->name, a, b);
		}
	}
	ok(same, "defaults.ini matches the built-in defaults");
	fp = fopen(p, "r");
	text = xcalloc(1, 65536);
	n = fp ? fread(text, 1, 65535, fp) : 0;
	text[n] = '\0';
	if (fp)
		fclose(fp);
	for (i = 0; i < njob; i++) {
		snprintf(a, sizeof(a), "\n%s=", jt[i].name);
		snprintf(b, sizeof(b), "; %s=", jt[i].name);
		if (!strstr(text, a) && !strstr(text, b)) {
			listed = 0;
			printf("# defaults.ini lacks %s\n", jt[i].name);
		}
	}
	ok(listed, "defaults.ini lists every job option");
	free(text);
	free(jobs);
	free(p);
}

static void test_inherit(void)
{
	struct job_opts *jobs, *a, *b, *c;
	size_t njobs;
	char *p = data("inherit.ini");

	is_int(load(p, &jobs, &njobs), 0, "inherit.ini loads: %s", errbuf);
	is_int(njobs, 3, "three jobs ([global] is not a job, an empty section is)");
	a = by_name(jobs, njobs, "A");
	b = by_name(jobs, njobs, "B");
	c = by_name(jobs, njobs, "C");
	ok(a && b && c, "A, B, C by name");
	if (a && b && c) {
		is_int(a->bs, 65536, "A inherits bs=64k (inline # comment stripped)");
		is_int(a->size, 1 << 20, "A inherits size (inline ; comment stripped)");
		is_int(b->bs, 8192, "B overrides bs through the alias blocksize");
		is_int(a->iodepth, 1, "a later [global] does not reach A");
		is_int(c->iodepth, 4, "but reaches C");
		is_int(c->bs, 65536, "C keeps the first [global] too");
		is_int(c->rw, RW_WRITE, "C rw=write");
		is_str(a->src_file, p, "job records its file");
		is_int(a->src_line, 7, "and the line of its section");
	}
	free(jobs);
	free(p);

	p = data("long-comment.ini");
	is_int(load(p, &jobs, &njobs), 0, "a comment longer than a line is fine: %s", errbuf);
	ok(njobs == 1 && jobs[0].rw == RW_WRITE, "and what follows it is read");
	free(jobs);
	free(p);

	p = data("bom-crlf.ini");
	is_int(load(p, &jobs, &njobs), 0, "a byte order mark and CRLF lines load: %s", errbuf);
	ok(njobs == 1 && jobs[0].size == 1 << 20 && jobs[0].rw == RW_WRITE,
	   "and read the same as plain lines");
	free(jobs);
	free(p);
}

/* The file fails to load with an error that starts "FILE:LINE:" and says what. */
static void expect_error(const char *file, int line, const char *what)
{
	struct job_opts *jobs = NULL;
	size_t njobs = 0;
	char *p = data(file), *where = xasprintf("%s:%d: ", p, line);
	int rc = load(p, &jobs, &njobs);

	is_int(rc, -EINVAL, "%s is refused", file);
	ok(strstr(errbuf, where) != NULL, "%s: error has FILE:LINE %s: %s", file, where, errbuf);
	ok(strstr(errbuf, what) != NULL, "%s: error says '%s'", file, what);
	if (!rc)
		free(jobs);
	free(where);
	free(p);
}

static void test_errors(void)
{
	struct job_opts *jobs;
	size_t njobs;

	expect_error("unknown-key.ini", 6,
		     "job 'SEQ1M': unknown key 'blocksiz'; did you mean 'blocksize'?");
	expect_error("bad-size.ini", 12,
		     "job 'SEQ1M': bad size 'abc' for 'bs': expected bytes with an optional "
		     "suffix: k/m/g");
	expect_error("dup-section.ini", 10, "duplicate section [A] (first at line 4)");
	expect_error("empty.ini", 5, "no jobs");
	expect_error("before-section.ini", 1, "before any section");
	expect_error("indented.ini", 5, "indented line");
	expect_error("run-option.ini", 3, "'target' is a run option");
	expect_error("dup-key.ini", 6, "'bs' given twice in this section (first at line 4)");
	expect_error("syntax.ini", 4, "expected 'key = value'");
	expect_error("bad-name.ini", 3, "job name 'bad name'");
	expect_error("long-line.ini", 5, "line longer than");

	is_int(load("/nonexistent/x.ini", &jobs, &njobs), -ENOENT, "missing file is -ENOENT");
	ok(strstr(errbuf, "/nonexistent/x.ini") != NULL, "and named: %s", errbuf);
}

/* Every row of the job table, however many there are, is caught when given twice. */
static void test_every_key_twice(void)
{
	char path[] = "/tmp/iowatt-dup.XXXXXX", want[128], fmt[64];
	const struct opt_desc *t;
	struct job_opts *jobs = NULL, def;
	size_t n, i, missed = 0;
	FILE *fp;
	int fd;

	t = job_option_table(&n);
	job_defaults(&def);
	fd = mkstemp(path);
	if (fd < 0) {
		skip("no temporary file");
		return;
	}
	close(fd);
	for (i = 0; i < n; i++) {
		size_t njobs = 0;

		/* A value the option takes: a choice, a boolean, else its default or 1. */
		opt_format(&t[i], &def, fmt, sizeof(fmt));
		if (t[i].choices)
			snprintf(fmt, sizeof(fmt), "%s", t[i].choices[0].name);
		else if (t[i].type == OPT_BOOL || !fmt[0] || !strcmp(fmt, "0"))
			snprintf(fmt, sizeof(fmt), "1");
		fp = fopen(path, "w");
		fprintf(fp, "[A]\nsize=1m\n%s=%s\nrw=read\n%s=%s\n", t[i].name, fmt, t[i].name,
			fmt);
		fclose(fp);
		snprintf(want, sizeof(want), "'%s' given twice in this section (first at line 3)",
			 t[i].name);
		if (!strcmp(t[i].name, "size"))
			snprintf(want, sizeof(want), "'size' given twice");
		if (load(path, &jobs, &njobs) != -EINVAL || !strstr(errbuf, want)) {
			missed++;
			printf("# %s: %s\n", t[i].name, errbuf);
			free(jobs);
			jobs = NULL;
		}
	}
	unlink(path);
	is_int(missed, 0, "each of the %zu job options given twice is refused", n);
}

static void test_find(void)
{
	/* A directory that exists in every checkout (build dirs depend on O=). */
	char *exe_dir = xasprintf("%s/tests", repo), *p;
	struct capture cap;

	p = profile_find("quick", exe_dir);
	ok(p && strstr(p, "/configs/quick.ini") && !access(p, R_OK),
	   "bare 'quick' resolves next to the executable: %s", p ? p : "(null)");
	free(p);
	free(exe_dir);

	exe_dir = xasprintf("%s", repo); /* ./iowatt in the repository root */
	p = profile_find("db-log", exe_dir);
	ok(p && strstr(p, "configs/db-log.ini"), "from the repository root too");
	free(p);

	p = profile_find("sbc-fio.ini", exe_dir);
	ok(p && strstr(p, "configs/sbc-fio.ini"), "NAME.ini without a path is looked up too");
	free(p);

	capture_begin(&cap, 2);
	p = profile_find("no-such-profile", exe_dir);
	capture_end(&cap);
	ok(!p, "unknown name is NULL");
	ok(strstr(cap.buf, "no-such-profile") && strstr(cap.buf, "looked for"),
	   "error says where it looked");
	free(exe_dir);

	p = xasprintf("%s/configs/quick.ini", repo);
	exe_dir = profile_find(p, NULL);
	is_str(exe_dir, p, "a path stays a path");
	free(exe_dir);
	free(p);
}

static void test_argv(void)
{
	struct run_config cfg;
	char *quick = xasprintf("%s/configs/quick.ini", repo);
	char *miss = data("missing-size.ini"), *where;
	size_t i;
	int all;

	is_int(parse(&cfg, 0, "run", quick, "--size", "64m", "--bs", "8k", "--target", "/mnt",
		     NULL),
	       0, "run PROFILE --size --bs --target");
	is_int(cfg.njobs, 8, "all 8 jobs");
	all = 1;
	for (i = 0; i < cfg.njobs; i++)
		all &= cfg.jobs[i].size == 64 << 20 && cfg.jobs[i].bs == 8192;
	ok(all, "flags override every job's size and bs");
	is_int(cfg.jobs[0].idle_ns, 5 * NS_PER_SEC, "values the flags do not name stay");
	is_str(cfg.run.profile, quick, "profile path kept");
	is_str(cfg.run.target, "/mnt", "target");
	run_config_free(&cfg);

	is_int(parse(&cfg, 0, "run", "-p", quick, "--target", "/mnt", "--jobs",
		     "RND4K-Q1T1-read,SEQ1M-Q8T1-write", NULL),
	       0, "-p PROFILE --jobs A,B");
	is_int(cfg.njobs, 2, "two jobs kept");
	if (cfg.njobs == 2)
		ok(!strcmp(cfg.jobs[0].name, "SEQ1M-Q8T1-write") &&
			   !strcmp(cfg.jobs[1].name, "RND4K-Q1T1-read"),
		   "in profile order");
	run_config_free(&cfg);

	is_int(parse(&cfg, 0, "run", quick, "--target", "/mnt", "--jobs", "SEQ9", NULL), -EINVAL,
	       "--jobs with an unknown name");
	ok(strstr(parse_err, "no job 'SEQ9'") && strstr(parse_err, "SEQ1M-Q8T1-read"),
	   "lists the jobs: %s", parse_err);

	is_int(parse(&cfg, 0, "run", quick, NULL), -EINVAL, "run without --target");
	ok(strstr(parse_err, "--target is required") && strstr(parse_err, "directory"),
	   "explains --target: %s", parse_err);

	is_int(parse(&cfg, 0, "run", quick, quick, "--target", "/mnt", NULL), -EINVAL,
	       "two profiles");
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--", "x", NULL),
	       -EINVAL, "'--' in run");
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--bogus", NULL),
	       -EINVAL, "unknown flag");
	ok(strstr(parse_err, "unknown option --bogus") != NULL, "named: %s", parse_err);
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--iodeph", "4", NULL),
	       -EINVAL, "misspelt flag");
	ok(strstr(parse_err, "did you mean --iodepth?") != NULL, "suggests: %s", parse_err);
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--json_ot", "x", NULL),
	       -EINVAL, "misspelt run flag");
	ok(strstr(parse_err, "did you mean --json-out?") != NULL, "suggests: %s", parse_err);
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", NULL), -EINVAL,
	       "flag without its value");
	ok(strstr(parse_err, "--size needs a value") != NULL, "said: %s", parse_err);
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--keep=1", NULL),
	       -EINVAL, "--keep=1");
	ok(strstr(parse_err, "--keep takes no value") != NULL, "said: %s", parse_err);

	where = xasprintf("%s:7: job 'no-size' has no size", miss);
	is_int(parse(&cfg, 0, "run", miss, "--target", "/mnt", NULL), -EINVAL,
	       "profile job without size");
	ok(strstr(parse_err, where) != NULL, "FILE:LINE of the job: %s", parse_err);
	free(where);
	is_int(parse(&cfg, 0, "run", miss, "--target", "/mnt", "--size", "2m", NULL), 0,
	       "--size supplies it");
	ok(cfg.njobs == 2 && cfg.jobs[0].size == 2 << 20, "for every job");
	run_config_free(&cfg);

	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--meter", "a:1",
		     "--meter=b:2", "-q", "-o", "out", "--json-out", "r.json", "--no-progress",
		     "--uv-threshold", "4.6", "--kmsg", "none", "--mark-gpio", "gpiochip0:17",
		     "--uv-gpio", "gpiochip0:4,active_low", "--stop-on-undervoltage", "--keep",
		     "--allow-raw-device", "--force", "--sysfs-root", "/tmp/sys", NULL),
	       0, "every run option");
	is_int(cfg.run.nmeters, 2, "two meters");
	ok(cfg.run.nmeters == 2 && !strcmp(cfg.run.meters[1], "b:2"), "in order");
	is_str(cfg.run.output_dir, "out", "-o out");
	is_str(cfg.run.json_out, "r.json", "--json-out");
	is_int(cfg.run.progress, 0, "--no-progress");
	is_dbl(cfg.run.uv_threshold_v, 4.6, 1e-12, "--uv-threshold 4.6");
	is_str(cfg.run.kmsg_path, "none", "--kmsg none");
	is_str(cfg.run.mark_gpio, "gpiochip0:17", "--mark-gpio");
	is_str(cfg.run.uv_gpio, "gpiochip0:4,active_low", "--uv-gpio");
	ok(cfg.run.stop_on_undervoltage && cfg.run.keep && cfg.run.allow_raw_device &&
		   cfg.run.force,
	   "flags set");
	is_str(cfg.run.sysfs_root, "/tmp/sys", "--sysfs-root");
	is_int(log_get_level(), LOG_WARN, "-q lowers the log level");
	run_config_free(&cfg);
	log_set_level(LOG_INFO);

	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "-vv", "--progress",
		     NULL),
	       0, "-vv --progress");
	is_int(log_get_level(), LOG_DEBUG, "-vv raises the log level");
	is_int(cfg.run.progress, 1, "--progress");
	run_config_free(&cfg);
	log_set_level(LOG_INFO);

	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--meter", "a", "--meter",
		     "b", "--meter", "c", "--meter", "d", "--meter", "e", "--meter", "f", "--meter",
		     "g", "--meter", "h", "--meter", "i", NULL),
	       -EINVAL, "a ninth meter");
	ok(strstr(parse_err, "--meter") && strstr(parse_err, "8"), "says the limit: %s",
	   parse_err);
	is_int(parse(&cfg, 0, "run", "--target", "/mnt", "--size", "1m", "--meter", "a",
		     "--no-meter", NULL),
	       -EINVAL, "--meter with --no-meter");

	free(quick);
	free(miss);
}

static void test_measure(void)
{
	struct run_config cfg;

	is_int(parse(&cfg, 1, "measure", "--meter", "fake:", "--idle", "2s", "--", "dd",
		     "if=/dev/zero", "of=/dev/null", "count=1", NULL),
	       0, "measure OPTIONS -- CMD ARGS");
	is_int(cfg.cmd_argc, 4, "four words of command");
	ok(cfg.cmd_argc == 4 && !strcmp(cfg.cmd_argv[0], "dd") &&
		   !strcmp(cfg.cmd_argv[3], "count=1") && cfg.cmd_argv[4] == NULL,
	   "argv kept, NULL-terminated");
	ok(cfg.njobs == 1 && cfg.jobs[0].idle_ns == 2 * NS_PER_SEC, "--idle applies");
	ok(cfg.njobs == 1 && !strcmp(cfg.jobs[0].name, "dd"), "job named after the command");
	ok(cfg.run.target == NULL, "no target needed");
	run_config_free(&cfg);

	is_int(parse(&cfg, 1, "measure", "--tail-max=30s", "/usr/bin/sync", "-f", NULL), 0,
	       "measure without '--': options end at the command");
	ok(cfg.cmd_argc == 2 && !strcmp(cfg.cmd_argv[1], "-f"), "the command keeps its -f");
	ok(cfg.njobs == 1 && !strcmp(cfg.jobs[0].name, "sync"), "named by basename");
	run_config_free(&cfg);

	is_int(parse(&cfg, 1, "measure", "--meter", "x:", NULL), -EINVAL, "measure without command");
	ok(strstr(parse_err, "needs a command") != NULL, "said: %s", parse_err);
	is_int(parse(&cfg, 1, "measure", "--bs", "4k", "--", "true", NULL), -EINVAL,
	       "measure --bs");
	ok(strstr(parse_err, "--bs") && strstr(parse_err, "metering-phase"), "said: %s",
	   parse_err);
	is_int(parse(&cfg, 1, "measure", "-p", "quick", "--", "true", NULL), -EINVAL,
	       "measure with a profile");
	is_int(parse(&cfg, 1, "measure", "--interval", "10ms", "--", "true", NULL), -EINVAL,
	       "measure --interval 10ms");
}

int main(void)
{
	log_set_level(LOG_INFO);
	find_repo();
	printf("# repository %s\n", repo);
	test_shipped();
	test_shipped_content();
	test_inherit();
	test_errors();
	test_every_key_twice();
	test_find();
	test_argv();
	test_measure();
	return done_testing();
}
