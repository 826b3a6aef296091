/* SPDX-License-Identifier: MIT */
/* `iowatt measure`: a command as the active phase's activity, its process group, its exit status. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "run/measure_io.h"
#include "run/proc_group.h"
#include "run/run.h"

#define FMT_LEN 32
/* After SIGKILL, how long the group may take to be gone before iowatt stops waiting (a
 * process in uninterruptible sleep dies when its I/O returns). */
#define GROUP_GONE_NS NS_PER_SEC

extern char **environ;

/*
 * The command runs as the leader of a process group of its own, so that what it starts
 * can be told apart and ended with it, and a command that ignores SIGINT cannot keep the
 * run waiting: iowatt, not the terminal, passes a stop on to the group. What leaves the
 * group (setsid) is still found: iowatt is the subreaper of the command's tree.
 */
struct child {
	struct run_ctx *rc;
	char **argv;
	struct measure_io io;
	pid_t pid;     /* the command, and its process group's id */
	int status;    /* waitpid's */
	int err;       /* -errno: could not run or wait for it; -EINTR: stopped before it ran */
	int forwarded; /* a stop signal was passed on to its group */
	int ending;    /* its group is being ended (a stop, --kill-descendants, the terminal) */
	int killed;    /* ... and got SIGKILL */
	int tty;       /* it stopped to use the terminal, which it cannot have */
	uint64_t t_active, t_end, t_ending;
	struct proc_tree tree; /* its group and what descends from it (run/proc_group.h) */
	int descendants; /* alive in its tree when it returned */
	int descendants_ended;
};

/* The command gets default signal dispositions and an empty mask: iowatt ignores SIGPIPE
 * and blocks the stop signals, and neither may be inherited across exec. It leads a new
 * process group. Its stdout is out_fd when that is not -1. */
static int spawn_command(pid_t *pid, char **argv, int out_fd)
{
	posix_spawn_file_actions_t fa;
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
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
					    POSIX_SPAWN_SETPGROUP);
	posix_spawn_file_actions_init(&fa);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	fflush(stdout);
	err = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return err;
}

static int child_start(void *arg, uint64_t *t_active_ns)
{
	struct child *c = arg;
	int err;

	measure_io_begin(&c->io);
	proc_tree_adopt(&c->tree);
	err = spawn_command(&c->pid, c->argv, measure_io_stdout_fd(&c->io));
	if (!err) {
		c->tree.leader = c->pid;
		c->tree.leader_alive = 1;
	}
	measure_io_started(&c->io);
	c->t_active = *t_active_ns;
	c->err = -err;
	if (err)
		log_err(NULL, "cannot run '%s': %s", c->argv[0], strerror(err));
	else
		atomic_store(&c->rc->stop.child_pgid, c->pid);
	return c->err;
}

static uint64_t kill_after_ns(const struct child *c)
{
	return c->rc->cfg->run.kill_after_ns;
}

/* Ask the whole group to end with sig; SIGKILL follows after --kill-after. */
static void end_group(struct child *c, int sig, uint64_t now)
{
	char a[FMT_LEN];

	proc_tree_signal(&c->tree, sig);
	if (c->ending)
		return;
	c->ending = 1;
	c->t_ending = now;
	log_info(NULL, "'%s' and its process group sent %s; SIGKILL if it still runs %s later "
		       "(--kill-after)", c->argv[0], strsignal(sig),
		 fmt_duration(kill_after_ns(c), a, sizeof(a)));
}

/* A group asked to end that still runs after --kill-after is killed. */
static void escalate(struct child *c, uint64_t now)
{
	char a[FMT_LEN];

	if (!c->ending || c->killed || now - c->t_ending < kill_after_ns(c))
		return;
	proc_tree_signal(&c->tree, SIGKILL);
	c->killed = 1;
	atomic_store(&c->rc->stop.child_killed, 1);
	log_warn(NULL, "'%s': its process group still ran %s after it was asked to end: SIGKILL",
		 c->argv[0], fmt_duration(now - c->t_ending, a, sizeof(a)));
}

