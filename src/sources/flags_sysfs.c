/* SPDX-License-Identifier: MIT */
/* Raspberry Pi undervoltage/throttling flags from sysfs: rpi_volt alarm, get_throttled. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/events.h"
#include "core/log.h"
#include "core/util.h"
#include "sources/flags_int.h"

#define MOD "flags"

/* get_throttled bits (firmware tag 0x00030046): low half live, high half sticky. */
#define THR_UV 0x1u
#define THR_LIVE_MASK 0xfu
#define THR_STICKY_SHIFT 16

static const char *const thr_names[4] = {
	"under-voltage", "ARM frequency capped", "throttled", "soft temperature limit",
};

int flags_path(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int flags_fd_is_sysfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == SYSFS_MAGIC;
}

/* sysfs attributes are re-read through the same fd: poll() on it needs that. */
static int pread_text(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

int flags_dir_index(const char *ent, const char *prefix)
{
	size_t pl = strlen(prefix);
	char *end;
	long n;

	if (strncmp(ent, prefix, pl) || !isdigit((unsigned char)ent[pl]))
		return -1;
	n = strtol(ent + pl, &end, 10);
	return (*end || n > 1000000) ? -1 : (int)n;
}

int flags_find_hwmon(const char *root, const char *name, char *dir, size_t len)
{
	char path[PATH_MAX], got[64];
	struct dirent *de;
	DIR *d;
	int best = -1, n;

	flags_path(path, sizeof(path), "%s/sys/class/hwmon", root);
	d = opendir(path);
	if (!d)
		return -ENOENT;
	/* readdir order is arbitrary: take the lowest-numbered match, as a user would. */
	for (de = readdir(d); de; de = readdir(d)) {
		n = flags_dir_index(de->d_name, "hwmon");
		if (n < 0 || (best >= 0 && n >= best))
			continue;
		flags_path(path, sizeof(path), "%s/sys/class/hwmon/%s/name", root, de->d_name);
		if (read_text_file(path, got, sizeof(got)) == 0 && !strcmp(got, name))
			best = n;
	}
	closedir(d);
	if (best < 0)
		return -ENOENT;
	flags_path(dir, len, "%s/sys/class/hwmon/hwmon%d", root, best);
	return 0;
}

/* The downstream attribute; its first read WARNs in dmesg, so it is only a fallback. */
static int find_get_throttled(const char *root, char *out, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	int rc = -ENOENT;

	flags_path(out, len, "%s/sys/devices/platform/soc/soc:firmware/get_throttled", root);
	if (access(out, R_OK) == 0)
		return 0;
	flags_path(pat, sizeof(pat), "%s/sys/bus/platform/drivers/raspberrypi-firmware/*/get_throttled",
		 root);
	if (glob(pat, 0, NULL, &g) == 0) {
		if (g.gl_pathc > 0) {
			snprintf(out, len, "%s", g.gl_pathv[0]);
			rc = 0;
		}
		globfree(&g);
	}
	return rc;
}

static int read_alarm(struct flag_sources *fs, int *val)
{
	char buf[32];
	int rc = pread_text(fs->alarm_fd, buf, sizeof(buf));

	if (rc)
		return rc;
	*val = atoi(buf) != 0;
	return 0;
}

static int read_throttled(struct flag_sources *fs, uint32_t *val)
{
	char buf[32], *end;
	unsigned long v;
	int rc = pread_text(fs->thr_fd, buf, sizeof(buf));

	if (rc)
		return rc;
	v = strtoul(buf, &end, 16);
	if (end == buf)
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}

void flags_sysfs_open(struct flag_sources *fs)
{
	char dir[PATH_MAX];
	int v;

	fs->alarm_fd = -1;
	fs->thr_fd = -1;
	if (flags_find_hwmon(fs->root, "rpi_volt", dir, sizeof(dir)) == 0) {
		flags_path(fs->alarm_path, sizeof(fs->alarm_path), "%s/in0_lcrit_alarm", dir);
		fs->alarm_fd = open(fs->alarm_path, O_RDONLY | O_CLOEXEC);
		if (fs->alarm_fd < 0) {
			log_warn(MOD, "%s: %s; undervoltage alarm not watched", fs->alarm_path,
				 strerror(errno));
		} else if (read_alarm(fs, &v) == 0) {
			fs->alarm_pollable = flags_fd_is_sysfs(fs->alarm_fd);
			fs->alarm_last = v;
			/* The driver clears the sticky bit at each 2 s poll: a set alarm now
			 * means an undervoltage within the last seconds, still relevant. */
			if (v)
				event_pushf(fs->events, EV_UNDERVOLTAGE, 0, "rpi_volt",
					     "in0_lcrit_alarm already set at start");
		}
		return;
	}
	if (find_get_throttled(fs->root, fs->thr_path, sizeof(fs->thr_path)))
		return;
	fs->thr_fd = open(fs->thr_path, O_RDONLY | O_CLOEXEC);
	if (fs->thr_fd < 0 || read_throttled(fs, &fs->thr_last)) {
		log_warn(MOD, "%s: unreadable; throttling flags not watched", fs->thr_path);
		if (fs->thr_fd >= 0)
			close(fs->thr_fd);
		fs->thr_fd = -1;
		return;
	}
	/* Bits already set are history from before the run: only changes are events. */
	log_debug(MOD, "get_throttled baseline 0x%x", fs->thr_last);
	if (fs->thr_last & THR_UV)
		event_pushf(fs->events, EV_UNDERVOLTAGE, 0, "get_throttled",
			     "under-voltage already present at start (0x%x)", fs->thr_last);
}

static int thr_kind(unsigned bit, int on)
{
	if (bit == 0)
		return on ? EV_UNDERVOLTAGE : EV_UNDERVOLTAGE_END;
	return on ? EV_THROTTLED : EV_INFO;
}

static void __attribute__((format(printf, 4, 5)))
push_instant(struct flag_sources *fs, int kind, uint64_t t, const char *fmt, ...)
{
	struct run_event ev;
	va_list ap;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.t_ns = t;
	ev.t_end_ns = t;
	snprintf(ev.source, sizeof(ev.source), "get_throttled");
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof(ev.text), fmt, ap);
	va_end(ap);
	event_push(fs->events, &ev);
}

