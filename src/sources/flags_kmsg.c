/* SPDX-License-Identifier: MIT */
/* Kernel log watcher: undervoltage, USB over-current and the target's USB disconnects. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/events.h"
#include "core/log.h"
#include "core/util.h"
#include "sources/flags_int.h"

#define MOD "flags"

const char *flags_kmsg_text(const char *line)
{
	const char *p = line, *semi = strchr(line, ';');

	/* /dev/kmsg: "pri,seq,ts_us,flags[,more];message" */
	if (semi && isdigit((unsigned char)*line)) {
		while (p < semi && (isalnum((unsigned char)*p) || *p == ',' || *p == '-' ||
				    *p == '+' || *p == '='))
			p++;
		if (p == semi)
			return semi + 1;
	}
	/* dmesg: "[   12.345678] message" */
	if (*line == '[') {
		p = strchr(line, ']');
		if (p) {
			p++;
			while (*p == ' ')
				p++;
			return p;
		}
	}
	return line;
}

/* "usb 2-1.3: USB disconnect, device number 5": the device name, or NULL. */
static int disconnect_dev(const char *msg, char *dev, size_t len)
{
	const char *colon;
	size_t n;

	if (strncmp(msg, "usb ", 4))
		return 0;
	colon = strchr(msg + 4, ':');
	if (!colon || strncmp(colon, ": USB disconnect", 16))
		return 0;
	n = (size_t)(colon - (msg + 4));
	if (n == 0 || n >= len)
		return 0;
	memcpy(dev, msg + 4, n);
	dev[n] = '\0';
	return 1;
}

int flags_kmsg_classify(const char *msg, const char (*ports)[FLAGS_PORT_LEN], unsigned nports)
{
	char dev[FLAGS_PORT_LEN];
	unsigned i;

	/* Upstream says "Undervoltage", the Raspberry Pi kernel "Under-voltage". */
	if (strstr(msg, "Undervoltage detected!") || strstr(msg, "Under-voltage detected!"))
		return EV_UNDERVOLTAGE;
	if (strstr(msg, "Voltage normalised"))
		return EV_UNDERVOLTAGE_END;
	if (strstr(msg, "over-current"))
		return EV_USB_OVERCURRENT;
	if (disconnect_dev(msg, dev, sizeof(dev)))
		for (i = 0; i < nports; i++)
			if (!strcmp(dev, ports[i]))
				return EV_USB_DISCONNECT;
	return -1;
}

/* "2-1.3": bus-port[.port...], the kernel's name for a USB device (not an interface). */
static int is_usb_dev_name(const char *s)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '-' || !isdigit((unsigned char)*p))
		return 0;
	while (*p) {
		if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
			return 0;
		p++;
	}
	return 1;
}

/*
 * The block device's sysfs path runs through every USB device above it
 * (.../usb2/2-1/2-1.3/2-1.3:1.0/host0/.../block/sda): a disconnect of the device or of
 * any hub on that path takes the target away.
 */
int flags_usb_ports(const char *root, const char *blockdev, char (*ports)[FLAGS_PORT_LEN],
		    unsigned max)
{
	char path[PATH_MAX], *real, *real_root = NULL, *tok, *save = NULL;
	char found[FLAGS_MAX_PORTS * 2][FLAGS_PORT_LEN];
	unsigned n = 0, k = 0;
	size_t skip = 0;

	if (!blockdev || !*blockdev)
		return 0;
	flags_path(path, sizeof(path), "%s/sys/class/block/%s", root,
		 strncmp(blockdev, "/dev/", 5) ? blockdev : blockdev + 5);
	real = realpath(path, NULL);
	if (!real)
		return 0;
	/* Only the part below the root counts: a test tree's own path is not sysfs. */
	if (*root)
		real_root = realpath(root, NULL);
	if (real_root && !strncmp(real, real_root, strlen(real_root)))
		skip = strlen(real_root);
	free(real_root);
	for (tok = strtok_r(real + skip, "/", &save); tok; tok = strtok_r(NULL, "/", &save))
		if (is_usb_dev_name(tok) && strlen(tok) < FLAGS_PORT_LEN && n < ARRAY_SIZE(found))
			snprintf(found[n++], FLAGS_PORT_LEN, "%s", tok);
	free(real);
	while (n > 0 && k < max) {
		n--;
		memcpy(ports[k++], found[n], FLAGS_PORT_LEN);
	}
	return (int)k;
}