/* Stopped by the terminal (SIGTTIN, SIGTTOU): away from it, it would wait for ever. */
static void tty_stop(struct child *c, int sig, uint64_t now)
{
	if ((sig != SIGTTIN && sig != SIGTTOU) || c->tty)
		return;
	c->tty = 1;
	log_err(NULL, "'%s' stopped to use the terminal: measure runs the command in a process "
		"group of its own, away from the terminal (Ctrl-C reaches iowatt, which passes "
		"it on); give it its input with < FILE", c->argv[0]);
	end_group(c, SIGTERM, now);
	proc_tree_signal(&c->tree, SIGCONT);
}

/* It returned: what it left running in its group is said, and ended if asked for. */
static void leader_returned(struct child *c, uint64_t now)
{
	int n;

	/* reaped: its pid is no longer the command's */
	c->tree.leader_alive = 0;
	n = proc_tree_alive(&c->tree);

	c->t_end = now;
	c->descendants = n > 0 ? n : 0;
	if (!c->descendants || c->ending)
		return;
	if (c->rc->cfg->run.kill_descendants) {
		log_info(NULL, "'%s' returned with %d process(es) it started still running: "
			       "ended with it (--kill-descendants)", c->argv[0], n);
		end_group(c, SIGTERM, now);
		return;
	}
	log_warn(NULL, "'%s' returned with %d process(es) it started still running (in its "
		       "process group, or outside it with setsid): left running "
		       "(--kill-descendants ends them)", c->argv[0], n);
}

/* 1 once it has ended (or can no longer be waited for). */
static int child_wait(void *arg, uint64_t timeout_ns)
{
	struct child *c = arg;
	uint64_t now;
	pid_t w = waitpid(c->pid, &c->status, WNOHANG | WUNTRACED);

	now = now_ns();
	if (w == c->pid && WIFSTOPPED(c->status)) {
		tty_stop(c, WSTOPSIG(c->status), now);
	} else if (w == c->pid) {
		leader_returned(c, now);
		return 1;
	} else if (w < 0 && errno != EINTR) {
		c->err = -errno;
		c->t_end = now;
		return 1;
	}
	escalate(c, now);
	sleep_ns(timeout_ns);
	return 0;
}

/* A signal the user sent iowatt is the command's group's too; an undervoltage stop lets
 * it finish. */
static void child_stop(void *arg, int sig)
{
	struct child *c = arg;

	if (sig <= 0 || c->forwarded)
		return;
	c->forwarded = 1;
	end_group(c, sig, now_ns());
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
	struct child *c = arg;

	*t_end_ns = c->t_end ? c->t_end : now_ns();
	measure_io_end(&c->io);
}

static const struct run_activity_ops child_activity = {
	.start = child_start, .wait = child_wait, .stop = child_stop, .tick = child_tick,
	.finish = child_finish,
};

/*
 * After the tail: a group being ended (what a stopped command or one with
 * --kill-descendants left) is waited for until it is gone, SIGKILL after --kill-after,
 * the meters pumped meanwhile. The group is iowatt's no longer.
 */
static void group_done(struct child *c)
{
	uint64_t now, killed_at = 0;
	int alive;

	while (c->pid > 0 && c->ending && (alive = proc_tree_alive(&c->tree)) > 0) {
		now = now_ns();
		escalate(c, now);
		if (c->killed && !killed_at)
			killed_at = now;
		if (killed_at && now - killed_at > GROUP_GONE_NS) {
			log_warn(NULL, "'%s': %d process(es) of its group outlived SIGKILL",
				 c->argv[0], alive);
			break;
		}
		session_pump(c->rc->session, now);
		sleep_ns(SESSION_PUMP_NS);
	}
	c->descendants_ended = c->descendants && c->ending && proc_tree_alive(&c->tree) <= 0;
	atomic_store(&c->rc->stop.child_pgid, 0);
}

