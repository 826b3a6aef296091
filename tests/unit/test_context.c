/* SPDX-License-Identifier: MIT */
/* Context collection on fake sysfs trees (USB bridge, NVMe, SD card, loop) and the real host. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "core/blockdev.h"
#include "core/mem.h"
#include "result/result_json.h"
#include "run/context.h"
#include "run/context_device.h"
#include "tap.h"

#define DATA "tests/data/"

static json_t *get(json_t *o, const char *path)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save))
		o = json_object_get(o, tok);
	return o;
}

static const char *sget(json_t *o, const char *path)
{
	return json_string_value(get(o, path));
}

struct want {
	const char *path, *value;
};

/* String fields of one tree, checked as a table: "device.usb.speed" = "5000M". */
static void expect(json_t *c, const char *tree, const struct want *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		is_str(sget(c, w[i].path), w[i].value, "%s: %s", tree, w[i].path);
}

/* The context as the result document has it (and the report's memory freed). */
static json_t *as_json(struct result_context *c)
{
	struct run_result r;
	json_t *doc, *ctx;

	memset(&r, 0, sizeof(r));
	r.context = c;
	doc = result_to_json(&r);
	ctx = json_incref(json_object_get(doc, "context"));
	json_decref(doc);
	result_free(&r);
	return ctx;
}

static json_t *collect(const char *tree, const char *disk, const char *part)
{
	struct target tg;

	memset(&tg, 0, sizeof(tg));
	tg.path = (char *)"/mnt/x/iowatt-1.tmp";
	tg.created = 1;
	snprintf(tg.blockdev, sizeof(tg.blockdev), "%s", disk);
	snprintf(tg.partition, sizeof(tg.partition), "%s", part);
	snprintf(tg.fstype, sizeof(tg.fstype), "ext4");
	snprintf(tg.mount_point, sizeof(tg.mount_point), "/mnt/x");
	snprintf(tg.mount_source, sizeof(tg.mount_source), "/dev/%s", part[0] ? part : disk);
	snprintf(tg.mount_opts, sizeof(tg.mount_opts), "rw,noatime");
	return as_json(context_collect(&tg, tree));
}

static void test_resolve(void)
{
	char disk[64], part[64];

	ok(!blockdev_resolve(DATA "sysfs-usb", 8, 1, disk, sizeof(disk), part, sizeof(part)),
	   "8:1 resolves in the USB tree");
	is_str(disk, "sda", "8:1 is on disk sda");
	is_str(part, "sda1", "8:1 is partition sda1");
	ok(!blockdev_resolve(DATA "sysfs-nvme", 259, 0, disk, sizeof(disk), part, sizeof(part)),
	   "259:0 resolves");
	is_str(disk, "nvme0n1", "259:0 is nvme0n1");
	is_str(part, "", "a whole disk has no partition name");
	ok(blockdev_resolve(DATA "sysfs-nvme", 0, 42, disk, sizeof(disk), part, sizeof(part)) < 0,
	   "an anonymous device (tmpfs) has no block device");
}

static void test_mountinfo(void)
{
	const char *mi = DATA "mountinfo-sample";
	struct mount_entry me;

	ok(!mountinfo_find(mi, makedev(8, 1), "/mnt/sd/x/iowatt-1.tmp", &me), "a file under /mnt/sd");
	is_str(me.mount_point, "/mnt/sd", "its mount point");
	is_str(me.source, "/dev/sda1", "its source");
	is_str(me.fstype, "ext4", "its type, after the optional fields");
	is_str(me.opts, "rw,noatime,discard", "per-mount options, then new superblock ones");
	ok(!mountinfo_find(mi, makedev(8, 17), "/mnt/sd/inner/f", &me) &&
		   !strcmp(me.mount_point, "/mnt/sd/inner"),
	   "the longest mount point of the file's device wins");
	ok(!mountinfo_find(mi, makedev(8, 2), "/mnt/my disk/f", &me) &&
		   !strcmp(me.mount_point, "/mnt/my disk"),
	   "an escaped blank in a mount point");
	ok(!mountinfo_find(mi, makedev(0, 99), "/srv/f", &me) && !strcmp(me.mount_point, "/"),
	   "an unknown device falls back to the longest prefix");
	is_int(mountinfo_dev_mounted(mi, 8, 1, &me), 0, "8:1 is mounted");
	is_int(mountinfo_dev_mounted(mi, 8, 3, &me), 1, "8:3 is not");
}

