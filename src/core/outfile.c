/* SPDX-License-Identifier: MIT */
/* Every file iowatt writes: a new file, put in place by rename, never through a link. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"

/* Tries at a free temporary name before giving up (each name is 32 random bits). */
#define TMP_TRIES 16

int output_parent_open(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (!slash) {
		*base = path;
		dir = xstrdup(".");
	} else {
		*base = slash + 1;
		dir = slash == path ? xstrdup("/") : xasprintf("%.*s", (int)(slash - path), path);
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = fd < 0 ? -errno : fd;
	free(dir);
	return fd;
}

/* A name that is one plain component: no slash, not "", "." or "..". */
static int plain_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int output_checkat(int dfd, const char *name, int replace)
{
	struct stat st;

	if (!plain_name(name))
		return -EISDIR;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return replace ? -ELOOP : -EEXIST;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return replace ? 0 : -EEXIST;
}

int output_check(const char *path, int replace)
{
	const char *base;
	int dfd = output_parent_open(path, &base), err;

	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd; /* its directory is created later */
	err = output_checkat(dfd, base, replace);
	close(dfd);
	return err;
}

/*
 * A new file "." NAME ".iowatt-XXXXXXXX" in dfd: created, never opened (O_EXCL, so no
 * link or FIFO put there first is used). The fd or -errno; *tmp_name its name.
 */
static int tmp_create(int dfd, const char *name, char **tmp_name)
{
	unsigned rnd;
	int i, fd = -EEXIST;

	for (i = 0; i < TMP_TRIES && fd == -EEXIST; i++) {
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
			rnd = (unsigned)getpid() * 2654435761u + (unsigned)i;
		*tmp_name = xasprintf(".%.200s.iowatt-%08x", name, rnd);
		fd = openat(dfd, *tmp_name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
		if (fd < 0) {
			fd = -errno;
			free(*tmp_name);
			*tmp_name = NULL;
		}
	}
	return fd;
}

/*
 * tmp_name takes name: refused as output_checkat says, and without replace never over
 * anything (RENAME_NOREPLACE, or link + unlink where the file system lacks it). Whatever
 * is swapped in at name meanwhile is only ever replaced as a name, never written to.
 */
static int install(int dfd, const char *tmp_name, const char *name, int replace)
{
	int err = output_checkat(dfd, name, replace);

	if (err)
		return err;
	if (replace)
		return renameat(dfd, tmp_name, dfd, name) ? -errno : 0;
	if (!renameat2(dfd, tmp_name, dfd, name, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (linkat(dfd, tmp_name, dfd, name, 0))
		return -errno;
	unlinkat(dfd, tmp_name, 0);
	return 0;
}

int output_openat(int dfd, const char *name, int replace)
{
	char *tmp_name = NULL;
	int fd, err;

	if (!plain_name(name))
		return -EISDIR;
	/* O_EXCL: nothing there yet is the common case, and then nothing can be followed. */
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
		    0644);
	if (fd >= 0)
		return fd;
	if (errno != EEXIST)
		return -errno;
	err = output_checkat(dfd, name, replace);
	if (err)
		return err;
	fd = tmp_create(dfd, name, &tmp_name);
	if (fd < 0)
		return fd;
	err = install(dfd, tmp_name, name, replace);
	if (err) {
		unlinkat(dfd, tmp_name, 0);
		close(fd);
		fd = err;
	}
	free(tmp_name);
	return fd;
}

int output_open(const char *path, int replace)
{
	const char *base;
	int dfd = output_parent_open(path, &base), fd;

	if (dfd < 0)
		return dfd;
	fd = output_openat(dfd, base, replace);
	close(dfd);
	return fd;
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
		return "not a regular file (a FIFO, device or socket): iowatt does not write to one";
	default:
		return strerror(-err);
	}
}

int atomic_file_openat(struct atomic_file *af, int dfd, const char *name, const char *shown,
		       int replace)
{
	int fd, err;

	memset(af, 0, sizeof(*af));
	af->dfd = -1;
	af->path = xstrdup(shown ? shown : name);
	err = plain_name(name) ? 0 : -EISDIR;
	/* Refused before anything is written: the same check is made again at commit. */
	if (!err)
		err = output_checkat(dfd, name, replace);
	if (!err) {
		af->dfd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
		err = af->dfd < 0 ? -errno : 0;
	}
	fd = err ? err : tmp_create(af->dfd, name, &af->tmp_name);
	if (fd >= 0) {
		af->fp = fdopen(fd, "w");
		if (!af->fp) {
			err = -errno;
			close(fd);
			unlinkat(af->dfd, af->tmp_name, 0);
		}
	} else {
		err = fd;
	}
	if (err) {
		log_err(NULL, "%s: %s", af->path, output_strerror(err));
		atomic_file_abort(af);
		return err;
	}
	af->name = xstrdup(name);
	af->replace = replace;
	return 0;
}

int atomic_file_open(struct atomic_file *af, const char *path, int replace)
{
	const char *base;
	int dfd = output_parent_open(path, &base), rc;

	if (dfd < 0) {
		memset(af, 0, sizeof(*af));
		af->dfd = -1;
		log_err(NULL, "%s: %s", path, strerror(-dfd));
		return dfd;
	}
	rc = atomic_file_openat(af, dfd, base, path, replace);
	close(dfd);
	return rc;
}

int atomic_file_commit(struct atomic_file *af)
{
	int rc = 0;

	if (!af->fp)
		return -EBADF;
	if (fflush(af->fp) || fsync(fileno(af->fp)) || fstat(fileno(af->fp), &af->written))
		rc = -errno;
	if (fclose(af->fp) && !rc)
		rc = -errno;
	af->fp = NULL;
	if (!rc)
		rc = install(af->dfd, af->tmp_name, af->name, af->replace);
	if (rc) {
		log_err(NULL, "%s: %s", af->path, output_strerror(rc));
		unlinkat(af->dfd, af->tmp_name, 0);
	} else {
		/* The rename itself survives a power cut only once the directory is synced. */
		fsync(af->dfd);
	}
	close(af->dfd);
	free(af->name);
	free(af->tmp_name);
	free(af->path);
	af->dfd = -1;
	af->name = af->tmp_name = af->path = NULL;
	return rc;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp) {
		fclose(af->fp);
		unlinkat(af->dfd, af->tmp_name, 0);
	}
	if (af->dfd >= 0)
		close(af->dfd);
	free(af->name);
	free(af->tmp_name);
	free(af->path);
	memset(af, 0, sizeof(*af));
	af->dfd = -1;
}

int mkdir_p(const char *path, unsigned mode)
{
	char *p, *s;
	int rc = 0;

	/* "" has no first byte to skip: it names no directory. */
	if (!*path)
		return -ENOENT;
	p = xstrdup(path);
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

int output_dir_open(const char *path, unsigned mode)
{
	int rc = mkdir_p(path, mode), fd;

	if (rc)
		return rc;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
