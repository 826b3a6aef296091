/* SPDX-License-Identifier: MIT */
/* Every file iowatt writes: a new file, put in place by rename, never through a link. */
#ifndef IOWATT_OUTFILE_H
#define IOWATT_OUTFILE_H

#include <stdio.h>
#include <sys/stat.h>

/*
 * The rules, for every output (results, CSVs, charts, the report page, compare -o,
 * emulate --truth, the chart manifest):
 * - the file written is always one iowatt created itself (O_CREAT | O_EXCL, O_NOFOLLOW):
 *   an existing file is never opened for writing, so a symbolic link is never followed, a
 *   hard link's other names keep their contents and a FIFO never blocks;
 * - `replace` lets a new file take the name of an existing regular file by rename(2); a
 *   symbolic link, directory, FIFO, device or socket at the name is refused even then;
 * - the directory is opened once and every name is resolved relative to that descriptor.
 */

/*
 * The directory that holds path (its parent, "." for a bare name), opened: an fd or
 * -errno; *base points at the last component of path. Not logged.
 */
int output_parent_open(const char *path, const char **base);

/*
 * A stream to write at once (a CSV that grows during a run): name created new; with
 * replace, an existing regular file's name is taken by a new file before the first byte.
 * An fd or -errno (not logged): -EEXIST exists, -ELOOP a symlink, -EISDIR a directory,
 * -EINVAL another kind of file.
 */
int output_openat(int dfd, const char *name, int replace);
int output_open(const char *path, int replace);
/* What output_open would refuse, checked without creating anything (before any I/O, so
 * a refused output costs no benchmark): 0 or the same -errno. */
int output_check(const char *path, int replace);
int output_checkat(int dfd, const char *name, int replace);
/* The same as a stdio stream; NULL with errno set. */
FILE *output_fopen(const char *path, int replace);
/* Why an output was refused, for "PATH: why" messages: "already exists (... --force to
 * replace it)", "a directory", strerror() for the rest. */
const char *output_strerror(int err);

/*
 * A file readers see whole or not at all (a result, the report page, a chart): written to
 * a new hidden file in the same directory, flushed, fsynced and renamed into place by
 * atomic_file_commit, which refuses as output_openat does. `written` is the file put in
 * place (its owner, device and inode): proof, for a later removal, that iowatt wrote it.
 */
struct atomic_file {
	FILE *fp;
	int dfd;	/* the directory (owned: closed by commit/abort) */
	char *name;	/* final name in dfd */
	char *tmp_name; /* the hidden new file in dfd */
	char *path;	/* for messages */
	int replace;
	struct stat written;
};
/* path's directory opened here; replace as output_openat. 0 or -errno (logged). */
int atomic_file_open(struct atomic_file *af, const char *path, int replace);
/* name in the directory dfd (dup'ed: the caller keeps its own); shown: the path its
 * messages name (NULL: name). 0 or -errno (logged). */
int atomic_file_openat(struct atomic_file *af, int dfd, const char *name, const char *shown,
		       int replace);
/* 0 or -errno (logged with the path); the new file is removed on failure. */
int atomic_file_commit(struct atomic_file *af);
void atomic_file_abort(struct atomic_file *af);

/*
 * mkdir -p, then the directory opened (O_DIRECTORY): an fd or -errno (not logged). An
 * empty path is -ENOENT.
 */
int output_dir_open(const char *path, unsigned mode);
/* mkdir -p; 0 or -errno. An empty path is -ENOENT. */
int mkdir_p(const char *path, unsigned mode);

#endif
