/* SPDX-License-Identifier: MIT */
/* INI job profiles: where a profile name is found, and loading one into jobs. */
#ifndef IOWATT_PROFILE_H
#define IOWATT_PROFILE_H

#include <stddef.h>

#include "io/job.h"

/* What a profile says besides its jobs: a fio job file's filename= (or directory=). */
struct profile_info {
	int fio;	 /* read as a fio job file (the name ends in .fio) */
	char *target;	 /* allocated; NULL when the file names none */
	int target_line; /* where it does */
};

/* Load an INI profile into jobs (defaults + [global] + sections); info may be NULL. */
int profile_load(const char *path, struct job_opts **jobs, size_t *njobs,
		 struct profile_info *info);
/*
 * A profile argument to a path: a bare name ("quick") is looked up as NAME.ini in
 * EXE_DIR/configs, EXE_DIR/../configs (the repository), EXE_DIR/../share/iowatt/configs
 * and PREFIX/share/iowatt/configs; anything else, or a name found nowhere, is a path.
 * exe_dir NULL = the directory of /proc/self/exe. Returns an allocated path, or NULL
 * after logging what was tried.
 */
char *profile_find(const char *name, const char *exe_dir);
/* "db-log, quick, ..." from the first search directory that has profiles ("" if none). */
void profile_names(char *buf, size_t len);

#endif
