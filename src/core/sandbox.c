/* SPDX-License-Identifier: MIT */
/* Confined helper processes (seccomp, parent-death signal) and self-removing private dirs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_SECCOMP
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#endif

#include "core/log.h"
#include "core/mem.h"
#include "core/sandbox.h"
#include "core/signals.h"

#define MOD "sandbox"
/* The private directories iowatt makes are two levels deep (run/chart/file). */
#define RM_DEPTH_MAX 8
#define DIRENT_BUF 4096
/* Descriptors the reaper closes: all a process of ours can have open. */
#define REAPER_FD_LIMIT 1024

extern char **environ;

#ifdef HAVE_SECCOMP
/*
 * The filter as a BPF program built before fork: the child then only calls prctl, which
 * is async-signal-safe, instead of libseccomp's allocating loader. NULL without one.
 */
static struct sock_fprog *no_process_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	struct sock_fprog *prog = NULL;
	int fd = -1, rc;
	off_t len;

	if (!ctx)
		return NULL;
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fork), 0);
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(vfork), 0);
	/* glibc falls back to clone() for threads when clone3 says ENOSYS. */
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	/* Threads share the process; anything else would be a new one. */
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
					SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
	if (!rc)
		fd = memfd_create("iowatt-seccomp", MFD_CLOEXEC);
	if (fd >= 0 && !seccomp_export_bpf(ctx, fd) && (len = lseek(fd, 0, SEEK_END)) > 0) {
		prog = xcalloc(1, sizeof(*prog));
		prog->len = (unsigned short)((size_t)len / sizeof(struct sock_filter));
		prog->filter = xmalloc((size_t)len);
		if (pread(fd, prog->filter, (size_t)len, 0) != len) {
			free(prog->filter);
			free(prog);
			prog = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return prog;
}

static void free_filter(struct sock_fprog *prog)
{
	if (prog)
		free(prog->filter);
	free(prog);
}
#else
struct sock_fprog;
static struct sock_fprog *no_process_filter(void)
{
	return NULL;
}
static void free_filter(struct sock_fprog *prog)
{
	(void)prog;
}
#endif

/* Whether sandbox_spawn's children can create no process (built with libseccomp). */
static int sandbox_confines(void)
{
#ifdef HAVE_SECCOMP
	return 1;
#else
	return 0;
#endif
}

/* Added to the errno the child reports when the kernel refused the filter, not the exec. */
#define FILTER_REFUSED 0x10000

/* In the child: only async-signal-safe calls until exec; errno goes back on errfd. */
static void child(char *const argv[], const int fds[3], pid_t parent, int errfd,
		  const struct sock_fprog *prog)
{
	int i, err;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	for (i = 0; i < 3; i++)
		if (fds[i] >= 0 && fds[i] != i && dup2(fds[i], i) < 0)
			goto fail;
	if (prog && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		     prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog))) {
		err = errno + FILTER_REFUSED;
		goto report;
	}
	execvp(argv[0], argv);
fail:
	err = errno;
report:
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int sandbox_spawn(char *const argv[], int fd0, int fd1, int fd2, pid_t *pid)
{
	struct sock_fprog *prog = no_process_filter();
	int fds[3] = { fd0, fd1, fd2 }, errpipe[2], err = 0;
	pid_t parent = getpid();
	ssize_t n;

	if (sandbox_confines() && !prog) {
		log_err(MOD, "%s: cannot build the seccomp filter that keeps it from starting "
			"processes", argv[0]);
		return -ENOMEM;
	}
	if (pipe2(errpipe, O_CLOEXEC)) {
		err = -errno;
		log_err(MOD, "pipe: %m");
		free_filter(prog);
		return err;
	}
	fflush(NULL);
	*pid = fork();
	if (*pid == 0)
		child(argv, fds, parent, errpipe[1], prog);
	err = *pid < 0 ? errno : 0;
	close(errpipe[1]);
	free_filter(prog);
	if (*pid > 0) {
		do
			n = read(errpipe[0], &err, sizeof(err));
		while (n < 0 && errno == EINTR);
		if (n != sizeof(err))
			err = 0;
		else
			while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
				;
	}
	close(errpipe[0]);
	if (err == ENOENT)
		return -ENOENT; /* the caller knows which package has it */
	if (err >= FILTER_REFUSED) {
		err -= FILTER_REFUSED;
		log_err(MOD, "cannot start %s: this system refuses the seccomp filter that keeps it "
			"from starting processes (%s; qemu-user cannot install one), and it is never "
			"run unconfined", argv[0], strerror(err));
		return -err;
	}
	if (err) {
		log_err(MOD, "cannot start %s: %s", argv[0], strerror(err));
		return -err;
	}
	return 0;
}

