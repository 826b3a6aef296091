/* SPDX-License-Identifier: MIT */
/* Files iowatt reads and writes: sysfs-sized text, outputs that never follow links, atomic replacement. */
#ifndef IOWATT_FILES_H
#define IOWATT_FILES_H

#include <stdio.h>

/* Read a whole small text file (sysfs attributes); trailing newline removed. */
int read_text_file(const char *path, char *buf, size_t len);
/* Read a sysfs integer / double attribute. */
int read_int_file(const char *path, long long *out);

/*
 * Atomic file output: write to "PATH.tmp.PID", fsync, rename over PATH, fsync the
 * directory. A reader never sees a half-written result.
 */
struct atomic_file {
	FILE *fp;
	char *path;
	char *tmp_path;
};
int atomic_file_open(struct atomic_file *af, const char *path);
int atomic_file_commit(struct atomic_file *af);
void atomic_file_abort(struct atomic_file *af);

/*
 * A new open file description of the file `fd` refers to, with other flags (O_DIRECT, a
 * different access mode): opened through /proc/self/fd/N, so a path swapped since (a
 * symlink in a world-writable directory) cannot redirect it. -errno, not logged.
 */
int fd_reopen(int fd, int flags);

/*
 * An output file iowatt writes: created new (O_EXCL), or with `replace` an existing
 * regular file truncated; never through a symbolic link (O_NOFOLLOW) and never a FIFO,
 * device or directory. fd or -errno (not logged): -EEXIST exists, -ELOOP a symlink,
 * -EISDIR a directory, -EINVAL another kind of file.
 */
int output_open(const char *path, int replace);
/* What output_open would refuse, checked without creating anything (before any I/O, so
 * a refused output costs no benchmark): 0 or the same -errno. */
int output_check(const char *path, int replace);
/* The same as a stdio stream; NULL with errno set. */
FILE *output_fopen(const char *path, int replace);
/* Why output_open refused, for "PATH: why" messages: "already exists (... --force to
 * replace it)", "a directory", strerror() for the rest. */
const char *output_strerror(int err);

/* mkdir -p; 0 or -errno. */
int mkdir_p(const char *path, unsigned mode);

#endif
