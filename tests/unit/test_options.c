/* SPDX-License-Identifier: MIT */
/* Option table: every type parses and rejects, spellings, defaults, help, JSON, job checks. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "argv.h"
#include "capture.h"
#include "cli/run_args.h"
#include "cli/run_help.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/options.h"
#include "core/units.h"
#include "engines_util.h"
#include "io/engine.h"
#include "result/result_json.h"
#include "run/result_from_bench.h"
#include "run/result_job_options.h"
#include "tap.h"

/* A value each type accepts and one it must refuse. */
static const char *good_value(const struct opt_desc *d)
{
	switch (d->type) {
	case OPT_BOOL:
		return "yes";
	case OPT_UINT:
	case OPT_U64:
		return d->min > 2 ? "1000" : "2";
	case OPT_SIZE:
		return "8k";
	case OPT_DURATION:
		return "2s";
	case OPT_PERCENT:
		return "10%";
	case OPT_DOUBLE:
		return "4.5";
	case OPT_ENUM:
	case OPT_STR:
		if (!d->choices)
			return "x";
		return d->choices[1].name ? d->choices[1].name : d->choices[0].name;
	default:
		return "x";
	}
}

/* "io_uring, libaio, psync": the registry as an option error lists it. */
static const char *engine_list(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; io_engines[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 io_engines[i]->name);
	return buf;
}

static const char *bad_value(const struct opt_desc *d)
{
	switch (d->type) {
	case OPT_BOOL:
		return "maybe";
	case OPT_UINT:
	case OPT_U64:
		return "12abc";
	case OPT_SIZE:
		return "12q";
	case OPT_DURATION:
		return "5parsecs";
	case OPT_PERCENT:
		return "150";
	case OPT_DOUBLE:
		return "volts";
	default:
		return "no-such-choice";
	}
}

static void test_every_job_option(void)
{
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob);
	struct job_opts jo;
	struct run_config cfg;
	char err[400], flag[80], fmt[64];
	size_t i;

	for (i = 0; i < njob; i++) {
		const struct opt_desc *d = &jt[i];
		const char *good = good_value(d), *bad = bad_value(d);
		int rc;

		job_defaults(&jo);
		rc = opt_set(d, &jo, good, err, sizeof(err));
		is_int(rc, 0, "%s accepts '%s'", d->name, good);
		opt_format(d, &jo, fmt, sizeof(fmt));
		if (d->type == OPT_BOOL)
			is_str(fmt, "1", "%s formats back as 1", d->name);
		else if (d->type == OPT_PERCENT)
			is_str(fmt, "10%", "%s formats back", d->name);
		else
			ok(!strcmp(fmt, good), "%s formats back: %s", d->name, fmt);

		rc = opt_set_for(d, &jo, bad, d->name, err, sizeof(err));
		ok(rc == -EINVAL || rc == -ERANGE, "%s rejects '%s'", d->name, bad);
		ok(strstr(err, bad) && strstr(err, d->name), "message names value and key: %s",
		   err);

		/* On the command line the message names the flag. */
		snprintf(flag, sizeof(flag), "--%s", d->name);
		rc = parse(&cfg, 0, "run", "--target", "/tmp", "--size", "1m", flag, bad, NULL);
		is_int(rc, -EINVAL, "run %s %s fails", flag, bad);
		ok(strstr(parse_err, flag) != NULL, "error names %s: %s", flag, parse_err);
	}
}

