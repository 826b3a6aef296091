/* SPDX-License-Identifier: MIT */
/* Small files iowatt reads (sysfs-sized text), and a descriptor reopened without its path. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/files.h"

int fd_reopen(int fd, int flags)
{
	char path[32];
	int nfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, flags | O_CLOEXEC | O_NOCTTY);
	return nfd < 0 ? -errno : nfd;
}

int read_text_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

int read_int_file(const char *path, long long *out)
{
	char buf[64], *end;
	long long v;
	int rc;

	rc = read_text_file(path, buf, sizeof(buf));
	if (rc)
		return rc;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (end == buf || errno)
		return -EINVAL;
	*out = v;
	return 0;
}
