/* SPDX-License-Identifier: MIT */
/* USBTMC instruments through the kernel's usbtmc char device: a query written, its reply read whole. */
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/tmc.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/transport/serial_port.h"

#define MOD "serial"
/*
 * The kernel's read() of a usbtmc device asks the instrument for its reply and blocks
 * until it comes or this long has passed, then aborts the transfer (the reply is lost, so
 * a read cannot be cut into short slices). An instrument answers a measurement in tens of
 * ms; a stop waits out at most this when it does not answer.
 */
#define USBTMC_READ_TIMEOUT_MS 1000u
#define SLICE_MS 100

struct tmc_port {
	struct serial_port base;
	int fd;
	/*
	 * A pty in the device's place (a test's stand-in, `iowatt emulate --link`): read when
	 * poll() says so, as a tty is; the kernel's usbtmc has no readable poll state for
	 * its synchronous reads.
	 */
	int is_tty;
	int pending; /* a query went out and its reply has not ended */
	char *path;
};

int serial_is_usbtmc(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strncmp(base ? base + 1 : path, "usbtmc", 6);
}

/* Sleeps up to timeout_ms in slices: nothing is asked, nothing can come. */
static int idle_wait(int timeout_ms)
{
	if (timeout_ms > 0)
		sleep_ns((uint64_t)(timeout_ms < SLICE_MS ? timeout_ms : SLICE_MS) * NS_PER_MS);
	return 0;
}

static int tmc_read(struct serial_port *base, void *buf, size_t len, int timeout_ms)
{
	struct tmc_port *tp = (struct tmc_port *)base;
	struct pollfd pfd = { .fd = tp->fd, .events = POLLIN };
	ssize_t n;
	int rc;

	if (!tp->pending || !len)
		return idle_wait(timeout_ms);
	if (tp->is_tty) {
		rc = poll(&pfd, 1, timeout_ms > 0 ? timeout_ms : 0);
		if (rc <= 0)
			return rc < 0 && errno != EINTR ? -EIO : 0;
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL) && !(pfd.revents & POLLIN))
			return -EIO;
	}
	n = read(tp->fd, buf, len);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		if (errno == ETIMEDOUT) {
			tp->pending = 0; /* aborted by the kernel: the caller asks again */
			return 0;
		}
		return -EIO; /* unplugged (ENODEV), a stalled pipe (EPIPE), a closed pty */
	}
	if (!n)
		return tp->is_tty ? -EIO : 0;
	/* A usbtmc read is one reply (or its first len bytes); a tty's may be a part. */
	if (memchr(buf, '\n', (size_t)n) || (!tp->is_tty && (size_t)n < len))
		tp->pending = 0;
	return (int)n;
}

static int tmc_write(struct serial_port *base, const void *buf, size_t len, int timeout_ms)
{
	struct tmc_port *tp = (struct tmc_port *)base;
	ssize_t n = write(tp->fd, buf, len);

	(void)timeout_ms; /* the kernel's timeout bounds a usbtmc write */
	if (n < 0)
		return errno == ETIMEDOUT ? -ETIMEDOUT : -EIO;
	if ((size_t)n != len)
		return -EIO;
	tp->pending = 1;
	return (int)len;
}

static int tmc_flush_input(struct serial_port *base)
{
	struct tmc_port *tp = (struct tmc_port *)base;

	if (tp->is_tty)
		tcflush(tp->fd, TCIFLUSH);
	tp->pending = 0;
	return 0;
}

static void tmc_close(struct serial_port *base)
{
	struct tmc_port *tp = (struct tmc_port *)base;

	if (tp->fd >= 0)
		close(tp->fd);
	free(tp->path);
	free(tp);
}

static const char *tmc_backend(const struct serial_port *base)
{
	return ((const struct tmc_port *)base)->is_tty ? "USBTMC stand-in (pty)" : "USBTMC";
}

static void tmc_describe(const struct serial_port *base, char *buf, size_t len)
{
	snprintf(buf, len, "usbtmc %s", ((const struct tmc_port *)base)->path);
}

static const struct serial_ops tmc_ops = {
	.read = tmc_read,
	.write = tmc_write,
	.flush_input = tmc_flush_input,
	.close = tmc_close,
	.backend = tmc_backend,
	.describe = tmc_describe,
};

int usbtmc_serial_open(const char *path, int log_level, struct serial_port **out)
{
	struct tmc_port *tp;
	struct termios tio;
	unsigned timeout_ms = USBTMC_READ_TIMEOUT_MS;
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
		log_msg(log_level, MOD, "%s: %s%s", path, strerror(err),
			err == EACCES ? " (add yourself to the group owning it, or a udev rule)" : "");
		return -err;
	}
	tp = xcalloc(1, sizeof(*tp));
	tp->base.ops = &tmc_ops;
	tp->fd = fd;
	tp->path = xstrdup(path);
	tp->is_tty = isatty(fd);
	if (tp->is_tty) {
		/* Bytes as they are, no echo: the stand-in is a line-less byte pipe. */
		if (!tcgetattr(fd, &tio)) {
			cfmakeraw(&tio);
			tcsetattr(fd, TCSANOW, &tio);
		}
	} else if (ioctl(fd, USBTMC_IOCTL_SET_TIMEOUT, &timeout_ms)) {
		log_debug(MOD, "%s: USBTMC_IOCTL_SET_TIMEOUT: %s (the kernel's default stays)",
			  path, strerror(errno));
	}
	*out = &tp->base;
	return 0;
}
