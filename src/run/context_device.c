/* SPDX-License-Identifier: MIT */
/* The target's block device from sysfs: model, transport, sizes, USB/PCIe link, SD CID. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/blockdev.h"
#include "core/files.h"
#include "core/mem.h"
#include "run/context_device.h"
#include "run/health_decode.h"

#define SECTOR_BYTES 512

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

/* sysfs gives "" for what it does not know: that is null in the result. */
static char *str_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

/* dir/name as a trimmed string, or NULL. */
static char *file_str(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[256];

	if (read_text_file(join(path, sizeof(path), dir, name), buf, sizeof(buf)))
		return NULL;
	trim(buf);
	return str_or_null(buf);
}

static int64_t file_int(const char *dir, const char *name)
{
	char path[PATH_MAX];
	long long v;

	return read_int_file(join(path, sizeof(path), dir, name), &v) ? RESULT_NULL_INT : v;
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
static char *usb_speed(const char *dir)
{
	char path[PATH_MAX], buf[32];

	if (read_text_file(join(path, sizeof(path), dir, "speed"), buf, sizeof(buf)) || !buf[0])
		return NULL;
	return xasprintf("%sM", buf);
}

static char *vid_pid(const char *dir, const char *vname, const char *pname)
{
	char p1[PATH_MAX], p2[PATH_MAX], v[16], d[16];

	if (read_text_file(join(p1, sizeof(p1), dir, vname), v, sizeof(v)) ||
	    read_text_file(join(p2, sizeof(p2), dir, pname), d, sizeof(d)))
		return NULL;
	/* PCI ids read "0x144d", USB ids "0781" */
	return xasprintf("%s:%s", strncmp(v, "0x", 2) ? v : v + 2, strncmp(d, "0x", 2) ? d : d + 2);
}

/* The driver of the disk's interface under USB device dir: "uas" or "usb-storage". */
static int usb_iface_driver(const char *dir, const char *real, char *out, size_t len)
{
	char iface[PATH_MAX], link[PATH_MAX], probe[PATH_MAX], *slash;
	size_t n = strlen(dir);
	ssize_t ln;

	snprintf(iface, sizeof(iface), "%s", real + n + (real[n] == '/'));
	slash = strchr(iface, '/');
	if (slash)
		*slash = '\0';
	join(probe, sizeof(probe), dir, iface);
	ln = readlink(join(link, sizeof(link), probe, "driver"), iface, sizeof(iface) - 1);
	if (ln <= 0)
		return -1;
	iface[ln] = '\0';
	slash = strrchr(iface, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : iface);
	return 0;
}

/*
 * The first USB device above the disk is the bridge (or the stick's own controller);
 * its interface's driver says whether UAS or plain usb-storage carries the commands.
 */
static struct result_usb *usb_info(const char *dir, const char *real)
{
	char drv[64];
	struct result_usb *u;

	u = xcalloc(1, sizeof(*u));
	u->speed = usb_speed(dir);
	u->vid_pid = vid_pid(dir, "idVendor", "idProduct");
	u->manufacturer = file_str(dir, "manufacturer");
	u->product = file_str(dir, "product");
	u->bridge_vid_pid = vid_pid(dir, "idVendor", "idProduct");
	u->port = xstrdup(strrchr(dir, '/') + 1);
	if (!usb_iface_driver(dir, real, drv, sizeof(drv)))
		u->driver = xstrdup(drv);
	return u;
}

/* The nearest PCI function with link attributes: the NVMe drive's own endpoint. */
static struct result_pcie *pcie_info(const char *dir)
{
	struct result_pcie *p = xcalloc(1, sizeof(*p));

	p->address = xstrdup(strrchr(dir, '/') + 1);
	p->vid_pid = vid_pid(dir, "vendor", "device");
	p->current_link_speed = file_str(dir, "current_link_speed");
	p->max_link_speed = file_str(dir, "max_link_speed");
	p->current_link_width = file_int(dir, "current_link_width");
	p->max_link_width = file_int(dir, "max_link_width");
	return p;
}

/*
 * The CID with its serial number's 8 hex digits and its CRC crossed out: PSN is bits 55:24
 * on an SD card and 47:16 on an eMMC (the string starts at bit 127). The serial is never kept:
 * `serial` holds a short hash that tells two cards apart.
 */
static char *cid_masked(const char *dir, const char *type)
{
	char *cid = file_str(dir, "cid");
	size_t at = type && !strcmp(type, "MMC") ? 20 : 18;

	/* and the last byte, the CRC7 (where the host keeps it): a function of the serial that,
	 * with the other fields and the hash, would leave about two serials to choose from */
	if (cid && strlen(cid) == 32) {
		memset(cid + at, 'x', 8);
		memset(cid + 30, 'x', 2);
	} else if (cid) {
		free(cid);
		cid = NULL;
	}
	return cid;
}

static struct result_mmc *mmc_info(const char *dir)
{
	struct result_mmc *m = xcalloc(1, sizeof(*m));
	char *serial;

	m->type = file_str(dir, "type");
	m->cid = cid_masked(dir, m->type);
	m->name = file_str(dir, "name");
	m->manfid = file_str(dir, "manfid");
	m->oemid = file_str(dir, "oemid");
	m->date = file_str(dir, "date");
	serial = file_str(dir, "serial");
	if (serial) {
		m->serial = xmalloc(7);
		health_serial_hash(m->manfid, m->oemid, m->name, m->date, serial, m->serial);
		free(serial);
	}
	m->fwrev = file_str(dir, "fwrev");
	m->hwrev = file_str(dir, "hwrev");
	return m;
}

static struct result_loop *loop_info(const char *root, const char *disk)
{
	char buf[PATH_MAX];
	struct result_loop *l = xcalloc(1, sizeof(*l));

	if (blockdev_attr(root, disk, "loop/backing_file", buf, sizeof(buf)))
		buf[0] = '\0';
	l->backing_file = str_or_null(buf);
	if (blockdev_attr(root, disk, "loop/dio", buf, sizeof(buf)))
		l->direct_io = RESULT_NULL_BOOL;
	else
		l->direct_io = buf[0] == '1';
	return l;
}

/* "nvme0n1" -> real path of ROOT/sys/class/nvme/nvme0, whatever multipath did. */
static int nvme_ctrl_dir(const char *root, const char *disk, char *out)
{
	char rel[128], path[PATH_MAX];
	size_t n = 4 + strspn(disk + 4, "0123456789");

	snprintf(rel, sizeof(rel), "/sys/class/nvme/%.*s", (int)n, disk);
	return realpath(blockdev_path(path, sizeof(path), root, rel), out) ? 0 : -1;
}

static int is(const char *tr, const char *name)
{
	return tr && !strcmp(tr, name);
}

/* Model and vendor live on the SCSI device, the NVMe controller or the SD card's CID. */
static void set_model_vendor(struct result_device *d, const struct device_dirs *dd)
{
	const char *tr = dd->transport;
	int scsi = is(tr, "usb") || is(tr, "sata") || is(tr, "scsi");

	if (is(tr, "nvme") && dd->ctrl[0])
		d->model = file_str(dd->ctrl, "model");
	else if (is(tr, "mmc") && dd->dev[0])
		d->model = file_str(dd->dev, "name");
	else if (dd->dev[0])
		d->model = file_str(dd->dev, "model");
	/* virtio's "vendor" is a PCI id, not a name */
	d->vendor = scsi && dd->dev[0] ? file_str(dd->dev, "vendor") : NULL;
}

static int64_t attr_int(const char *root, const char *disk, const char *attr, uint64_t scale)
{
	unsigned long long v;

	return blockdev_attr_u64(root, disk, attr, &v) ? RESULT_NULL_INT : (int64_t)(v * scale);
}

int device_dirs_find(const char *root, const char *disk, struct device_dirs *dd)
{
	char devpath[PATH_MAX], rel[128], path[PATH_MAX];

	memset(dd, 0, sizeof(*dd));
	if (blockdev_devpath(root, disk, devpath, sizeof(devpath)))
		return -ENOENT;
	dd->root = root;
	snprintf(dd->disk, sizeof(dd->disk), "%s", disk);
	snprintf(dd->real, sizeof(dd->real), "%s%s", root, devpath);
	dd->transport = transport_of(devpath, disk);
	if (is(dd->transport, "nvme") && nvme_ctrl_dir(root, disk, dd->ctrl))
		dd->ctrl[0] = '\0';
	snprintf(rel, sizeof(rel), "/sys/class/block/%s/device", disk);
	if (!realpath(blockdev_path(path, sizeof(path), root, rel), dd->dev))
		dd->dev[0] = '\0';
	if (!is(dd->transport, "usb") || up_find(dd->real, "idVendor", dd->usb, sizeof(dd->usb)))
		dd->usb[0] = '\0';
	if (!is(dd->transport, "nvme") ||
	    up_find(dd->ctrl[0] ? dd->ctrl : dd->real, "current_link_speed", dd->pci, sizeof(dd->pci)))
		dd->pci[0] = '\0';
	return 0;
}

struct result_device *context_device(const char *root, const char *disk, const char *part)
{
	struct device_dirs dd;
	struct result_device *d;
	char buf[64];

	if (device_dirs_find(root, disk, &dd))
		return NULL;
	d = xcalloc(1, sizeof(*d));
	d->name = xstrdup(disk);
	d->partition = str_or_null(part);
	set_model_vendor(d, &dd);
	d->transport = str_or_null(dd.transport);
	if (!blockdev_attr(root, disk, "queue/rotational", buf, sizeof(buf)))
		d->rotational = buf[0] == '1';
	else
		d->rotational = RESULT_NULL_BOOL;
	/* "size" counts 512-byte sectors whatever the logical block size is */
	d->size_bytes = attr_int(root, disk, "size", SECTOR_BYTES);
	d->logical_block_size = attr_int(root, disk, "queue/logical_block_size", 1);
	d->physical_block_size = attr_int(root, disk, "queue/physical_block_size", 1);
	d->usb = dd.usb[0] ? usb_info(dd.usb, dd.real) : NULL;
	d->pcie = dd.pci[0] ? pcie_info(dd.pci) : NULL;
	d->mmc = is(dd.transport, "mmc") && dd.dev[0] ? mmc_info(dd.dev) : NULL;
	d->loop = is(dd.transport, "loop") ? loop_info(root, disk) : NULL;
	return d;
}

int device_usb_protocol(const struct device_dirs *dd, char *out, size_t len)
{
	return dd->usb[0] ? usb_iface_driver(dd->usb, dd->real, out, len) : -1;
}
