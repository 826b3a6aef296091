/* SPDX-License-Identifier: MIT */
/* The file or device a run writes and reads: creation, safety checks, layout, removal. */
#ifndef IOWATT_TARGET_H
#define IOWATT_TARGET_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "io/job.h"

struct target {
	char *path;	     /* the file I/O goes to, for messages: all I/O goes through fd */
	int fd;		     /* opened once at target_open (read-write when may_write), -1
			      * before; later opens are reopens of it (/proc/self/fd) */
	char *user_path;     /* what --target said */
	int is_blockdev;
	int created;	     /* iowatt created the file: it may write and must remove it */
	int keep;	     /* --keep */
	int force;	     /* --force: low free space is a warning, not a refusal */
	uint64_t extent;     /* bytes currently usable */
	unsigned logical_bs; /* of the underlying block device, SECTOR_BYTES if unknown */
	unsigned physical_bs;
	char fstype[32];     /* "ext4", "tmpfs", "" for a raw device */
	char mount_point[256];
	char mount_opts[256];
	char blockdev[64];   /* "sda", "mmcblk0", "loop3", "nvme0n1": whole disk from /sys/dev/block */
	char partition[64];  /* "sda1" when the file sits on a partition */
	char mount_source[256]; /* "/dev/sda1" */
	int may_write;	     /* created, an allowed raw device, or --force */
	uint64_t laid_out;   /* bytes from offset 0 that hold data a read job may read */
	uint64_t written_to; /* bytes from offset 0 a finished sequential write pass covered */
	uint64_t read_to;    /* ... and a finished sequential read pass */
	int odirect;	     /* -1 not probed yet, 0 refused by the filesystem, 1 works */
	unsigned dev_major, dev_minor; /* st_dev of the file, st_rdev of a device; 0:0 none */
	uint64_t created_dev, created_ino; /* of the file iowatt created: only that is removed */
	/* The caller may point this at its signal flag after target_open (which clears it):
	 * a long layout then stops with -EINTR when the flag turns non-zero. */
	const atomic_int *stop_flag;
};

/*
 * Resolve --target: a directory (create "iowatt-PID.tmp" there), a new file path, an
 * existing file (used only if the jobs do not write to it, or with --force), or a block
 * device (refused without --allow-raw-device; refused if mounted, has a mounted partition
 * or holds a filesystem signature unless --force).
 * Logs one clear error naming the path and returns -errno.
 */
int target_open(struct target *tg, const struct run_opts *ro, const struct job_opts *jobs,
		size_t njobs);
/*
 * Before a job: check O_DIRECT support (tmpfs gets a named error with the psync hint),
 * bs alignment against logical_bs, free space, then make sure the extent exists; a read
 * job on a short or new file lays it out with a non-zero pattern (outside any clock).
 */
int target_prepare_job(struct target *tg, const struct job_opts *jo);
/* The checks of target_prepare_job without writing anything: run for every job before
 * the first one starts, so a configuration error stops the run before any I/O. */
int target_check_job(struct target *tg, const struct job_opts *jo);
/*
 * After a job's loops: a sequential pass that finished over its whole extent is the first
 * pass a rewrite (or reread) job after it repeats.
 */
void target_job_done(struct target *tg, const struct job_opts *jo, int finished);
/* Remove the file if iowatt created it (unless keep) and the path still names that file
 * (same st_dev/st_ino), close it. Safe to call twice and from the exit path after a signal. */
void target_cleanup(struct target *tg);
/* Async-signal-safe removal for the signal handler: unlink of a path saved earlier. */
void target_cleanup_signal_safe(void);

#endif
