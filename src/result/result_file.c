/* SPDX-License-Identifier: MIT */
/* The result file: its default name and its atomic write. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "result/result_json.h"

#define MOD "result"
/* Enough digits for any figure we print, without 22.800000000000001 noise. */
#define RESULT_DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(12))

/* A profile path becomes a file-name-safe stem: "configs/quick.ini" -> "quick". */
static char *clean_stem(const char *stem)
{
	const char *base = stem && *stem ? strrchr(stem, '/') : NULL;
	char *s, *dot, *p;

	base = base ? base + 1 : (stem && *stem ? stem : "run");
	s = xstrdup(*base ? base : "run");
	dot = strrchr(s, '.');
	if (dot && dot != s && !strcmp(dot, ".ini"))
		*dot = '\0';
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			*p = '-';
	return s;
}

char *result_default_path(const char *dir, const char *stem)
{
	char stamp[32], *name, *path;
	struct tm tm;
	time_t now = time(NULL);
	int i;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	name = clean_stem(stem);
	if (!dir || !*dir)
		dir = "results";
	path = xasprintf("%s/iowatt-%s-%s.json", dir, stamp, name);
	/* Two runs in one second must not overwrite each other. */
	for (i = 2; access(path, F_OK) == 0 && i < 1000; i++) {
		free(path);
		path = xasprintf("%s/iowatt-%s-%s-%d.json", dir, stamp, name, i);
	}
	free(name);
	return path;
}

int result_file_write(const char *path, json_t *root)
{
	struct atomic_file af;
	char *copy = xstrdup(path), *dir;
	int rc;

	dir = dirname(copy);
	rc = strcmp(dir, ".") ? mkdir_p(dir, 0755) : 0;
	if (rc) {
		log_err(MOD, "cannot create directory %s for %s: %s", dir, path, strerror(-rc));
		free(copy);
		return rc;
	}
	free(copy);
	rc = atomic_file_open(&af, path, 1);
	if (rc)
		return rc;
	errno = 0;
	if (json_dumpf(root, af.fp, RESULT_DUMP_FLAGS) || fputc('\n', af.fp) == EOF ||
	    ferror(af.fp)) {
		rc = errno ? -errno : -EIO;
		log_err(MOD, "writing %s: %s", path, strerror(-rc));
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af);
}
