/* SPDX-License-Identifier: MIT */
/* Job defaults, the engine a job gets, and the checks across options no single one can make. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/steady.h"
#include "core/units.h"
#include "io/engine.h"
#include "io/job.h"

#define MOD "job"
/* "configs/x.ini:12: job 'SEQ1M'": a path, a line and a job name. */
#define WHERE_LEN 400
#define WHY_LEN 256

const char *rw_name(int rw)
{
	static const char *const names[] = { "read",   "write",	  "randread", "randwrite",
					     "randrw", "rewrite", "reread", "trim" };

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

uint64_t job_size_cap(const struct job_opts *jo)
{
	if (!jo->size_max || !jo->size_auto_ns || !jo->bs)
		return 0;
	return jo->size_max < jo->bs ? jo->bs : jo->size_max / jo->bs * jo->bs;
}

uint64_t job_region(const struct job_opts *jo)
{
	uint64_t region = jo->filesize ? jo->filesize
			  : !jo->size && jo->size_auto_ns ? SIZE_AUTO_EXTENT : jo->size;
	uint64_t cap = job_size_cap(jo);

	/* size_max bounds the file: the job reaches its length by wrapping around */
	return cap && cap < region ? cap : region;
}

uint64_t job_extent(const struct job_opts *jo)
{
	return (uint64_t)(jo->numjobs ? jo->numjobs : 1) * job_region(jo);
}

struct job_opts job_sized(const struct job_opts *jo, uint64_t size)
{
	struct job_opts sized = *jo;

	sized.filesize = job_region(jo);
	sized.size = size;
	sized.size_auto_ns = 0;
	return sized;
}

void job_defaults(struct job_opts *jo)
{
	size_t n;
	const struct opt_desc *t = job_option_table(&n);

	memset(jo, 0, sizeof(*jo));
	opt_apply_defaults(t, n, jo);
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

static const char *format_key(const struct job_opts *jo, const char *key, char *buf, size_t len)
{
	size_t n;
	const struct opt_desc *t = job_option_table(&n);

	return opt_format(opt_find(t, n, key), jo, buf, len);
}

/* Sizes as the user would write them ("22m"), counts so the fix is obvious. */
static int check_multiple(const struct job_opts *jo, const char *key, uint64_t v)
{
	char w[WHERE_LEN], vs[32], bss[32];
	uint64_t n = v / jo->bs, r = round_count(n);

	if (v % jo->bs == 0)
		return 0;
	format_key(jo, key, vs, sizeof(vs));
	format_key(jo, "bs", bss, sizeof(bss));
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
	char w[WHERE_LEN];

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

/* The engines of this build that do buffered I/O, "psync, io_uring", for messages. */
static const char *buffered_engines(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; io_engines[i] && used < len; i++)
		if (!(io_engines[i]->flags & IOENG_NEEDS_DIRECT))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 io_engines[i]->name);
	return buf;
}

static int engine_usable(const struct io_engine *e, char *why, size_t len)
{
	why[0] = '\0';
	return e->probe ? e->probe(why, len) : 0;
}

/* The first option changed from its default for an engine other than the job's, or NULL. */
static const struct opt_desc *foreign_option(const struct job_opts *jo)
{
	size_t n, i;
	const struct opt_desc *t = job_option_table(&n);
	struct job_opts def;
	char a[64], b[64];

	job_defaults(&def);
	for (i = 0; i < n; i++)
		if (!job_option_applies(jo, &t[i]) &&
		    strcmp(opt_format(&t[i], jo, a, sizeof(a)), opt_format(&t[i], &def, b, sizeof(b))))
			return &t[i];
	return NULL;
}

/* The best engine this kernel runs for the job, or NULL. */
static const struct io_engine *usable_engine(const struct job_opts *jo)
{
	char why[WHY_LEN];
	size_t i;

	for (i = 0; io_engines[i]; i++)
		if ((jo->direct || !(io_engines[i]->flags & IOENG_NEEDS_DIRECT)) &&
		    !engine_usable(io_engines[i], why, sizeof(why)))
			return io_engines[i];
	return NULL;
}

static int validate_engine(const struct job_opts *jo)
{
	const struct io_engine *e = io_engine_find(jo->ioengine), *alt;
	const struct opt_desc *d;
	char w[WHERE_LEN], why[WHY_LEN], list[128];

	if (!e) {
		log_err(MOD, "%s: ioengine '%s' is not in this build", where(jo, w, sizeof(w)),
			jo->ioengine);
		return -EINVAL;
	}
	if (!jo->direct && (e->flags & IOENG_NEEDS_DIRECT)) {
		log_err(MOD, "%s: direct=0 needs an engine that does buffered I/O (%s): ioengine=%s "
			"is only asynchronous with O_DIRECT", where(jo, w, sizeof(w)),
			buffered_engines(list, sizeof(list)), e->name);
		return -EINVAL;
	}
	if (engine_usable(e, why, sizeof(why))) {
		alt = usable_engine(jo);
		log_err(MOD, "%s: ioengine=%s: %s%s%s", where(jo, w, sizeof(w)), e->name, why,
			alt ? "; use --ioengine " : "", alt ? alt->name : "");
		return -EINVAL;
	}
	d = foreign_option(jo);
	if (d) {
		log_err(MOD, "%s: %s is an option of ioengine=%s; this job uses ioengine=%s",
			where(jo, w, sizeof(w)), d->name, job_option_engine(d)->name, e->name);
		return -EINVAL;
	}
	return 0;
}

static int validate_batches(const struct job_opts *jo)
{
	char w[WHERE_LEN];

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
	return 0;
}

static int validate_sizes(const struct job_opts *jo)
{
	char w[WHERE_LEN];

	if (!jo->size && !jo->size_auto_ns) {
		log_err(MOD, "%s has no size: set size= in the profile or --size (e.g. --size 256m)",
			where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	if (!jo->bs) {
		log_err(MOD, "%s: bs must be at least 1 byte", where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	/* size=auto without a size: the region it works in is what must hold whole blocks */
	if (check_multiple(jo, "size", jo->size ? jo->size : job_region(jo)))
		return -EINVAL;
	if (jo->filesize && check_multiple(jo, "filesize", jo->filesize))
		return -EINVAL;
	/* The device's own logical block size may be larger; the target module checks it. */
	if (jo->direct && jo->bs % SECTOR_BYTES) {
		log_err(MOD, "%s: direct=1 needs bs to be a multiple of %d (bs is %" PRIu64
			"); for unaligned records use direct=0%s", where(jo, w, sizeof(w)),
			SECTOR_BYTES, jo->bs,
			jo->bs % KB ? "" : " (kB and MB are powers of 1000: 4k or 4KiB is 4096)");
		return -EINVAL;
	}
	if (job_extent(jo) / jo->numjobs != job_region(jo)) {
		log_err(MOD, "%s: numjobs * filesize overflows", where(jo, w, sizeof(w)));
		return -EINVAL;
	}
	return 0;
}

static int validate_rounds(const struct job_opts *jo)
{
	char w[WHERE_LEN];

	if (jo->repeat_until_steady && jo->repeat_until_steady < STEADY_WINDOW) {
		log_err(MOD, "%s: repeat_until_steady=%u: steady state is judged on %d rounds, "
			"so give at least %d", where(jo, w, sizeof(w)), jo->repeat_until_steady,
			STEADY_WINDOW, STEADY_WINDOW);
		return -EINVAL;
	}
	if (jo->repeat_until_steady && jo->repeat > 1) {
		log_err(MOD, "%s: repeat=%u and repeat_until_steady=%u: give one (the second is "
			"the most rounds)", where(jo, w, sizeof(w)), jo->repeat,
			jo->repeat_until_steady);
		return -EINVAL;
	}
	return 0;
}

int job_validate(const struct job_opts *jo)
{
	if (validate_sizes(jo) || validate_engine(jo) || validate_batches(jo) ||
	    validate_rounds(jo))
		return -EINVAL;
	return job_validate_phases(jo);
}

/*
 * The registry's order, skipping engines that need O_DIRECT for a buffered job and
 * engines the kernel refuses. A refusal is said once per process, not once per job.
 * psync has no requirements, so there is always an engine.
 */
static const struct io_engine *default_engine(const struct job_opts *jo)
{
	static unsigned warned; /* bit per io_engines[] index */
	char why[WHY_LEN];
	size_t i, k;

	for (i = 0; io_engines[i]; i++) {
		if (!jo->direct && (io_engines[i]->flags & IOENG_NEEDS_DIRECT))
			continue;
		if (!engine_usable(io_engines[i], why, sizeof(why)))
			break;
		if (!(warned & (1u << i))) {
			warned |= 1u << i;
			for (k = i + 1; io_engines[k]; k++)
				if (jo->direct || !(io_engines[k]->flags & IOENG_NEEDS_DIRECT))
					break;
			log_warn(MOD, "ioengine %s is unavailable: %s; jobs that do not choose an "
				 "engine use %s", io_engines[i]->name, why,
				 io_engines[k] ? io_engines[k]->name : "none");
		}
	}
	return io_engines[i];
}

/* Options of an engine the job did not get go back to their defaults, with a warning. */
static void drop_foreign_options(struct job_opts *jo)
{
	const struct opt_desc *d;
	char w[WHERE_LEN];

	while ((d = foreign_option(jo))) {
		log_warn(MOD, "%s: %s is an option of ioengine=%s, which is not used: ignored",
			 where(jo, w, sizeof(w)), d->name, job_option_engine(d)->name);
		opt_apply_defaults(d, 1, jo);
	}
}

/* rw=trim on an engine that cannot discard: the first engine that can, with a warning
 * when the job named another (e is NULL when it named none). */
static void discard_engine(struct job_opts *jo, const struct io_engine *e)
{
	char w[WHERE_LEN];
	size_t i;

	for (i = 0; io_engines[i]; i++)
		if (io_engines[i]->flags & IOENG_DISCARD)
			break;
	if (!io_engines[i])
		return;
	if (e)
		log_warn(MOD, "%s: ioengine=%s cannot discard; rw=trim runs on ioengine=%s, one "
			 "discard at a time", where(jo, w, sizeof(w)), e->name, io_engines[i]->name);
	snprintf(jo->ioengine, sizeof(jo->ioengine), "%s", io_engines[i]->name);
	drop_foreign_options(jo);
	jo->iodepth = 1;
	jo->iodepth_batch_submit = 0;
	jo->iodepth_batch_complete = 0;
}

void job_fixup(struct job_opts *jo)
{
	const struct io_engine *e;
	char w[WHERE_LEN];

	if (!jo->ioengine[0] && jo->rw == RW_TRIM)
		discard_engine(jo, NULL);
	if (!jo->ioengine[0]) {
		e = default_engine(jo);
		snprintf(jo->ioengine, sizeof(jo->ioengine), "%s", e->name);
		drop_foreign_options(jo);
	}
	e = io_engine_find(jo->ioengine);
	if (e && !(e->flags & IOENG_ASYNC) && jo->iodepth > 1) {
		log_warn(MOD, "%s: ioengine=%s runs one I/O at a time per thread; iodepth=%u "
			 "is treated as 1", where(jo, w, sizeof(w)), e->name, jo->iodepth);
		jo->iodepth = 1;
		jo->iodepth_batch_submit = 0;
		jo->iodepth_batch_complete = 0;
	}
	if (jo->rw != RW_RANDRW && jo->rwmixread != 50)
		log_warn(MOD, "%s: rwmixread=%u only applies to rw=randrw; ignored for rw=%s",
			 where(jo, w, sizeof(w)), jo->rwmixread, rw_name(jo->rw));
	if (jo->repeat_until_steady && jo->steady == STEADY_NONE)
		jo->steady = STEADY_IOPS;
	if (jo->rw == RW_TRIM && e && !(e->flags & IOENG_DISCARD))
		discard_engine(jo, e);
}
