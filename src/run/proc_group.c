/* SPDX-License-Identifier: MIT */
/* The processes of a process group that are still alive, read from /proc. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/proc_group.h"

#define STAT_LEN 512

/* Its state and process group from /proc/PID/stat ("1 (sh) S 0 1 ..."); 0 or -1. The
 * command's name may hold spaces and parentheses: the fields start after the last ')'. */
static int read_stat(const char *path, char *state, long *pgrp)
{
	char buf[STAT_LEN], *p;
	FILE *fp = fopen(path, "re");
	size_t n;
	long ppid;

	if (!fp)
		return -1; /* gone meanwhile */
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %ld %ld", state, &ppid, pgrp) != 3)
		return -1;
	return 0;
}

int proc_group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[STAT_LEN], state;
	long pgrp;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (!read_stat(path, &state, &pgrp) && pgrp == pgid && state != 'Z' && state != 'X')
			n++;
	}
	closedir(d);
	return n;
}