static void test_parsers(void)
{
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob);
	const struct opt_desc *d;
	struct job_opts jo;
	char err[400], list[128];

	job_defaults(&jo);
	d = opt_find(jt, njob, "bs");
	ok(!opt_set(d, &jo, "2300", err, sizeof(err)) && jo.bs == 2300, "bs 2300 is bytes");
	ok(!opt_set(d, &jo, "1m", err, sizeof(err)) && jo.bs == 1048576, "bs 1m is 1048576");
	ok(!opt_set(d, &jo, "16M", err, sizeof(err)) && jo.bs == 16ULL << 20, "16M");
	ok(opt_set(d, &jo, "0", err, sizeof(err)) == -ERANGE, "bs 0 is out of range");
	ok(opt_set(d, &jo, "abc", err, sizeof(err)) == -EINVAL, "bs abc is bad");
	ok(strstr(err, "k/m/g") != NULL, "bad size says which suffixes: %s", err);

	d = opt_find(jt, njob, "iodepth");
	ok(opt_set(d, &jo, "0", err, sizeof(err)) == -ERANGE, "iodepth 0 out of range");
	is_str(err, "'0' out of range 1..65536", "range message");
	ok(opt_set(d, &jo, "65537", err, sizeof(err)) == -ERANGE, "iodepth 65537 out of range");
	ok(!opt_set(d, &jo, "65536", err, sizeof(err)) && jo.iodepth == 65536, "65536 ok");
	ok(opt_set(d, &jo, "-1", err, sizeof(err)) == -EINVAL, "iodepth -1 is bad");
	ok(opt_set(d, &jo, "", err, sizeof(err)) == -EINVAL, "empty value is bad");

	d = opt_find(jt, njob, "numjobs");
	ok(opt_set(d, &jo, "65", err, sizeof(err)) == -ERANGE, "numjobs 65 out of range");

	d = opt_find(jt, njob, "runtime");
	ok(!opt_set(d, &jo, "90", err, sizeof(err)) && jo.runtime_ns == 90 * NS_PER_SEC,
	   "runtime bare number is seconds");
	ok(!opt_set(d, &jo, "1.5m", err, sizeof(err)) && jo.runtime_ns == 90 * NS_PER_SEC,
	   "1.5m is 90 s");
	ok(!opt_set(d, &jo, "250ms", err, sizeof(err)) && jo.runtime_ns == 250 * NS_PER_MS,
	   "250ms");
	ok(!opt_set(d, &jo, "1h", err, sizeof(err)) && jo.runtime_ns == 3600 * NS_PER_SEC,
	   "1h");

	d = opt_find(jt, njob, "interval");
	ok(opt_set(d, &jo, "50ms", err, sizeof(err)) == -ERANGE, "interval 50ms below 100ms");
	ok(strstr(err, "100ms") != NULL, "says the minimum: %s", err);

	d = opt_find(jt, njob, "tail_tolerance");
	ok(!opt_set(d, &jo, "5%", err, sizeof(err)), "5%%");
	is_dbl(jo.tail_tolerance, 0.05, 1e-12, "5%% is 0.05");
	ok(!opt_set(d, &jo, "0.1", err, sizeof(err)), "fraction 0.1");
	is_dbl(jo.tail_tolerance, 0.1, 1e-12, "0.1 stays 0.1");
	ok(opt_set(d, &jo, "5", err, sizeof(err)) == -EINVAL, "bare 5 is ambiguous");

	d = opt_find(jt, njob, "direct");
	ok(!opt_set(d, &jo, "off", err, sizeof(err)) && jo.direct == 0, "direct=off");
	ok(!opt_set(d, &jo, "true", err, sizeof(err)) && jo.direct == 1, "direct=true");

	d = opt_find(jt, njob, "ioengine");
	ok(!opt_set(d, &jo, "psync", err, sizeof(err)) && !strcmp(jo.ioengine, "psync"),
	   "ioengine psync");
	ok(opt_set(d, &jo, "posixaio", err, sizeof(err)) == -EINVAL, "posixaio refused");
	ok(strstr(err, engine_list(list, sizeof(list))) != NULL, "lists the engines: %s", err);

	d = opt_find(jt, njob, "randseed");
	ok(!opt_set(d, &jo, "0xdead", err, sizeof(err)) && jo.randseed == 0xdead, "hex seed");
}

