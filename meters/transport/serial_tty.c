/* SPDX-License-Identifier: MIT */
/* Local serial ports: open through libserialport, fall back to raw termios for ptys. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#ifdef HAVE_SERIALPORT
#include <libserialport.h>
#endif

#include "core/log.h"
#include "core/mem.h"
#include "meters/transport/serial_port.h"

#define MOD "serial"
/* Unix98 pty slaves (UNIX98_PTY_SLAVE_MAJOR and the 7 majors after it). */
#define PTY_SLAVE_MAJOR_MIN 136
#define PTY_SLAVE_MAJOR_MAX 143

/* A local port: a tty opened through libserialport or termios. */
struct tty_port {
	struct serial_port base;
	int fd;
#ifdef HAVE_SERIALPORT
	struct sp_port *port; /* NULL on the termios path */
#endif
	char *path;
};

/*
 * From the device number, not realpath(): umockdev 0.17's preload corrupts memory in
 * realpath() of an emulated node that resolves outside its testbed.
 */
int serial_pty_number(const char *path)
{
	struct stat st;
	unsigned maj;

	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return -1;
	maj = major(st.st_rdev);
	if (maj < PTY_SLAVE_MAJOR_MIN || maj > PTY_SLAVE_MAJOR_MAX)
		return -1;
	return (int)((maj - PTY_SLAVE_MAJOR_MIN) * 256 + minor(st.st_rdev));
}

int serial_path_is_pty(const char *path)
{
	return serial_pty_number(path) >= 0;
}

static speed_t baud_to_speed(unsigned baud)
{
	switch (baud) {
	case 9600:
		return B9600;
	case 19200:
		return B19200;
	case 38400:
		return B38400;
	case 57600:
		return B57600;
	default:
		return B115200;
	}
}

static int termios_open(struct tty_port *sp, unsigned baud, int level)
{
	struct termios tio;
	int err;

	sp->fd = open(sp->path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (sp->fd < 0) {
		err = errno;
		log_msg(level, MOD, "cannot open %s: %s", sp->path, strerror(err));
		return -err;
	}
	if (tcgetattr(sp->fd, &tio)) {
		err = errno;
		log_msg(level, MOD, "%s: not a terminal: %s", sp->path, strerror(err));
		close(sp->fd);
		sp->fd = -1;
		return -err;
	}
	cfmakeraw(&tio);
	tio.c_cflag |= CLOCAL | CREAD;
	tio.c_cflag &= ~(tcflag_t)(CSTOPB | CRTSCTS);
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 0;
	cfsetispeed(&tio, baud_to_speed(baud));
	cfsetospeed(&tio, baud_to_speed(baud));
	if (tcsetattr(sp->fd, TCSANOW, &tio))
		log_debug(MOD, "%s: tcsetattr: %s", sp->path, strerror(errno));
	tcflush(sp->fd, TCIOFLUSH);
	return 0;
}

#ifdef HAVE_SERIALPORT
/* Returns 0; 1 when libserialport does not know the port (no /sys/class/tty entry);
 * 2 when it knows it but cannot open or set it up. */
static int sp_try_open(struct tty_port *sp, unsigned baud, char *why, size_t len)
{
	struct sp_port *port = NULL;

	if (sp_get_port_by_name(sp->path, &port) != SP_OK) {
		snprintf(why, len, "sp_get_port_by_name: %s", sp_last_error_message());
		return 1;
	}
	if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
		snprintf(why, len, "sp_open: %s", sp_last_error_message());
		sp_free_port(port);
		return 2;
	}
	if (sp_set_baudrate(port, (int)baud) != SP_OK || sp_set_bits(port, 8) != SP_OK ||
	    sp_set_parity(port, SP_PARITY_NONE) != SP_OK || sp_set_stopbits(port, 1) != SP_OK ||
	    sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) != SP_OK ||
	    sp_get_port_handle(port, &sp->fd) != SP_OK) {
		snprintf(why, len, "line settings: %s", sp_last_error_message());
		sp_close(port);
		sp_free_port(port);
		return 2;
	}
	sp_flush(port, SP_BUF_BOTH);
	sp->port = port;
	return 0;
}
#endif

static void tty_close(struct serial_port *base)
{
	struct tty_port *sp = (struct tty_port *)base;

#ifdef HAVE_SERIALPORT
	if (sp->port) {
		sp_close(sp->port);
		sp_free_port(sp->port);
		sp->fd = -1;
	}
#endif
	if (sp->fd >= 0)
		close(sp->fd);
	free(sp->path);
	free(sp);
}

