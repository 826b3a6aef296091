/* SPDX-License-Identifier: MIT */
/* The job option table, job defaults and the checks across options no single one can make. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench/job.h"
#include "core/log.h"
#include "core/options.h"
#include "core/util.h"

#define MOD "job"
#define JOFF(f) offsetof(struct job_opts, f)
#define G_JOB "Job options (profile keys; as flags they override every job of a profile)"
#define G_PHASE "Metering phases (idle baseline before each job, tail after it)"

static const struct opt_choice rw_choices[] = {
	{ "read", "sequential reads" },
	{ "write", "sequential writes" },
	{ "randread", "random reads" },
	{ "randwrite", "random writes" },
	{ "randrw", "random mix of reads and writes (see rwmixread)" },
	{ NULL, NULL },
};

static const struct opt_choice engine_choices[] = {
	{ "libaio", "Linux native asynchronous I/O, iodepth requests in flight (needs direct=1)" },
	{ "psync", "pread/pwrite, one request at a time: the reference engine" },
	{ NULL, NULL },
};

/*
 * The one table behind INI keys, `run` flags, --help and the result's "options" object.
 * Names and meanings follow fio so that a fio user's job file reads the same here.
 */
const struct opt_desc job_options[] = {
	{ .name = "rw", .alias = "readwrite", .type = OPT_ENUM, .off = JOFF(rw), .def = "read",
	  .choices = rw_choices, .metavar = "MODE", .help = "I/O pattern", .group = G_JOB },
	{ .name = "rwmixread", .type = OPT_UINT, .off = JOFF(rwmixread), .def = "50", .min = 0,
	  .max = 100, .metavar = "PERCENT", .help = "share of reads in randrw, in percent",
	  .group = G_JOB },
	{ .name = "bs", .alias = "blocksize", .type = OPT_SIZE, .off = JOFF(bs), .def = "4k",
	  .min = 1, .max = 1073741824.0, .help = "bytes per I/O (record size)", .group = G_JOB },
	{ .name = "iodepth", .type = OPT_UINT, .off = JOFF(iodepth), .def = "1", .min = 1,
	  .max = 65536, .help = "I/Os in flight per thread (libaio)", .group = G_JOB },
	{ .name = "size", .type = OPT_SIZE, .off = JOFF(size), .min = 1,
	  .help = "bytes each thread moves; required: a fixed amount of work, not a time",
	  .group = G_JOB },
	{ .name = "filesize", .type = OPT_SIZE, .off = JOFF(filesize), .min = 1,
	  .help = "extent each thread works in (default: size; smaller wraps around)",
	  .group = G_JOB },
	{ .name = "direct", .type = OPT_BOOL, .off = JOFF(direct), .def = "1",
	  .help = "O_DIRECT: bypass the page cache so the device, not RAM, is measured",
	  .group = G_JOB },
	{ .name = "ioengine", .alias = "engine", .type = OPT_STR, .off = JOFF(ioengine),
	  .size = sizeof(((struct job_opts *)0)->ioengine), .def = "libaio",
	  .choices = engine_choices, .metavar = "ENGINE", .help = "how I/O is issued",
	  .group = G_JOB },
	{ .name = "fdatasync", .type = OPT_UINT, .off = JOFF(fdatasync), .def = "0",
	  .help = "fdatasync after every N writes (0 = never)",
	  .group = G_JOB },
	{ .name = "end_fsync", .type = OPT_BOOL, .off = JOFF(end_fsync),
	  .help = "fsync when the job ends, inside the measured time (auto: 1 if it writes)",
	  .group = G_JOB },
	{ .name = "rate_iops", .type = OPT_U64, .off = JOFF(rate_iops), .def = "0",
	  .help = "pace each thread to N I/Os per second (0 = as fast as possible)",
	  .group = G_JOB },
	{ .name = "runtime", .type = OPT_DURATION, .off = JOFF(runtime_ns), .def = "0",
	  .help = "stop a job early after this long (0 = no cap; bare number = seconds)",
	  .group = G_JOB },
	{ .name = "randseed", .type = OPT_U64, .off = JOFF(randseed), .def = "0x1234",
	  .help = "seed of the random offsets: the same seed repeats the same pattern",
	  .group = G_JOB },
	{ .name = "loops", .type = OPT_UINT, .off = JOFF(loops), .def = "1", .min = 1,
	  .max = 1000000, .help = "run the job N times, each loop reported", .group = G_JOB },
	{ .name = "numjobs", .type = OPT_UINT, .off = JOFF(numjobs), .def = "1", .min = 1,
	  .max = 64, .help = "threads, each with its own region of filesize bytes",
	  .group = G_JOB },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch", .type = OPT_UINT,
	  .off = JOFF(iodepth_batch_submit), .def = "0", .min = 0, .max = 65536,
	  .help = "I/Os submitted per io_submit call (0 = iodepth / 4)", .group = G_JOB },
	{ .name = "iodepth_batch_complete", .alias = "iodepth_batch_complete_min",
	  .type = OPT_UINT, .off = JOFF(iodepth_batch_complete), .def = "0", .min = 0,
	  .max = 65536, .help = "completions to wait for per reap (0 = iodepth / 8)",
	  .group = G_JOB },

	{ .name = "idle", .type = OPT_DURATION, .off = JOFF(idle_ns), .def = "10s", .min = 0,
	  .max = 3600e9, .help = "idle baseline measured before each job (0 = none)",
	  .group = G_PHASE },
	{ .name = "idle_samples", .type = OPT_UINT, .off = JOFF(idle_samples), .def = "20",
	  .min = 0, .max = 1000000, .help = "and at least this many meter samples in it",
	  .group = G_PHASE },
	{ .name = "tail_tolerance", .type = OPT_PERCENT, .off = JOFF(tail_tolerance),
	  .def = "5%", .min = 0.001, .max = 1,
	  .help = "tail ends when power is back within this much of idle (5% or 0.05)",
	  .group = G_PHASE },
	{ .name = "tail_hold", .type = OPT_DURATION, .off = JOFF(tail_hold_ns), .def = "3s",
	  .min = 0, .max = 3600e9, .help = "power must stay within tolerance this long",
	  .group = G_PHASE },
	{ .name = "tail_max", .type = OPT_DURATION, .off = JOFF(tail_max_ns), .def = "60s",
	  .min = 0, .max = 86400e9,
	  .help = "stop waiting for the drive to settle after this long (0 = no tail)",
	  .group = G_PHASE },
	{ .name = "interval", .type = OPT_DURATION, .off = JOFF(interval_ns), .def = "1s",
	  .min = 100e6, .max = 3600e9, .help = "period of the per-interval statistics",
	  .group = G_PHASE },
};

