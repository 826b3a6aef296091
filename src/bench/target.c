/* SPDX-License-Identifier: MIT */
/* Resolving --target into a file or device iowatt may use, and removing what it created. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench/target.h"
#include "bench/target_int.h"
#include "core/blockdev.h"
#include "core/log.h"
#include "core/util.h"

#define MOD "target"

/* Written before any I/O, read by the signal handler: a plain buffer and a flag. */
static char sig_path[PATH_MAX];
static volatile sig_atomic_t sig_armed;

const char *target_where(const struct target *tg, char *buf, size_t len)
{
	if (tg->is_blockdev || (!tg->fstype[0] && tg->blockdev[0]))
		snprintf(buf, len, "%s", tg->partition[0] ? tg->partition : tg->blockdev);
	else if (tg->fstype[0])
		snprintf(buf, len, "%s at %s", tg->fstype, tg->mount_point);
	else
		snprintf(buf, len, "%s", tg->path);
	return buf;
}

/* The first job that writes, or NULL: existing files and devices care about it. */
static const struct job_opts *first_writer(const struct job_opts *jobs, size_t njobs)
{
	size_t i;

	for (i = 0; i < njobs; i++)
		if (rw_writes(jobs[i].rw))
			return &jobs[i];
	return NULL;
}

static const struct job_opts *largest_job(const struct job_opts *jobs, size_t njobs)
{
	const struct job_opts *big = NULL;
	size_t i;

	for (i = 0; i < njobs; i++)
		if (!big || job_extent(&jobs[i]) > job_extent(big))
			big = &jobs[i];
	return big;
}

/* Block sizes come from the disk's queue; a file on tmpfs keeps the sector default. */
static void fill_block_sizes(struct target *tg)
{
	unsigned long long v;

	tg->logical_bs = SECTOR_BYTES;
	tg->physical_bs = SECTOR_BYTES;
	if (!tg->blockdev[0])
		return;
	if (!blockdev_attr_u64("", tg->blockdev, "queue/logical_block_size", &v) && v)
		tg->logical_bs = (unsigned)v;
	if (!blockdev_attr_u64("", tg->blockdev, "queue/physical_block_size", &v) && v)
		tg->physical_bs = (unsigned)v;
}

/* Filesystem, mount and disk of the file at tg->path (already existing). */
static void fill_file_info(struct target *tg, const struct stat *st)
{
	struct mount_entry me;
	char real[PATH_MAX];

	tg->dev_major = major(st->st_dev);
	tg->dev_minor = minor(st->st_dev);
	if (realpath(tg->path, real) &&
	    !mountinfo_find("/proc/self/mountinfo", st->st_dev, real, &me)) {
		snprintf(tg->fstype, sizeof(tg->fstype), "%s", me.fstype);
		snprintf(tg->mount_point, sizeof(tg->mount_point), "%s", me.mount_point);
		snprintf(tg->mount_opts, sizeof(tg->mount_opts), "%s", me.opts);
		snprintf(tg->mount_source, sizeof(tg->mount_source), "%s", me.source);
	}
	if (blockdev_resolve("", tg->dev_major, tg->dev_minor, tg->blockdev,
			     sizeof(tg->blockdev), tg->partition, sizeof(tg->partition)))
		tg->blockdev[0] = tg->partition[0] = '\0';
	fill_block_sizes(tg);
}

static void arm_signal_cleanup(const struct target *tg)
{
	if (!tg->created || tg->keep || strlen(tg->path) >= sizeof(sig_path))
		return;
	memcpy(sig_path, tg->path, strlen(tg->path) + 1);
	sig_armed = 1;
}

