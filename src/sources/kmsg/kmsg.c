/* SPDX-License-Identifier: MIT */
/* Kernel log source: /dev/kmsg from its end, or a recorded file / FIFO given with --kmsg. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "sources/kmsg/kmsg.h"
#include "sources/kmsg/kmsg_match.h"
#include "sources/source-internal.h"

#define MOD "kmsg"
#define KMSG_DEV "/dev/kmsg"
/* A /dev/kmsg record is at most 1 KiB of text plus its prefix; a file line may be longer
 * and is dropped whole when it does not fit. */
#define KMSG_BUF 8192
/* Reads per call: a source that never runs dry (a device like /dev/zero given as --kmsg)
 * must not hold the watcher, or the run's start, in one endless read loop. */
#define KMSG_READS_PER_CALL 64

struct kmsg {
	char path[PATH_MAX];
	char buf[KMSG_BUF];
	size_t len;
	char ports[KMSG_MAX_PORTS][KMSG_PORT_LEN];
	unsigned nports;
};

static int kmsg_off(const char *path)
{
	return !path || !*path || !strcmp(path, "none");
}

static int kmsg_open(struct source *src)
{
	const struct sources_config *cfg = src->cfg;
	int fd, flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
	const char *why = "";
	struct kmsg *k;
	struct stat st;

	if (kmsg_off(cfg->kmsg_path))
		return SOURCE_OFF;
	/* A FIFO opened for reading and writing never reports a hang-up when a test's
	 * writer closes, so poll() does not spin between its lines. */
	if (stat(cfg->kmsg_path, &st) == 0 && S_ISFIFO(st.st_mode))
		flags = O_RDWR | O_NONBLOCK | O_CLOEXEC;
	fd = open(cfg->kmsg_path, flags);
	if (fd < 0) {
		if (errno == EPERM || errno == EACCES)
			why = " (needs root or CAP_SYSLOG)";
		log_warn(MOD, "%s: %s; kernel-log flags off%s", cfg->kmsg_path, strerror(errno),
			 why);
		return SOURCE_OFF;
	}
	k = xcalloc(1, sizeof(*k));
	snprintf(k->path, sizeof(k->path), "%s", cfg->kmsg_path);
	if (fstat(fd, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		src->poll_events = POLLIN;
	else
		src->period_ns = SOURCE_TICK_NS;
	/* Live: only what the kernel logs from now on (on /dev/kmsg SEEK_END skips the
	 * ring buffer; on a regular file it skips what was already there). */
	if (!cfg->kmsg_replay && !S_ISFIFO(st.st_mode))
		lseek(fd, 0, SEEK_END);
	k->nports = (unsigned)kmsg_usb_ports(cfg->sysfs_root, cfg->target_blockdev, k->ports,
					     KMSG_MAX_PORTS);
	if (cfg->target_blockdev && *cfg->target_blockdev)
		log_debug(MOD, "%s: %u USB devices on its path%s%s", cfg->target_blockdev,
			  k->nports, k->nports ? ", nearest " : "", k->nports ? k->ports[0] : "");
	src->fd = fd;
	src->priv = k;
	return 0;
}

static void kmsg_line(struct source *src, const char *line, uint64_t t)
{
	struct kmsg *k = src->priv;
	const char *msg;
	int kind;

	if (*line == ' ' || !*line) /* /dev/kmsg dictionary continuation */
		return;
	msg = kmsg_text(line);
	kind = kmsg_classify(msg, (const char (*)[KMSG_PORT_LEN])k->ports, k->nports);
	if (kind >= 0)
		event_pushf(src->events, kind, t, src->drv->name, "%s", msg);
}

/* Splits what was read into lines; a partial one waits in the buffer for the rest. */
static void kmsg_lines(struct source *src, uint64_t t)
{
	struct kmsg *k = src->priv;
	char *nl, *start = k->buf;

	k->buf[k->len] = '\0';
	for (nl = strchr(start, '\n'); nl; nl = strchr(start, '\n')) {
		*nl = '\0';
		kmsg_line(src, start, t);
		start = nl + 1;
	}
	k->len -= (size_t)(start - k->buf);
	memmove(k->buf, start, k->len);
}

/*
 * Each read of /dev/kmsg returns one record; a FIFO or file returns any number of bytes.
 * Events are stamped with the arrival time on the monotonic clock: the record's own
 * timestamp is close to CLOCK_MONOTONIC but not the same clock on every kernel.
 */
static int kmsg_read(struct source *src, uint64_t now)
{
	struct kmsg *k = src->priv;
	unsigned reads;
	ssize_t n;
	int err;

	for (reads = 0; reads < KMSG_READS_PER_CALL; reads++) {
		if (k->len == sizeof(k->buf) - 1)
			k->len = 0; /* a line longer than the buffer: drop it */
		n = read(src->fd, k->buf + k->len, sizeof(k->buf) - 1 - k->len);
		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue; /* EPIPE: records overwritten before we read them */
		if (n < 0 && errno != EAGAIN) {
			err = errno;
			log_warn(MOD, "%s: %s; kernel-log flags off", k->path, strerror(err));
			return -err;
		}
		if (n <= 0)
			return 0;
		k->len += (size_t)n;
		kmsg_lines(src, now);
	}
	return 0;
}

static void kmsg_describe(const char *root, int covered, FILE *out)
{
	(void)root;
	(void)covered;
	if (access(KMSG_DEV, R_OK) == 0)
		fprintf(out, "      " KMSG_DEV ": readable, watched from its end\n");
	else
		fprintf(out, "      " KMSG_DEV " not readable (needs root or CAP_SYSLOG): "
			     "kernel-log flags off\n");
}

const struct source_driver source_kmsg = {
	.name = "kmsg",
	.desc = "kernel log: under-voltage, USB over-current, the target's USB disconnect",
	.open = kmsg_open,
	.read = kmsg_read,
	.close = source_std_close,
	.describe = kmsg_describe,
};
