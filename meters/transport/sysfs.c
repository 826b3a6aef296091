/* SPDX-License-Identifier: MIT */
/* Sysfs reads under a root prefix, hwmon lookup, kept-open attributes, polling and rates. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "meters/transport/sysfs.h"

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

int sysfs_attr_open(struct sysfs_attr *a, const char *fullpath)
{
	a->fd = open(fullpath, O_RDONLY | O_CLOEXEC);
	return a->fd < 0 ? -errno : 0;
}

int sysfs_attr_read_ll(struct sysfs_attr *a, long long *out)
{
	char buf[32], *end;
	ssize_t n;

	n = pread(a->fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -ENODEV;
	buf[n] = 0;
	errno = 0;
	*out = strtoll(buf, &end, 10);
	if (end == buf || errno)
		return -EIO;
	return 0;
}

void sysfs_attr_close(struct sysfs_attr *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

void sysfs_attr_close_all(struct sysfs_attr *a, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sysfs_attr_close(&a[i]);
}

int sysfs_wait_tick(uint64_t *next_ns, uint64_t period_ns, int timeout_ms)
{
	uint64_t t = now_ns(), limit = t + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * NS_PER_MS;

	if (!*next_ns)
		*next_ns = t;
	if (*next_ns > limit) {
		sleep_until_ns(limit);
		return 0;
	}
	if (*next_ns > t && sleep_until_ns(*next_ns) < 0)
		return 0;
	t = now_ns();
	*next_ns += period_ns;
	if (*next_ns <= t) /* fell behind: skip missed ticks rather than burst */
		*next_ns = t + period_ns;
	return 1;
}

int sysfs_interval(const char *spec, const char *val, uint64_t default_ns, uint64_t *out)
{
	*out = default_ns;
	if (!val)
		return 0;
	if (parse_duration_ns(val, NS_PER_MS, out) < 0 || *out < NS_PER_MS || *out > 60 * NS_PER_SEC) {
		log_err("meter", "%s: interval=%s: use a duration from 1ms to 60s", spec, val);
		return -EINVAL;
	}
	return 0;
}

int energy_rate_update(struct energy_rate *r, uint64_t t_ns, double uj, double range_uj, double *w,
		       uint64_t *mid_ns)
{
	int ret = 0;
	double d;

	if (r->have && t_ns > r->t_ns) {
		d = uj - r->uj;
		if (d < 0 && range_uj > 0)
			d += range_uj; /* counter wrapped between the two reads */
		*w = d * 1e-6 / ((double)(t_ns - r->t_ns) * 1e-9);
		/* The mean power of the interval belongs to its middle, whatever its length. */
		*mid_ns = r->t_ns + (t_ns - r->t_ns) / 2;
		ret = 1;
	}
	r->t_ns = t_ns;
	r->uj = uj;
	r->have = 1;
	return ret;
}
