/* SPDX-License-Identifier: MIT */
/* Block devices seen through sysfs and the mount table, under a root prefix for tests. */
#ifndef IOWATT_BLOCKDEV_H
#define IOWATT_BLOCKDEV_H

#include <stddef.h>
#include <sys/types.h>

/*
 * M:m -> the whole disk and, when M:m is a partition, its name, read from
 * ROOT/sys/dev/block/M:m. Returns 0 or -ENOENT (no block device behind it: tmpfs,
 * overlay, NFS).
 */
int blockdev_resolve(const char *root, unsigned major, unsigned minor, char *disk,
		     size_t disk_len, char *part, size_t part_len);
/*
 * The device directory of block device NAME with ROOT cut off again, so that tests on a
 * fake tree see "/sys/devices/pci0000:00/.../block/sda" just as on a real system.
 */
int blockdev_devpath(const char *root, const char *name, char *out, size_t len);
/* ROOT + rel (rel starts with '/'), into out. */
const char *blockdev_path(char *out, size_t len, const char *root, const char *rel);
/* Read ROOT/sys/class/block/NAME/ATTR (trailing blanks removed): 0 or -errno. */
int blockdev_attr(const char *root, const char *name, const char *attr, char *buf, size_t len);
int blockdev_attr_u64(const char *root, const char *name, const char *attr,
		      unsigned long long *out);

struct mount_entry {
	unsigned major, minor;
	char mount_point[256];
	char fstype[32];
	char source[256];
	char opts[256]; /* per-mount options, then superblock options not already listed */
};

/*
 * The mount holding `real_path` on device dev: the entry of that device whose mount
 * point is the longest prefix of the path (the longest prefix of any device when none
 * matches, as btrfs subvolumes report other device numbers). 0, or -ENOENT.
 */
int mountinfo_find(const char *mountinfo, dev_t dev, const char *real_path,
		   struct mount_entry *me);
/* First mount of M:m: 0 with the mount point in me, 1 when not mounted, or -errno. */
int mountinfo_dev_mounted(const char *mountinfo, unsigned major, unsigned minor,
			  struct mount_entry *me);

#endif
