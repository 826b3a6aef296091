/* SPDX-License-Identifier: MIT */
/* What a measured command left alive, read from /proc: its process group and every process descended from it. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "run/proc_group.h"

#define STAT_LEN 512

struct proc_row {
	pid_t pid, ppid, pgrp;
	char state;
	int mine; /* the command's: 1, 0, -1 not decided yet */
};

/* Its state, parent and process group from /proc/PID/stat ("1 (sh) S 0 1 ..."); 0,
 * -errno when the process is gone meanwhile, -EPROTO when the line is not a stat line.
 * The command's name may hold spaces and parentheses: the fields start after the last ')'. */
static int read_stat(const char *path, struct proc_row *r)
{
	char buf[STAT_LEN], *p;
	FILE *fp = fopen(path, "re");
	long ppid, pgrp;
	size_t n;

	if (!fp)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %ld %ld", &r->state, &ppid, &pgrp) != 3)
		return -EPROTO;
	r->ppid = (pid_t)ppid;
	r->pgrp = (pid_t)pgrp;
	return 0;
}

/* Every process's row; *n of them. -errno when /proc cannot be read. */
static int read_all(struct proc_row **rows, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[STAT_LEN];
	size_t cap = 0;
	struct proc_row r;

	*rows = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		memset(&r, 0, sizeof(r));
		if (read_stat(path, &r))
			continue;
		r.pid = (pid_t)strtol(de->d_name, NULL, 10);
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*rows = xrealloc(*rows, cap * sizeof(**rows));
		}
		(*rows)[(*n)++] = r;
	}
	closedir(d);
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct proc_row *)a)->pid, y = ((const struct proc_row *)b)->pid;

	return (x > y) - (x < y);
}

/* The row of pid in rows sorted by pid, or NULL. */
static struct proc_row *row_of(struct proc_row *rows, size_t n, pid_t pid)
{
	struct proc_row key = { .pid = pid };

	return bsearch(&key, rows, n, sizeof(*rows), row_cmp);
}

/* The command's processes start here: its group, its leader while it lives, and iowatt's
 * adopted orphans outside iowatt's own group. */
static int seed(const struct proc_tree *t, const struct proc_row *r)
{
	return (t->leader > 0 && (r->pgrp == t->leader ||
				  (r->pid == t->leader && t->leader_alive))) ||
	       (r->ppid == t->self && r->pgrp != t->self_pgrp && r->pid != t->leader);
}

#define TREE_DEPTH_MAX 64

/* Decides r and its undecided ancestors at once: each row is walked once however deep the
 * tree (n log n over a host's processes, not n^2). */
static void decide(const struct proc_tree *t, struct proc_row *rows, size_t n,
		   struct proc_row *r)
{
	struct proc_row *chain[TREE_DEPTH_MAX], *p;
	size_t k = 0;
	int v = 0;

	while (r->mine < 0 && k < TREE_DEPTH_MAX) {
		if (seed(t, r)) {
			r->mine = 1;
			break;
		}
		chain[k++] = r;
		p = r->ppid > 0 && r->ppid != r->pid ? row_of(rows, n, r->ppid) : NULL;
		if (!p || p->pid == t->self)
			break;
		r = p;
	}
	if (r->mine >= 0)
		v = r->mine;
	while (k--)
		chain[k]->mine = v;
}

/* Marks the command's rows: the seeds and whatever descends from them. */
static void mark(const struct proc_tree *t, struct proc_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rows[i].mine = -1;
	qsort(rows, n, sizeof(*rows), row_cmp);
	for (i = 0; i < n; i++)
		if (rows[i].mine < 0)
			decide(t, rows, n, &rows[i]);
}

int proc_tree_adopt(struct proc_tree *t)
{
	t->self = getpid();
	t->self_pgrp = getpgrp();
	t->leader = -1;
	t->leader_alive = 0;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
		int err = -errno;

		log_warn(NULL, "cannot become the subreaper of the command (%s): a process it "
			       "starts with setsid is not seen", strerror(-err));
		return err;
	}
	return 0;
}

int proc_tree_alive(const struct proc_tree *t)
{
	struct proc_row *rows;
	size_t n, i;
	int err = read_all(&rows, &n), alive = 0;

	if (err)
		return err;
	mark(t, rows, n);
	for (i = 0; i < n; i++) {
		if (!rows[i].mine || rows[i].pid == t->leader)
			continue;
		if (rows[i].state != 'Z' && rows[i].state != 'X')
			alive++;
		else if (rows[i].ppid == t->self)
			waitpid(rows[i].pid, NULL, WNOHANG); /* an adopted orphan that died */
	}
	free(rows);
	return alive;
}

void proc_tree_signal(const struct proc_tree *t, int sig)
{
	struct proc_row *rows;
	size_t n, i;

	if (t->leader <= 0)
		return; /* never started: kill(-(-1)) would be every process */
	kill(-t->leader, sig);
	if (read_all(&rows, &n))
		return;
	mark(t, rows, n);
	for (i = 0; i < n; i++)
		if (rows[i].mine && rows[i].pgrp != t->leader && rows[i].state != 'Z')
			kill(rows[i].pid, sig);
	free(rows);
}
