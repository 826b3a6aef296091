/* SPDX-License-Identifier: MIT */
/* Small files iowatt reads (sysfs-sized text), and a descriptor reopened without its path. */
#ifndef IOWATT_FILES_H
#define IOWATT_FILES_H

#include <stddef.h>

/* Writing is core/outfile.h's job; included here for the callers that name only files.h. */
#include "core/outfile.h"

/* Read a whole small text file (sysfs attributes); trailing newline removed. */
int read_text_file(const char *path, char *buf, size_t len);
/* Read a sysfs integer / double attribute. */
int read_int_file(const char *path, long long *out);

/*
 * A new open file description of the file `fd` refers to, with other flags (O_DIRECT, a
 * different access mode): opened through /proc/self/fd/N, so a path swapped since (a
 * symlink in a world-writable directory) cannot redirect it. -errno, not logged.
 */
int fd_reopen(int fd, int flags);

#endif
