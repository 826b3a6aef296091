/* SPDX-License-Identifier: MIT */
/* The scpi: meter through the USBTMC transport on an emulated /dev/usbtmc0 (umockdev): blocking reads, the timeout ioctl, errors. */
#include <errno.h>
#include <linux/types.h>
#include <linux/usb/tmc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <umockdev.h>

#include "core/clock.h"
#include "core/log.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "meters/transport/serial.h"
#include "tap.h"
#include "umock_asan.h"
#include "umock_collect.h"
#include "umock_env.h"

/* A plain-file node ("=00"): every read, write and ioctl goes to the handlers below, as
 * the kernel's usbtmc driver would take them. */
static const char testbed[] =
	"P: /devices/pci0000:00/0000:00:14.0/usb1/1-3\n"
	"E: SUBSYSTEM=usb\n"
	"E: DEVTYPE=usb_device\n"
	"A: idVendor=05e6\n"
	"A: idProduct=2450\n"
	"\n"
	"P: /devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0/usbmisc/usbtmc0\n"
	"N: usbtmc0=00\n"
	"E: SUBSYSTEM=usbmisc\n"
	"E: DEVNAME=/dev/usbtmc0\n"
	"A: dev=180:176\n";

#define IDN "KEITHLEY INSTRUMENTS,MODEL 2450,04096331,1.6.4c\n"

/* The instrument, on umockdev's worker thread. */
static struct {
	pthread_mutex_t lock;
	char reply[128]; /* what the next read() gets; "" none: the read times out */
	unsigned timeout_ms, reads, writes, timeouts;
	int unplugged, mute_curr; /* mute_curr: MEAS:CURR? answers nothing, -222 queued */
	int err_queued;
	unsigned errors_read; /* SYST:ERR? answered with the queued -222 */
} dev;

static void set_flag(int *flag, int val)
{
	pthread_mutex_lock(&dev.lock);
	*flag = val;
	pthread_mutex_unlock(&dev.lock);
}

static gboolean on_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *cl, gpointer unused)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl), *d;

	(void)base;
	(void)unused;
	if (umockdev_ioctl_client_get_request(cl) != USBTMC_IOCTL_SET_TIMEOUT) {
		umockdev_ioctl_client_complete(cl, -1, ENOTTY);
		return TRUE;
	}
	d = umockdev_ioctl_data_resolve(arg, 0, sizeof(unsigned), NULL);
	pthread_mutex_lock(&dev.lock);
	if (d)
		memcpy(&dev.timeout_ms, d->data, sizeof(unsigned));
	pthread_mutex_unlock(&dev.lock);
	if (d)
		g_object_unref(d);
	umockdev_ioctl_client_complete(cl, d ? 0 : -1, d ? 0 : EFAULT);
	return TRUE;
}

static void answer(const char *cmd)
{
	dev.reply[0] = '\0';
	if (!strcmp(cmd, "*IDN?")) {
		snprintf(dev.reply, sizeof(dev.reply), IDN);
	} else if (!strncmp(cmd, "MEAS:CURR?", 10)) {
		if (dev.mute_curr)
			dev.err_queued = 1;
		else
			snprintf(dev.reply, sizeof(dev.reply), "+2.500000E-02\n");
	} else if (!strncmp(cmd, "MEAS:VOLT?", 10)) {
		snprintf(dev.reply, sizeof(dev.reply), "+5.000000E+00\n");
	} else if (!strcmp(cmd, "SYST:ERR?")) {
		dev.errors_read += dev.err_queued;
		snprintf(dev.reply, sizeof(dev.reply), dev.err_queued ?
			 "-222,\"Data out of range\"\n" : "0,\"No error\"\n");
		dev.err_queued = 0;
	}
}

/* One message per write(), as the kernel's usbtmc sends it. */
static gboolean on_write(UMockdevIoctlBase *base, UMockdevIoctlClient *cl, gpointer unused)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl);
	char cmd[64];
	size_t len = (size_t)arg->data_len, n = len < sizeof(cmd) - 1 ? len : sizeof(cmd) - 1;

	(void)base;
	(void)unused;
	memcpy(cmd, arg->data, n);
	cmd[n] = '\0';
	cmd[strcspn(cmd, "\r\n")] = '\0';
	pthread_mutex_lock(&dev.lock);
	dev.writes++;
	answer(cmd);
	pthread_mutex_unlock(&dev.lock);
	umockdev_ioctl_client_complete(cl, (long)arg->data_len, 0);
	return TRUE;
}

/* The reply whole, or ETIMEDOUT as the kernel gives after its timeout, ENODEV unplugged. */
static gboolean on_read(UMockdevIoctlBase *base, UMockdevIoctlClient *cl, gpointer unused)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl);
	size_t n;
	long res = -1;
	int err = 0;

	(void)base;
	(void)unused;
	pthread_mutex_lock(&dev.lock);
	dev.reads++;
	n = strlen(dev.reply);
	if (dev.unplugged) {
		err = ENODEV;
	} else if (!n) {
		err = ETIMEDOUT;
		dev.timeouts++;
	} else {
		if (n > (size_t)arg->data_len)
			n = (size_t)arg->data_len;
		memcpy(arg->data, dev.reply, n);
		memmove(dev.reply, dev.reply + n, strlen(dev.reply + n) + 1);
		res = (long)n;
	}
	pthread_mutex_unlock(&dev.lock);
	umockdev_ioctl_client_complete(cl, res, err);
	return TRUE;
}

