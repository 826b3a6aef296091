/* SPDX-License-Identifier: MIT */
/* The um driver through libserialport on an emulated CH340 ttyUSB0 (umockdev). */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <umockdev.h>

#include "core/clock.h"
#include "core/log.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "meters/transport/serial.h"
#include "meters/um/um_protocol.h"
#include "tap.h"
#include "umock_asan.h"
#include "umock_collect.h"
#include "umock_env.h"

/*
 * libserialport 0.1.2 (Debian 13) calls realpath() on the port, fortified as
 * __realpath_chk(). umockdev backs the emulated /dev/ttyUSB0 with a symlink to a pty, and
 * umockdev 0.19's wrapper copies a negative length when the target lies outside its
 * testbed (ASan: negative-size-param, after which the report deadlocks). The executable's
 * own definitions are found before the preload's, so libserialport gets these: a real
 * /dev/ttyUSB0 is its own canonical name, and every other path goes on to the preload.
 * libserialport 0.1.1 never calls them.
 */
#define EMULATED_PORT "/dev/ttyUSB0"

static char *emulated_port(const char *path, char *resolved, size_t len)
{
	if (!resolved)
		return strdup(path);
	snprintf(resolved, len, "%s", path);
	return resolved;
}

char *realpath(const char *restrict path, char *restrict resolved);
char *realpath(const char *restrict path, char *restrict resolved)
{
	static char *(*next)(const char *restrict, char *restrict);

	if (path && !strcmp(path, EMULATED_PORT))
		return emulated_port(path, resolved, PATH_MAX);
	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "realpath");
	return next(path, resolved);
}

char *__realpath_chk(const char *path, char *resolved, size_t len);
char *__realpath_chk(const char *path, char *resolved, size_t len)
{
	static char *(*next)(const char *, char *, size_t);

	if (path && !strcmp(path, EMULATED_PORT))
		return emulated_port(path, resolved, len);
	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "__realpath_chk");
	return next(path, resolved, len);
}

#define TIOCMGET_NR 0x5415
#define TIOCMBIS_NR 0x5416
#define TIOCMBIC_NR 0x5417
#define TIOCMSET_NR 0x5418

static const char testbed[] =
	"P: /devices/pci0000:00/0000:00:14.0/usb1/1-1\n"
	"E: SUBSYSTEM=usb\n"
	"E: DEVTYPE=usb_device\n"
	"A: idVendor=1a86\n"
	"A: idProduct=7523\n"
	"A: busnum=1\n"
	"A: devnum=5\n"
	"A: manufacturer=QinHeng Electronics\n"
	"A: product=USB Serial\n"
	"\n"
	"P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0\n"
	"E: SUBSYSTEM=usb\n"
	"E: DEVTYPE=usb_interface\n"
	"\n"
	"P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/ttyUSB0\n"
	"E: SUBSYSTEM=usb-serial\n"
	"\n"
	"P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/ttyUSB0/tty/ttyUSB0\n"
	"N: ttyUSB0\n"
	"E: SUBSYSTEM=tty\n"
	"E: DEVNAME=/dev/ttyUSB0\n"
	"A: dev=188:0\n"
	"L: device=../../../ttyUSB0\n";

/* State shared with the handler thread (umockdev's worker). */
static struct {
	UMockdevTestbed *tb;
	pthread_mutex_t lock; /* not GMutex: its futexes are invisible to ThreadSanitizer */
	int modem_bits;
	unsigned polls, other_bytes;
	uint16_t reply_id;
	double v, a;
	/* Per run_meter: when each poll arrived and when its reply was written (now_ns). */
	unsigned timed;
	uint64_t poll_ns[64], reply_ns[64];
} emu;