static void test_spellings(void)
{
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob);
	const struct opt_desc *a = opt_find(jt, njob, "rate_iops");
	struct run_config cfg;

	ok(a != NULL, "rate_iops exists");
	ok(opt_find(jt, njob, "rate-iops") == a, "rate-iops is the same");
	ok(opt_find(jt, njob, "RATE_IOPS") == a, "case does not matter");
	ok(opt_find(jt, njob, "blocksize") ==
		   opt_find(jt, njob, "bs"),
	   "alias blocksize");
	ok(opt_find(jt, njob, "readwrite") ==
		   opt_find(jt, njob, "rw"),
	   "alias readwrite");
	ok(opt_find(jt, njob, "iodepth-batch") ==
		   opt_find(jt, njob, "iodepth_batch_submit"),
	   "alias iodepth_batch");
	ok(opt_find(jt, njob, "no_such") == NULL, "unknown is NULL");

	is_int(parse(&cfg, 0, "run", "--target", "/tmp", "--size", "1m", "--rate-iops", "7",
		     "--iodepth=4", "--blocksize", "8k", "--rw=randwrite", NULL),
	       0, "dashes, =value and aliases parse");
	is_int(cfg.jobs[0].rate_iops, 7, "--rate-iops 7");
	is_int(cfg.jobs[0].iodepth, engines[0]->flags & IOENG_ASYNC ? 4 : 1,
	       "--iodepth=4 (1 when no engine of the build is asynchronous)");
	is_int(cfg.jobs[0].bs, 8192, "--blocksize 8k");
	is_str(rw_name(cfg.jobs[0].rw), "randwrite", "--rw=randwrite");
	is_str(cfg.jobs[0].name, "randwrite-8k-q4t1", "inline job named after what it does");
	run_config_free(&cfg);

	is_int(parse(&cfg, 0, "run", "--target=/tmp", "--size=1m", "--rate_iops=9", NULL), 0,
	       "underscores parse");
	is_int(cfg.jobs[0].rate_iops, 9, "--rate_iops=9");
	run_config_free(&cfg);
}

/* size=auto: the parsed job keeps what it was given; its region and its sized job say the
 * rest (job_fixup once set size and filesize to the extent). */
static void test_size_auto_region(void)
{
	struct job_opts jo, sized;

	job_defaults(&jo);
	jo.size_auto_ns = OPT_AUTO_BARE;
	job_fixup(&jo);
	ok(jo.size == 0 && jo.filesize == 0, "job_fixup leaves an auto size as given");
	is_int(job_region(&jo), SIZE_AUTO_EXTENT, "size=auto alone works in SIZE_AUTO_EXTENT");
	is_int(job_validate(&jo), 0, "and validates without a size");
	sized = job_sized(&jo, 64 << 10);
	ok(sized.size == 64 << 10 && sized.filesize == SIZE_AUTO_EXTENT && !sized.size_auto_ns,
	   "sized: the chosen size, in the same region, no longer auto");
	jo.size = 8 << 20;
	is_int(job_region(&jo), 8 << 20, "size=auto with a size works in that size");
	jo.filesize = 16 << 20;
	is_int(job_sized(&jo, 4096).filesize, 16 << 20, "or in its filesize");
}