static void throttled_changes(struct flag_sources *fs, uint32_t old, uint32_t now)
{
	uint32_t live_on = now & ~old & THR_LIVE_MASK, live_off = old & ~now & THR_LIVE_MASK;
	uint32_t sticky_on = (now & ~old) >> THR_STICKY_SHIFT & THR_LIVE_MASK;
	uint64_t t = now_ns();
	unsigned b;

	for (b = 0; b < 4; b++) {
		if (live_on & (1u << b))
			event_pushf(fs->events, thr_kind(b, 1), t, "get_throttled", "%s now (0x%x -> 0x%x)",
				     thr_names[b], old, now);
		else if (live_off & (1u << b))
			event_pushf(fs->events, thr_kind(b, 0), t, "get_throttled", "%s ended (0x%x -> 0x%x)",
				     thr_names[b], old, now);
		else if ((sticky_on & (1u << b)) && !((old | now) & (1u << b)))
			/* Came and went between two reads: only the sticky bit saw it. It is
			 * over, so it is an instant, not a span waiting for an end event. */
			push_instant(fs, thr_kind(b, 1), t, "%s occurred since the last read "
				     "(0x%x -> 0x%x)", thr_names[b], old, now);
	}
}

/*
 * Event times are detection times. The hwmon driver polls the firmware every 2 s, so an
 * alarm (and the kernel's own "Undervoltage detected!" line) can trail the brown-out by
 * up to that much; get_throttled read once a second adds up to 1 s more.
 */
void flags_sysfs_check(struct flag_sources *fs, int slow)
{
	uint32_t thr;
	int v;

	if (fs->alarm_fd >= 0 && read_alarm(fs, &v)) {
		/* Gone (driver unbound): an unread sysfs fd would keep waking poll(). */
		log_warn(MOD, "%s: unreadable; undervoltage alarm no longer watched",
			 fs->alarm_path);
		close(fs->alarm_fd);
		fs->alarm_fd = -1;
	} else if (fs->alarm_fd >= 0 && v != fs->alarm_last) {
		event_pushf(fs->events, v ? EV_UNDERVOLTAGE : EV_UNDERVOLTAGE_END, 0, "rpi_volt",
			     "in0_lcrit_alarm %d -> %d", fs->alarm_last, v);
		fs->alarm_last = v;
	}
	if (slow && fs->thr_fd >= 0 && read_throttled(fs, &thr) == 0 && thr != fs->thr_last) {
		throttled_changes(fs, fs->thr_last, thr);
		fs->thr_last = thr;
	}
}

void flags_sysfs_close(struct flag_sources *fs)
{
	if (fs->alarm_fd >= 0)
		close(fs->alarm_fd);
	if (fs->thr_fd >= 0)
		close(fs->thr_fd);
	fs->alarm_fd = -1;
	fs->thr_fd = -1;
}

void flags_sysfs_list(const char *root, FILE *out)
{
	char dir[PATH_MAX], thr[PATH_MAX];
	int have_volt = flags_find_hwmon(root, "rpi_volt", dir, sizeof(dir)) == 0;
	int have_thr = find_get_throttled(root, thr, sizeof(thr)) == 0;

	if (have_volt)
		fprintf(out, "  rpi_volt      %s/in0_lcrit_alarm: undervoltage alarm, watched\n",
			dir);
	else
		fprintf(out, "  rpi_volt      not found (not a Raspberry Pi, or hwmon driver absent)\n");
	if (!have_thr)
		fprintf(out, "  get_throttled not found\n");
	else if (have_volt)
		fprintf(out, "  get_throttled %s: present, not read (deprecated: its first read "
			     "WARNs in dmesg; rpi_volt is used instead)\n", thr);
	else
		fprintf(out, "  get_throttled %s: read once a second for under-voltage, "
			     "capping, throttling and soft temperature limit (deprecated attribute: "
			     "one WARN in dmesg)\n", thr);
}
