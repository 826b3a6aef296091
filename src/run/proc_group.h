/* SPDX-License-Identifier: MIT */
/* The processes of a process group that are still alive, read from /proc. */
#ifndef IOWATT_PROC_GROUP_H
#define IOWATT_PROC_GROUP_H

#include <sys/types.h>

/* How many processes of process group pgid are alive (a zombie, dead and waiting for its
 * parent, is not). -errno when /proc cannot be read. */
int proc_group_alive(pid_t pgid);

#endif
