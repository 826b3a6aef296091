/* SPDX-License-Identifier: MIT */
/* Sysfs access under a root prefix: tests use a fake tree; the one hwmon lookup. */
#ifndef IOWATT_CORE_SYSFS_H
#define IOWATT_CORE_SYSFS_H

#include <stddef.h>

/*
 * root "" (or NULL) is the real filesystem; else a directory that mirrors "/".
 * 0, or -ENAMETOOLONG rather than a silently cut path.
 */
int sysfs_path(const char *root, const char *path, char *buf, size_t len);
int sysfs_read_str(const char *root, const char *path, char *buf, size_t len);
int sysfs_read_ll(const char *root, const char *path, long long *out);
int sysfs_exists(const char *root, const char *path);
/*
 * Entries of root+dir whose names start with `prefix`, sorted naturally (hwmon2 before
 * hwmon10). Returns the count (names in an array the caller frees with sysfs_list_free).
 */
int sysfs_list(const char *root, const char *dir, const char *prefix, char ***names);
void sysfs_list_free(char **names, int n);
/*
 * The index-th hwmon chip (from 0, lowest hwmonN first) whose `name` is name; writes its
 * directory (root included) to dir. -ENOENT, quietly: for sources that may be absent.
 */
int sysfs_hwmon_lookup(const char *root, const char *name, int index, char *dir, size_t len);
/*
 * A hwmon chip by name (the index-th match, from 0) or by path ("/sys/class/hwmon/hwmon3").
 * Writes the directory (root included) to dir. -ENOENT is logged with what exists.
 */
int sysfs_hwmon_find(const char *root, const char *name_or_path, int index, char *dir,
		     size_t len);

/*
 * An attribute kept open and re-read at offset 0 (sysfs calls the driver's show() again);
 * trailing newline and blanks stripped. 0 or -errno.
 */
int sysfs_fd_read_str(int fd, char *buf, size_t len);
/* 1 when fd is a sysfs attribute: poll() POLLPRI wakes on the driver's sysfs_notify(). */
int sysfs_fd_pollable(int fd);

#endif
