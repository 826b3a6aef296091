/* SPDX-License-Identifier: MIT */
/* Files iowatt reads as input (profiles, results, their CSVs): regular files of bounded size. */
#ifndef IOWATT_INPUT_H
#define IOWATT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Refuse a symbolic link as the last component (a result's companion files). */
#define INPUT_NOFOLLOW 1

/*
 * Open path for reading if it is a regular file of at most max_bytes (0: any size).
 * Opening never blocks (a FIFO is refused, not waited on). Returns an fd or -errno:
 * -EISDIR a directory, -ESPIPE not a regular file, -EFBIG too large, -ELOOP a symlink
 * with INPUT_NOFOLLOW; input_strerror() says each in words. Logs nothing.
 */
int input_open(const char *path, int flags, uint64_t max_bytes);
FILE *input_fopen(const char *path, int flags, uint64_t max_bytes, int *err);
/* The whole file, NUL-terminated (xmalloc'd); *len without the NUL. 0 or -errno as above. */
int input_read(const char *path, int flags, uint64_t max_bytes, char **buf, size_t *len);
/* "is a directory", "is not a regular file (a FIFO, device or socket)", ... */
const char *input_strerror(int err);

#endif
