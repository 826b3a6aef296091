/* SPDX-License-Identifier: MIT */
/* Helper programs run on data from strangers: no new processes, gone with iowatt; a temp dir. */
#ifndef IOWATT_SANDBOX_H
#define IOWATT_SANDBOX_H

#include <sys/types.h>

/*
 * Start argv[0] (looked up in PATH) with stdin, stdout and stderr on fds 0..2 (-1: keep
 * ours). The child dies with iowatt (PR_SET_PDEATHSIG) and, where the build has
 * libseccomp, can create no process: fork, vfork and clone without CLONE_THREAD fail,
 * so a script that reaches system(), a pipe or a backquote cannot run a command.
 * 0 and *pid, or -errno (-ENOENT: no such program) after logging once.
 */
int sandbox_spawn(char *const argv[], int fd0, int fd1, int fd2, pid_t *pid);

/*
 * A private directory (mode 0700, under $TMPDIR or /tmp) that is removed however iowatt
 * ends: a small reaper process removes it when iowatt closes its pipe, by exiting, by a
 * crash or by SIGKILL.
 */
struct private_dir {
	char *path;
	pid_t reaper;
	int pipe_fd; /* write end; closing it lets the reaper act */
};

/* prefix: "iowatt-plot" gives $TMPDIR/iowatt-plot.XXXXXX. 0 or -errno (logged). */
int private_dir_create(struct private_dir *pd, const char *prefix);
/* Remove it (keep: leave it, the path is the caller's to print) and end the reaper. */
void private_dir_close(struct private_dir *pd, int keep);

#endif
