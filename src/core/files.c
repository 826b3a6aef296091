/* SPDX-License-Identifier: MIT */
/* Files iowatt reads and writes: small text files, outputs that never follow links, atomic replacement. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"

int fd_reopen(int fd, int flags)
{
	char path[32];
	int nfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, flags | O_CLOEXEC | O_NOCTTY);
	return nfd < 0 ? -errno : nfd;
}

int output_open(const char *path, int replace)
{
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: opening a FIFO put there must not wait for a reader. */
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
				(replace ? 0 : O_EXCL), 0644);
	if (fd < 0)
		return -errno;
	err = fstat(fd, &st) ? -errno : !S_ISREG(st.st_mode) ? -EINVAL : 0;
	if (!err && (fcntl(fd, F_SETFL, 0) || (st.st_size && ftruncate(fd, 0))))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int output_check(const char *path, int replace)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return replace ? -ELOOP : -EEXIST;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return replace ? 0 : -EEXIST;
}

FILE *output_fopen(const char *path, int replace)
{
	int fd = output_open(path, replace);
	FILE *fp;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return fp;
}

const char *output_strerror(int err)
{
	switch (err) {
	case -EEXIST:
		return "already exists (choose another path, or --force to replace it)";
	case -ELOOP:
		return "a symbolic link: iowatt does not write through one";
	case -EISDIR:
		return "a directory";
	case -EINVAL:
		return "not a regular file";
	default:
		return strerror(-err);
	}
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

int atomic_file_open(struct atomic_file *af, const char *path)
{
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = xstrdup(path);
	af->tmp_path = xasprintf("%s.tmp.%ld", path, (long)getpid());
	fd = open(af->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = -errno;

		log_err(NULL, "%s: %s", af->tmp_path, strerror(errno));
		free(af->path);
		free(af->tmp_path);
		memset(af, 0, sizeof(*af));
		return err;
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		unlink(af->tmp_path);
		free(af->path);
		free(af->tmp_path);
		memset(af, 0, sizeof(*af));
		return -ENOMEM;
	}
	return 0;
}

static void fsync_parent_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int atomic_file_commit(struct atomic_file *af)
{
	int rc = 0;

	if (!af->fp)
		return -EBADF;
	if (fflush(af->fp) || fsync(fileno(af->fp)))
		rc = -errno;
	if (fclose(af->fp) && !rc)
		rc = -errno;
	af->fp = NULL;
	if (!rc && rename(af->tmp_path, af->path))
		rc = -errno;
	if (rc) {
		log_err(NULL, "%s: %s", af->path, strerror(-rc));
		unlink(af->tmp_path);
	} else {
		fsync_parent_dir(af->path);
	}
	free(af->path);
	free(af->tmp_path);
	af->path = af->tmp_path = NULL;
	return rc;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp) {
		fclose(af->fp);
		unlink(af->tmp_path);
	}
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
}

int mkdir_p(const char *path, unsigned mode)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) && errno != EEXIST) {
			rc = -errno;
			break;
		}
		*s = '/';
	}
	if (!rc && mkdir(p, mode) && errno != EEXIST)
		rc = -errno;
	free(p);
	return rc;
}