/* How the command ended, into the job; 1 if that makes the run a failure. */
static int child_result(const struct child *c, struct job_result *j)
{
	j->status = c->err || c->forwarded ? RESULT_INTERRUPTED : RESULT_OK;
	if (c->err && c->err != -EINTR) {
		j->status = RESULT_FAILED;
		j->error = xstrdup(strerror(-c->err));
		return 1;
	}
	if (c->err)
		return 0;
	if (c->descendants) {
		j->descendants = xcalloc(1, sizeof(*j->descendants));
		j->descendants->running = (uint64_t)c->descendants;
		j->descendants->ended = c->descendants_ended;
	}
	if (WIFEXITED(c->status))
		j->exit_status = WEXITSTATUS(c->status);
	else if (WIFSIGNALED(c->status))
		j->exit_signal = WTERMSIG(c->status);
	if (c->tty && !c->forwarded) {
		j->status = RESULT_FAILED;
		j->error = xstrdup("the command stopped to use the terminal, which measure does "
				   "not give it");
		return 1;
	}
	/* The figures are kept either way; a command that failed is not a clean run. */
	if (c->forwarded || (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0))
		return 0;
	j->status = RESULT_FAILED;
	j->error = xstrdup(WIFEXITED(c->status) ? "the command exited non-zero"
						: "the command was killed");
	return 1;
}

static void command_line(struct job_result *j, char **argv)
{
	size_t n = 0;

	while (argv[n])
		n++;
	j->command = xcalloc(n + 1, sizeof(*j->command));
	for (j->ncommand = 0; j->ncommand < n; j->ncommand++)
		j->command[j->ncommand] = xstrdup(argv[j->ncommand]);
}

/*
 * The command's I/O: fio's figures when it wrote JSON, else the target's counters; with
 * fio, the active phase becomes fio's own I/O, its file layout before it in no phase.
 */
static void command_io(struct run_ctx *rc, struct child *c, struct job_result *j,
		       struct measure_io_window *wp, uint64_t *bytes, uint64_t *ios)
{
	const struct phase_times *t = &rc->session->times;
	struct measure_io_window w;
	char a[FMT_LEN], b[FMT_LEN];

	*bytes = *ios = 0;
	memset(wp, 0, sizeof(*wp));
	if (c->err || measure_io_fill(&c->io, t->active_ns, t->end_ns, j, &w)) {
		if (c->io.fio || *c->io.disk)
			log_warn(NULL, "no I/O figures for '%s': %s", c->argv[0],
				 c->io.fio ? "fio's JSON could not be read" : "its counters were not read");
		return;
	}
	*bytes = j->read->io_bytes + j->write->io_bytes;
	*ios = j->read->total_ios + j->write->total_ios;
	if (w.name[0]) {
		/* The row is what fio called its work; several jobs share the one row. */
		free(j->jobname);
		j->jobname = xstrdup(w.name);
		if (w.nrows)
			log_info(NULL, "fio ran %u jobs (%s): this row has their I/O summed over "
				 "fio's window and the whole command's power; a row each after it has "
				 "that job's own I/O figures from fio and the energy of its own span "
				 "(%s), or none where jobs ran at the same time (shared)", w.fio_jobs,
				 w.name, w.spans_stamped ? "fio's job_start and job_runtime"
				 : "fio's job_runtime, its groups one after another before its report");
		else if (w.fio_jobs > 1)
			log_info(NULL, "fio ran %u jobs of one name (%s): one row, their I/O summed "
				 "over fio's window", w.fio_jobs, w.name);
	}
	*wp = w;
	if (!strcmp(w.source, "fio") && w.t_start_ns > t->active_ns &&
	    !session_rephase(rc->session, w.t_start_ns, w.t_end_ns, 0, run_output_replay, &rc->out))
		log_info(NULL, "I/O figures from fio's JSON; the active phase is fio's own %s of "
			 "I/O, the %s before it (fio laying out its files) in no phase",
			 fmt_duration(w.t_end_ns - w.t_start_ns, a, sizeof(a)),
			 fmt_duration(w.t_start_ns - t->idle_end_ns, b, sizeof(b)));
	else
		log_info(NULL, "I/O figures from %s", !strcmp(w.source, "fio") ? "fio's JSON"
			 : "the target's /proc/diskstats over the active phase");
}

