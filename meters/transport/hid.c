/* SPDX-License-Identifier: MIT */
/* HID transport for testers: hidraw nodes found through sysfs, reports read and written. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "meters/transport/hid.h"
#include "meters/transport/serial.h"

#define MOD "hid"
#define HID_CLASS "/sys/class/hidraw"
#define HID_ID_KEY "HID_ID="
#define HID_NAME_KEY "HID_NAME="
#define UEVENT_MAX 1024
#define REPORT_MAX 256
#define WRITE_TIMEOUT_MS 200

struct hid_dev {
	int fd;
	int stream;
	size_t len;
	uint8_t buf[REPORT_MAX];
	size_t have; /* bytes of a report cut from a stream so far */
	char *path;
};

/* HID_ID=0003:00002E3C:00005558 (bus:vendor:product) and HID_NAME from a uevent. */
static int parse_uevent(const char *text, struct hid_node *n)
{
	const char *p = strstr(text, HID_ID_KEY), *q = strstr(text, HID_NAME_KEY);
	unsigned bus, vid, pid;
	size_t len;

	if (!p || sscanf(p + strlen(HID_ID_KEY), "%x:%x:%x", &bus, &vid, &pid) != 3)
		return -ENOENT;
	n->vid = (uint16_t)vid;
	n->pid = (uint16_t)pid;
	n->name[0] = '\0';
	if (q) {
		q += strlen(HID_NAME_KEY);
		len = strcspn(q, "\n");
		if (len >= sizeof(n->name))
			len = sizeof(n->name) - 1;
		memcpy(n->name, q, len);
		n->name[len] = '\0';
	}
	return 0;
}

static int node_info(const char *root, const char *name, struct hid_node *n)
{
	char path[128], text[UEVENT_MAX];

	snprintf(path, sizeof(path), HID_CLASS "/%s/device/uevent", name);
	if (sysfs_read_str(root, path, text, sizeof(text)))
		return -ENOENT;
	snprintf(n->dev, sizeof(n->dev), "/dev/%s", name);
	return parse_uevent(text, n);
}

int hid_list(const char *root, struct hid_node *out, int max)
{
	char **names;
	int n = sysfs_list(root, HID_CLASS, "hidraw", &names), i, found = 0;
	struct hid_node node;

	for (i = 0; i < n; i++) {
		if (node_info(root, names[i], &node))
			continue;
		if (found < max)
			out[found] = node;
		found++;
	}
	if (n > 0)
		sysfs_list_free(names, n);
	return found;
}

int hid_node_access(const char *root, const char *dev)
{
	char path[PATH_MAX];

	if (sysfs_path(root, dev, path, sizeof(path)))
		return -ENAMETOOLONG;
	return access(path, R_OK | W_OK) ? -errno : 0;
}

int hid_node_id(const char *root, const char *path, uint16_t *vid, uint16_t *pid)
{
	char real[PATH_MAX];
	const char *base;
	struct hid_node n;
	ssize_t len;

	/* One symlink level by hand (an emulator's --link): umockdev's realpath() is unsafe. */
	len = readlink(path, real, sizeof(real) - 1);
	if (len > 0)
		real[len] = '\0';
	else
		snprintf(real, sizeof(real), "%s", path);
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strncmp(base, "hidraw", 6) || node_info(root, base, &n))
		return -ENOENT;
	*vid = n.vid;
	*pid = n.pid;
	return 0;
}

int hid_open(const char *path, size_t report_len, int log_level, struct hid_dev **out)
{

	int fd, err;

	*out = NULL;
	if (report_len > REPORT_MAX)
		return -EINVAL;
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		log_msg(log_level, MOD, "cannot open %s: %s%s", path, strerror(err),
			err == EACCES ? " (install iowatt's udev rules, dist/udev/60-iowatt.rules, "
					"then re-plug the meter)" : "");
		return -err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		log_msg(log_level, MOD, "%s is in use by another iowatt", path);
		close(fd);
		return -EBUSY;
	}
	return hid_open_fd(fd, report_len, serial_path_is_pty(path), path, out);
}

int hid_open_fd(int fd, size_t report_len, int stream, const char *name, struct hid_dev **out)
{
	struct hid_dev *h;

	*out = NULL;
	if (report_len > REPORT_MAX)
		return -EINVAL;
	h = xcalloc(1, sizeof(*h));
	h->fd = fd;
	h->len = report_len;
	h->stream = stream;
	h->path = xstrdup(name);
	*out = h;
	return 0;
}

int hid_is_stream(const struct hid_dev *h)
{
	return h->stream;
}

int hid_write(struct hid_dev *h, const uint8_t *report)
{
	uint8_t buf[REPORT_MAX + 1];
	size_t off = 0, n = h->len + 1;
	struct pollfd pfd = { .fd = h->fd, .events = POLLOUT };
	ssize_t w;

	buf[0] = 0; /* no numbered reports */
	memcpy(buf + 1, report, h->len);
	while (off < n) {
		w = write(h->fd, buf + off, n - off);
		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return errno == EIO || errno == ENODEV ? -ENODEV : -errno;
		if (poll(&pfd, 1, WRITE_TIMEOUT_MS) <= 0)
			return -ETIMEDOUT;
	}
	return 0;
}

int hid_read(struct hid_dev *h, uint8_t *report, int timeout_ms)
{
	struct pollfd pfd = { .fd = h->fd, .events = POLLIN };
	uint64_t end = now_ns() + (uint64_t)timeout_ms * NS_PER_MS, now;
	ssize_t n;
	int rc;

	for (;;) {
		/* hidraw hands over one whole report per read (cut to the buffer if longer): a
		 * report of another length is another report's, not ours, and is skipped. */
		n = read(h->fd, h->buf + h->have,
			 h->stream ? h->len - h->have : sizeof(h->buf));
		if (n > 0 && !h->stream && (size_t)n != h->len)
			continue;
		if (n > 0) {
			/* A stream may cut a report anywhere. */
			h->have = h->stream ? h->have + (size_t)n : h->len;
			if (h->have >= h->len) {
				memcpy(report, h->buf, h->len);
				h->have = 0;
				return 1;
			}
			continue;
		}
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return -ENODEV; /* unplugged, or the pty's far end hung up */
		now = now_ns();
		if (now >= end)
			return 0;
		rc = poll(&pfd, 1, (int)((end - now + NS_PER_MS - 1) / NS_PER_MS));
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (rc > 0 && (pfd.revents & (POLLHUP | POLLERR)) && !(pfd.revents & POLLIN))
			return -ENODEV;
	}
}

void hid_drain(struct hid_dev *h)
{
	uint8_t r[REPORT_MAX];

	while (hid_read(h, r, 0) == 1)
		;
	h->have = 0;
}

void hid_close(struct hid_dev *h)
{
	if (!h)
		return;
	close(h->fd);
	free(h->path);
	free(h);
}