static void test_defaults(void)
{
	struct job_opts jo;
	struct run_config cfg;

	job_defaults(&jo);
	is_int(jo.rw, RW_READ, "rw read");
	is_int(jo.rwmixread, 50, "rwmixread 50");
	is_int(jo.bs, 4096, "bs 4k");
	is_int(jo.iodepth, 1, "iodepth 1");
	is_int(jo.size, 0, "no default size");
	is_int(jo.filesize, 0, "filesize follows size");
	is_int(jo.direct, 1, "direct 1");
	is_str(jo.ioengine, "", "ioengine unset: job_fixup picks the best engine");
	is_int(jo.end_fsync, -1, "end_fsync auto");
	is_int(jo.randseed, 0x1234, "fixed seed");
	is_int(jo.loops, 1, "loops 1");
	is_int(jo.numjobs, 1, "numjobs 1");
	is_int(jo.idle_ns, 10 * NS_PER_SEC, "idle 10 s");
	is_int(jo.idle_samples, 20, "idle_samples 20");
	is_dbl(jo.tail_tolerance, 0.05, 1e-12, "tail_tolerance 5%%");
	is_int(jo.tail_hold_ns, 3 * NS_PER_SEC, "tail_hold 3 s");
	is_int(jo.tail_max_ns, 60 * NS_PER_SEC, "tail_max 60 s");
	is_int(jo.interval_ns, NS_PER_SEC, "interval 1 s");
	jo.rw = RW_WRITE;
	is_int(job_end_fsync(&jo), 1, "end_fsync defaults on for writes");
	jo.rw = RW_RANDREAD;
	is_int(job_end_fsync(&jo), 0, "and off for reads");
	jo.size = 1 << 20;
	jo.numjobs = 4;
	is_int(job_extent(&jo), 4 << 20, "extent numjobs * size");
	jo.filesize = 8 << 20;
	is_int(job_extent(&jo), 32 << 20, "extent numjobs * filesize");
	test_size_auto_region();

	is_int(parse(&cfg, 0, "run", "--target", "/tmp", "--size", "1m", NULL), 0, "run parses");
	is_str(cfg.run.output_dir, "results", "output default results");
	is_str(cfg.run.kmsg_path, "/dev/kmsg", "kmsg default");
	is_str(cfg.run.sysfs_root, "", "sysfs_root default is the real /sys");
	is_dbl(cfg.run.uv_threshold_v, 4.75, 1e-12, "uv threshold 4.75 V");
	is_int(cfg.run.progress, -1, "progress auto");
	is_int(cfg.run.nmeters, 0, "no meters");
	ok(cfg.run.profile == NULL, "no profile");
	run_config_free(&cfg);
}

/* Every option of the table appears in text as "--NAME" + suffix. */
/* Every option of t that `which` (1 run, 0 measure, -1 either) takes is in text. */
static int lists_all_of(const char *text, const struct opt_desc *t, size_t n,
			const char *suffix, int which)
{
	char flag[80];
	size_t i;
	int all = 1;

	for (i = 0; i < n; i++) {
		if ((which == 1 && run_option_measure_only(&t[i])) ||
		    (which == 0 && !run_option_measure_only(&t[i])))
			continue;
		snprintf(flag, sizeof(flag), "--%s%s", t[i].name, suffix);
		if (!strstr(text, flag)) {
			all = 0;
			printf("# help lacks %s\n", flag);
		}
	}
	return all;
}

static int lists_all(const char *text, const struct opt_desc *t, size_t n, const char *suffix)
{
	return lists_all_of(text, t, n, suffix, -1);
}

static void test_help(void)
{
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob);
	struct run_config cfg;
	struct capture cap;
	char *buf = NULL;
	size_t len = 0;
	const char *out;
	FILE *fp = open_memstream(&buf, &len);
	int rc;

	opt_print_help(fp, jt, njob);
	fclose(fp);
	ok(lists_all(buf, jt, njob, " "), "job help lists every job option");
	ok(strstr(buf, "randrw") && strstr(buf, "psync"), "help lists allowed values");
	ok(strstr(buf, "default 4k") && strstr(buf, "1..65536"), "help shows defaults and ranges");
	free(buf);

	capture_begin(&cap, 1);
	rc = run_config_parse(2, (char *[]){ "run", "--help", NULL }, &cfg, 0);
	out = capture_end(&cap);
	is_int(rc, 1, "run --help returns 1");
	ok(lists_all_of(out, run_options, run_options_count, "", 1),
	   "run help lists every run option but measure's own");
	ok(!strstr(out, "--kill-after"), "and not those (--kill-after)");
	ok(strstr(out, "--rate_iops") && strstr(out, "Metering phases"),
	   "run help has job options and metering phases");

	capture_begin(&cap, 1);
	rc = run_config_parse(2, (char *[]){ "measure", "-h", NULL }, &cfg, 1);
	out = capture_end(&cap);
	is_int(rc, 1, "measure -h returns 1");
	ok(strstr(out, "--tail_hold") && strstr(out, "--meter"), "measure help has phases, meter");
	ok(!strstr(out, "--bs ") && !strstr(out, "--jobs "), "but no I/O job options");
	ok(lists_all_of(out, run_options, run_options_count, "", 0),
	   "measure help lists measure's own options (--kill-after, --kill-descendants)");
}

