/* SPDX-License-Identifier: MIT */
/* A device's own word on its wear and class, and its idle power settings, from sysfs and NVMe admin commands. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/files.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "run/context_health.h"

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_ADMIN_GET_FEATURES 0x0a
#define NVME_LOG_SMART 0x02
#define NVME_FEAT_POWER_MGMT 0x02
#define NVME_FEAT_APST 0x0c
#define NVME_APST_TABLE_BYTES 256
#define NVME_NSID_ALL 0xffffffffu

/* dir/name, trimmed; "" when absent. */
static const char *attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n;

	buf[0] = '\0';
	if (!dir[0] || (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    read_text_file(path, buf, len)) {
		buf[0] = '\0';
		return buf;
	}
	n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n'))
		buf[--n] = '\0';
	return buf;
}

/* A sysfs number in any base C reads ("0x08", "30000"); RESULT_NULL_INT when absent. */
static int64_t attr_num(const char *dir, const char *name)
{
	char buf[64], *end;
	long long v;

	if (!*attr(dir, name, buf, sizeof(buf)))
		return RESULT_NULL_INT;
	errno = 0;
	v = strtoll(buf, &end, 0);
	return errno || end == buf ? RESULT_NULL_INT : v;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

static void missing(char ***list, size_t *n, const char *fmt, const char *what, const char *why)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = xasprintf(fmt, what, why);
}

#define MISSING(h, what, why) missing(&(h)->missing, &(h)->nmissing, "%s: %s", what, why)

static struct result_health *health_new(void)
{
	struct result_health *h = xcalloc(1, sizeof(*h));

	h->used_pct = h->life_time_a = h->life_time_b = h->pre_eol_info = RESULT_NULL_INT;
	h->ext_csd_rev = h->critical_warning = h->temperature_c = RESULT_NULL_INT;
	h->media_errors = h->data_units_written = RESULT_NULL_INT;
	h->missing = xcalloc(1, sizeof(*h->missing));
	return h;
}

/* The CID as the kernel parsed it: maker, OEM, product, date, and the serial as a hash. */
static void cid_fields(struct result_health *h, const char *card, const char *type)
{
	char manfid[32], oemid[32], name[32], date[32], serial[32], buf[32];
	const char *maker;

	attr(card, "manfid", manfid, sizeof(manfid));
	attr(card, "oemid", oemid, sizeof(oemid));
	attr(card, "name", name, sizeof(name));
	attr(card, "date", date, sizeof(date));
	attr(card, "serial", serial, sizeof(serial));
	if (manfid[0]) {
		maker = health_cid_maker(type, (unsigned)strtoul(manfid, NULL, 0));
		h->maker = maker ? xstrdup(maker) : xasprintf("0x%02lx", strtoul(manfid, NULL, 0));
	}
	if (oemid[0]) {
		health_cid_oem((unsigned)strtoul(oemid, NULL, 0), buf, sizeof(buf));
		h->oem = xstrdup(buf);
	}
	h->product = dup_or_null(name);
	if (!health_cid_date(date, buf, sizeof(buf)))
		h->date = xstrdup(buf);
	if (serial[0]) {
		h->serial_hash = xmalloc(7);
		health_serial_hash(manfid, oemid, name, date, serial, h->serial_hash);
	}
	if (!manfid[0])
		MISSING(h, "maker, oem, product, date, serial_hash", "no CID in sysfs");
}

/* One life-time code ("0x01"); 0 (not defined) and reserved values read as null. */
static int64_t life_code(const char *s)
{
	long v = strtol(s, NULL, 16); /* "0x0a" or "0A": always hex */

	return health_life_time_pct((int)v) < 0 ? RESULT_NULL_INT : v;
}

/*
 * The kernel prints life_time as "0x01 0x02" (types A and B) since 4.11; some vendor
 * kernels split it into life_time_est_typ_a/_b. The card fills them from eMMC 5.0
 * (EXT_CSD_REV 7).
 */