/* Why O_EXCL refused: a dangling symlink reads as "File exists", which misleads. */
static void log_cannot_create(const char *path, int err)
{
	char to[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (err == -EEXIST && !lstat(path, &st) && S_ISLNK(st.st_mode)) {
		n = readlink(path, to, sizeof(to) - 1);
		to[n > 0 ? n : 0] = '\0';
		log_err(MOD, "cannot create %s: it is a symbolic link%s%s%s; iowatt does not "
			"create its test file through a link: give the real path", path,
			n > 0 ? " to " : "", to, stat(path, &st) ? " (which does not exist)" : "");
		return;
	}
	log_err(MOD, "cannot create %s: %s", path, strerror(-err));
}

/* O_EXCL: a file of the same name that appeared meanwhile is someone else's. */
static int create_file(struct target *tg, int quiet_exist)
{
	struct stat st;
	int fd;

	fd = open(tg->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = -errno;

		if (!(quiet_exist && err == -EEXIST))
			log_cannot_create(tg->path, err);
		return err;
	}
	tg->created = 1;
	tg->may_write = 1;
	arm_signal_cleanup(tg);
	if (fstat(fd, &st) == 0)
		fill_file_info(tg, &st);
	close(fd);
	if (!strcmp(tg->fstype, "tmpfs") || !strcmp(tg->fstype, "ramfs"))
		log_warn(MOD, "%s is on %s, which is memory: the figures will describe RAM, "
			 "not storage", tg->path, tg->fstype);
	return 0;
}

/*
 * A board that browned out or was unplugged mid-run leaves its test file behind, and on
 * a small SD card that is space the next run lacks: name them, never delete them.
 */
static void warn_stale(const char *dir)
{
	char path[PATH_MAX], sz[32];
	struct dirent *de;
	struct stat st;
	long pid;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "iowatt-%ld", &pid) != 1 || !strstr(de->d_name, ".tmp") ||
		    pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			log_warn(MOD, "%s (%s) looks left over from an interrupted run: remove it "
				 "if no other iowatt uses it", path,
				 fmt_size((uint64_t)st.st_size, sz, sizeof(sz)));
	}
	closedir(d);
}

/* iowatt-PID.tmp; after a reboot the PID may be that of a stale file, so count on. */
static int create_in_dir(struct target *tg, const char *dir)
{
	const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
	int i, rc = -EEXIST;

	warn_stale(dir);
	for (i = 0; i < 10 && rc == -EEXIST; i++) {
		free(tg->path);
		if (i)
			tg->path = xasprintf("%s%siowatt-%ld-%d.tmp", dir, sep, (long)getpid(), i);
		else
			tg->path = xasprintf("%s%siowatt-%ld.tmp", dir, sep, (long)getpid());
		rc = create_file(tg, i < 9);
	}
	return rc;
}

static int open_existing_file(struct target *tg, const struct stat *st, const struct run_opts *ro,
			      const struct job_opts *jobs, size_t njobs)
{
	const struct job_opts *w = first_writer(jobs, njobs), *big = largest_job(jobs, njobs);
	char have[32], need[32];

	tg->extent = (uint64_t)st->st_size;
	tg->laid_out = (uint64_t)st->st_size;
	fill_file_info(tg, st);
	if (w && !ro->force) {
		log_err(MOD, "%s is an existing file and job '%s' writes to it: iowatt never "
			"writes to a file it did not create (give a directory or a new file "
			"name, or --force to overwrite it)", tg->path, w->name);
		return -EEXIST;
	}
	if (big && job_extent(big) > tg->extent && !ro->force) {
		log_err(MOD, "%s holds %s but job '%s' reads %s: iowatt does not extend a file "
			"it did not create (give a directory or a new file name, or --force)",
			tg->path, fmt_size(tg->extent, have, sizeof(have)), big->name,
			fmt_size(job_extent(big), need, sizeof(need)));
		return -ENOSPC;
	}
	if (ro->force && (w || (big && job_extent(big) > tg->extent))) {
		log_warn(MOD, "--force: writing to the existing file %s", tg->path);
		tg->may_write = 1;
	}
	return 0;
}

