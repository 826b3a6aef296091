/* SPDX-License-Identifier: MIT */
/* The live emulators: one small file per emulated pty under /run/iowatt/emulators. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "meters/emu/emu_live.h"
#include "meters/transport/serial.h"

#define MOD "emulate"

/*
 * /run is tmpfs and root's; where it is not writable (a user run) /tmp serves. Both
 * are looked at on lookup, so a root run sees a user's emulator and the reverse.
 * IOWATT_EMU_DIR overrides both (tests).
 */
static const char *live_dirs(int i)
{
	const char *env = getenv("IOWATT_EMU_DIR");

	if (env && *env)
		return i == 0 ? env : NULL;
	if (i == 0)
		return "/run/iowatt/emulators";
	if (i == 1)
		return "/tmp/iowatt-emulators";
	return NULL;
}

/* "/dev/pts/7" -> "pts-7"; -EINVAL for anything else. */
static int entry_name(const char *pts, char *buf, size_t len)
{
	const char *n;

	if (strncmp(pts, EMU_PTS_PREFIX, EMU_PTS_PREFIX_LEN))
		return -EINVAL;
	n = pts + EMU_PTS_PREFIX_LEN;
	if (!*n || strchr(n, '/'))
		return -EINVAL;
	snprintf(buf, len, "pts-%s", n);
	return 0;
}

int emu_live_add(const char *pts, const char *link, const char *model)
{
	char name[64], *path;
	const char *dir;
	FILE *fp;
	int i;

	if (entry_name(pts, name, sizeof(name)))
		return -EINVAL;
	for (i = 0; (dir = live_dirs(i)); i++) {
		if (mkdir_p(dir, 0755))
			continue;
		path = xasprintf("%s/%s", dir, name);
		fp = output_fopen(path, 1);
		free(path);
		if (!fp)
			continue;
		fprintf(fp, "%ld %s %s\n", (long)getpid(), model, link);
		if (!fclose(fp))
			return 0;
	}
	log_warn(MOD, "cannot register %s: runs will not label it emulated", pts);
	return -EACCES;
}

void emu_live_remove(const char *pts)
{
	char name[64], *path;
	const char *dir;
	int i;

	if (entry_name(pts, name, sizeof(name)))
		return;
	for (i = 0; (dir = live_dirs(i)); i++) {
		path = xasprintf("%s/%s", dir, name);
		unlink(path);
		free(path);
	}
}

static pid_t entry_pid(const char *file, char *rest, size_t len)
{
	char line[600], *sp;
	long pid;

	if (read_text_file(file, line, sizeof(line)))
		return 0;
	pid = strtol(line, &sp, 10);
	if (pid <= 0 || (kill((pid_t)pid, 0) && errno != EPERM))
		return 0;
	if (rest)
		snprintf(rest, len, "%s", *sp ? sp + 1 : "");
	return (pid_t)pid;
}

pid_t emu_live_owner(const char *path)
{
	char name[64], pts[32], *file;
	const char *dir;
	pid_t pid = 0;
	int i, n;

	n = serial_pty_number(path);
	if (n < 0)
		return 0;
	snprintf(pts, sizeof(pts), "/dev/pts/%d", n);
	if (entry_name(pts, name, sizeof(name)))
		return 0;
	for (i = 0; !pid && (dir = live_dirs(i)); i++) {
		file = xasprintf("%s/%s", dir, name);
		pid = entry_pid(file, NULL, 0);
		free(file);
	}
	return pid;
}

int emu_live_list(FILE *out)
{
	char rest[600], *file, *link;
	struct dirent *de;
	const char *dir;
	DIR *d;
	pid_t pid;
	int i, n = 0;

	for (i = 0; (dir = live_dirs(i)); i++) {
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (strncmp(de->d_name, "pts-", 4))
				continue;
			file = xasprintf("%s/%s", dir, de->d_name);
			pid = entry_pid(file, rest, sizeof(rest));
			free(file);
			if (!pid)
				continue;
			/* rest is "MODEL LINK" */
			link = strchr(rest, ' ');
			if (link)
				*link++ = '\0';
			fprintf(out, "  %-16s /dev/pts/%s, iowatt emulator of a %s (pid %ld): "
				"EMULATED\n", link ? link : "", de->d_name + 4, rest, (long)pid);
			fprintf(out, "    spec: %s:%s\n", rest, link ? link : "");
			n++;
		}
		closedir(d);
	}
	return n;
}