const size_t job_options_count = ARRAY_SIZE(job_options);

int job_option_is_phase(const struct opt_desc *d)
{
	return d->group && !strcmp(d->group, G_PHASE);
}

const char *rw_name(int rw)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite", "randrw" };

	if (rw < 0 || rw >= (int)ARRAY_SIZE(names))
		return "?";
	return names[rw];
}

int job_end_fsync(const struct job_opts *jo)
{
	if (jo->end_fsync >= 0)
		return jo->end_fsync;
	return rw_writes(jo->rw);
}

uint64_t job_extent(const struct job_opts *jo)
{
	uint64_t per = jo->filesize ? jo->filesize : jo->size;

	return (uint64_t)(jo->numjobs ? jo->numjobs : 1) * per;
}

void job_defaults(struct job_opts *jo)
{
	memset(jo, 0, sizeof(*jo));
	opt_apply_defaults(job_options, job_options_count, jo);
}

/* "configs/x.ini:12: job 'SEQ1M'" for a profile job, "job 'cli'" for the command line. */
static const char *where(const struct job_opts *jo, char *buf, size_t len)
{
	if (jo->src_file[0])
		snprintf(buf, len, "%s:%d: job '%s'", jo->src_file, jo->src_line, jo->name);
	else
		snprintf(buf, len, "job '%s'", jo->name);
	return buf;
}

static const char *io_noun(const struct job_opts *jo)
{
	if (!rw_reads(jo->rw))
		return "writes";
	if (!rw_writes(jo->rw))
		return "reads";
	return "I/Os";
}

/* A count a person would pick: the largest n * 10^k (n < 100) at or below count. */
static uint64_t round_count(uint64_t count)
{
	uint64_t p = 1;

	while (count / p >= 100)
		p *= 10;
	return count / p * p;
}

