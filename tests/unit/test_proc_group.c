/* SPDX-License-Identifier: MIT */
/* What a measured command left alive: its group, and what left the group with setsid. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "run/proc_group.h"
#include "tap.h"

#define WAIT_NS (10 * NS_PER_SEC) /* a fallback bound only: nothing here is timed */

/* Until the tree has `want` alive besides its leader, or the bound: the last count. */
static int alive_soon(const struct proc_tree *t, int want)
{
	uint64_t end = now_ns() + WAIT_NS;
	int n;

	while ((n = proc_tree_alive(t)) != want && now_ns() < end)
		sleep_ns(10 * NS_PER_MS);
	return n;
}

int main(void)
{
	struct proc_tree t;
	pid_t leader, kid[2];
	int i, p[2];

	if (pipe(p))
		return 1;
	ok(proc_tree_adopt(&t) == 0, "this process is the subreaper of what it starts");
	leader = fork();
	if (!leader) {
		/* A group of its own with two children it never reaps: one stays in the group,
		 * one leaves it for a session of its own. */
		setpgid(0, 0);
		for (i = 0; i < 2; i++) {
			kid[i] = fork();
			if (!kid[i]) {
				if (i == 1)
					setsid();
				pause();
				_exit(0);
			}
		}
		if (write(p[1], kid, sizeof(kid)) != (ssize_t)sizeof(kid))
			_exit(1);
		for (;;)
			pause();
	}
	t.leader = leader;
	t.leader_alive = 1;
	close(p[1]);
	ok(read(p[0], kid, sizeof(kid)) == (ssize_t)sizeof(kid), "a leader with two children");
	is_int(alive_soon(&t, 2), 2, "both children are the command's, the setsid one too");
	kill(kid[0], SIGKILL);
	is_int(alive_soon(&t, 1), 1, "a child killed and not reaped (a zombie) is not counted");
	kill(leader, SIGKILL);
	waitpid(leader, NULL, 0);
	t.leader_alive = 0;
	is_int(alive_soon(&t, 1), 1,
	       "the leader gone, its setsid child (now this process's, as subreaper) still counts");
	proc_tree_signal(&t, SIGKILL);
	is_int(alive_soon(&t, 0), 0, "signalled with the tree, it is gone, and reaped");
	ok(waitpid(-1, NULL, WNOHANG) <= 0, "no zombie is left to this process");
	t.leader = 999999999;
	is_int(proc_tree_alive(&t), 0, "a command that never was: none");
	return done_testing();
}
