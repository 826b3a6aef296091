/* SPDX-License-Identifier: MIT */
/* Before each job: O_DIRECT support, alignment, free space and a laid-out extent. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/files.h"
#include "core/log.h"
#include "core/units.h"
#include "io/discard.h"
#include "io/target.h"
#include "io/target_int.h"

#define MOD "target"
#define LAYOUT_CHUNK MIB
/* Layout writes go through O_DIRECT where buffer, offset and length are page-aligned. */
#define LAYOUT_ALIGN 4096
/* stat's st_blocks counts these, whatever the filesystem's block size. */
#define STAT_BLOCK_BYTES 512

static int memory_fs(const struct target *tg)
{
	return !strcmp(tg->fstype, "tmpfs") || !strcmp(tg->fstype, "ramfs");
}

/*
 * Asks the filesystem itself: older tmpfs and some FUSE filesystems refuse O_DIRECT at
 * open. Since Linux 6.6 tmpfs accepts the flag, but its files live in the page cache,
 * so there is no device to go direct to: it is refused all the same.
 */
static int probe_odirect(struct target *tg)
{
	char where[320];
	int fd;

	if (tg->odirect < 0 && memory_fs(tg))
		tg->odirect = 0;
	if (tg->odirect < 0) {
		fd = fd_reopen(tg->fd, O_RDONLY | O_DIRECT);
		if (fd >= 0) {
			close(fd);
			tg->odirect = 1;
		} else if (fd == -EINVAL) {
			tg->odirect = 0;
		} else {
			log_err(MOD, "cannot reopen %s for O_DIRECT: %s", tg->path, strerror(-fd));
			return fd;
		}
	}
	if (tg->odirect)
		return 0;
	log_err(MOD, "%s has no O_DIRECT support (direct=1): use --direct=0, which measures "
		"through the page cache", target_where(tg, where, sizeof(where)));
	return -EINVAL;
}

static int check_alignment(const struct target *tg, const struct job_opts *jo)
{
	uint64_t per_thread = job_region(jo);
	const char *dev = tg->partition[0] ? tg->partition : tg->blockdev;
	char where[320];

	if (dev[0])
		snprintf(where, sizeof(where), "%s", dev);
	else
		target_where(tg, where, sizeof(where));
	if (jo->bs % tg->logical_bs) {
		log_err(MOD, "job '%s': bs=%llu is not a multiple of the logical block size %u of "
			"%s (direct=1)", jo->name, (unsigned long long)jo->bs, tg->logical_bs, where);
		return -EINVAL;
	}
	if (per_thread % tg->logical_bs) {
		log_err(MOD, "job '%s': %s=%llu is not a multiple of the logical block size %u of "
			"%s (direct=1)", jo->name, jo->filesize ? "filesize" : "size",
			(unsigned long long)per_thread, tg->logical_bs, where);
		return -EINVAL;
	}
	return 0;
}

/* Counts the blocks the file already has, so a re-run on a kept file is not refused. */
static int check_space(const struct target *tg, uint64_t need)
{
	char n1[32], n2[32], where[320];
	struct statvfs sv;
	struct stat st;
	uint64_t have = 0, avail;

	if (fstat(tg->fd, &st) == 0)
		have = (uint64_t)st.st_blocks * STAT_BLOCK_BYTES;
	if (need <= have)
		return 0;
	if (fstatvfs(tg->fd, &sv))
		return 0; /* unknown: the writes will tell */
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need - have <= avail)
		return 0;
	if (tg->mount_point[0])
		snprintf(where, sizeof(where), "%s (%s)", tg->mount_point, tg->fstype);
	else
		snprintf(where, sizeof(where), "%s", tg->path);
	if (tg->force) {
		log_warn(MOD, "--force: needs %s for the test file, only %s free on %s",
			 fmt_size(need - have, n1, sizeof(n1)), fmt_size(avail, n2, sizeof(n2)),
			 where);
		return 0;
	}
	log_err(MOD, "needs %s for the test file, only %s free on %s",
		fmt_size(need - have, n1, sizeof(n1)), fmt_size(avail, n2, sizeof(n2)), where);
	return -ENOSPC;
}

/*
 * Non-zero, incompressible and different in every chunk, so that neither a
 * compressing controller nor the zero-page shortcut of a thin device makes reads
 * cheaper than real data would be.
 */