int flags_kmsg_open(struct flag_sources *fs, const char *path, const char *blockdev)
{
	struct stat st;
	int fd, flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;

	fs->kmsg_fd = -1;
	if (!path || !*path || !strcmp(path, "none"))
		return 0;
	snprintf(fs->kmsg_path, sizeof(fs->kmsg_path), "%s", path);
	/* A FIFO opened for reading and writing never reports a hang-up when a test's
	 * writer closes, so poll() does not spin between its lines. */
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		flags = O_RDWR | O_NONBLOCK | O_CLOEXEC;
	fd = open(path, flags);
	if (fd < 0) {
		if (errno == EPERM || errno == EACCES)
			log_warn(MOD, "%s: %s; kernel-log flags off (needs root or CAP_SYSLOG)",
				 path, strerror(errno));
		else
			log_warn(MOD, "%s: %s; kernel-log flags off", path, strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		fs->kmsg_pollable = 1;
	/* Live: only what the kernel logs from now on (on /dev/kmsg SEEK_END skips the
	 * ring buffer; on a regular file it skips what was already there). */
	if (!fs->replay && !S_ISFIFO(st.st_mode))
		lseek(fd, 0, SEEK_END);
	fs->kmsg_fd = fd;
	fs->nports = (unsigned)flags_usb_ports(fs->root, blockdev, fs->ports, FLAGS_MAX_PORTS);
	if (blockdev && *blockdev)
		log_debug(MOD, "%s: %u USB devices on its path%s%s", blockdev, fs->nports,
			  fs->nports ? ", nearest " : "", fs->nports ? fs->ports[0] : "");
	return 0;
}

static void kmsg_line(struct flag_sources *fs, const char *line, uint64_t t)
{
	const char *msg;
	int kind;

	if (*line == ' ' || !*line) /* /dev/kmsg dictionary continuation */
		return;
	msg = flags_kmsg_text(line);
	kind = flags_kmsg_classify(msg, (const char (*)[FLAGS_PORT_LEN])fs->ports, fs->nports);
	if (kind >= 0)
		event_pushf(fs->events, kind, t, "kmsg", "%s", msg);
}

/*
 * Each read of /dev/kmsg returns one record; a FIFO or file returns any number of bytes,
 * so lines are split here and a partial one waits for the rest. Events are stamped
 * with the arrival time on the monotonic clock: the record's own timestamp is close to
 * CLOCK_MONOTONIC but not the same clock on every kernel.
 */
void flags_kmsg_drain(struct flag_sources *fs)
{
	char *nl, *start;
	ssize_t n;
	uint64_t t;

	if (fs->kmsg_fd < 0)
		return;
	for (;;) {
		if (fs->klen == sizeof(fs->kbuf) - 1)
			fs->klen = 0; /* a line longer than the buffer: drop it */
		n = read(fs->kmsg_fd, fs->kbuf + fs->klen, sizeof(fs->kbuf) - 1 - fs->klen);
		if (n < 0 && errno == EPIPE)
			continue; /* records overwritten before we read them */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			log_warn(MOD, "%s: %s; kernel-log flags off", fs->kmsg_path,
				 strerror(errno));
			flags_kmsg_close(fs);
			return;
		}
		if (n <= 0)
			break;
		t = now_ns();
		fs->klen += (size_t)n;
		fs->kbuf[fs->klen] = '\0';
		start = fs->kbuf;
		for (nl = strchr(start, '\n'); nl; nl = strchr(start, '\n')) {
			*nl = '\0';
			kmsg_line(fs, start, t);
			start = nl + 1;
		}
		fs->klen -= (size_t)(start - fs->kbuf);
		memmove(fs->kbuf, start, fs->klen);
	}
}

void flags_kmsg_close(struct flag_sources *fs)
{
	if (fs->kmsg_fd >= 0)
		close(fs->kmsg_fd);
	fs->kmsg_fd = -1;
}