/* A job's options as the result document has them. */
static json_t *options_json(const struct job_opts *jo)
{
	struct run_result r;
	json_t *doc, *o;

	memset(&r, 0, sizeof(r));
	result_job_options(result_add_job(&r), jo);
	doc = result_to_json(&r);
	o = json_incref(json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "options"));
	json_decref(doc);
	result_free(&r);
	return o;
}

static void test_json(void)
{
	size_t njob;
	const struct opt_desc *jt = job_option_table(&njob);
	struct job_opts jo;
	json_t *o;
	size_t i, e, wrong = 0;
	char key[80];

	for (e = 0; io_engines[e]; e++) {
		job_defaults(&jo);
		snprintf(jo.ioengine, sizeof(jo.ioengine), "%s", io_engines[e]->name);
		o = options_json(&jo);
		for (i = 0; i < njob; i++) {
			const struct io_engine *owner = job_option_engine(&jt[i]);

			snprintf(key, sizeof(key), "%s%s", jt[i].name,
				 jt[i].type == OPT_DURATION ? "_ns" : "");
			if (!json_object_get(o, key) != (owner && owner != io_engines[e])) {
				wrong++;
				printf("# %s: options json %s %s\n", io_engines[e]->name,
				       owner && owner != io_engines[e] ? "has" : "lacks", key);
			}
		}
		is_str(json_string_value(json_object_get(o, "ioengine")), io_engines[e]->name,
		       "%s: ioengine", io_engines[e]->name);
		json_decref(o);
	}
	is_int(wrong, 0, "options JSON: every generic option and the job's engine's, no other");
	job_defaults(&jo);
	jo.rw = RW_WRITE;
	jo.size = 64 << 20;
	job_fixup(&jo);
	o = options_json(&jo);

	is_str(json_string_value(json_object_get(o, "rw")), "write", "rw as a string");
	is_int(json_integer_value(json_object_get(o, "bs")), 4096, "bs in bytes");
	is_int(json_integer_value(json_object_get(o, "filesize")), 64 << 20,
	       "filesize resolved to size");
	is_int(json_integer_value(json_object_get(o, "end_fsync")), 1, "end_fsync resolved");
	is_int(json_integer_value(json_object_get(o, "idle_ns")), 10 * NS_PER_SEC, "idle_ns");
	is_dbl(json_real_value(json_object_get(o, "tail_tolerance")), 0.05, 1e-12,
	       "tail_tolerance as a fraction");
	is_str(json_string_value(json_object_get(o, "ioengine")), engines[0]->name,
	       "ioengine resolved to the best engine this kernel runs");
	json_decref(o);
}

/* A job built from flags after "run --target /tmp": accepted, or refused saying want_msg. */
static int check(const char *what, const char *want_msg, ...)
{
	static const char *const pre[] = { "run", "--target", "/tmp", NULL };
	struct run_config cfg;
	va_list ap;
	int rc;

	va_start(ap, want_msg);
	rc = parse_v(&cfg, 0, pre, ap);
	va_end(ap);
	if (want_msg) {
		is_int(rc, -EINVAL, "%s is refused", what);
		ok(strstr(parse_err, want_msg) != NULL, "%s: message has '%s': %s", what, want_msg,
		   parse_err);
	} else {
		is_int(rc, 0, "%s is accepted", what);
		if (rc)
			printf("# %s\n", parse_err);
	}
	if (!rc)
		run_config_free(&cfg);
	return rc;
}

