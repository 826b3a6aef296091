/* SPDX-License-Identifier: MIT */
/* The target's block device from sysfs: model, transport, sizes, USB/PCIe link, SD CID. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/blockdev.h"
#include "core/util.h"
#include "run/context.h"

static void trim(char *s)
{
	size_t n = strspn(s, " \t"), len;

	memmove(s, s + n, strlen(s + n) + 1);
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
}

/* dir/name; a path too long for PATH_MAX reads as absent. */
static const char *join(char *out, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, len, "%s/%s", dir, name) >= len)
		out[0] = '\0';
	return out;
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* dir/name as a trimmed string, or null. */
static json_t *file_str(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[256];

	if (read_text_file(join(path, sizeof(path), dir, name), buf, sizeof(buf)))
		return json_null();
	trim(buf);
	return str_or_null(buf);
}

static json_t *file_int(const char *dir, const char *name)
{
	char path[PATH_MAX];
	long long v;

	return read_int_file(join(path, sizeof(path), dir, name), &v) ? json_null() : json_integer(v);
}

/*
 * The kernel's device path tells the bus: a disk behind USB is a SCSI disk under a
 * usbN/ hub port, whatever the bridge translates to (SATA, NVMe).
 */
static const char *transport_of(const char *devpath, const char *disk)
{
	if (strstr(devpath, "/usb"))
		return "usb";
	if (!strncmp(disk, "nvme", 4) || strstr(devpath, "/nvme"))
		return "nvme";
	if (!strncmp(disk, "mmcblk", 6) || strstr(devpath, "/mmc_host/"))
		return "mmc";
	if (strstr(devpath, "/virtio"))
		return "virtio";
	if (!strncmp(disk, "loop", 4))
		return "loop";
	if (strstr(devpath, "/ata"))
		return "sata";
	if (strstr(devpath, "/host") && strstr(devpath, "/target"))
		return "scsi";
	if (strstr(devpath, "/devices/virtual/"))
		return "virtual";
	return NULL;
}

/* Walk from dir towards /sys/devices until a directory holds `file`. */
static int up_find(const char *start, const char *file, char *out, size_t len)
{
	char dir[PATH_MAX], probe[PATH_MAX + 64], *slash;

	snprintf(dir, sizeof(dir), "%s", start);
	for (;;) {
		if (access(join(probe, sizeof(probe), dir, file), F_OK) == 0) {
			snprintf(out, len, "%s", dir);
			return 0;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir || !strcmp(slash, "/devices"))
			return -1;
		*slash = '\0';
	}
}

/* "5000" -> "5000M" as lsusb -t spells it; "1.5" stays "1.5M". */
static json_t *usb_speed(const char *dir)
{
	char path[PATH_MAX], buf[32], out[40];

	if (read_text_file(join(path, sizeof(path), dir, "speed"), buf, sizeof(buf)) || !buf[0])
		return json_null();
	snprintf(out, sizeof(out), "%sM", buf);
	return json_string(out);
}

static json_t *vid_pid(const char *dir, const char *vname, const char *pname)
{
	char p1[PATH_MAX], p2[PATH_MAX], v[16], d[16], out[40];

	if (read_text_file(join(p1, sizeof(p1), dir, vname), v, sizeof(v)) ||
	    read_text_file(join(p2, sizeof(p2), dir, pname), d, sizeof(d)))
		return json_null();
	/* PCI ids read "0x144d", USB ids "0781" */
	snprintf(out, sizeof(out), "%s:%s", strncmp(v, "0x", 2) ? v : v + 2,
		 strncmp(d, "0x", 2) ? d : d + 2);
	return json_string(out);
}

/*
 * The first USB device above the disk is the bridge (or the stick's own controller);
 * its interface's driver says whether UAS or plain usb-storage carries the commands.
 */
static json_t *usb_json(const char *real)
{
	char dir[PATH_MAX], iface[PATH_MAX], link[PATH_MAX], probe[PATH_MAX], *slash;
	json_t *o = json_object();
	size_t n;
	ssize_t ln;

	if (up_find(real, "idVendor", dir, sizeof(dir))) {
		json_decref(o);
		return json_null();
	}
	json_object_set_new(o, "speed", usb_speed(dir));
	json_object_set_new(o, "vid_pid", vid_pid(dir, "idVendor", "idProduct"));
	json_object_set_new(o, "manufacturer", file_str(dir, "manufacturer"));
	json_object_set_new(o, "product", file_str(dir, "product"));
	json_object_set_new(o, "bridge_vid_pid", vid_pid(dir, "idVendor", "idProduct"));
	json_object_set_new(o, "port", json_string(strrchr(dir, '/') + 1));
	n = strlen(dir);
	snprintf(iface, sizeof(iface), "%s", real + n + (real[n] == '/'));
	slash = strchr(iface, '/');
	if (slash)
		*slash = '\0';
	join(probe, sizeof(probe), dir, iface);
	ln = readlink(join(link, sizeof(link), probe, "driver"), iface, sizeof(iface) - 1);
	if (ln > 0) {
		iface[ln] = '\0';
		slash = strrchr(iface, '/');
		json_object_set_new(o, "driver", json_string(slash ? slash + 1 : iface));
	} else {
		json_object_set_new(o, "driver", json_null());
	}
	return o;
}

