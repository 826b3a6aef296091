/* SPDX-License-Identifier: MIT */
/* Raspberry Pi firmware's get_throttled attribute: the fallback where rpi_volt is absent
 * (its registry row says so: it is not opened where rpi_volt is). */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "sources/get_throttled/get_throttled.h"
#include "sources/source-internal.h"

#define MOD "get_throttled"
#define THR_FIXED_PATH "/sys/devices/platform/soc/soc:firmware/get_throttled"
#define THR_GLOB "/sys/bus/platform/drivers/raspberrypi-firmware/*/get_throttled"
/* Each read asks the firmware over the mailbox: once a second is enough. */
#define THR_PERIOD_NS NS_PER_SEC

/* get_throttled bits (firmware tag 0x00030046): low half live, high half sticky. */
#define THR_UV 0x1u
#define THR_LIVE_MASK 0xfu
#define THR_STICKY_SHIFT 16
#define THR_BITS 4

static const char *const thr_names[THR_BITS] = {
	"under-voltage", "ARM frequency capped", "throttled", "soft temperature limit",
};

struct throttled {
	char path[PATH_MAX];
	uint32_t last;
};

/* The downstream attribute; its first read WARNs in dmesg, so it is only a fallback. */
static int thr_find(const char *root, char *out, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	int rc = -ENOENT;

	if (sysfs_path(root, THR_FIXED_PATH, out, len) == 0 && access(out, R_OK) == 0)
		return 0;
	if (sysfs_path(root, THR_GLOB, pat, sizeof(pat)))
		return -ENOENT;
	if (glob(pat, 0, NULL, &g) == 0) {
		if (g.gl_pathc > 0 && snprintf(out, len, "%s", g.gl_pathv[0]) < (int)len)
			rc = 0;
		globfree(&g);
	}
	return rc;
}

static int thr_read(struct source *src, uint32_t *val)
{
	char buf[SOURCE_ATTR_LEN], *end;
	unsigned long v;
	int rc = sysfs_fd_read_str(src->fd, buf, sizeof(buf));

	if (rc)
		return rc;
	v = strtoul(buf, &end, 16);
	if (end == buf)
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}

static int thr_open(struct source *src)
{
	struct throttled *t = xcalloc(1, sizeof(*t));

	if (thr_find(src->cfg->sysfs_root, t->path, sizeof(t->path)))
		return source_open_off(src, t);
	src->fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0 || thr_read(src, &t->last)) {
		log_warn(MOD, "%s: unreadable; throttling flags not watched", t->path);
		return source_open_off(src, t);
	}
	log_debug(MOD, "baseline 0x%x", t->last);
	src->period_ns = THR_PERIOD_NS;
	src->priv = t;
	return 0;
}

/*
 * On current kernels the firmware driver's get_throttled is refreshed by the
 * raspberrypi-hwmon poll (rpi_volt): without that driver the value read may be old, and
 * the record says so, once, where its flags are used.
 */
#define THR_STALE_NOTE "rpi_volt (raspberrypi-hwmon) is absent: get_throttled is the fallback, " \
		       "and on current kernels only that driver's poll refreshes it, so its " \
		       "flags may be stale"

/* Bits already set are history from before the run: only changes are events. */
static int thr_start(struct source *src)
{
	struct throttled *t = src->priv;

	log_warn(MOD, "%s", THR_STALE_NOTE);
	event_pushf(src->events, EV_INFO, 0, src->drv->name, "%s", THR_STALE_NOTE);
	if (t->last & THR_UV)
		event_pushf(src->events, EV_UNDERVOLTAGE, 0, src->drv->name,
			    "under-voltage already present at start (0x%x)", t->last);
	return 0;
}

static int thr_kind(unsigned bit, int on)
{
	if (bit == 0)
		return on ? EV_UNDERVOLTAGE : EV_UNDERVOLTAGE_END;
	return on ? EV_THROTTLED : EV_INFO;
}

static void __attribute__((format(printf, 4, 5)))
push_instant(struct source *src, int kind, uint64_t t, const char *fmt, ...)
{
	struct run_event ev;
	va_list ap;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.t_ns = t;
	ev.t_end_ns = t;
	snprintf(ev.source, sizeof(ev.source), "%s", src->drv->name);
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof(ev.text), fmt, ap);
	va_end(ap);
	event_push(src->events, &ev);
}

static void thr_changes(struct source *src, uint32_t old, uint32_t now, uint64_t t)
{
	uint32_t live_on = now & ~old & THR_LIVE_MASK, live_off = old & ~now & THR_LIVE_MASK;
	uint32_t sticky_on = (now & ~old) >> THR_STICKY_SHIFT & THR_LIVE_MASK;
	unsigned b;

	for (b = 0; b < THR_BITS; b++) {
		if (live_on & (1u << b))
			event_pushf(src->events, thr_kind(b, 1), t, src->drv->name,
				    "%s now (0x%x -> 0x%x)", thr_names[b], old, now);
		else if (live_off & (1u << b))
			event_pushf(src->events, thr_kind(b, 0), t, src->drv->name,
				    "%s ended (0x%x -> 0x%x)", thr_names[b], old, now);
		else if ((sticky_on & (1u << b)) && !((old | now) & (1u << b)))
			/* Came and went between two reads: only the sticky bit saw it. It is
			 * over, so it is an instant, not a span waiting for an end event. */
			push_instant(src, thr_kind(b, 1), t, "%s occurred since the last read "
				     "(0x%x -> 0x%x)", thr_names[b], old, now);
	}
}

/* A read once a second adds up to 1 s to the firmware's own 2 s detection lag. */
static int thr_read_changes(struct source *src, uint64_t now)
{
	struct throttled *t = src->priv;
	uint32_t v;

	/* A failed read is skipped: the firmware mailbox can time out once. */
	if (thr_read(src, &v) == 0 && v != t->last) {
		thr_changes(src, t->last, v, now);
		t->last = v;
	}
	return 0;
}

/* covered: rpi_volt is here, and is read instead. */
static void thr_describe(const char *root, int covered, FILE *out)
{
	char path[PATH_MAX];

	if (thr_find(root, path, sizeof(path)))
		fprintf(out, "      not found\n");
	else if (covered)
		fprintf(out, "      %s: present, not read (its first read WARNs in dmesg; rpi_volt "
			     "is used instead)\n", path);
	else
		fprintf(out, "      %s: watched, also for capping, throttling and soft temperature "
			     "limit (deprecated attribute: one WARN in dmesg; without rpi_volt "
			     "its flags may be stale)\n", path);
}

const struct source_driver source_get_throttled = {
	.name = "get_throttled",
	.desc = "Raspberry Pi firmware flags, read once a second where rpi_volt is absent",
	.open = thr_open,
	.start = thr_start,
	.read = thr_read_changes,
	.close = source_std_close,
	.describe = thr_describe,
};
