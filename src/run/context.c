/* SPDX-License-Identifier: MIT */
/* What the numbers depend on: host, board, kernel, CPU, the device and its health, filesystem and target. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/blockdev.h"
#include "core/files.h"
#include "core/mem.h"
#include "run/context.h"
#include "run/context_device.h"
#include "run/context_health.h"

/* ROOT/rel into buf; 0 or -errno. */
static int read_root(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	return read_text_file(blockdev_path(path, sizeof(path), root, rel), buf, len);
}

/* sysfs gives "" for what it does not know: that is null in the result. */
static char *str_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

/* Firmware placeholders say nothing about the machine. */
static int dmi_placeholder(const char *s)
{
	static const char *const junk[] = { "To Be Filled By O.E.M.", "System manufacturer",
					    "System Product Name", "Default string", "Not Specified" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(junk); i++)
		if (!strcmp(s, junk[i]))
			return 1;
	return !*s;
}

static char *board_name(const char *root)
{
	char model[256], vendor[128], product[128];

	/* Device-tree boards (every Raspberry Pi and most ARM SBCs) name themselves. */
	if (!read_root(root, "/proc/device-tree/model", model, sizeof(model)) && model[0])
		return xstrdup(model);
	if (!read_root(root, "/sys/firmware/devicetree/base/model", model, sizeof(model)) &&
	    model[0])
		return xstrdup(model);
	if (read_root(root, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) ||
	    dmi_placeholder(vendor))
		vendor[0] = '\0';
	if (read_root(root, "/sys/class/dmi/id/product_name", product, sizeof(product)) ||
	    dmi_placeholder(product))
		product[0] = '\0';
	if (!vendor[0] && !product[0])
		return NULL;
	snprintf(model, sizeof(model), "%s%s%s", vendor, vendor[0] && product[0] ? " " : "",
		 product);
	return xstrdup(model);
}

static char *os_name(const char *root)
{
	char path[PATH_MAX], *line = NULL, *v, *end;
	char *out = NULL;
	size_t cap = 0;
	FILE *fp;

	fp = fopen(blockdev_path(path, sizeof(path), root, "/etc/os-release"), "re");
	if (!fp)
		fp = fopen(blockdev_path(path, sizeof(path), root, "/usr/lib/os-release"), "re");
	if (!fp)
		return out;
	while (getline(&line, &cap, fp) > 0) {
		if (strncmp(line, "PRETTY_NAME=", 12))
			continue;
		v = line + 12;
		v[strcspn(v, "\n")] = '\0';
		if (*v == '"' || *v == '\'') {
			end = strrchr(v + 1, *v);
			if (end)
				*end = '\0';
			v++;
		}
		out = str_or_null(v);
		break;
	}
	free(line);
	fclose(fp);
	return out;
}

/* ARM cores by MIDR part number (implementer 0x41): /proc/cpuinfo names none of them. */
static const char *arm_core(unsigned part)
{
	static const struct {
		unsigned part;
		const char *name;
	} cores[] = {
		{ 0xc05, "Cortex-A5" },	  { 0xc07, "Cortex-A7" },   { 0xc08, "Cortex-A8" },
		{ 0xc09, "Cortex-A9" },	  { 0xc0f, "Cortex-A15" },  { 0xd03, "Cortex-A53" },
		{ 0xd04, "Cortex-A35" },  { 0xd05, "Cortex-A55" },  { 0xd07, "Cortex-A57" },
		{ 0xd08, "Cortex-A72" },  { 0xd09, "Cortex-A73" },  { 0xd0a, "Cortex-A75" },
		{ 0xd0b, "Cortex-A76" },  { 0xd0d, "Cortex-A77" },  { 0xd41, "Cortex-A78" },
		{ 0xd44, "Cortex-X1" },	  { 0xd46, "Cortex-A510" }, { 0xd47, "Cortex-A710" },
		{ 0xd48, "Cortex-X2" },	  { 0xd4d, "Cortex-A715" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cores); i++)
		if (cores[i].part == part)
			return cores[i].name;
	return NULL;
}

static void append_unique(char *list, size_t len, const char *name)
{
	char hay[300], probe[64];
	size_t used = strlen(list);

	snprintf(hay, sizeof(hay), " + %s + ", list);
	snprintf(probe, sizeof(probe), " + %s + ", name);
	if (!strstr(hay, probe))
		snprintf(list + used, len - used, "%s%s", used ? " + " : "", name);
}

/*
 * "model name" on x86 and 32-bit ARM; arm64 gives only implementer/part numbers, so
 * known ARM cores are named ("Cortex-A76", "Cortex-A55 + Cortex-A76" on big.LITTLE),
 * then "Hardware" or "Model" as the last resort. Counts "processor" lines too.
 */