/* The nearest PCI function with link attributes: the NVMe drive's own endpoint. */
static json_t *pcie_json(const char *start)
{
	char dir[PATH_MAX];
	json_t *o;

	if (up_find(start, "current_link_speed", dir, sizeof(dir)))
		return json_null();
	o = json_object();
	json_object_set_new(o, "address", json_string(strrchr(dir, '/') + 1));
	json_object_set_new(o, "vid_pid", vid_pid(dir, "vendor", "device"));
	json_object_set_new(o, "current_link_speed", file_str(dir, "current_link_speed"));
	json_object_set_new(o, "max_link_speed", file_str(dir, "max_link_speed"));
	json_object_set_new(o, "current_link_width", file_int(dir, "current_link_width"));
	json_object_set_new(o, "max_link_width", file_int(dir, "max_link_width"));
	return o;
}

static json_t *mmc_json(const char *dir)
{
	static const char *const fields[] = { "cid",  "name",  "manfid", "oemid", "date",
					      "serial", "type", "fwrev",  "hwrev" };
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		json_object_set_new(o, fields[i], file_str(dir, fields[i]));
	return o;
}

static json_t *loop_json(const char *root, const char *disk)
{
	char buf[PATH_MAX];
	json_t *o = json_object();

	if (blockdev_attr(root, disk, "loop/backing_file", buf, sizeof(buf)))
		buf[0] = '\0';
	json_object_set_new(o, "backing_file", str_or_null(buf));
	if (blockdev_attr(root, disk, "loop/dio", buf, sizeof(buf)))
		json_object_set_new(o, "direct_io", json_null());
	else
		json_object_set_new(o, "direct_io", json_boolean(buf[0] == '1'));
	return o;
}

/* "nvme0n1" -> real path of ROOT/sys/class/nvme/nvme0, whatever multipath did. */
static int nvme_ctrl_dir(const char *root, const char *disk, char *out)
{
	char rel[128], path[PATH_MAX];
	size_t n = 4 + strspn(disk + 4, "0123456789");

	snprintf(rel, sizeof(rel), "/sys/class/nvme/%.*s", (int)n, disk);
	return realpath(blockdev_path(path, sizeof(path), root, rel), out) ? 0 : -1;
}

/* Model and vendor live on the SCSI device, the NVMe controller or the SD card's CID. */
static void set_model_vendor(json_t *o, const char *tr, const char *dev, const char *ctrl)
{
	int scsi = tr && (!strcmp(tr, "usb") || !strcmp(tr, "sata") || !strcmp(tr, "scsi"));

	if (tr && !strcmp(tr, "nvme") && ctrl[0])
		json_object_set_new(o, "model", file_str(ctrl, "model"));
	else if (tr && !strcmp(tr, "mmc") && dev[0])
		json_object_set_new(o, "model", file_str(dev, "name"));
	else if (dev[0])
		json_object_set_new(o, "model", file_str(dev, "model"));
	else
		json_object_set_new(o, "model", json_null());
	/* virtio's "vendor" is a PCI id, not a name */
	json_object_set_new(o, "vendor", scsi && dev[0] ? file_str(dev, "vendor") : json_null());
}

json_t *context_device_json(const char *root, const char *disk, const char *part)
{
	char devpath[PATH_MAX], real[PATH_MAX], ctrl[PATH_MAX] = "", buf[64], rel[128];
	char path[PATH_MAX], dev[PATH_MAX];
	unsigned long long v;
	const char *tr;
	json_t *o;

	if (blockdev_devpath(root, disk, devpath, sizeof(devpath)))
		return NULL;
	snprintf(real, sizeof(real), "%s%s", root, devpath);
	tr = transport_of(devpath, disk);
	if (tr && !strcmp(tr, "nvme") && nvme_ctrl_dir(root, disk, ctrl))
		ctrl[0] = '\0';
	o = json_object();
	json_object_set_new(o, "name", json_string(disk));
	json_object_set_new(o, "partition", str_or_null(part));
	snprintf(rel, sizeof(rel), "/sys/class/block/%s/device", disk);
	if (!realpath(blockdev_path(path, sizeof(path), root, rel), dev))
		dev[0] = '\0';
	set_model_vendor(o, tr, dev, ctrl);
	json_object_set_new(o, "transport", str_or_null(tr));
	if (!blockdev_attr(root, disk, "queue/rotational", buf, sizeof(buf)))
		json_object_set_new(o, "rotational", json_boolean(buf[0] == '1'));
	else
		json_object_set_new(o, "rotational", json_null());
	/* "size" counts 512-byte sectors whatever the logical block size is */
	json_object_set_new(o, "size_bytes", blockdev_attr_u64(root, disk, "size", &v) ?
						     json_null() : json_integer((json_int_t)(v * 512)));
	json_object_set_new(o, "logical_block_size",
			    blockdev_attr_u64(root, disk, "queue/logical_block_size", &v) ?
				    json_null() : json_integer((json_int_t)v));
	json_object_set_new(o, "physical_block_size",
			    blockdev_attr_u64(root, disk, "queue/physical_block_size", &v) ?
				    json_null() : json_integer((json_int_t)v));
	json_object_set_new(o, "usb", tr && !strcmp(tr, "usb") ? usb_json(real) : json_null());
	json_object_set_new(o, "pcie", tr && !strcmp(tr, "nvme") ?
					       pcie_json(ctrl[0] ? ctrl : real) : json_null());
	json_object_set_new(o, "mmc", tr && !strcmp(tr, "mmc") && dev[0] ? mmc_json(dev) :
									     json_null());
	json_object_set_new(o, "loop", tr && !strcmp(tr, "loop") ? loop_json(root, disk) :
								   json_null());
	return o;
}