static void transport(void)
{
	struct serial_cfg cfg = { .baud = 115200, .log_level = LOG_ERR };
	struct serial_port *sp = NULL;
	char buf[128];
	unsigned reads;
	int n;

	ok(serial_is_usbtmc("/dev/usbtmc0") && !serial_is_usbtmc("/dev/ttyUSB0"),
	   "usbtmc paths are told by their name");
	if (!ok(!serial_open("/dev/usbtmc0", &cfg, &sp), "serial_open /dev/usbtmc0"))
		return;
	is_str(serial_backend(sp), "USBTMC", "opened as the kernel's usbtmc, not a tty");
	is_int((int)dev.timeout_ms, 1000, "USBTMC_IOCTL_SET_TIMEOUT asked for 1000 ms");
	reads = dev.reads; /* the worker is idle: nothing was asked */
	is_int(serial_read(sp, buf, sizeof(buf), 20), 0, "nothing asked: a read returns 0 ...");
	is_int((int)(dev.reads - reads), 0, "... without asking the instrument for a reply");
	is_int(serial_write(sp, "*IDN?\n", 6, 100), 6, "a query goes out in one write");
	n = serial_read(sp, buf, sizeof(buf) - 1, 20);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf, IDN, "the reply comes whole in one read");
	is_int(serial_write(sp, "NOSUCH?\n", 8, 100), 8, "a query the instrument ignores");
	is_int(serial_read(sp, buf, sizeof(buf), 20), 0, "its read times out in the kernel: 0");
	reads = dev.reads;
	is_int(serial_read(sp, buf, sizeof(buf), 20), 0, "after the kernel's abort ...");
	is_int((int)(dev.reads - reads), 0, "... the lost reply is not asked for again");
	serial_write(sp, "*IDN?\n", 6, 100);
	set_flag(&dev.unplugged, 1);
	is_int(serial_read(sp, buf, sizeof(buf), 20), -EIO, "unplugged (ENODEV): -EIO, a lost link");
	set_flag(&dev.unplugged, 0);
	serial_close(sp);
}

static void meter(void)
{
	const char *spec = "scpi:/dev/usbtmc0,interval=50ms,timeout=200ms";
	struct meter_dev *m = NULL;
	struct meter_counters cnt;
	struct meter_sample s[4];
	unsigned n;

	if (!ok(!meter_parse_spec(meter_registry, spec, "", &m), "%s parses", spec) || !m)
		return;
	if (!ok(!meter_open(m), "%s opens", spec)) {
		meter_free(m);
		return;
	}
	is_str(meter_info(m)->model, "2450", "*IDN? picked the Keithley 2450 row");
	ok(meter_info(m)->accuracy.source && meter_info(m)->accuracy.nranges == 6,
	   "with its six current ranges' accuracy");
	ok(!meter_thread_start(m), "sampling starts");
	n = umock_collect(m, s, 4);
	is_int(n, 4, "four samples");
	if (n == 4) {
		is_dbl(s[3].a, 0.025, 1e-12, "25 mA");
		is_dbl(s[3].v, 5.0, 1e-12, "5 V");
		is_dbl(s[3].w, 0.125, 1e-12, "W = V x A");
	}
	/* MEAS:CURR? goes unanswered once, with -222 queued: counted, asked, read on. */
	set_flag(&dev.mute_curr, 1);
	sleep_ns(400 * NS_PER_MS);
	set_flag(&dev.mute_curr, 0);
	meter_pop(m, s, 4, UINT64_MAX);
	n = umock_collect(m, s, 2);
	meter_thread_stop(m);
	meter_counters(m, &cnt);
	is_int(n, 2, "readings resume after the unanswered queries");
	ok(cnt.frames_bad >= 1, "the unanswered query counted bad (%llu)",
	   (unsigned long long)cnt.frames_bad);
	ok(dev.errors_read >= 1, "and followed by SYST:ERR?, which read the queued -222 (%u)",
	   dev.errors_read);
	meter_free(m);
}

int main(void)
{
	UMockdevTestbed *tb;
	UMockdevIoctlBase *h;
	GError *err = NULL;
	char why[160];

	log_set_level(LOG_ERR);
	if (umock_unusable(why, sizeof(why))) {
		skip(why);
		return done_testing();
	}
	pthread_mutex_init(&dev.lock, NULL);
	tb = umockdev_testbed_new();
	h = umockdev_ioctl_base_new();
	if (!umockdev_testbed_add_from_string(tb, testbed, &err)) {
		ok(0, "testbed: %s", err ? err->message : "?");
		return done_testing();
	}
	g_signal_connect(h, "handle-ioctl", G_CALLBACK(on_ioctl), NULL);
	g_signal_connect(h, "handle-write", G_CALLBACK(on_write), NULL);
	g_signal_connect(h, "handle-read", G_CALLBACK(on_read), NULL);
	if (!umockdev_testbed_attach_ioctl(tb, "/dev/usbtmc0", h, &err)) {
		ok(0, "attach_ioctl: %s", err ? err->message : "?");
		return done_testing();
	}
	transport();
	meter();
	g_object_unref(h);
	g_object_unref(tb);
	return done_testing();
}
