/* SPDX-License-Identifier: MIT */
/* Sysfs reads under a root prefix (tests point it at a fake tree) and the one hwmon lookup. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"

/* A hwmon chip's `name` attribute: the kernel limits it to a short identifier. */
#define HWMON_NAME_LEN 64
/* Room for the names listed in "no hwmon chip named X (this machine has: ...)". */
#define HWMON_SEEN_LEN 256

int sysfs_path(const char *root, const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", root ? root : "", path);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int sysfs_read_str(const char *root, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];

	if (sysfs_path(root, path, full, sizeof(full)))
		return -ENAMETOOLONG;
	return read_text_file(full, buf, len);
}

int sysfs_read_ll(const char *root, const char *path, long long *out)
{
	char full[PATH_MAX];

	if (sysfs_path(root, path, full, sizeof(full)))
		return -ENAMETOOLONG;
	return read_int_file(full, out);
}

int sysfs_exists(const char *root, const char *path)
{
	char full[PATH_MAX];

	return sysfs_path(root, path, full, sizeof(full)) == 0 && access(full, F_OK) == 0;
}

/* Natural order: compare the numeric suffix so hwmon10 follows hwmon9. */
static int natural_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t i = 0;

	while (x[i] && x[i] == y[i] && !isdigit((unsigned char)x[i]))
		i++;
	if (isdigit((unsigned char)x[i]) && isdigit((unsigned char)y[i])) {
		unsigned long long nx = strtoull(x + i, NULL, 10), ny = strtoull(y + i, NULL, 10);

		if (nx != ny)
			return nx < ny ? -1 : 1;
	}
	return strcmp(x, y);
}

int sysfs_list(const char *root, const char *dir, const char *prefix, char ***names)
{
	char full[PATH_MAX];
	struct dirent *de;
	char **v = NULL;
	int n = 0;
	DIR *d;

	*names = NULL;
	if (sysfs_path(root, dir, full, sizeof(full)))
		return 0;
	d = opendir(full);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		v = xrealloc(v, (size_t)(n + 1) * sizeof(*v));
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), natural_cmp);
	*names = v;
	return n;
}

void sysfs_list_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Calls fn for each hwmon chip's name, lowest hwmonN first, until fn returns non-zero. */
static int hwmon_each(const char *root, int (*fn)(const char *chip, const char *name, void *arg),
		      void *arg)
{
	char path[PATH_MAX], name[HWMON_NAME_LEN];
	char **chips;
	int n, i, ret = 0;

	n = sysfs_list(root, "/sys/class/hwmon", "hwmon", &chips);
	for (i = 0; i < n && !ret; i++) {
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s/name", chips[i]);
		if (sysfs_read_str(root, path, name, sizeof(name)) == 0)
			ret = fn(chips[i], name, arg);
	}
	sysfs_list_free(chips, n);
	return ret;
}

struct hwmon_match {
	const char *root, *name;
	int index, seen;
	char *dir;
	size_t len;
	char names[HWMON_SEEN_LEN]; /* every chip's name, for the error message */
};

static int hwmon_match(const char *chip, const char *name, void *arg)
{
	struct hwmon_match *m = arg;
	size_t used = strlen(m->names);
	char path[PATH_MAX];

	if (used + strlen(name) + 3 < sizeof(m->names))
		snprintf(m->names + used, sizeof(m->names) - used, "%s%s", used ? ", " : "", name);
	if (strcmp(name, m->name) || m->seen++ != m->index)
		return 0;
	snprintf(path, sizeof(path), "/sys/class/hwmon/%s", chip);
	return sysfs_path(m->root, path, m->dir, m->len) ? -ENAMETOOLONG : 1;
}

static int hwmon_lookup(struct hwmon_match *m)
{
	int ret = hwmon_each(m->root, hwmon_match, m);

	return ret == 1 ? 0 : ret < 0 ? ret : -ENOENT;
}

int sysfs_hwmon_lookup(const char *root, const char *name, int index, char *dir, size_t len)
{
	struct hwmon_match m = { .root = root, .name = name, .index = index, .dir = dir, .len = len };

	return hwmon_lookup(&m);
}

int sysfs_hwmon_find(const char *root, const char *name_or_path, int index, char *dir, size_t len)
{
	struct hwmon_match m = { .root = root, .name = name_or_path, .index = index, .dir = dir,
				 .len = len };
	int ret;

	if (strchr(name_or_path, '/')) {
		sysfs_path(root, name_or_path, dir, len);
		if (access(dir, F_OK) < 0) {
			log_err("hwmon", "%s does not exist", name_or_path);
			return -ENOENT;
		}
		return 0;
	}
	/* Not found means every chip was looked at: seen and names are complete. */
	ret = hwmon_lookup(&m);
	if (ret < 0 && m.seen)
		log_err("hwmon", "only %d hwmon chip(s) named '%s'; index=%d is out of range",
			m.seen, name_or_path, index);
	else if (ret < 0)
		log_err("hwmon", "no hwmon chip named '%s' (this machine has: %s)", name_or_path,
			m.names[0] ? m.names : "none");
	return ret;
}

int sysfs_fd_read_str(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

int sysfs_fd_pollable(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == SYSFS_MAGIC;
}