/* What validation says follows each engine's flags and options, never its name. */
static void test_validate_engines(void)
{
	const struct io_engine *e, *other;
	struct run_config cfg;
	char what[96], want[160], flag[64];
	size_t i;

	for (i = 0; (e = engines[i]); i++) {
		snprintf(what, sizeof(what), "direct=0 with %s", e->name);
		snprintf(want, sizeof(want), "direct=0 needs an engine that does buffered I/O");
		check(what, e->flags & IOENG_NEEDS_DIRECT ? want : NULL, "--direct", "0", "--size",
		      "1m", "--ioengine", e->name, NULL);
		if (e->flags & IOENG_ASYNC)
			continue;
		is_int(parse(&cfg, 0, "run", "--target", "/tmp", "--size", "1m", "--ioengine",
			     e->name, "--iodepth", "32", NULL),
		       0, "%s with iodepth 32 is accepted", e->name);
		is_int(cfg.jobs[0].iodepth, 1, "and runs at depth 1");
		ok(strstr(parse_err, "warning") && strstr(parse_err, "iodepth=32"),
		   "with a warning: %s", parse_err);
		run_config_free(&cfg);
	}
	for (i = 0; (e = engines[i]) && !e->noptions; i++)
		;
	other = e && engines[i + 1] ? engines[i + 1] : engines[0];
	if (!e || other == e) {
		skip("no engine with options of its own beside another engine");
		return;
	}
	snprintf(what, sizeof(what), "%s's %s on %s", e->name, e->options[0].name, other->name);
	snprintf(want, sizeof(want), "%s is an option of ioengine=%s; this job uses ioengine=%s",
		 e->options[0].name, e->name, other->name);
	snprintf(flag, sizeof(flag), "--%s", e->options[0].name);
	check(what, want, "--size", "1m", "--ioengine", other->name, flag,
	      e->options[0].def && !strcmp(e->options[0].def, "1") ? "0" : "1", NULL);
	snprintf(what, sizeof(what), "%s's %s on %s", e->name, e->options[0].name, e->name);
	check(what, NULL, "--size", "1m", "--ioengine", e->name, flag,
	      e->options[0].def && !strcmp(e->options[0].def, "1") ? "0" : "1", NULL);
}

static void test_validate(void)
{
	check("no size", "has no size", "--rw", "write", NULL);
	check("22m of 2300-byte records",
	      "size 22m is not a multiple of bs 2300; 23066700 (10029 writes) is, or "
	      "23000000 (10000)",
	      "--rw", "write", "--bs", "2300", "--size", "22m", "--direct", "0", "--ioengine",
	      "psync", NULL);
	check("23000000 of 2300-byte records", NULL, "--rw", "write", "--bs", "2300", "--size",
	      "23000000", "--direct", "0", "--ioengine", "psync", NULL);
	check("direct with 2300", "multiple of 512", "--bs", "2300", "--size", "23000000",
	      "--ioengine", "psync", NULL);
	check("direct=0 without an engine", NULL, "--direct", "0", "--size", "1m", NULL);
	check("filesize not a multiple", "filesize 5000 is not a multiple", "--size", "8k",
	      "--filesize", "5000", NULL);
	check("filesize smaller than size wraps", NULL, "--size", "64k", "--filesize", "8k",
	      "--rw", "randread", NULL);
	if (engines[0]->flags & IOENG_ASYNC)
		check("batch over depth", "iodepth_batch_submit 8 is larger than iodepth 4",
		      "--size", "1m", "--iodepth", "4", "--iodepth-batch", "8", NULL);
	check("tail_hold over tail_max", "tail_hold", "--size", "1m", "--tail-hold", "10s",
	      "--tail-max", "5s", NULL);
	check("rate_iops with loops", NULL, "--size", "1m", "--rate-iops", "10", "--loops", "3",
	      NULL);

	check("an engine not in the build", "expected one of", "--size", "1m", "--ioengine",
	      "posixaio", NULL);
	test_validate_engines();
}

/* Durations print whole minutes however long: no int overflow (found by fuzz_duration). */
static void test_fmt_duration(void)
{
	char buf[64];

	is_str(fmt_duration(90 * NS_PER_SEC, buf, sizeof(buf)), "1 min 30 s", "90 s");
	is_str(fmt_duration(999999999ULL * NS_PER_SEC, buf, sizeof(buf)),
	       "16666666 min 39 s", "999999999 s in minutes");
	ok(strstr(fmt_duration(UINT64_MAX, buf, sizeof(buf)), " min ") != NULL,
	   "UINT64_MAX ns prints: %s", buf);
}

int main(void)
{
	log_set_level(LOG_INFO);
	find_usable_engines();
	test_every_job_option();
	test_parsers();
	test_fmt_duration();
	test_spellings();
	test_defaults();
	test_help();
	test_json();
	test_validate();
	return done_testing();
}
