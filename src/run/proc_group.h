/* SPDX-License-Identifier: MIT */
/* What a measured command left alive, read from /proc: its process group and every process descended from it. */
#ifndef IOWATT_PROC_GROUP_H
#define IOWATT_PROC_GROUP_H

#include <sys/types.h>

/*
 * A command's processes are those of its process group and every process descended from
 * its leader, also those that left the group with setsid: iowatt is their child subreaper
 * (proc_tree_adopt), so an orphan is reparented to iowatt, not to init, and a process whose
 * parent is iowatt outside iowatt's own process group is the command's.
 */
struct proc_tree {
	pid_t self, self_pgrp; /* iowatt */
	pid_t leader;	       /* the command, and its group's id; -1 before it runs */
	/* The leader is one of the command's processes only until iowatt reaps it: after
	 * that its pid may be anyone's (pid_max wraps on a small board). */
	int leader_alive;
};

/* Before the command starts: the calling process becomes the subreaper of what it starts
 * (t->leader is set once it runs). 0 or -errno (logged). */
int proc_tree_adopt(struct proc_tree *t);
/* How many of the command's processes besides the leader are alive (a zombie, dead and
 * waiting for its parent, is not); the orphans that died since are reaped. -errno when
 * /proc cannot be read. */
int proc_tree_alive(const struct proc_tree *t);
/* sig to the command's group and to each of its processes outside it. */
void proc_tree_signal(const struct proc_tree *t, int sig);

#endif