/*
 * Removes path's tree below dirfd with openat/getdents64/unlinkat only: async-signal-safe,
 * so the reaper needs nothing that fork may have left locked. Never follows a symlink.
 */
static void remove_tree(int dirfd, const char *name, int depth)
{
	char buf[DIRENT_BUF];
	long n, off;
	int fd;

	if (!unlinkat(dirfd, name, 0) || errno == ENOENT || depth > RM_DEPTH_MAX)
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			const char *rec = buf + off;
			unsigned short reclen;
			const char *dname = rec + 19;

			memcpy(&reclen, rec + 16, sizeof(reclen));
			off += reclen;
			if (!strcmp(dname, ".") || !strcmp(dname, ".."))
				continue;
			remove_tree(fd, dname, depth + 1);
		}
	}
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* The reaper: waits for EOF (iowatt gone or done) or 'k' (keep), then removes the dir. */
static void reaper(const char *path, int rfd)
{
	/* Ctrl-C and a hangup reach the whole process group: the reaper outlives them. */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	char c = 0;
	ssize_t n;
	int fd;

	signals_set(SIG_IGN, sigs, ARRAY_SIZE(sigs));
	fd = open("/dev/null", O_RDWR);
	/* Holding iowatt's stdout would keep a reader of its pipe waiting. */
	for (n = 0; n < 3 && fd >= 0; n++)
		dup2(fd, (int)n);
	for (fd = 3; fd < REAPER_FD_LIMIT; fd++)
		if (fd != rfd)
			close(fd);
	do
		n = read(rfd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (!(n == 1 && c == 'k'))
		remove_tree(AT_FDCWD, path, 0);
	_exit(0);
}

int private_dir_create(struct private_dir *pd, const char *prefix)
{
	const char *tmp = getenv("TMPDIR");
	int p[2], err;

	memset(pd, 0, sizeof(*pd));
	pd->pipe_fd = -1;
	pd->path = xasprintf("%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
	if (pipe2(p, O_CLOEXEC)) {
		err = -errno;
		log_err(MOD, "pipe: %m");
		free(pd->path);
		pd->path = NULL;
		return err;
	}
	if (!mkdtemp(pd->path)) {
		err = -errno;
		log_err(MOD, "%s: %s", pd->path, strerror(-err));
		goto fail;
	}
	fflush(NULL);
	pd->reaper = fork();
	if (pd->reaper == 0) {
		close(p[1]);
		reaper(pd->path, p[0]);
	}
	if (pd->reaper < 0) {
		err = -errno;
		log_err(MOD, "cannot start the process that removes %s: %m", pd->path);
		rmdir(pd->path);
		goto fail;
	}
	close(p[0]);
	pd->pipe_fd = p[1];
	return 0;
fail:
	close(p[0]);
	close(p[1]);
	free(pd->path);
	pd->path = NULL;
	return err;
}

void private_dir_close(struct private_dir *pd, int keep)
{
	if (!pd->path)
		return;
	if (keep && write(pd->pipe_fd, "k", 1) != 1)
		log_warn(MOD, "%s may be removed: %m", pd->path);
	close(pd->pipe_fd);
	while (waitpid(pd->reaper, NULL, 0) < 0 && errno == EINTR)
		;
	free(pd->path);
	memset(pd, 0, sizeof(*pd));
	pd->pipe_fd = -1;
}
