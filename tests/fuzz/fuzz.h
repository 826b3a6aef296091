/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets: quiet logging, inputs as strings, files and argv. */
#ifndef IOWATT_FUZZ_H
#define IOWATT_FUZZ_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Messages cost more than the parsing: only crashes and sanitizer reports are wanted. */
static inline void fuzz_quiet(void)
{
	int null = open("/dev/null", O_WRONLY);

	log_set_level(-1);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		close(null);
	}
}

/* Every target starts quiet; each binary includes this header once, so it is defined here. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

/* The input as a NUL-terminated string (it may hold NULs itself: the string ends there). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * The input as a file the code under test opens by path: a memfd named through
 * /proc/self/fd, so no file is left behind. Returns the fd (-1 on failure) and the path.
 */
static inline int fuzz_file(const uint8_t *data, size_t size, const char *name, char *path,
			    size_t len)
{
	int fd = memfd_create(name, 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Splits the input at NUL bytes into argv (argv[0] is prog); the caller frees both. */
static inline char **fuzz_argv(const uint8_t *data, size_t size, char *prog, char **buf,
			       int *argc)
{
	size_t i, n = 2;
	char **argv;
	int k = 0;

	*buf = fuzz_str(data, size);
	for (i = 0; i < size; i++)
		n += data[i] == '\0';
	argv = xcalloc(n + 1, sizeof(*argv));
	argv[k++] = prog;
	if (size) {
		argv[k++] = *buf;
		for (i = 0; i + 1 < size; i++)
			if ((*buf)[i] == '\0')
				argv[k++] = *buf + i + 1;
	}
	argv[k] = NULL;
	*argc = k;
	return argv;
}

#endif