static gboolean on_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer unused)
{
	gulong req = umockdev_ioctl_client_get_request(client);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client), *d;
	GError *err = NULL;
	int r, e = 0, bits;

	(void)base;
	(void)unused;
	if (req != TIOCMGET_NR && req != TIOCMBIS_NR && req != TIOCMBIC_NR && req != TIOCMSET_NR) {
		r = umockdev_ioctl_client_execute(client, &e, &err);
		umockdev_ioctl_client_complete(client, r, e);
		g_clear_error(&err);
		return TRUE;
	}
	d = umockdev_ioctl_data_resolve(arg, 0, sizeof(int), &err);
	if (!d) {
		g_clear_error(&err);
		umockdev_ioctl_client_complete(client, -1, EFAULT);
		return TRUE;
	}
	pthread_mutex_lock(&emu.lock);
	memcpy(&bits, d->data, sizeof(bits));
	if (req == TIOCMGET_NR)
		memcpy(d->data, &emu.modem_bits, sizeof(int));
	else if (req == TIOCMSET_NR)
		emu.modem_bits = bits;
	else if (req == TIOCMBIS_NR)
		emu.modem_bits |= bits;
	else
		emu.modem_bits &= ~bits;
	pthread_mutex_unlock(&emu.lock);
	g_object_unref(d);
	umockdev_ioctl_client_complete(client, 0, 0);
	return TRUE;
}

/* Answers each 0xF0 with a frame of the chosen model, written into the pty master. */
static gboolean on_write(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer unused)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	struct um_fields f = { 0 };
	uint8_t frame[UM_FRAME_LEN];
	int i, master;
	ssize_t n;

	(void)base;
	(void)unused;
	master = umockdev_testbed_get_dev_fd(emu.tb, "/dev/ttyUSB0");
	for (i = 0; i < arg->data_len; i++) {
		if (arg->data[i] != UM_CMD_POLL) {
			emu.other_bytes++;
			continue;
		}
		pthread_mutex_lock(&emu.lock);
		emu.polls++;
		if (emu.timed < sizeof(emu.poll_ns) / sizeof(emu.poll_ns[0]))
			emu.poll_ns[emu.timed] = now_ns();
		f.v = emu.v;
		f.a = emu.a;
		f.w = emu.v * emu.a;
		um_encode(um_model_by_id(emu.reply_id), &f, frame);
		if (emu.timed < sizeof(emu.reply_ns) / sizeof(emu.reply_ns[0]))
			emu.reply_ns[emu.timed++] = now_ns();
		pthread_mutex_unlock(&emu.lock);
		n = write(master, frame, sizeof(frame));
		(void)n;
	}
	umockdev_ioctl_client_complete(client, arg->data_len, 0);
	return TRUE;
}

/*
 * 1 when a poll came sooner than the interval allows. The meter sends poll k+1 only after
 * reading reply k, so after the emulator wrote it, and poll k+2 one interval after poll
 * k+1 was sent: poll k+2 arrives at least one interval after reply k was written, however
 * late any of them is delivered. Sample times (round-trip midpoints) give no such bound
 * on a loaded machine.
 */
static int too_soon(const char *spec, uint64_t interval_ns)
{
	unsigned k, n;
	int bad = 0;

	pthread_mutex_lock(&emu.lock);
	n = emu.timed;
	for (k = 0; k + 2 < n && !bad; k++) {
		if (emu.poll_ns[k + 2] - emu.reply_ns[k] >= interval_ns)
			continue;
		printf("# %s: poll %u came %.1f ms after reply %u\n", spec, k + 2,
		     (double)(emu.poll_ns[k + 2] - emu.reply_ns[k]) / NS_PER_MS, k);
		bad = 1;
	}
	pthread_mutex_unlock(&emu.lock);
	if (n < 3)
		printf("# %s: only %u polls seen\n", spec, n);
	return bad || n < 3;
}

static void run_meter(const char *spec, uint16_t reply_id, double v, double a,
		      const char *want_model)
{
	const uint64_t interval_ns = 100 * NS_PER_MS; /* every spec below says interval=100ms */
	struct meter_dev *dev = NULL;
	struct meter_counters cnt;
	struct meter_sample s[3];
	unsigned n;

	pthread_mutex_lock(&emu.lock);
	emu.timed = 0;
	emu.reply_id = reply_id;
	emu.v = v;
	emu.a = a;
	pthread_mutex_unlock(&emu.lock);
	ok(!meter_parse_spec(meter_registry, spec, "", &dev), "%s parses", spec);
	if (!dev)
		return;
	if (!ok(!meter_open(dev), "%s opens through the emulated CH340", spec)) {
		meter_free(dev);
		return;
	}
	ok(!strncmp(meter_info(dev)->model, want_model, strlen(want_model)),
	   "%s: model '%s' starts with %s", spec, meter_info(dev)->model, want_model);
	ok(!meter_info(dev)->emulated, "%s: not labelled as iowatt's emulator", spec);
	ok(!meter_thread_start(dev), "%s: sampling thread starts", spec);
	n = umock_collect(dev, s, 3);
	meter_thread_stop(dev);
	is_int(n, 3, "%s: three samples", spec);
	if (n == 3) {
		is_dbl(s[2].v, v, 0.011, "%s: volts", spec);
		is_dbl(s[2].a, a, 0.0011, "%s: amps", spec);
		is_dbl(s[2].w, v * a, 0.0011, "%s: watts from the power register", spec);
		ok(s[0].t_ns < s[1].t_ns && s[1].t_ns < s[2].t_ns, "%s: timestamps increase", spec);
	}
	ok(!too_soon(spec, interval_ns), "%s: polled no faster than interval", spec);
	meter_counters(dev, &cnt);
	is_int(cnt.frames_bad, 0, "%s: no bad frames", spec);
	meter_free(dev);
}