/* A fio job that ran alongside another: no energy of its own, and the reason why. */
static void shared_row(struct job_result *r, const char *other)
{
	char *why = xasprintf("energy shared with '%s': fio ran the two at the same time, so "
			      "the meters saw them together and their energy cannot be split (the "
			      "command's row has it all)", other);

	r->validity = xcalloc(1, sizeof(*r->validity));
	result_validity_add(r->validity, why);
	free(why);
}

/*
 * A fio job's power figures over its own span: the command's idle baseline, the span as
 * the active phase, no tail (what the job leaves behind falls in the next one's span, or
 * in the command's tail). The session's phases are put back after.
 */
static void row_energy(struct run_ctx *rc, const struct job_opts *jo, struct job_result *r,
		       const struct measure_fio_row *row, const struct temps *t_start)
{
	struct session_job_copy *keep = session_job_keep(rc->session);
	struct job_close jc = {
		.jo = jo, .measure = 1, .t_start = t_start, .marker_spec = rc->cfg->run.mark_gpio,
		.mark_input = rc->cfg->run.mark_input - 1,
	};

	jc.bytes = (r->read ? r->read->io_bytes : 0) + (r->write ? r->write->io_bytes : 0);
	jc.ios = (r->read ? r->read->total_ios : 0) + (r->write ? r->write->total_ios : 0);
	if (!session_rephase(rc->session, row->t_start_ns, row->t_end_ns, row->t_end_ns,
			     run_output_replay, &rc->out))
		result_builder_job(&rc->rb, rc->session, &jc, r);
	session_job_put_back(rc->session, keep);
}

/*
 * After the command's row: a row per fio job (w->rows), named by fio, with that job's
 * I/O figures from fio's JSON and, where it ran alone, the power figures of its own span;
 * one that ran alongside another says its energy is shared. The figures move into the rows.
 */
static void fio_job_rows(struct run_ctx *rc, const struct job_opts *jo, char **argv,
			 unsigned round, struct measure_io_window *w, const struct temps *t_start)
{
	struct measure_fio_row *row;
	struct job_result *r;
	size_t i;

	for (i = 0; i < w->nrows; i++) {
		row = &w->rows[i];
		r = result_add_job(&rc->rb.rep);
		r->jobname = xstrdup(row->name);
		r->round = round;
		r->loop = 1;
		r->status = RESULT_OK;
		command_line(r, argv);
		r->io_source = xstrdup("fio");
		r->read = row->read;
		r->write = row->write;
		r->sync = row->sync;
		row->read = row->write = NULL;
		row->sync = NULL;
		if (!rc->session->nmeters)
			continue;
		if (row->shared_with[0])
			shared_row(r, row->shared_with);
		else if (row->t_end_ns > row->t_start_ns)
			row_energy(rc, jo, r, row, t_start);
	}
	measure_io_window_free(w);
}

void run_command(struct run_ctx *rc, const struct job_opts *jo, char **argv)
{
	struct child c = { .rc = rc, .argv = argv, .pid = -1, .err = -EINTR };
	struct measure_io_window w;
	struct temps t_start;
	struct job_result *j;
	uint64_t bytes, ios;

	if (measure_io_init(&c.io, argv, rc->io_disk, rc->cfg->run.sysfs_root))
		c.io.fio = 0;
	run_phases(rc, jo, &child_activity, &c, &t_start);
	group_done(&c);
	j = result_add_job(&rc->rb.rep);
	j->jobname = xstrdup(jo->name);
	j->round = 1;
	j->loop = 1;
	command_line(j, argv);
	j->phases = xcalloc(1, sizeof(*j->phases));
	rc->any_failed |= child_result(&c, j);
	command_io(rc, &c, j, &w, &bytes, &ios);
	run_job_close(rc, jo, 1, j, &t_start, bytes, ios, NULL, NULL);
	fio_job_rows(rc, jo, argv, 1, &w, &t_start);
	measure_io_free(&c.io);
}