static int open_blockdev(struct target *tg, const struct stat *st, const struct run_opts *ro,
			 const struct job_opts *jobs, size_t njobs)
{
	const struct job_opts *w = first_writer(jobs, njobs);
	unsigned long long size = 0;
	unsigned pbs = 0;
	int fd, lbs = 0, rc;

	tg->is_blockdev = 1;
	tg->dev_major = major(st->st_rdev);
	tg->dev_minor = minor(st->st_rdev);
	if (blockdev_resolve("", tg->dev_major, tg->dev_minor, tg->blockdev,
			     sizeof(tg->blockdev), tg->partition, sizeof(tg->partition)))
		tg->blockdev[0] = tg->partition[0] = '\0';
	if (!ro->allow_raw_device) {
		log_err(MOD, "%s is a block device: testing it directly needs "
			"--allow-raw-device%s", tg->path,
			w ? " (the jobs write to it and destroy its data)" : "");
		return -EPERM;
	}
	rc = target_raw_safety(tg, ro->force, w != NULL);
	if (rc)
		return rc;
	fd = open(tg->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		log_err(MOD, "cannot open %s: %s", tg->path, strerror(errno));
		return rc;
	}
	if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &lbs) ||
	    ioctl(fd, BLKPBSZGET, &pbs)) {
		rc = -errno;
		log_err(MOD, "%s: cannot read its size: %s", tg->path, strerror(errno));
		close(fd);
		return rc;
	}
	close(fd);
	tg->extent = size;
	tg->laid_out = size;
	tg->logical_bs = lbs > 0 ? (unsigned)lbs : SECTOR_BYTES;
	tg->physical_bs = pbs ? pbs : tg->logical_bs;
	tg->may_write = w != NULL;
	if (w)
		log_warn(MOD, "writing to the raw device %s: its data will be destroyed", tg->path);
	return 0;
}

static int open_target(struct target *tg, const struct run_opts *ro, const struct job_opts *jobs,
		       size_t njobs)
{
	struct stat st;

	memset(tg, 0, sizeof(*tg));
	tg->odirect = -1;
	tg->logical_bs = tg->physical_bs = SECTOR_BYTES;
	if (!ro->target || !*ro->target) {
		log_err(MOD, "no --target: give a directory, a file or a block device");
		return -EINVAL;
	}
	tg->user_path = xstrdup(ro->target);
	tg->keep = ro->keep;
	tg->force = ro->force;
	if (stat(ro->target, &st)) {
		if (errno != ENOENT) {
			int err = -errno;

			log_err(MOD, "--target %s: %s", ro->target, strerror(errno));
			return err;
		}
		tg->path = xstrdup(ro->target);
		return create_file(tg, 0);
	}
	if (S_ISDIR(st.st_mode))
		return create_in_dir(tg, ro->target);
	tg->path = xstrdup(ro->target);
	if (S_ISREG(st.st_mode))
		return open_existing_file(tg, &st, ro, jobs, njobs);
	if (S_ISBLK(st.st_mode))
		return open_blockdev(tg, &st, ro, jobs, njobs);
	log_err(MOD, "--target %s is neither a directory, a regular file nor a block device",
		ro->target);
	return -EINVAL;
}

/* A refused target leaves nothing behind: no file, no allocation. */
int target_open(struct target *tg, const struct run_opts *ro, const struct job_opts *jobs,
		size_t njobs)
{
	int rc = open_target(tg, ro, jobs, njobs);

	if (rc)
		target_cleanup(tg);
	return rc;
}

void target_cleanup(struct target *tg)
{
	if (tg->created && tg->path) {
		if (tg->keep) {
			log_info(MOD, "kept %s", tg->path);
		} else if (unlink(tg->path) && errno != ENOENT) {
			log_warn(MOD, "cannot remove %s: %s", tg->path, strerror(errno));
		}
	}
	sig_armed = 0;
	free(tg->path);
	free(tg->user_path);
	tg->path = tg->user_path = NULL;
	tg->created = 0;
}

void target_cleanup_signal_safe(void)
{
	if (sig_armed) {
		sig_armed = 0;
		unlink(sig_path);
	}
}
