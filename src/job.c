/* SPDX-License-Identifier: MIT */
/* Job defaults and the checks across options that no single option can make. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "log.h"
#include "options.h"
#include "util.h"

#define MOD "job"

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