static void emmc_health(struct result_health *h, const char *card)
{
	char buf[64], b2[64], *sp;
	const char *ver;
	int64_t pa, pb;

	h->source = xstrdup("emmc");
	h->ext_csd_rev = attr_num(card, "rev");
	ver = h->ext_csd_rev == RESULT_NULL_INT ? NULL : health_emmc_version((int)h->ext_csd_rev);
	h->emmc_version = dup_or_null(ver);
	if (*attr(card, "life_time", buf, sizeof(buf))) {
		sp = strchr(buf, ' ');
		h->life_time_a = life_code(buf);
		h->life_time_b = sp ? life_code(sp + 1) : RESULT_NULL_INT;
	} else if (*attr(card, "life_time_est_typ_a", buf, sizeof(buf))) {
		h->life_time_a = life_code(buf);
		h->life_time_b = life_code(attr(card, "life_time_est_typ_b", b2, sizeof(b2)));
	}
	if (*attr(card, "pre_eol_info", buf, sizeof(buf)))
		h->pre_eol_info = health_pre_eol_name((int)strtol(buf, NULL, 16)) ?
					  strtol(buf, NULL, 16) : RESULT_NULL_INT;
	pa = h->life_time_a == RESULT_NULL_INT ? -1 : health_life_time_pct((int)h->life_time_a);
	pb = h->life_time_b == RESULT_NULL_INT ? -1 : health_life_time_pct((int)h->life_time_b);
	h->used_pct = pa < 0 && pb < 0 ? RESULT_NULL_INT : pa > pb ? pa : pb;
	if (h->ext_csd_rev == RESULT_NULL_INT)
		MISSING(h, "ext_csd_rev", "no rev attribute in sysfs");
	if (h->used_pct == RESULT_NULL_INT)
		MISSING(h, "used_pct, life_time_a, life_time_b",
			h->ext_csd_rev != RESULT_NULL_INT && h->ext_csd_rev < 7
				? "the card is older than eMMC 5.0, which added the estimate"
				: "not in sysfs, or not defined by the card (0x00)");
	if (h->pre_eol_info == RESULT_NULL_INT)
		MISSING(h, "pre_eol_info", "not in sysfs, or not defined by the card");
	cid_fields(h, card, "MMC");
	MISSING(h, "speed_class, uhs_grade, video_class, app_class", "SD cards only");
}

static void sd_health(struct result_health *h, const char *card)
{
	char ssr[160];
	struct sd_classes c;

	h->source = xstrdup("sd");
	if (!*attr(card, "ssr", ssr, sizeof(ssr)))
		MISSING(h, "speed_class, uhs_grade, video_class, app_class",
			"no ssr attribute in sysfs (older kernel)");
	else if (health_sd_ssr_decode(ssr, &c))
		MISSING(h, "speed_class, uhs_grade, video_class, app_class",
			"ssr is not 128 hex digits");
	else {
		h->speed_class = dup_or_null(c.speed_class);
		h->uhs_grade = dup_or_null(c.uhs_grade);
		h->video_class = dup_or_null(c.video_class);
		h->app_class = dup_or_null(c.app_class);
	}
	cid_fields(h, card, "SD");
	MISSING(h, "used_pct", "SD cards report no wear through a standard register");
}

