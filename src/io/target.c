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
#include <sys/xattr.h>
#include <unistd.h>

#include "core/blockdev.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "io/target.h"
#include "io/target_int.h"

#define MOD "target"
/* The PID of the run that created a file target: a later run can name a file left by a
 * killed one (filesystems without user xattrs, such as vfat, keep no mark). */
#define OWNER_XATTR "user.iowatt.pid"

/* Written before any I/O, read by the signal handler: plain buffers and a flag. */
static char sig_path[PATH_MAX];
static dev_t sig_dev;
static ino_t sig_ino;
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

/* The first job that writes or discards, or NULL: existing files and devices care about it. */
static const struct job_opts *first_writer(const struct job_opts *jobs, size_t njobs)
{
	size_t i;

	for (i = 0; i < njobs; i++)
		if (job_modifies(&jobs[i]))
			return &jobs[i];
	return NULL;
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
	sig_dev = (dev_t)tg->created_dev;
	sig_ino = (ino_t)tg->created_ino;
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

/*
 * O_EXCL: a file of the same name that appeared meanwhile is someone else's, and a symlink
 * there is not followed. The descriptor is the only way to the file from now on: the
 * directory may be world-writable, and a path swapped for a symlink later must not
 * redirect a single write.
 */
static int create_file(struct target *tg, int quiet_exist)
{
	struct stat st;
	char pid[24];
	int fd, n;

	fd = open(tg->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = -errno;

		if (!(quiet_exist && err == -EEXIST))
			log_cannot_create(tg->path, err);
		return err;
	}
	if (fstat(fd, &st)) {
		int err = -errno;

		log_err(MOD, "cannot stat %s: %s", tg->path, strerror(errno));
		close(fd);
		unlink(tg->path);
		return err;
	}
	tg->fd = fd;
	tg->created = 1;
	tg->may_write = 1;
	tg->created_dev = (uint64_t)st.st_dev;
	tg->created_ino = (uint64_t)st.st_ino;
	arm_signal_cleanup(tg);
	n = snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	(void)fsetxattr(fd, OWNER_XATTR, pid, (size_t)n, 0);
	fill_file_info(tg, &st);
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

/* The largest job that reads, or NULL. */
static const struct job_opts *largest_reader(const struct job_opts *jobs, size_t njobs)
{
	const struct job_opts *big = NULL;
	size_t i;

	for (i = 0; i < njobs; i++)
		if (rw_reads(jobs[i].rw) && (!big || job_extent(&jobs[i]) > job_extent(big)))
			big = &jobs[i];
	return big;
}

/* " (left over from the interrupted iowatt run 1234: remove it if no iowatt uses it)" when
 * the file carries the mark of a run that is gone, else "". */
static const char *stale_note(int fd, char *buf, size_t len)
{
	char pid[24];
	ssize_t n;
	long p;

	buf[0] = '\0';
	n = fgetxattr(fd, OWNER_XATTR, pid, sizeof(pid) - 1);
	if (n <= 0)
		return buf;
	pid[n] = '\0';
	if (sscanf(pid, "%ld", &p) != 1 || p <= 0)
		return buf;
	if (kill((pid_t)p, 0) && errno == ESRCH)
		snprintf(buf, len, " (a test file left over from the interrupted iowatt run %ld: "
			 "remove it if no other iowatt uses it)", p);
	else
		snprintf(buf, len, " (the test file of the running iowatt %ld)", p);
	return buf;
}

/*
 * Only read, and only as large as it is, unless --force lets the jobs write over it; a
 * read job is never given a layout here, forced or not (that would extend someone's
 * file, or the file a symlink points to). Opened once, like a created file.
 */
static int open_existing_file(struct target *tg, const struct stat *st, const struct run_opts *ro,
			      const struct job_opts *jobs, size_t njobs)
{
	const struct job_opts *w = first_writer(jobs, njobs), *big = largest_reader(jobs, njobs);
	char have[32], need[32], note[160];
	struct stat fst;
	int rc;

	tg->fd = open(tg->path, (w && ro->force ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOCTTY |
			  O_NONBLOCK);
	if (tg->fd < 0 || fstat(tg->fd, &fst)) {
		rc = -errno;
		log_err(MOD, "cannot open %s: %s", tg->path, strerror(errno));
		return rc;
	}
	if (!S_ISREG(fst.st_mode) || fst.st_dev != st->st_dev || fst.st_ino != st->st_ino) {
		log_err(MOD, "%s changed while iowatt opened it: refusing it", tg->path);
		return -EAGAIN;
	}
	tg->extent = (uint64_t)fst.st_size;
	tg->laid_out = (uint64_t)fst.st_size;
	fill_file_info(tg, &fst);
	if (w && !ro->force) {
		log_err(MOD, "%s is an existing file%s and job '%s' writes to it: iowatt never "
			"writes to a file it did not create (give a directory or a new file "
			"name, or --force to overwrite it)", tg->path,
			stale_note(tg->fd, note, sizeof(note)), w->name);
		return -EEXIST;
	}
	if (big && job_extent(big) > tg->extent) {
		log_err(MOD, "%s holds %s but job '%s' reads %s: iowatt does not extend a file "
			"it did not create, not even with --force (give a directory or a new "
			"file name)%s", tg->path, fmt_size(tg->extent, have, sizeof(have)),
			big->name, fmt_size(job_extent(big), need, sizeof(need)),
			stale_note(tg->fd, note, sizeof(note)));
		return -ENOSPC;
	}
	if (w) {
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
	fd = open(tg->path, (w ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		log_err(MOD, "cannot open %s: %s", tg->path, strerror(errno));
		return rc;
	}
	tg->fd = fd;
	if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &lbs) ||
	    ioctl(fd, BLKPBSZGET, &pbs)) {
		rc = -errno;
		log_err(MOD, "%s: cannot read its size: %s", tg->path, strerror(errno));
		return rc;
	}
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
	tg->fd = -1;
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

/*
 * Unlink the path only while it still names the file iowatt created: a file or symlink
 * put there since (a world-writable directory) is someone else's.
 */
static void remove_created(const struct target *tg)
{
	struct stat st;

	if (lstat(tg->path, &st)) {
		if (errno != ENOENT)
			log_warn(MOD, "cannot remove %s: %s", tg->path, strerror(errno));
	} else if ((uint64_t)st.st_dev != tg->created_dev || (uint64_t)st.st_ino != tg->created_ino) {
		log_warn(MOD, "%s is no longer the file iowatt created: left alone", tg->path);
	} else if (unlink(tg->path) && errno != ENOENT) {
		log_warn(MOD, "cannot remove %s: %s", tg->path, strerror(errno));
	}
}

void target_cleanup(struct target *tg)
{
	sig_armed = 0;
	if (tg->created && tg->path) {
		if (tg->keep) {
			if (tg->fd >= 0)
				(void)fremovexattr(tg->fd, OWNER_XATTR);
			log_info(MOD, "kept %s", tg->path);
		} else {
			remove_created(tg);
		}
	}
	if (tg->path && tg->fd >= 0)
		close(tg->fd);
	tg->fd = -1;
	free(tg->path);
	free(tg->user_path);
	tg->path = tg->user_path = NULL;
	tg->created = 0;
}

void target_cleanup_signal_safe(void)
{
	struct stat st;

	if (sig_armed) {
		sig_armed = 0;
		if (!lstat(sig_path, &st) && st.st_dev == sig_dev && st.st_ino == sig_ino)
			unlink(sig_path);
	}
}
