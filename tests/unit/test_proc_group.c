/* SPDX-License-Identifier: MIT */
/* The processes of a process group still alive: what measure counts its command left. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "run/proc_group.h"
#include "tap.h"

#define WAIT_NS (10 * NS_PER_SEC) /* a fallback bound only: nothing here is timed */

/* Until the group has `want` alive, or the bound: the last count. */
static int alive_soon(pid_t pgid, int want)
{
	uint64_t end = now_ns() + WAIT_NS;
	int n;

	while ((n = proc_group_alive(pgid)) != want && now_ns() < end)
		sleep_ns(10 * NS_PER_MS);
	return n;
}

int main(void)
{
	pid_t leader, kid[2];
	int i, p[2];

	if (pipe(p))
		return 1;
	leader = fork();
	if (!leader) {
		/* A group of its own with two children it never reaps. */
		setpgid(0, 0);
		for (i = 0; i < 2; i++) {
			kid[i] = fork();
			if (!kid[i]) {
				pause();
				_exit(0);
			}
		}
		if (write(p[1], kid, sizeof(kid)) != (ssize_t)sizeof(kid))
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	ok(read(p[0], kid, sizeof(kid)) == (ssize_t)sizeof(kid), "a group of three started");
	is_int(alive_soon(leader, 3), 3, "its leader and two children are alive");
	is_int(proc_group_alive(getpgrp()) >= 1, 1, "this test's own group counts itself");
	kill(kid[0], SIGKILL);
	is_int(alive_soon(leader, 2), 2, "a child killed and not reaped (a zombie) is not counted");
	kill(-leader, SIGKILL);
	waitpid(leader, NULL, 0);
	is_int(alive_soon(leader, 0), 0, "the group killed: none alive");
	is_int(proc_group_alive(999999999), 0, "a group that never was: none");
	return done_testing();
}
