/* SPDX-License-Identifier: MIT */
/* Input files: only regular files, never a blocking open, never more than the caller allows. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/input.h"
#include "core/mem.h"

#define INPUT_MIN_BUF 4096

int input_open(const char *path, int flags, uint64_t max_bytes)
{
	int fd, err;
	struct stat st;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
			       (flags & INPUT_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		err = -ESPIPE;
	else if (max_bytes && (uint64_t)st.st_size > max_bytes)
		err = -EFBIG;
	else if (fcntl(fd, F_SETFL, 0))
		err = -errno;
	else
		return fd;
	close(fd);
	return err;
}

FILE *input_fopen(const char *path, int flags, uint64_t max_bytes, int *err)
{
	int fd = input_open(path, flags, max_bytes);
	FILE *fp;

	*err = fd < 0 ? fd : 0;
	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "r");
	if (!fp) {
		*err = -errno;
		close(fd);
	}
	return fp;
}

/* Buffer to start from: the file's size (it may grow while read) within max_bytes. */
static size_t first_cap(int fd, uint64_t max_bytes)
{
	struct stat st;
	uint64_t cap = INPUT_MIN_BUF;

	if (!fstat(fd, &st) && (uint64_t)st.st_size + 1 > cap)
		cap = (uint64_t)st.st_size + 1;
	if (max_bytes && cap > max_bytes + 1)
		cap = max_bytes + 1;
	return (size_t)cap;
}

int input_read(const char *path, int flags, uint64_t max_bytes, char **buf, size_t *len)
{
	size_t cap, n = 0;
	ssize_t got = 0;
	int fd = input_open(path, flags, max_bytes), err = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	/* A file that grows while read is cut at max_bytes + 1 and refused as too large. */
	cap = first_cap(fd, max_bytes);
	*buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (max_bytes && cap > max_bytes)
				break;
			cap *= 2;
			if (max_bytes && cap > max_bytes + 1)
				cap = (size_t)max_bytes + 1;
			*buf = xrealloc(*buf, cap + 1);
		}
		got = read(fd, *buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (got < 0)
		err = -errno;
	else if (max_bytes && n > max_bytes)
		err = -EFBIG;
	close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
		return err;
	}
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

const char *input_strerror(int err)
{
	switch (err) {
	case -EISDIR:
		return "is a directory";
	case -ESPIPE:
		return "is not a regular file (a FIFO, device or socket)";
	case -EFBIG:
		return "is too large";
	case -ELOOP:
		return "is a symbolic link";
	default:
		return strerror(-err);
	}
}