/* Sizes as the user would write them ("22m"), counts so the fix is obvious. */
static int check_multiple(const struct job_opts *jo, const char *key, uint64_t v)
{
	char w[400], vs[32], bss[32];
	uint64_t n = v / jo->bs, r = round_count(n);

	if (v % jo->bs == 0)
		return 0;
	opt_format(opt_find(job_options, job_options_count, key), jo, vs, sizeof(vs));
	opt_format(opt_find(job_options, job_options_count, "bs"), jo, bss, sizeof(bss));
	if (!n) {
		log_err(MOD, "%s: %s %s is smaller than bs %s", where(jo, w, sizeof(w)), key, vs,
			bss);
		return -EINVAL;
	}
	if (r != n)
		log_err(MOD,
			"%s: %s %s is not a multiple of bs %s; %" PRIu64 " (%" PRIu64
			" %s) is, or %" PRIu64 " (%" PRIu64 ")",
			where(jo, w, sizeof(w)), key, vs, bss, n * jo->bs, n, io_noun(jo),
			r * jo->bs, r);
	else
		log_err(MOD, "%s: %s %s is not a multiple of bs %s; %" PRIu64 " (%" PRIu64 " %s) is",
			where(jo, w, sizeof(w)), key, vs, bss, n * jo->bs, n, io_noun(jo));
	return -EINVAL;
}

int job_validate_phases(const struct job_opts *jo)
{
	char w[400];

	if (jo->interval_ns < 100 * NS_PER_MS) {
		log_err(MOD, "%s: interval must be at least 100ms", where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	if (jo->tail_max_ns && jo->tail_hold_ns > jo->tail_max_ns) {
		log_err(MOD, "%s: tail_hold (%" PRIu64 " ms) is longer than tail_max (%" PRIu64
			" ms): the tail could never settle", where(jo, w, sizeof(w)),
			(uint64_t)(jo->tail_hold_ns / NS_PER_MS), (uint64_t)(jo->tail_max_ns / NS_PER_MS));
		return -EINVAL;
	}
	return 0;
}

int job_validate(const struct job_opts *jo)
{
	int psync = !strcmp(jo->ioengine, "psync");
	char w[400];

	if (!jo->size) {
		log_err(MOD, "%s has no size: set size= in the profile or --size (e.g. --size 256m)",
			where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	if (!jo->bs) {
		log_err(MOD, "%s: bs must be at least 1 byte", where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	if (check_multiple(jo, "size", jo->size))
		return -EINVAL;
	if (jo->filesize && check_multiple(jo, "filesize", jo->filesize))
		return -EINVAL;
	/* The device's own logical block size may be larger; the target module checks it. */
	if (jo->direct && jo->bs % 512) {
		log_err(MOD, "%s: direct=1 needs bs to be a multiple of 512 (bs is %" PRIu64
			"); for unaligned records use direct=0 with ioengine=psync",
			where(jo, w, sizeof(w)), jo->bs);
		return -EINVAL;
	}
	if (!jo->direct && !psync) {
		log_err(MOD, "%s: direct=0 needs ioengine=psync (ioengine=%s is only asynchronous "
			"with O_DIRECT)", where(jo, w, sizeof(w)), jo->ioengine);
		return -EINVAL;
	}
	if (jo->iodepth_batch_submit > jo->iodepth) {
		log_err(MOD, "%s: iodepth_batch_submit %u is larger than iodepth %u",
			where(jo, w, sizeof(w)), jo->iodepth_batch_submit, jo->iodepth);
		return -EINVAL;
	}
	if (jo->iodepth_batch_complete > jo->iodepth) {
		log_err(MOD, "%s: iodepth_batch_complete %u is larger than iodepth %u",
			where(jo, w, sizeof(w)), jo->iodepth_batch_complete, jo->iodepth);
		return -EINVAL;
	}
	if (job_extent(jo) / jo->numjobs != (jo->filesize ? jo->filesize : jo->size)) {
		log_err(MOD, "%s: numjobs * filesize overflows", where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	return job_validate_phases(jo);
}

void job_fixup(struct job_opts *jo)
{
	char w[400];

	if (!strcmp(jo->ioengine, "psync") && jo->iodepth > 1) {
		log_warn(MOD, "%s: ioengine=psync runs one I/O at a time per thread; iodepth=%u "
			 "is treated as 1", where(jo, w, sizeof(w)), jo->iodepth);
		jo->iodepth = 1;
		jo->iodepth_batch_submit = 0;
		jo->iodepth_batch_complete = 0;
	}
	if (jo->rw != RW_RANDRW && jo->rwmixread != 50)
		log_warn(MOD, "%s: rwmixread=%u only applies to rw=randrw; ignored for rw=%s",
			 where(jo, w, sizeof(w)), jo->rwmixread, rw_name(jo->rw));
}