/* The controller's character device: ROOT/dev/nvme0 for /sys/class/nvme/nvme0. */
static int nvme_open(const struct device_dirs *dd)
{
	char path[PATH_MAX];
	const char *name = strrchr(dd->ctrl, '/');
	int fd;

	if (!dd->ctrl[0] || !name)
		return -ENODEV;
	if (sysfs_path(dd->root, "/dev", path, sizeof(path)) ||
	    strlen(path) + strlen(name) >= sizeof(path))
		return -ENAMETOOLONG;
	strcat(path, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int nvme_admin(int fd, uint8_t opcode, uint32_t cdw10, void *buf, uint32_t len,
		      uint32_t *result)
{
	struct nvme_passthru_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = opcode;
	cmd.nsid = opcode == NVME_ADMIN_GET_LOG_PAGE ? NVME_NSID_ALL : 0;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = cdw10;
	if (ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd) < 0)
		return -errno;
	if (result)
		*result = cmd.result;
	return 0;
}

/* The SMART log of the NVMe controller dd sits on: 0 or -errno (quiet: callers say why). */
static int nvme_smart_read(const struct device_dirs *dd, struct nvme_smart *out)
{
	uint8_t log[NVME_SMART_LOG_BYTES];
	/* NUMDL: dwords to return, minus one */
	uint32_t cdw10 = (NVME_SMART_LOG_BYTES / 4 - 1) << 16 | NVME_LOG_SMART;
	int fd = nvme_open(dd), rc;

	if (fd < 0)
		return fd;
	rc = nvme_admin(fd, NVME_ADMIN_GET_LOG_PAGE, cdw10, log, sizeof(log), NULL);
	close(fd);
	if (!rc)
		health_nvme_smart_decode(log, out);
	return rc;
}

/* The drive's temperature from the nvme driver's hwmon chip (m°C), readable without root. */
static int64_t nvme_hwmon_temp_c(const char *ctrl)
{
	char **names, dir[PATH_MAX + 300];
	int n = ctrl[0] ? sysfs_list("", ctrl, "hwmon", &names) : 0;
	int64_t t = RESULT_NULL_INT;

	if (n > 0) {
		snprintf(dir, sizeof(dir), "%s/%s", ctrl, names[0]);
		t = attr_num(dir, "temp1_input");
		if (t != RESULT_NULL_INT)
			t /= 1000;
	}
	if (n > 0)
		sysfs_list_free(names, n);
	return t;
}

static void nvme_health(struct result_health *h, const struct device_dirs *dd)
{
	struct nvme_smart s;
	char why[160];
	int rc;

	h->source = xstrdup("nvme");
	rc = nvme_smart_read(dd, &s);
	if (!rc) {
		h->critical_warning = s.critical_warning;
		h->used_pct = s.percentage_used;
		h->media_errors = (int64_t)s.media_errors;
		h->data_units_written = (int64_t)s.data_units_written;
		if (s.temperature_c != NVME_TEMP_NONE) {
			h->temperature_c = s.temperature_c;
			return;
		}
		h->temperature_c = nvme_hwmon_temp_c(dd->ctrl);
		if (h->temperature_c == RESULT_NULL_INT)
			MISSING(h, "temperature_c", "SMART says 0 K (no sensor) and no nvme hwmon chip");
		return;
	}
	snprintf(why, sizeof(why), "SMART log of /dev%s unreadable: %s%s", strrchr(dd->ctrl, '/') ?
		 strrchr(dd->ctrl, '/') : "/nvme?", strerror(-rc),
		 rc == -EACCES || rc == -EPERM ? " (admin commands need root)" : "");
	MISSING(h, "used_pct, critical_warning, media_errors, data_units_written", why);
	h->temperature_c = nvme_hwmon_temp_c(dd->ctrl);
	if (h->temperature_c == RESULT_NULL_INT)
		MISSING(h, "temperature_c", "neither SMART nor an nvme hwmon chip");
}

static void usb_health(struct result_health *h, const struct device_dirs *dd)
{
	char drv[64], speed[32];

	h->source = xstrdup("usb");
	if (!device_usb_protocol(dd, drv, sizeof(drv)))
		h->usb_protocol = xstrdup(!strcmp(drv, "uas") ? "uas" :
					  !strcmp(drv, "usb-storage") ? "bot" : drv);
	else
		MISSING(h, "usb_protocol", "the interface has no driver link");
	if (*attr(dd->usb, "speed", speed, sizeof(speed)))
		h->usb_speed = xasprintf("%sM", speed);
	MISSING(h, "used_pct", "a USB bridge passes no wear figure on");
}

struct result_health *context_health(const struct device_dirs *dd)
{
	struct result_health *h = health_new();
	const char *tr = dd->transport ? dd->transport : "unknown";
	char type[16];

	if (!strcmp(tr, "mmc") && dd->dev[0]) {
		attr(dd->dev, "type", type, sizeof(type));
		if (!strcmp(type, "MMC"))
			emmc_health(h, dd->dev);
		else
			sd_health(h, dd->dev);
	} else if (!strcmp(tr, "nvme")) {
		nvme_health(h, dd);
	} else if (dd->usb[0]) {
		usb_health(h, dd);
	} else {
		MISSING(h, "health", !strcmp(tr, "loop") ? "a loop device's wear is its backing file's disk's"
							 : "this transport reports none iowatt reads");
	}
	return h;
}

struct result_health *context_health_of(const char *root, const char *disk)
{
	struct device_dirs dd;

	return device_dirs_find(root, disk, &dd) ? NULL : context_health(&dd);
}

/* APST on or off, and the power state now: two Get Features; both wake nothing up. */
static void nvme_power(struct result_power_mgmt *p, const struct device_dirs *dd)
{
	uint8_t table[NVME_APST_TABLE_BYTES];
	uint32_t res = 0;
	char why[128];
	long long v;
	int fd = nvme_open(dd), rc = fd < 0 ? fd : 0;

	if (!sysfs_read_ll(dd->root, "/sys/module/nvme_core/parameters/default_ps_max_latency_us", &v))
		p->apst_max_latency_us = v;
	else
		missing(&p->missing, &p->nmissing, "%s: %s", "apst_max_latency_us",
			"no nvme_core module parameter in sysfs");
	if (!rc)
		rc = nvme_admin(fd, NVME_ADMIN_GET_FEATURES, NVME_FEAT_APST, table, sizeof(table), &res);
	if (!rc)
		p->apst_enabled = res & 1;
	if (!rc)
		rc = nvme_admin(fd, NVME_ADMIN_GET_FEATURES, NVME_FEAT_POWER_MGMT, NULL, 0, &res);
	if (!rc)
		p->power_state = res & 0x1f;
	if (fd >= 0)
		close(fd);
	if (rc) {
		snprintf(why, sizeof(why), "Get Features failed: %s", strerror(-rc));
		missing(&p->missing, &p->nmissing, "%s: %s", "apst_enabled, power_state", why);
	}
}

/*
 * The device whose runtime PM decides the idle draw: the USB device (autosuspend), the
 * NVMe drive's PCI function, else the block device's own `device`.
 */
struct result_power_mgmt *context_power_mgmt(const struct device_dirs *dd)
{
	struct result_power_mgmt *p = xcalloc(1, sizeof(*p));
	const char *dev = dd->usb[0] ? dd->usb : dd->pci[0] ? dd->pci : dd->dev;
	char dir[PATH_MAX + 8], buf[64];

	p->apst_enabled = RESULT_NULL_BOOL;
	p->apst_max_latency_us = p->power_state = RESULT_NULL_INT;
	p->missing = xcalloc(1, sizeof(*p->missing));
	snprintf(dir, sizeof(dir), "%s/power", dev);
	p->control = dup_or_null(dev[0] ? attr(dir, "control", buf, sizeof(buf)) : "");
	p->runtime_status = dup_or_null(dev[0] ? attr(dir, "runtime_status", buf, sizeof(buf)) : "");
	p->autosuspend_delay_ms = dev[0] ? attr_num(dir, "autosuspend_delay_ms") : RESULT_NULL_INT;
	if (!p->control)
		missing(&p->missing, &p->nmissing, "%s: %s", "control, runtime_status",
			"no power/ directory on the device");
	if (p->autosuspend_delay_ms == RESULT_NULL_INT)
		missing(&p->missing, &p->nmissing, "%s: %s", "autosuspend_delay_ms",
			dd->usb[0] ? "not in sysfs" : "USB devices only");
	if (dd->transport && !strcmp(dd->transport, "nvme"))
		nvme_power(p, dd);
	else
		missing(&p->missing, &p->nmissing, "%s: %s", "apst_enabled, apst_max_latency_us, power_state",
			"NVMe only");
	return p;
}
