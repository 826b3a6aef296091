/* SPDX-License-Identifier: MIT */
/* State shared by the flag watcher's parts: sysfs flags, kernel log, temperatures. */
#ifndef IOWATT_FLAGS_INT_H
#define IOWATT_FLAGS_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "sources/flags.h"

#define FLAGS_MAX_PORTS 8
#define FLAGS_PORT_LEN 32
#define FLAGS_KBUF 8192

struct flag_sources {
	char root[PATH_MAX];	/* sysfs root prefix ("" = real) */
	int replay;
	struct event_queue *events;
	pthread_t thread;
	int thread_started;
	int stop_fd;		/* eventfd: wakes the thread's poll() to stop */

	/* rpi_volt hwmon undervoltage alarm */
	int alarm_fd;
	int alarm_pollable;	/* on real sysfs: sysfs_notify wakes poll() */
	int alarm_last;
	char alarm_path[PATH_MAX];

	/* firmware get_throttled, read only when rpi_volt is absent */
	int thr_fd;
	uint32_t thr_last;
	char thr_path[PATH_MAX];

	/* kernel log (/dev/kmsg, a FIFO or a recorded file) */
	int kmsg_fd;
	int kmsg_pollable;	/* char device or FIFO; a regular file is re-read on each wake */
	char kmsg_path[PATH_MAX];
	char kbuf[FLAGS_KBUF];
	size_t klen;
	/* The target's USB device and the hubs above it, as the kernel names them. */
	char ports[FLAGS_MAX_PORTS][FLAGS_PORT_LEN];
	unsigned nports;

	/* temperatures, read by the thread each second and by the main thread on demand */
	pthread_mutex_t temp_lock;
	char soc_path[PATH_MAX];
	char drive_path[PATH_MAX];
	struct temps t;
	uint64_t next_slow_ns;
};

/* flags_sysfs.c */
/* snprintf for paths: -ENAMETOOLONG rather than a silently cut path. */
int flags_path(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void flags_sysfs_open(struct flag_sources *fs);
/* slow: also the once-a-second sources (get_throttled) */
void flags_sysfs_check(struct flag_sources *fs, int slow);
void flags_sysfs_close(struct flag_sources *fs);
void flags_sysfs_list(const char *root, FILE *out);
/* First SYSFS_ROOT/sys/class/hwmon/hwmonN whose `name` is name; 0 or -ENOENT. */
int flags_find_hwmon(const char *root, const char *name, char *dir, size_t len);
/* N of a directory entry named PREFIXN ("hwmon3" -> 3), or -1. */
int flags_dir_index(const char *ent, const char *prefix);
/* 1 when the fd is a sysfs attribute (poll() wakes on sysfs_notify). */
int flags_fd_is_sysfs(int fd);

/* flags_kmsg.c */
int flags_kmsg_open(struct flag_sources *fs, const char *path, const char *blockdev);
void flags_kmsg_drain(struct flag_sources *fs);
void flags_kmsg_close(struct flag_sources *fs);
/*
 * Classify one kernel message (the text after "pri,seq,ts,flags;" or a dmesg line):
 * returns an event kind, or -1 when the line is not ours. ports: the target's USB
 * device and its hubs ("2-1.3", "2-1"); a disconnect elsewhere is ignored.
 */
int flags_kmsg_classify(const char *msg, const char (*ports)[FLAGS_PORT_LEN], unsigned nports);
/* The message part of a kmsg record or a dmesg line (skips "6,12,345,-;" or "[ 1.2] "). */
const char *flags_kmsg_text(const char *line);
/* The USB device names on the path of SYSFS_ROOT/sys/class/block/NAME, nearest first. */
int flags_usb_ports(const char *root, const char *blockdev,
		    char (*ports)[FLAGS_PORT_LEN], unsigned max);

/* temps.c */
void temps_open(struct flag_sources *fs, const char *blockdev);
void temps_poll(struct flag_sources *fs);
void temps_list(const char *root, FILE *out);

#endif