static void fill_pattern(uint64_t *buf, size_t words, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
	size_t i;

	for (i = 0; i < words; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = x;
	}
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off, const char *path)
{
	ssize_t n;

	while (len) {
		n = pwrite(fd, buf, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			log_err(MOD, "laying out %s at offset %llu: %s", path,
				(unsigned long long)off, strerror(-err));
			return err;
		}
		buf = (const char *)buf + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Chunks of [from, to): through dfd where aligned (and dfd is open), else through fd. */
static int write_extent(const struct target *tg, int fd, int dfd, void *buf, uint64_t from,
			uint64_t to)
{
	uint64_t off, aligned_end = dfd >= 0 ? to - to % LAYOUT_ALIGN : from;
	size_t n;
	int rc = 0;

	for (off = from; off < to && !rc; off += n) {
		if (tg->stop_flag && *tg->stop_flag) {
			log_info(MOD, "layout of %s interrupted", tg->path);
			return -EINTR;
		}
		n = to - off > LAYOUT_CHUNK ? LAYOUT_CHUNK : (size_t)(to - off);
		fill_pattern(buf, LAYOUT_CHUNK / sizeof(uint64_t), off / LAYOUT_CHUNK + 1);
		if (off % LAYOUT_ALIGN == 0 && off + n <= aligned_end)
			rc = write_all(dfd, buf, n, off, tg->path);
		else
			rc = write_all(fd, buf, n, off, tg->path);
	}
	if (!rc && ((dfd >= 0 && fsync(dfd)) || fsync(fd))) {
		rc = -errno;
		log_err(MOD, "fsync %s: %s", tg->path, strerror(errno));
	}
	return rc;
}

/*
 * Writes [from, to) with large O_DIRECT writes where the filesystem has them (so the
 * page cache holds none of it when the job starts), the unaligned tail buffered.
 */
static int layout(struct target *tg, uint64_t from, uint64_t to, const char *job)
{
	int dfd = -1, rc;
	char sz[32];
	void *buf;

	log_info(MOD, "laying out %s of %s for job '%s' (outside any measurement)",
		 fmt_size(to - from, sz, sizeof(sz)), tg->path, job);
	if (tg->odirect != 0)
		dfd = fd_reopen(tg->fd, O_WRONLY | O_DIRECT);
	if (posix_memalign(&buf, LAYOUT_ALIGN, LAYOUT_CHUNK)) {
		log_err(MOD, "out of memory for the layout buffer");
		rc = -ENOMEM;
	} else {
		rc = write_extent(tg, tg->fd, dfd, buf, from, to);
		free(buf);
	}
	if (dfd >= 0)
		close(dfd);
	if (!rc) {
		tg->laid_out = to;
		if (to > tg->extent)
			tg->extent = to;
	}
	return rc;
}

/* Write-only jobs overwrite what they need: allocating the extent is enough. */
static int allocate(struct target *tg, uint64_t need, const char *job)
{
	int rc;

	rc = fallocate(tg->fd, 0, 0, (off_t)need) ? -errno : 0;
	if (rc == -EOPNOTSUPP || rc == -ENOSYS)
		return layout(tg, tg->laid_out, need, job);
	if (rc) {
		log_err(MOD, "allocating %llu bytes for %s: %s", (unsigned long long)need,
			tg->path, strerror(-rc));
		return rc;
	}
	tg->extent = need;
	return 0;
}

int target_check_job(struct target *tg, const struct job_opts *jo)
{
	uint64_t need = job_extent(jo);
	char n1[32], n2[32];
	int rc;

	if (jo->direct) {
		rc = probe_odirect(tg);
		if (!rc)
			rc = check_alignment(tg, jo);
		if (rc)
			return rc;
	}
	if (tg->is_blockdev || !tg->may_write) {
		/* Never written: the data that is there is what the job reads. */
		if (need <= tg->extent)
			return 0;
		log_err(MOD, "job '%s' needs %s but %s holds only %s", jo->name,
			fmt_size(need, n1, sizeof(n1)), tg->path, fmt_size(tg->extent, n2, sizeof(n2)));
		return -ENOSPC;
	}
	return check_space(tg, need > tg->laid_out ? need : tg->laid_out);
}

/*
 * A reread's first pass when the job before it was not one: the whole extent read once,
 * the way the job reads (O_DIRECT or through the page cache), outside any measurement.
 */
static int read_pass(struct target *tg, const struct job_opts *jo, uint64_t need)
{
	uint64_t off;
	ssize_t n;
	void *buf;
	char sz[32];
	int fd, rc = 0;

	log_info(MOD, "reading %s of %s once for job '%s', a second pass (outside any "
		 "measurement)", fmt_size(need, sz, sizeof(sz)), tg->path, jo->name);
	fd = fd_reopen(tg->fd, O_RDONLY | (jo->direct ? O_DIRECT : 0));
	if (fd < 0) {
		log_err(MOD, "cannot reopen %s: %s", tg->path, strerror(-fd));
		return fd;
	}
	if (posix_memalign(&buf, LAYOUT_ALIGN, LAYOUT_CHUNK)) {
		close(fd);
		log_err(MOD, "out of memory for the read buffer");
		return -ENOMEM;
	}
	for (off = 0; off < need && !rc; off += (uint64_t)n) {
		if (tg->stop_flag && *tg->stop_flag) {
			rc = -EINTR;
			break;
		}
		n = pread(fd, buf, need - off > LAYOUT_CHUNK ? LAYOUT_CHUNK : (size_t)(need - off),
			  (off_t)off);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			log_err(MOD, "reading %s at offset %llu: %s", tg->path,
				(unsigned long long)off, strerror(-rc));
		}
	}
	free(buf);
	close(fd);
	if (!rc)
		tg->read_to = need;
	return rc;
}

/* A rewrite's first pass: data written over the extent, unless a job already did. */
static int write_pass(struct target *tg, const struct job_opts *jo, uint64_t need)
{
	int rc;

	if (tg->laid_out >= need || tg->written_to >= need)
		return 0;
	rc = check_space(tg, need);
	return rc ? rc : layout(tg, tg->laid_out, need, jo->name);
}

/* What the target holds is gone (discarded): no pass before covers it, a file's data
 * must be laid out again before a read. */
static void forget_data(struct target *tg)
{
	tg->written_to = tg->read_to = 0;
	if (!tg->is_blockdev)
		tg->laid_out = 0;
}

/*
 * trim_before=1: the job's extent discarded before it, outside any measurement, so that
 * it starts on blocks the device knows are free (BLKDISCARD on a block device, a punched
 * hole in a file). Only where iowatt may write (target_open's rules: a file it created,
 * --force, or --allow-raw-device): never what it did not create unless told.
 */
static int trim_before(struct target *tg, const struct job_opts *jo, uint64_t need)
{
	uint64_t len = need < tg->extent ? need : tg->extent;
	char sz[32];
	int rc;

	if (!tg->may_write) {
		log_err(MOD, "job '%s': trim_before=1 discards %s, which iowatt may not write",
			jo->name, tg->path);
		return -EPERM;
	}
	log_info(MOD, "discarding %s of %s for job '%s' (trim_before, outside any measurement)",
		 fmt_size(len, sz, sizeof(sz)), tg->path, jo->name);
	rc = io_discard(tg->fd, tg->is_blockdev, 0, len);
	if (rc) {
		log_err(MOD, "job '%s': discarding %s: %s", jo->name, tg->path, strerror(-rc));
		return rc;
	}
	forget_data(tg);
	return 0;
}

static int prepare_extent(struct target *tg, const struct job_opts *jo);

int target_prepare_job(struct target *tg, const struct job_opts *jo)
{
	int rc = prepare_extent(tg, jo);

	return rc || !jo->trim_before ? rc : trim_before(tg, jo, job_extent(jo));
}

/* The extent the job needs, laid out or passed over as its mode wants. */
static int prepare_extent(struct target *tg, const struct job_opts *jo)
{
	uint64_t need = job_extent(jo);
	int rc;

	rc = target_check_job(tg, jo);
	if (rc)
		return rc;
	if (tg->is_blockdev || !tg->may_write)
		return jo->rw == RW_REREAD && tg->read_to < need ? read_pass(tg, jo, need) : 0;
	if (rw_reads(jo->rw)) {
		if (tg->laid_out < need) {
			rc = check_space(tg, need);
			if (!rc)
				rc = layout(tg, tg->laid_out, need, jo->name);
		}
		if (!rc && jo->rw == RW_REREAD && tg->read_to < need)
			rc = read_pass(tg, jo, need);
		return rc;
	}
	if (jo->rw == RW_REWRITE)
		return write_pass(tg, jo, need);
	if (tg->extent >= need)
		return 0;
	rc = check_space(tg, need);
	return rc ? rc : allocate(tg, need, jo->name);
}

void target_job_done(struct target *tg, const struct job_opts *jo, int finished)
{
	uint64_t need = job_extent(jo);

	if (jo->rw == RW_TRIM) {
		forget_data(tg); /* some of it was discarded, finished or not */
		return;
	}
	/* Each thread must have gone over all of its region. */
	if (!finished || rw_is_random(jo->rw) || jo->size < job_region(jo))
		return;
	if (rw_writes(jo->rw) && tg->written_to < need)
		tg->written_to = need;
	if (rw_reads(jo->rw) && tg->read_to < need)
		tg->read_to = need;
}