int main(void)
{
	struct serial_port *sp = NULL;
	UMockdevIoctlBase *handler;
	GError *err = NULL;
	char *list = NULL;
	size_t list_len = 0;
	struct termios tio;
	char why[160];
	FILE *mem;
	int master;

	log_set_level(LOG_ERR);
#ifndef HAVE_SERIALPORT
	skip("built without libserialport: the pty path is covered by t_emulator.sh");
	return done_testing();
#endif
	if (umock_unusable(why, sizeof(why))) {
		skip(why);
		return done_testing();
	}
	pthread_mutex_init(&emu.lock, NULL);
	emu.tb = umockdev_testbed_new();
	if (!umockdev_testbed_add_from_string(emu.tb, testbed, &err)) {
		ok(0, "testbed: %s", err ? err->message : "?");
		return done_testing();
	}
	handler = umockdev_ioctl_base_new();
	g_signal_connect(handler, "handle-ioctl", G_CALLBACK(on_ioctl), NULL);
	g_signal_connect(handler, "handle-write", G_CALLBACK(on_write), NULL);
	if (!umockdev_testbed_attach_ioctl(emu.tb, "/dev/ttyUSB0", handler, &err)) {
		ok(0, "attach_ioctl: %s", err ? err->message : "?");
		return done_testing();
	}

	/* The port listing sees the USB parent. */
	mem = open_memstream(&list, &list_len);
	serial_list_ports(mem);
	fclose(mem);
	ok(list && strstr(list, "/dev/ttyUSB0"), "listing shows /dev/ttyUSB0");
	ok(list && strstr(list, "1a86:7523"), "listing shows VID:PID 1a86:7523");
	ok(list && strstr(list, "QinHeng"), "listing shows the manufacturer");
	if (list)
		printf("# %s", list);
	free(list);

	/* The transport takes the libserialport path here, not the pty fallback. */
	ok(!serial_open("/dev/ttyUSB0", &(struct serial_cfg){ .baud = 115200, .log_level = LOG_ERR }, &sp),
	   "serial_open /dev/ttyUSB0");
	if (sp) {
		is_str(serial_backend(sp), "libserialport", "opened through libserialport");
		master = umockdev_testbed_get_dev_fd(emu.tb, "/dev/ttyUSB0");
		ok(!tcgetattr(master, &tio) && cfgetospeed(&tio) == B115200,
		   "the port was set to 115200 baud");
		ok(!(tio.c_cflag & PARENB) && (tio.c_cflag & CSIZE) == CS8 && !(tio.c_cflag & CSTOPB),
		   "8n1");
		serial_close(sp);
	}

	run_meter("um25c:/dev/ttyUSB0,interval=100ms", 0x09C9, 5.081, 0.2503, "UM25C");
	run_meter("um:/dev/ttyUSB0,interval=100ms", 0x0D4C, 12.03, 1.5, "UM34C");
	/* The spec says UM25C, the meter answers as UM24C: the reply wins (with a warning). */
	run_meter("um25c:/dev/ttyUSB0,interval=100ms", 0x0963, 5.08, 0.25, "UM24C");
	ok(emu.polls >= 9, "the emulated meter saw the polls (%u)", emu.polls);
	is_int(emu.other_bytes, 0, "nothing but 0xF0 was sent");

	g_object_unref(handler);
	g_object_unref(emu.tb);
	return done_testing();
}
