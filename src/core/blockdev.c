/* SPDX-License-Identifier: MIT */
/* Block devices seen through sysfs and the mount table, under a root prefix for tests. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/blockdev.h"
#include "core/files.h"

const char *blockdev_path(char *out, size_t len, const char *root, const char *rel)
{
	snprintf(out, len, "%s%s", root ? root : "", rel);
	return out;
}

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

int blockdev_resolve(const char *root, unsigned major, unsigned minor, char *disk,
		     size_t disk_len, char *part, size_t part_len)
{
	char link[PATH_MAX], rel[64], real[PATH_MAX], test[PATH_MAX + 16];
	char *slash;

	snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", major, minor);
	blockdev_path(link, sizeof(link), root, rel);
	if (!realpath(link, real))
		return -ENOENT;
	part[0] = '\0';
	slash = strrchr(real, '/');
	if (!slash)
		return -ENOENT;
	/* A partition directory sits inside its disk's and has a "partition" file. */
	snprintf(test, sizeof(test), "%s/partition", real);
	if (access(test, F_OK) == 0) {
		copy_str(part, part_len, slash + 1);
		*slash = '\0';
		slash = strrchr(real, '/');
		if (!slash)
			return -ENOENT;
	}
	copy_str(disk, disk_len, slash + 1);
	return 0;
}

int blockdev_devpath(const char *root, const char *name, char *out, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], rroot[PATH_MAX], rel[128];
	size_t n = 0;

	snprintf(rel, sizeof(rel), "/sys/class/block/%s", name);
	blockdev_path(link, sizeof(link), root, rel);
	if (!realpath(link, real))
		return -errno;
	if (root && *root) {
		if (!realpath(root, rroot))
			return -errno;
		n = strlen(rroot);
		if (strncmp(real, rroot, n) != 0)
			n = 0;
	}
	copy_str(out, len, real + n);
	return 0;
}

int blockdev_attr(const char *root, const char *name, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX], rel[256];

	snprintf(rel, sizeof(rel), "/sys/class/block/%s/%s", name, attr);
	return read_text_file(blockdev_path(path, sizeof(path), root, rel), buf, len);
}

int blockdev_attr_u64(const char *root, const char *name, const char *attr,
		      unsigned long long *out)
{
	char buf[64], *end;
	int rc;

	rc = blockdev_attr(root, name, attr, buf, sizeof(buf));
	if (rc)
		return rc;
	errno = 0;
	*out = strtoull(buf, &end, 0);
	if (end == buf || errno)
		return -EINVAL;
	return 0;
}

/* mountinfo escapes blanks and backslashes in paths as \ooo octal. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* Appends the superblock options that the per-mount list does not already hold. */
static void merge_opts(char *opts, size_t len, char *super)
{
	char *tok, *save = NULL, probe[256], hay[600];
	size_t used;

	for (tok = strtok_r(super, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		snprintf(probe, sizeof(probe), ",%s,", tok);
		snprintf(hay, sizeof(hay), ",%s,", opts);
		if (strstr(hay, probe))
			continue;
		used = strlen(opts);
		snprintf(opts + used, len - used, "%s%s", used ? "," : "", tok);
	}
}

/*
 * One mountinfo line: "36 35 98:0 /root /mnt rw,noatime shared:1 - ext4 /dev/sda1 rw,..."
 * The optional fields end at a lone "-".
 */
static int parse_mount_line(char *line, struct mount_entry *me)
{
	char *f[6], *save = NULL, *tok, *fstype, *source, *super;
	int i;

	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!f[i])
			return -EINVAL;
	}
	tok = f[5];
	while (tok && strcmp(tok, "-") != 0)
		tok = strtok_r(NULL, " \n", &save);
	if (!tok)
		return -EINVAL;
	fstype = strtok_r(NULL, " \n", &save);
	source = strtok_r(NULL, " \n", &save);
	super = strtok_r(NULL, " \n", &save);
	if (!fstype || !source || sscanf(f[2], "%u:%u", &me->major, &me->minor) != 2)
		return -EINVAL;
	unescape(f[4]);
	unescape(source);
	copy_str(me->mount_point, sizeof(me->mount_point), f[4]);
	copy_str(me->fstype, sizeof(me->fstype), fstype);
	copy_str(me->source, sizeof(me->source), source);
	copy_str(me->opts, sizeof(me->opts), f[5]);
	if (super)
		merge_opts(me->opts, sizeof(me->opts), super);
	return 0;
}

static int path_under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	return !strncmp(path, mnt, n) && (path[n] == '/' || path[n] == '\0');
}

int mountinfo_find(const char *mountinfo, dev_t dev, const char *real_path,
		   struct mount_entry *me)
{
	struct mount_entry cur;
	size_t best_dev = 0, best_any = 0, n;
	int have_dev = 0, have_any = 0;
	struct mount_entry any;
	char *line = NULL;
	size_t cap = 0;
	FILE *fp;

	fp = fopen(mountinfo, "re");
	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		if (parse_mount_line(line, &cur) || !path_under(real_path, cur.mount_point))
			continue;
		/* >= so that the last of stacked mounts on one point, the visible one, wins. */
		n = strlen(cur.mount_point);
		if (cur.major == major(dev) && cur.minor == minor(dev) && n >= best_dev) {
			*me = cur;
			best_dev = n;
			have_dev = 1;
		}
		if (n >= best_any) {
			any = cur;
			best_any = n;
			have_any = 1;
		}
	}
	free(line);
	fclose(fp);
	if (have_dev)
		return 0;
	if (!have_any)
		return -ENOENT;
	*me = any;
	return 0;
}

int mountinfo_dev_mounted(const char *mountinfo, unsigned major, unsigned minor,
			  struct mount_entry *me)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 1;
	FILE *fp;

	fp = fopen(mountinfo, "re");
	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		if (parse_mount_line(line, me))
			continue;
		if (me->major == major && me->minor == minor) {
			rc = 0;
			break;
		}
	}
	free(line);
	fclose(fp);
	return rc;
}
