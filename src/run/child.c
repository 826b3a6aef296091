/* SPDX-License-Identifier: MIT */
/* `iowatt measure`: a command as the active phase's activity, its signals and exit status. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "run/run.h"

#define FMT_LEN 32

extern char **environ;

struct child {
	struct run_ctx *rc;
	char **argv;
	pid_t pid;
	int status;    /* waitpid's */
	int err;       /* -errno: could not run or wait for it; -EINTR: stopped before it ran */
	int forwarded; /* a stop signal was passed on to it */
	uint64_t t_active;
};

/* The command gets default signal dispositions and an empty mask: iowatt ignores SIGPIPE
 * and blocks the stop signals, and neither may be inherited across exec. */
static int spawn_command(pid_t *pid, char **argv)
{
	posix_spawnattr_t attr;
	sigset_t def, none;
	int err;

	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	sigaddset(&def, SIGQUIT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	err = posix_spawnp(pid, argv[0], NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return err;
}

static int child_start(void *arg, uint64_t *t_active_ns)
{
	struct child *c = arg;
	int err = spawn_command(&c->pid, c->argv);

	c->t_active = *t_active_ns;
	c->err = -err;
	if (err)
		log_err(NULL, "cannot run '%s': %s", c->argv[0], strerror(err));
	return c->err;
}

/* 1 once it has ended (or can no longer be waited for). */
static int child_wait(void *arg, uint64_t timeout_ns)
{
	struct child *c = arg;
	pid_t w = waitpid(c->pid, &c->status, WNOHANG);

	if (w == c->pid)
		return 1;
	if (w < 0 && errno != EINTR) {
		c->err = -errno;
		return 1;
	}
	sleep_ns(timeout_ns);
	return 0;
}

/* A signal the user sent iowatt is the command's too; an undervoltage stop lets it finish. */
static void child_stop(void *arg, int sig)
{
	struct child *c = arg;

	if (sig <= 0 || c->forwarded)
		return;
	kill(c->pid, sig);
	c->forwarded = 1;
}

static void child_tick(void *arg, uint64_t now)
{
	struct child *c = arg;
	char a[FMT_LEN];

	progress_set(&c->rc->progress, "measuring '%s' %s", c->argv[0],
		     fmt_duration(now - c->t_active, a, sizeof(a)));
}

static void child_finish(void *arg, uint64_t *t_end_ns)
{
	(void)arg;
	*t_end_ns = now_ns();
}

static const struct run_activity_ops child_activity = {
	.start = child_start, .wait = child_wait, .stop = child_stop, .tick = child_tick,
	.finish = child_finish,
};

/* How the command ended, into the job; 1 if that makes the run a failure. */
static int child_result(const struct child *c, struct job_report *j)
{
	j->status = c->err || c->forwarded ? REPORT_INTERRUPTED : REPORT_OK;
	if (c->err && c->err != -EINTR) {
		j->status = REPORT_FAILED;
		j->error = xstrdup(strerror(-c->err));
		return 1;
	}
	if (c->err)
		return 0;
	if (WIFEXITED(c->status))
		j->exit_status = WEXITSTATUS(c->status);
	else if (WIFSIGNALED(c->status))
		j->exit_signal = WTERMSIG(c->status);
	/* The figures are kept either way; a command that failed is not a clean run. */
	if (c->forwarded || (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0))
		return 0;
	j->status = REPORT_FAILED;
	j->error = xstrdup(WIFEXITED(c->status) ? "the command exited non-zero"
						: "the command was killed");
	return 1;
}

static void command_line(struct job_report *j, char **argv)
{
	size_t n = 0;

	while (argv[n])
		n++;
	j->command = xcalloc(n + 1, sizeof(*j->command));
	for (j->ncommand = 0; j->ncommand < n; j->ncommand++)
		j->command[j->ncommand] = xstrdup(argv[j->ncommand]);
}

void run_command(struct run_ctx *rc, const struct job_opts *jo, char **argv)
{
	struct child c = { .rc = rc, .argv = argv, .pid = -1, .err = -EINTR };
	struct temps t_start;
	struct job_report *j;

	run_phases(rc, jo, &child_activity, &c, &t_start);
	j = report_add_job(&rc->rb.rep);
	j->jobname = xstrdup(jo->name);
	j->round = 1;
	j->loop = 1;
	command_line(j, argv);
	j->phases = xcalloc(1, sizeof(*j->phases));
	rc->any_failed |= child_result(&c, j);
	run_job_close(rc, NULL, j, &t_start, 0, 0);
}