static void test_usb(void)
{
	static const struct want w[] = {
		{ "host.hostname", "pi4" },
		{ "host.board", "Raspberry Pi 4 Model B Rev 1.4" },
		{ "host.cpu", "Cortex-A72" },
		{ "host.os", "Debian GNU/Linux 12 (bookworm)" },
		{ "host.kernel", "6.6.31+rpt-rpi-v8" },
		{ "device.transport", "usb" },
		{ "device.model", "Extreme 55AE" },
		{ "device.vendor", "SanDisk" },
		{ "device.partition", "sda1" },
		{ "device.usb.speed", "5000M" },
		{ "device.usb.vid_pid", "0781:55ae" },
		{ "device.usb.bridge_vid_pid", "0781:55ae" },
		{ "device.usb.manufacturer", "SanDisk" },
		{ "device.usb.driver", "uas" },
		{ "filesystem.type", "ext4" },
		{ "filesystem.source", "/dev/sda1" },
		{ "target.kind", "file" },
	};
	json_t *c = collect(DATA "sysfs-usb", "sda", "sda1");

	expect(c, "usb", w, ARRAY_SIZE(w));
	is_int(json_integer_value(get(c, "host.cpus")), 4, "usb: 4 cpus");
	is_int(json_integer_value(get(c, "host.memory_bytes")), 3884240LL * 1024, "usb: memory");
	is_int(json_integer_value(get(c, "device.size_bytes")), 1953525168LL * 512, "usb: size");
	ok(json_is_false(get(c, "device.rotational")), "usb: not rotational");
	is_int(json_integer_value(get(c, "device.physical_block_size")), 4096, "usb: 4K physical");
	ok(json_is_null(get(c, "device.pcie")), "usb: no pcie block for the xHCI behind it");
	ok(json_is_null(get(c, "device.mmc")) && json_is_null(get(c, "device.loop")),
	   "usb: no mmc or loop block");
	ok(json_is_true(get(c, "target.created")), "usb: target created");
	json_decref(c);
}

static void test_nvme(void)
{
	static const struct want w[] = {
		{ "host.board", "Raspberry Pi 5 Model B Rev 1.0" },
		{ "host.cpu", "Cortex-A76" },
		{ "device.transport", "nvme" },
		{ "device.model", "Samsung SSD 980 PRO 1TB" },
		{ "device.pcie.current_link_speed", "8.0 GT/s PCIe" },
		{ "device.pcie.max_link_speed", "16.0 GT/s PCIe" },
		{ "device.pcie.vid_pid", "144d:a80a" },
		{ "device.pcie.address", "0001:01:00.0" },
	};
	json_t *c = collect(DATA "sysfs-nvme", "nvme0n1", "nvme0n1p2");

	expect(c, "nvme", w, ARRAY_SIZE(w));
	is_int(json_integer_value(get(c, "device.pcie.current_link_width")), 1, "nvme: x1 link");
	is_int(json_integer_value(get(c, "device.pcie.max_link_width")), 4, "nvme: x4 capable");
	ok(json_is_null(get(c, "device.usb")), "nvme: no usb block");
	json_decref(c);
}