static char *cpu_name(const char *root, long *nproc)
{
	char path[PATH_MAX], *line = NULL, *colon, *v, model[128] = "", cores[256] = "";
	char hw[128] = "";
	unsigned impl = 0, part;
	size_t cap = 0;
	FILE *fp;

	*nproc = 0;
	fp = fopen(blockdev_path(path, sizeof(path), root, "/proc/cpuinfo"), "re");
	if (!fp)
		return NULL;
	while (getline(&line, &cap, fp) > 0) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "processor", 9))
			(*nproc)++;
		else if (!strncmp(line, "model name", 10) && !model[0])
			snprintf(model, sizeof(model), "%s", v);
		else if (!strncmp(line, "CPU implementer", 15))
			impl = (unsigned)strtoul(v, NULL, 0);
		else if (!strncmp(line, "CPU part", 8) && impl == 0x41) {
			part = (unsigned)strtoul(v, NULL, 0);
			if (arm_core(part))
				append_unique(cores, sizeof(cores), arm_core(part));
		} else if ((!strncmp(line, "Hardware", 8) || !strncmp(line, "Model", 5)) && !hw[0])
			snprintf(hw, sizeof(hw), "%s", v);
	}
	free(line);
	fclose(fp);
	return str_or_null(model[0] ? model : cores[0] ? cores : hw);
}

/* "0-3,6" -> 5 */
static long count_cpu_list(const char *s)
{
	long n = 0, a, b;
	char *end;

	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s)
			return 0;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b - a + 1;
		s = *end == ',' ? end + 1 : end;
		if (*s && *s != ',' && (*s < '0' || *s > '9'))
			break;
	}
	return n;
}

static int64_t memory_bytes(const char *root)
{
	char path[PATH_MAX], *line = NULL;
	unsigned long long kb;
	int64_t out = RESULT_NULL_INT;
	size_t cap = 0;
	FILE *fp;

	fp = fopen(blockdev_path(path, sizeof(path), root, "/proc/meminfo"), "re");
	if (!fp)
		return out;
	while (getline(&line, &cap, fp) > 0) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			out = (int64_t)(kb * 1024);
			break;
		}
	}
	free(line);
	fclose(fp);
	return out;
}

static struct result_host *host_info(const char *root)
{
	struct result_host *h = xcalloc(1, sizeof(*h));
	struct utsname un;
	char buf[256];
	long nproc;
	int real = !*root;

	if (uname(&un))
		memset(&un, 0, sizeof(un));
	if (read_root(root, "/proc/sys/kernel/hostname", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "%s", real ? un.nodename : "");
	h->hostname = str_or_null(buf);
	h->board = board_name(root);
	if (read_root(root, "/proc/sys/kernel/osrelease", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "%s", real ? un.release : "");
	h->kernel = str_or_null(buf);
	h->os = os_name(root);
	h->cpu = cpu_name(root, &nproc);
	if (!read_root(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) &&
	    count_cpu_list(buf) > 0)
		nproc = count_cpu_list(buf);
	h->cpus = nproc > 0 ? nproc : RESULT_NULL_INT;
	h->memory_bytes = memory_bytes(root);
	return h;
}

static struct result_filesystem *filesystem_info(const struct target *tg)
{
	struct result_filesystem *fs;

	if (!tg || tg->is_blockdev || !tg->fstype[0])
		return NULL;
	fs = xcalloc(1, sizeof(*fs));
	fs->type = xstrdup(tg->fstype);
	fs->mount_point = str_or_null(tg->mount_point);
	fs->source = str_or_null(tg->mount_source);
	fs->mount_options = str_or_null(tg->mount_opts);
	return fs;
}

static struct result_target *target_info(const struct target *tg)
{
	struct result_target *t;

	if (!tg || !tg->path)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->path = xstrdup(tg->path);
	t->kind = xstrdup(tg->is_blockdev ? "blockdev" : "file");
	t->created = !!tg->created;
	return t;
}

struct result_context *context_collect(const struct target *tg, const char *sysfs_root)
{
	const char *root = sysfs_root ? sysfs_root : "";
	struct result_context *c = xcalloc(1, sizeof(*c));
	struct device_dirs dd;

	c->host = host_info(root);
	if (tg && tg->blockdev[0])
		c->device = context_device(root, tg->blockdev, tg->partition);
	if (c->device && !device_dirs_find(root, tg->blockdev, &dd)) {
		c->device->health = context_health(&dd);
		c->device->power_management = context_power_mgmt(&dd);
	}
	c->filesystem = filesystem_info(tg);
	c->target = target_info(tg);
	return c;
}