/*
 * Two pollers on one meter would read each other's replies. An advisory lock keeps a
 * second iowatt (a probe left running, say) off a port that a run is using; unlike
 * TIOCEXCL it also holds for root.
 */
static int serial_lock(struct tty_port *sp, int log_level, struct serial_port **out)
{
	if (flock(sp->fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
		log_msg(log_level, MOD, "%s is in use by another iowatt (a probe or a run)",
			sp->path);
		tty_close(&sp->base);
		return -EBUSY;
	}
	*out = &sp->base;
	return 0;
}

/*
 * libserialport 0.1.1 cannot open a pty: sp_get_port_by_name() looks the port up in
 * /sys/class/tty and fails with ENOENT for /dev/pts/N (a symlink to one gets the same
 * failure). socat and ser2net bridges and our emulator are ptys, so those go through
 * plain termios in raw mode; real ports keep libserialport's handling.
 */
/*
 * A meter path that is not a character device gets a message naming what it is: the
 * libraries below only say "Success" or "Inappropriate ioctl" about a file or a FIFO.
 * 0, or -errno after logging.
 */
static int serial_check_path(const char *path, int log_level)
{
	struct stat st, lst;
	const char *what;
	int rc = -ENODEV;

	if (stat(path, &st)) {
		rc = -errno;
		if (rc == -ENOENT && !lstat(path, &lst) && S_ISLNK(lst.st_mode))
			log_msg(log_level, MOD, "cannot open %s: a symbolic link to a file that "
				"does not exist (was the meter unplugged?)", path);
		else if (rc == -ENOENT)
			log_msg(log_level, MOD, "cannot open %s: no such device (is the meter "
				"plugged in? `iowatt meters` lists the serial ports)", path);
		else
			log_msg(log_level, MOD, "cannot open %s: %s", path, strerror(-rc));
		return rc;
	}
	if (S_ISCHR(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		what = "a directory";
		rc = -EISDIR;
	} else if (S_ISREG(st.st_mode)) {
		what = "a regular file";
	} else if (S_ISFIFO(st.st_mode)) {
		what = "a FIFO";
	} else if (S_ISSOCK(st.st_mode)) {
		what = "a socket (bridge it to a pty with socat: pty,link=PATH,raw)";
	} else {
		what = "a block device";
	}
	log_msg(log_level, MOD, "cannot open %s: it is %s, not a serial port", path, what);
	return rc;
}

static const struct serial_ops tty_ops;

int tty_serial_open(const char *path, unsigned baud, int log_level, struct serial_port **out)
{
	struct tty_port *sp;
	int rc = serial_check_path(path, log_level);

	if (rc)
		return rc;
	sp = xcalloc(1, sizeof(*sp));
	sp->base.ops = &tty_ops;
#ifdef HAVE_SERIALPORT
	struct stat st;
	char why[200];
#endif

	sp->fd = -1;
	sp->path = xstrdup(path);
#ifdef HAVE_SERIALPORT
	rc = sp_try_open(sp, baud, why, sizeof(why));
	if (!rc) {
		log_debug(MOD, "%s: opened through libserialport", path);
		return serial_lock(sp, log_level, out);
	}
	/*
	 * A pty, or a character device that libserialport cannot look up (no sysfs in a
	 * container, say), still works as a plain terminal.
	 */
	if (!serial_path_is_pty(path) && !(rc == 1 && !stat(path, &st) && S_ISCHR(st.st_mode))) {
		rc = access(path, F_OK) ? -ENOENT : -EIO;
		log_msg(log_level, MOD, "cannot open %s: %s", path,
			rc == -ENOENT ? strerror(ENOENT) : why);
		tty_close(&sp->base);
		return rc;
	}
	log_debug(MOD, "%s: libserialport: %s; using raw termios", path, why);
#endif
	rc = termios_open(sp, baud, log_level);
	if (rc) {
		tty_close(&sp->base);
		return rc;
	}
	return serial_lock(sp, log_level, out);
}

static const char *tty_backend(const struct serial_port *base)
{
#ifdef HAVE_SERIALPORT
	const struct tty_port *sp = (const struct tty_port *)base;

	if (sp->port)
		return "libserialport";
#endif
	(void)base;
	return "termios (pty)";
}

static void tty_describe(const struct serial_port *base, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ((const struct tty_port *)base)->path);
}

static int tty_read(struct serial_port *base, void *buf, size_t len, int timeout_ms)
{
	struct tty_port *sp = (struct tty_port *)base;
	struct pollfd pfd = { .fd = sp->fd, .events = POLLIN };
	ssize_t n;
	int rc;

	rc = poll(&pfd, 1, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (!rc)
		return 0;
	if (pfd.revents & POLLNVAL)
		return -EIO;
	n = read(sp->fd, buf, len);
	if (n > 0)
		return (int)n;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return (pfd.revents & (POLLHUP | POLLERR)) ? -EIO : 0;
	/* EOF or an error after POLLIN/POLLHUP: the far end is gone. */
	return -EIO;
}

static int tty_write(struct serial_port *base, const void *buf, size_t len, int timeout_ms)
{
	struct tty_port *sp = (struct tty_port *)base;
	const unsigned char *p = buf;
	size_t done = 0;
	struct pollfd pfd = { .fd = sp->fd, .events = POLLOUT };
	ssize_t n;

#ifdef HAVE_SERIALPORT
	if (sp->port) {
		n = sp_blocking_write(sp->port, buf, len, (unsigned)timeout_ms);
		if (n < 0)
			return -EIO;
		return (size_t)n == len ? (int)n : -ETIMEDOUT;
	}
#endif
	while (done < len) {
		n = write(sp->fd, p + done, len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -EIO;
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			return -EIO;
	}
	return (int)done;
}

/* A tty's queue is the driver's to drop at once; a failure here leaves the next read to tell. */
static int tty_flush_input(struct serial_port *base)
{
	struct tty_port *sp = (struct tty_port *)base;

#ifdef HAVE_SERIALPORT
	if (sp->port) {
		sp_flush(sp->port, SP_BUF_INPUT);
		return 0;
	}
#endif
	tcflush(sp->fd, TCIFLUSH);
	return 0;
}

static const struct serial_ops tty_ops = {
	.read = tty_read,
	.write = tty_write,
	.flush_input = tty_flush_input,
	.close = tty_close,
	.backend = tty_backend,
	.describe = tty_describe,
};

void serial_port_names(FILE *out, const char *prefix, int prefix_len)
{
#ifdef HAVE_SERIALPORT
	struct sp_port **ports = NULL;
	int i;

	if (sp_list_ports(&ports) != SP_OK)
		return;
	for (i = 0; ports[i]; i++)
		fprintf(out, "%.*s%s\n", prefix_len, prefix, sp_get_port_name(ports[i]));
	sp_free_port_list(ports);
#else
	(void)out;
	(void)prefix;
	(void)prefix_len;
#endif
}

void serial_list_ports(FILE *out)
{
#ifdef HAVE_SERIALPORT
	struct sp_port **ports = NULL;
	const char *name, *mf, *prod, *bt;
	int i, vid, pid;

	if (sp_list_ports(&ports) != SP_OK) {
		fprintf(out, "  (cannot list serial ports: %s)\n", sp_last_error_message());
		return;
	}
	for (i = 0; ports[i]; i++) {
		name = sp_get_port_name(ports[i]);
		switch (sp_get_port_transport(ports[i])) {
		case SP_TRANSPORT_USB:
			if (sp_get_port_usb_vid_pid(ports[i], &vid, &pid) != SP_OK)
				vid = pid = 0;
			mf = sp_get_port_usb_manufacturer(ports[i]);
			prod = sp_get_port_usb_product(ports[i]);
			fprintf(out, "  %-16s usb %04x:%04x  %s %s\n", name, (unsigned)vid,
				(unsigned)pid, mf ? mf : "", prod ? prod : "");
			break;
		case SP_TRANSPORT_BLUETOOTH:
			bt = sp_get_port_bluetooth_address(ports[i]);
			fprintf(out, "  %-16s bluetooth %s\n", name, bt ? bt : "");
			break;
		default:
			fprintf(out, "  %-16s %s\n", name, sp_get_port_description(ports[i]));
			break;
		}
		fprintf(out, "    spec: um:%s   (RDTech UM, model detected from the reply)\n", name);
	}
	if (!i)
		fprintf(out, "  (no serial ports)\n");
	sp_free_port_list(ports);
#else
	fprintf(out, "  (built without libserialport: no port listing; /dev/rfcomm* below)\n");
#endif
}
