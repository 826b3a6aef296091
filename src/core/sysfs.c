/* SPDX-License-Identifier: MIT */
/* Sysfs reads under a root prefix (tests point it at a fake tree) and the one hwmon lookup. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/sysfs.h"
#include "core/util.h"

void sysfs_path(const char *root, const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", root ? root : "", path);
}

int sysfs_read_str(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];

	sysfs_path(root, path, full, sizeof(full));
	return read_text_file(full, buf, len);
}

int sysfs_read_ll(const char *root, const char *path, long long *out)
{
	char full[512];

	sysfs_path(root, path, full, sizeof(full));
	return read_int_file(full, out);
}

int sysfs_exists(const char *root, const char *path)
{
	char full[512];

	sysfs_path(root, path, full, sizeof(full));
	return access(full, F_OK) == 0;
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
	char full[512];
	struct dirent *de;
	char **v = NULL;
	int n = 0;
	DIR *d;

	*names = NULL;
	sysfs_path(root, dir, full, sizeof(full));
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

int sysfs_hwmon_find(const char *root, const char *name_or_path, int index, char *dir, size_t len)
{
	char path[300], name[64], seen[256] = "";
	char **chips;
	int n, i, match = 0, ret = -ENOENT;

	if (strchr(name_or_path, '/')) {
		sysfs_path(root, name_or_path, dir, len);
		if (access(dir, F_OK) < 0) {
			log_err("hwmon", "%s does not exist", name_or_path);
			return -ENOENT;
		}
		return 0;
	}
	n = sysfs_list(root, "/sys/class/hwmon", "hwmon", &chips);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s/name", chips[i]);
		if (sysfs_read_str(root, path, name, sizeof(name)) < 0)
			continue;
		if (strlen(seen) + strlen(name) + 3 < sizeof(seen))
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%s",
				 seen[0] ? ", " : "", name);
		if (strcmp(name, name_or_path) || match++ != index)
			continue;
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s", chips[i]);
		sysfs_path(root, path, dir, len);
		ret = 0;
		break;
	}
	sysfs_list_free(chips, n);
	if (ret < 0) {
		if (match)
			log_err("hwmon", "only %d hwmon chip(s) named '%s'; index=%d is out of range",
				match, name_or_path, index);
		else
			log_err("hwmon", "no hwmon chip named '%s' (this machine has: %s)",
				name_or_path, seen[0] ? seen : "none");
	}
	return ret;
}

