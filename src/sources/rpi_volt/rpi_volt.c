/* SPDX-License-Identifier: MIT */
/* Raspberry Pi undervoltage alarm: the rpi_volt hwmon's in0_lcrit_alarm. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "sources/rpi_volt/rpi_volt.h"
#include "sources/source-internal.h"

#define MOD "rpi_volt"
#define RPI_VOLT_HWMON "rpi_volt"
#define RPI_VOLT_ALARM "in0_lcrit_alarm"

struct rpi_volt {
	char path[PATH_MAX];
	int last;
};

static int alarm_read(struct source *src, int *val)
{
	char buf[SOURCE_ATTR_LEN];
	int rc = sysfs_fd_read_str(src->fd, buf, sizeof(buf));

	if (rc)
		return rc;
	*val = atoi(buf) != 0;
	return 0;
}

static int rpi_volt_find(const char *root, char *path, size_t len)
{
	char dir[PATH_MAX];
	int n;

	if (sysfs_hwmon_lookup(root, RPI_VOLT_HWMON, 0, dir, sizeof(dir)))
		return -ENOENT;
	n = snprintf(path, len, "%s/%s", dir, RPI_VOLT_ALARM);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

static int rpi_volt_open(struct source *src)
{
	struct rpi_volt *rv = xcalloc(1, sizeof(*rv));

	if (rpi_volt_find(src->cfg->sysfs_root, rv->path, sizeof(rv->path)))
		return source_open_off(src, rv);
	src->fd = open(rv->path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0) {
		log_warn(MOD, "%s: %s; undervoltage alarm not watched", rv->path, strerror(errno));
		return source_open_off(src, rv);
	}
	if (alarm_read(src, &rv->last)) {
		log_warn(MOD, "%s: unreadable; undervoltage alarm not watched", rv->path);
		return source_open_off(src, rv);
	}
	/* sysfs_notify() shows as POLLPRI | POLLERR on an attribute already read. */
	src->poll_events = sysfs_fd_pollable(src->fd) ? POLLPRI : 0;
	src->period_ns = SOURCE_TICK_NS;
	src->priv = rv;
	return 0;
}

/* The driver clears the sticky bit at each 2 s poll of the firmware: a set alarm now means
 * an undervoltage within the last seconds, still relevant to the run. */
static int rpi_volt_start(struct source *src)
{
	struct rpi_volt *rv = src->priv;

	if (rv->last)
		event_pushf(src->events, EV_UNDERVOLTAGE, 0, src->drv->name,
			    RPI_VOLT_ALARM " already set at start");
	return 0;
}

/*
 * Event times are detection times. The hwmon driver polls the firmware every 2 s, so an
 * alarm (and the kernel's own "Undervoltage detected!" line) can trail the brown-out by
 * up to that much.
 */
static int rpi_volt_read(struct source *src, uint64_t now)
{
	struct rpi_volt *rv = src->priv;
	int v;

	(void)now;
	if (alarm_read(src, &v)) {
		/* Gone (driver unbound): an unread sysfs fd would keep waking poll(). */
		log_warn(MOD, "%s: unreadable; undervoltage alarm no longer watched", rv->path);
		return -EIO;
	}
	if (v != rv->last)
		event_pushf(src->events, v ? EV_UNDERVOLTAGE : EV_UNDERVOLTAGE_END, 0,
			    src->drv->name, RPI_VOLT_ALARM " %d -> %d", rv->last, v);
	rv->last = v;
	return 0;
}

static void rpi_volt_describe(const char *root, int covered, FILE *out)
{
	char path[PATH_MAX];

	(void)covered;
	if (rpi_volt_find(root, path, sizeof(path)) == 0)
		fprintf(out, "      %s: watched\n", path);
	else
		fprintf(out, "      not found (not a Raspberry Pi, or hwmon driver absent)\n");
}

static int rpi_volt_found(const char *root)
{
	char path[PATH_MAX];

	return rpi_volt_find(root, path, sizeof(path)) == 0;
}

const struct source_driver source_rpi_volt = {
	.name = "rpi_volt",
	.desc = "Raspberry Pi undervoltage alarm (hwmon " RPI_VOLT_ALARM ")",
	.open = rpi_volt_open,
	.start = rpi_volt_start,
	.read = rpi_volt_read,
	.close = source_std_close,
	.describe = rpi_volt_describe,
	.found = rpi_volt_found,
};
