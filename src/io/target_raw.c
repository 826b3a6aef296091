/* SPDX-License-Identifier: MIT */
/* Raw-device safety: refuse a device that is mounted, held or holds data, unless forced. */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/target_int.h"
#include "core/blockdev.h"
#include "core/log.h"

#define MOD "target"

static const char *hint(int writes)
{
	return writes ? "" : "; the jobs only read, so --force will not write to it";
}

/* First entry of /sys/class/block/NAME/holders (device-mapper, md, bcache ...), or 0. */
static int first_holder(const char *name, char *out, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(out, len, "%s", de->d_name);
		found = 1;
		break;
	}
	closedir(d);
	return found;
}

/* Mounted or held: 0 when free, -EBUSY after logging why. */
static int check_in_use(const struct target *tg, const char *name, unsigned maj, unsigned min,
			int writes)
{
	struct mount_entry me;
	char holder[256];
	const char *what = strcmp(name, tg->partition[0] ? tg->partition : tg->blockdev) ?
				   "has a partition" : "is";

	if (mountinfo_dev_mounted("/proc/self/mountinfo", maj, min, &me) == 0) {
		log_err(MOD, "%s %s mounted (%s at %s): refusing raw I/O on a mounted device "
			"(unmount it first, or --force%s)", tg->path, what, name, me.mount_point,
			hint(writes));
		return -EBUSY;
	}
	if (first_holder(name, holder, sizeof(holder))) {
		log_err(MOD, "%s %s in use: %s is held by %s (holders/); refusing (or --force%s)",
			tg->path, what, name, holder, hint(writes));
		return -EBUSY;
	}
	return 0;
}

/* The device itself, then, for a whole disk, every partition listed under it. */
static int check_partitions(const struct target *tg, int writes)
{
	char path[PATH_MAX], rel[PATH_MAX], dev[32];
	unsigned maj, min;
	struct dirent *de;
	int rc;
	DIR *d;

	rc = check_in_use(tg, tg->partition[0] ? tg->partition : tg->blockdev, tg->dev_major,
			  tg->dev_minor, writes);
	if (rc || tg->partition[0] || !tg->blockdev[0])
		return rc;
	snprintf(path, sizeof(path), "/sys/class/block/%s", tg->blockdev);
	d = opendir(path);
	if (!d)
		return 0;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/partition", de->d_name);
		if (blockdev_attr("", tg->blockdev, rel, dev, sizeof(dev)))
			continue;
		snprintf(rel, sizeof(rel), "%s/dev", de->d_name);
		if (blockdev_attr("", tg->blockdev, rel, dev, sizeof(dev)) ||
		    sscanf(dev, "%u:%u", &maj, &min) != 2)
			continue;
		rc = check_in_use(tg, de->d_name, maj, min, writes);
	}
	closedir(d);
	return rc;
}

/* libblkid's safe probe: a filesystem, RAID member or partition table is existing data. */
static int check_signature(const struct target *tg, int writes)
{
	const char *type = NULL, *kind = "filesystem";
	blkid_probe pr;
	int rc;

	pr = blkid_new_probe_from_filename(tg->path);
	if (!pr) {
		log_err(MOD, "%s: cannot probe it for existing data: %s", tg->path,
			strerror(errno ? errno : EIO));
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    !blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			kind = "partition table";
	}
	if (rc == 0 || rc == -2) {
		log_err(MOD, "%s holds a %s%s%s signature (existing data): refusing to use it "
			"(wipe it first, or --force%s)", tg->path, type ? type : "", type ? " " : "",
			rc == -2 ? "conflicting" : kind, hint(writes));
		blkid_free_probe(pr);
		return -EEXIST;
	}
	blkid_free_probe(pr);
	if (rc < 0) {
		log_err(MOD, "%s: probing for existing data failed", tg->path);
		return -EIO;
	}
	return 0;
}

int target_raw_safety(const struct target *tg, int force, int writes)
{
	int rc, fd;

	if (force) {
		log_warn(MOD, "--force: not checking %s for mounts, holders or existing data",
			 tg->path);
		return 0;
	}
	rc = check_partitions(tg, writes);
	if (rc)
		return rc;
	/* O_EXCL on a block device fails while anything holds it: swap, md, a mount in
	 * another namespace that our mountinfo does not show. */
	fd = open(tg->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		rc = -errno;
		log_err(MOD, "%s: %s: a raw block device needs root (or the group that owns it, "
			"usually disk)", tg->path, strerror(errno));
		return rc;
	}
	if (fd < 0) {
		rc = -errno;
		log_err(MOD, "%s is in use (%s): refusing (or --force%s)", tg->path,
			strerror(errno), hint(writes));
		return rc;
	}
	close(fd);
	return check_signature(tg, writes);
}