static void test_mmc(void)
{
	static const struct want w[] = {
		{ "device.transport", "mmc" },
		{ "device.model", "SC64G" },
		{ "device.mmc.cid", "035344534336344780xxxxxxxx0166xx" }, /* serial and CRC7 out */
		{ "device.mmc.manfid", "0x000003" },
		{ "device.mmc.oemid", "0x5344" },
		{ "device.mmc.date", "06/2022" },
		{ "device.mmc.type", "SD" },
	};
	json_t *c = collect(DATA "sysfs-mmc", "mmcblk0", "mmcblk0p2");
	char *text;

	expect(c, "mmc", w, ARRAY_SIZE(w));
	is_str(sget(c, "device.mmc.serial"), sget(c, "device.health.serial_hash"),
	       "mmc: serial is the health's hash");
	text = json_dumps(c, 0);
	ok(text && !strstr(text, "12345ab") && !strstr(text, "12345AB"),
	   "mmc: the card's serial appears nowhere in the context");
	free(text);
	is_int(json_integer_value(get(c, "device.size_bytes")), 124735488LL * 512, "mmc: size");
	json_decref(c);
}

static void test_loop(void)
{
	static const struct want w[] = {
		{ "host.board", "LENOVO 20XW004GUS" },
		{ "host.cpu", "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz" },
		{ "device.transport", "loop" },
		{ "device.loop.backing_file", "/var/tmp/sd-image.img" },
	};
	json_t *c = collect(DATA "sysfs-loop", "loop3", "");

	expect(c, "loop", w, ARRAY_SIZE(w));
	is_int(json_integer_value(get(c, "host.cpus")), 8, "loop: 8 cpus from cpu/online");
	ok(json_is_true(get(c, "device.loop.direct_io")), "loop: direct_io");
	ok(json_is_true(get(c, "device.rotational")), "loop: rotational as the kernel says");
	ok(json_is_null(get(c, "device.partition")), "loop: no partition -> null");
	json_decref(c);
}

static void test_no_device(void)
{
	struct target tg;
	json_t *c;

	memset(&tg, 0, sizeof(tg));
	tg.path = (char *)"/dev/shm/iowatt-1.tmp";
	snprintf(tg.fstype, sizeof(tg.fstype), "tmpfs");
	c = as_json(context_collect(&tg, DATA "sysfs-usb"));
	ok(json_is_null(get(c, "device")), "tmpfs file: device is null");
	is_str(sget(c, "filesystem.type"), "tmpfs", "tmpfs file: filesystem still reported");
	json_decref(c);
}

/* The real machine: every host key is there and a real disk has a transport. */
static void test_real(void)
{
	char disk[64], part[64];
	struct stat st;
	struct result_context *rc;
	json_t *c, *dev;

	c = as_json(context_collect(NULL, ""));
	ok(sget(c, "host.hostname") && sget(c, "host.kernel") && sget(c, "host.cpu"),
	   "real host: hostname, kernel and cpu present");
	ok(json_integer_value(get(c, "host.cpus")) >= 1, "real host: at least one cpu");
	ok(json_integer_value(get(c, "host.memory_bytes")) > 0, "real host: memory");
	json_decref(c);
	if (stat("tests", &st) ||
	    blockdev_resolve("", major(st.st_dev), minor(st.st_dev), disk, sizeof(disk), part,
			     sizeof(part))) {
		skip("the source tree is not on a block device");
		return;
	}
	rc = xcalloc(1, sizeof(*rc));
	rc->device = context_device("", disk, part);
	c = as_json(rc);
	dev = json_object_get(c, "device");
	ok(json_is_object(dev) && sget(dev, "transport"), "real disk %s: transport %s", disk,
	   json_is_object(dev) ? (sget(dev, "transport") ? sget(dev, "transport") : "null") : "-");
	json_decref(c);
}

int main(void)
{
	test_resolve();
	test_mountinfo();
	test_usb();
	test_nvme();
	test_mmc();
	test_loop();
	test_no_device();
	test_real();
	return done_testing();
}
