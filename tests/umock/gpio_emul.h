/* SPDX-License-Identifier: MIT */
/* An emulated gpiochip0 under umockdev, same process only: GPIO v1 uAPI (libgpiod 1.6) and v2 (2.x). */
#ifndef IOWATT_TEST_GPIO_EMUL_H
#define IOWATT_TEST_GPIO_EMUL_H

#include <fcntl.h>
#include <inttypes.h>
#include <linux/gpio.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <umockdev.h>

#include "umock_env.h"

#define GEMU_LINES 64
#define GEMU_LOG 512

/* A request waiting for its client: the line and, for an event request, its number. */
#define GEMU_PENDING(off, gen) GUINT_TO_POINTER(((gen) << 8) | ((off) + 1))

struct gemu_edge {
	uint64_t t_ns;
	int line, value;
};

/*
 * Line handles: GPIO_GET_LINEHANDLE_IOCTL must return an fd. The handler opens
 * /dev/gpiolinehandle itself (the preload connects it to the second handler) and queues
 * the line offset; the new client takes it in client-connected, in order. Release is seen
 * when the client object is finalized.
 */
struct gemu {
	pthread_mutex_t lock; /* not GMutex: its futexes are invisible to ThreadSanitizer */
	int value[GEMU_LINES];
	int is_out[GEMU_LINES];
	int requested[GEMU_LINES];
	GQueue pending;
	struct gemu_edge log[GEMU_LOG]; /* every value the host drove, with the time */
	int nlog;
	/* line event requests (GPIO_GET_LINEEVENT_IOCTL): one at a time, on a pty */
	UMockdevTestbed *tb;
	GQueue pending_ev;
	int ev_line;		/* the requested line, -1 when none */
	unsigned ev_flags;	/* its GPIOEVENT_REQUEST_* */
	unsigned ev_handleflags;
	unsigned ev_gen;	/* requests made: the newest owns ev_line */
	int ev_v2;		/* the event request came through the v2 uAPI: v2 records */
	unsigned ev_seqno;
	int value_reads[GEMU_LINES]; /* value ioctls on a line event fd */
	/* A wire from line wire_line to a meter emulator's digital input: each value driven
	 * on it, "T_NS LEVEL" a line, appended to wire_fd (-1: no wire). */
	int wire_fd, wire_line;
};

/* 1 (after printing the TAP skip plan) when this build or environment cannot run the
 * emulated chip: no libgpiod, or umockdev cannot see this build's calls (umock_unusable). */
static inline int gemu_skip(void)
{
#ifndef HAVE_GPIOD
	printf("1..0 # skip built without libgpiod\n");
	return 1;
#endif
	char why[160];

	if (umock_unusable(why, sizeof(why))) {
		printf("1..0 # skip %s\n", why);
		return 1;
	}
#ifdef HAVE_GPIOD2
	printf("# note: emulated chip speaks the GPIO v2 uAPI (libgpiod 2.x)\n");
#else
	printf("# note: emulated chip speaks the GPIO v1 uAPI (libgpiod 1.x)\n");
#endif
	return 0;
}

static inline uint64_t gemu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline const char *gemu_name(unsigned off)
{
	return off == 17 ? "MARK" : off == 35 ? "PWR_LOW_N" : "";
}

static inline void gemu_log(struct gemu *g, int line, int value)
{
	uint64_t t = gemu_now();

	if (g->nlog < GEMU_LOG)
		g->log[g->nlog++] = (struct gemu_edge){ t, line, value };
	if (g->wire_fd >= 0 && line == g->wire_line)
		dprintf(g->wire_fd, "%" PRIu64 " %d\n", t, value);
}

/*
 * A line event request gets a fd on the pty behind /dev/gpiolineevent: poll() and read()
 * on it are the kernel's own (umockdev wraps neither for a pty), so the code under test
 * waits and reads exactly as on a real line event fd, and gemu_edge() writes struct
 * gpioevent_data records into the pty's master. Its ioctls (the line value) reach
 * gemu_event_ioctl. One request at a time: a new one takes over (the close of the
 * previous fd is seen late), a line held as an output is EBUSY.
 */
static inline long gemu_event_request(struct gemu *g, struct gpioevent_request *r, int *err)
{
	int master;

	if (r->lineoffset >= GEMU_LINES) {
		*err = EINVAL;
		return -1;
	}
	if (g->is_out[r->lineoffset]) {
		*err = EBUSY;
		return -1;
	}
	/* Records written while no request was open would reach the next one. */
	master = umockdev_testbed_get_dev_fd(g->tb, "/dev/gpiolineevent");
	tcflush(master, TCIOFLUSH);
	g->ev_line = (int)r->lineoffset;
	g->ev_flags = r->eventflags;
	g->ev_handleflags = r->handleflags;
	g->ev_gen++;
	g->requested[r->lineoffset] = 1;
	g->is_out[r->lineoffset] = 0;
	g_queue_push_tail(&g->pending_ev, GEMU_PENDING(r->lineoffset, g->ev_gen));
	r->fd = open("/dev/gpiolineevent", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (r->fd < 0) {
		*err = errno;
		return -1;
	}
	return 0;
}

/* A v1 line handle: the fd reaches gemu_handle_ioctl. */
static inline long gemu_handle_request(struct gemu *g, unsigned off, int out, int value, int *fd,
				       int *err)
{
	g->requested[off] = 1;
	g->is_out[off] = out;
	if (out) {
		g->value[off] = value;
		gemu_log(g, (int)off, value);
	}
	g_queue_push_tail(&g->pending, GEMU_PENDING(off, 0u));
	*fd = open("/dev/gpiolinehandle", O_RDWR | O_CLOEXEC);
	if (*fd < 0) {
		*err = errno;
		return -1;
	}
	return 0;
}

/*
 * GPIO_V2_GET_LINE_IOCTL: one line, its flags in config.flags or a FLAGS attribute, its
 * output value in an OUTPUT_VALUES attribute. A request with edge detection is an event
 * request (v2 records on the pty); any other is a line handle. Flags are kept as their v1
 * equivalents, so the tests read one set.
 */
static inline long gemu_v2_request(struct gemu *g, struct gpio_v2_line_request *r, int *err)
{
	uint64_t flags = r->config.flags;
	unsigned off = r->offsets[0], i;
	int value = 0;
	struct gpioevent_request ev;
	long res;

	if (r->num_lines != 1 || off >= GEMU_LINES) {
		*err = EINVAL;
		return -1;
	}
	for (i = 0; i < r->config.num_attrs && i < GPIO_V2_LINE_NUM_ATTRS_MAX; i++) {
		if (!(r->config.attrs[i].mask & 1))
			continue;
		if (r->config.attrs[i].attr.id == GPIO_V2_LINE_ATTR_ID_FLAGS)
			flags = r->config.attrs[i].attr.flags;
		else if (r->config.attrs[i].attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES)
			value = (int)(r->config.attrs[i].attr.values & 1);
	}
	if (!(flags & (GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING))) {
		return gemu_handle_request(g, off, !!(flags & GPIO_V2_LINE_FLAG_OUTPUT), value, &r->fd,
					   err);
	}
	memset(&ev, 0, sizeof(ev));
	ev.lineoffset = off;
	ev.eventflags = ((flags & GPIO_V2_LINE_FLAG_EDGE_RISING) ? GPIOEVENT_REQUEST_RISING_EDGE : 0) |
			((flags & GPIO_V2_LINE_FLAG_EDGE_FALLING) ? GPIOEVENT_REQUEST_FALLING_EDGE : 0);
	ev.handleflags = GPIOHANDLE_REQUEST_INPUT |
			 ((flags & GPIO_V2_LINE_FLAG_ACTIVE_LOW) ? GPIOHANDLE_REQUEST_ACTIVE_LOW : 0);
	res = gemu_event_request(g, &ev, err);
	g->ev_v2 = 1;
	g->ev_seqno = 0;
	r->fd = ev.fd;
	return res;
}

static inline void gemu_v2_info(struct gemu *g, struct gpio_v2_line_info *li)
{
	unsigned off = li->offset;

	memset(li, 0, sizeof(*li));
	li->offset = off;
	li->flags = (g->is_out[off] ? GPIO_V2_LINE_FLAG_OUTPUT : GPIO_V2_LINE_FLAG_INPUT) |
		    (g->requested[off] ? GPIO_V2_LINE_FLAG_USED : 0);
	snprintf(li->name, sizeof(li->name), "%s", gemu_name(off));
	if (g->requested[off])
		snprintf(li->consumer, sizeof(li->consumer), "iowatt");
}

static inline gboolean gemu_chip_ioctl(UMockdevIoctlBase *b, UMockdevIoctlClient *cl, gpointer user)
{
	struct gemu *g = user;
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl), *d = NULL;
	unsigned long req = umockdev_ioctl_client_get_request(cl);
	long res = 0;
	int err = 0;

	(void)b;
	pthread_mutex_lock(&g->lock);
	if (req == GPIO_GET_CHIPINFO_IOCTL) {
		struct gpiochip_info *ci;

		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(*ci), NULL);
		ci = (struct gpiochip_info *)(void *)d->data;
		memset(ci, 0, sizeof(*ci));
		snprintf(ci->name, sizeof(ci->name), "gpiochip0");
		snprintf(ci->label, sizeof(ci->label), "iowatt-mock");
		ci->lines = GEMU_LINES;
	} else if (req == GPIO_GET_LINEINFO_IOCTL) {
		struct gpioline_info *li;
		unsigned off;

		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(*li), NULL);
		li = (struct gpioline_info *)(void *)d->data;
		off = li->line_offset;
		if (off >= GEMU_LINES) {
			res = -1;
			err = EINVAL;
		} else {
			memset(li, 0, sizeof(*li));
			li->line_offset = off;
			li->flags = (g->is_out[off] ? GPIOLINE_FLAG_IS_OUT : 0) |
				    (g->requested[off] ? GPIOLINE_FLAG_KERNEL : 0);
			snprintf(li->name, sizeof(li->name), "%s", gemu_name(off));
			if (g->requested[off])
				snprintf(li->consumer, sizeof(li->consumer), "iowatt");
		}
	} else if (req == GPIO_GET_LINEHANDLE_IOCTL) {
		struct gpiohandle_request *r;
		unsigned off;

		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(*r), NULL);
		r = (struct gpiohandle_request *)(void *)d->data;
		off = r->lineoffsets[0];
		if (r->lines != 1 || off >= GEMU_LINES) {
			res = -1;
			err = EINVAL;
		} else {
			res = gemu_handle_request(g, off, !!(r->flags & GPIOHANDLE_REQUEST_OUTPUT),
						  r->default_values[0], &r->fd, &err);
		}
	} else if (req == GPIO_V2_GET_LINEINFO_IOCTL) {
		struct gpio_v2_line_info *li;

		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(*li), NULL);
		li = (struct gpio_v2_line_info *)(void *)d->data;
		if (li->offset >= GEMU_LINES) {
			res = -1;
			err = EINVAL;
		} else {
			gemu_v2_info(g, li);
		}
	} else if (req == GPIO_V2_GET_LINE_IOCTL) {
		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct gpio_v2_line_request), NULL);
		res = gemu_v2_request(g, (struct gpio_v2_line_request *)(void *)d->data, &err);
	} else if (req == GPIO_GET_LINEEVENT_IOCTL) {
		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct gpioevent_request), NULL);
		res = gemu_event_request(g, (struct gpioevent_request *)(void *)d->data, &err);
		g->ev_v2 = 0;
	} else {
		res = -1;
		err = ENOTTY;
	}
	umockdev_ioctl_client_complete(cl, res, err);
	if (d)
		g_object_unref(d);
	pthread_mutex_unlock(&g->lock);
	return TRUE;
}

struct gemu_handle {
	struct gemu *g;
	unsigned off;
	unsigned ev_gen; /* a line event request's number; 0 for a line handle */
};

static inline void gemu_release(gpointer p)
{
	struct gemu_handle *h = p;
	struct gemu *g = h->g;

	pthread_mutex_lock(&g->lock);
	if (!h->ev_gen) {
		g->requested[h->off] = 0;
		g->is_out[h->off] = 0;
	} else if (h->ev_gen == g->ev_gen) {
		/* Not when a newer request took the line over before this close was seen. */
		g->requested[h->off] = 0;
		g->ev_line = -1;
	}
	pthread_mutex_unlock(&g->lock);
	g_free(h);
}

/* Pairs a new client with the oldest request waiting for its fd (first in, first out). */
static inline void gemu_attach(struct gemu *g, UMockdevIoctlClient *cl, GQueue *pending)
{
	struct gemu_handle *h = g_new0(struct gemu_handle, 1);
	unsigned v;

	pthread_mutex_lock(&g->lock);
	v = GPOINTER_TO_UINT(g_queue_pop_head(pending));
	h->g = g;
	h->off = (v & 0xff) - 1;
	h->ev_gen = v >> 8;
	pthread_mutex_unlock(&g->lock);
	g_object_set_data_full(G_OBJECT(cl), "handle", h, gemu_release);
}

static inline void gemu_connected(UMockdevIoctlBase *b, UMockdevIoctlClient *cl, gpointer user)
{
	struct gemu *g = user;

	(void)b;
	gemu_attach(g, cl, &g->pending);
}

/* The line's value through a v1 (gpiohandle_data) or v2 (gpio_v2_line_values) ioctl. */
static inline long gemu_value_ioctl(struct gemu *g, unsigned off, unsigned long req,
				    UMockdevIoctlData *arg, int may_set, int *err)
{
	UMockdevIoctlData *d = NULL;
	long res = 0;

	if (req == GPIOHANDLE_GET_LINE_VALUES_IOCTL || req == GPIOHANDLE_SET_LINE_VALUES_IOCTL) {
		struct gpiohandle_data *hd;

		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(*hd), NULL);
		hd = (struct gpiohandle_data *)(void *)d->data;
		if (req == GPIOHANDLE_GET_LINE_VALUES_IOCTL) {
			hd->values[0] = (uint8_t)g->value[off];
		} else if (may_set && g->is_out[off]) {
			g->value[off] = hd->values[0];
			gemu_log(g, (int)off, hd->values[0]);
		} else {
			res = -1;
			*err = EPERM;
		}
	} else if (req == GPIO_V2_LINE_GET_VALUES_IOCTL || req == GPIO_V2_LINE_SET_VALUES_IOCTL) {
		struct gpio_v2_line_values *lv;

		d = umockdev_ioctl_data_resolve(arg, 0, sizeof(*lv), NULL);
		lv = (struct gpio_v2_line_values *)(void *)d->data;
		if (req == GPIO_V2_LINE_GET_VALUES_IOCTL) {
			lv->bits = (lv->mask & 1) ? (uint64_t)g->value[off] : 0;
		} else if (may_set && g->is_out[off]) {
			if (lv->mask & 1) {
				g->value[off] = (int)(lv->bits & 1);
				gemu_log(g, (int)off, g->value[off]);
			}
		} else {
			res = -1;
			*err = EPERM;
		}
	} else {
		res = -1;
		*err = ENOTTY;
	}
	if (d)
		g_object_unref(d);
	return res;
}

static inline gboolean gemu_handle_ioctl(UMockdevIoctlBase *b, UMockdevIoctlClient *cl, gpointer user)
{
	struct gemu *g = user;
	struct gemu_handle *h = g_object_get_data(G_OBJECT(cl), "handle");
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl);
	unsigned long req = umockdev_ioctl_client_get_request(cl);
	long res;
	int err = 0;

	(void)b;
	pthread_mutex_lock(&g->lock);
	if (!h) {
		res = -1;
		err = EBADF;
	} else {
		res = gemu_value_ioctl(g, h->off, req, arg, 1, &err);
	}
	pthread_mutex_unlock(&g->lock);
	umockdev_ioctl_client_complete(cl, res, err);
	return TRUE;
}

static inline void gemu_event_connected(UMockdevIoctlBase *b, UMockdevIoctlClient *cl,
					gpointer user)
{
	struct gemu *g = user;

	(void)b;
	gemu_attach(g, cl, &g->pending_ev);
}

/* The line event fd's ioctls: the kernel allows reading the value, nothing else. */
static inline gboolean gemu_event_ioctl(UMockdevIoctlBase *b, UMockdevIoctlClient *cl,
					gpointer user)
{
	struct gemu *g = user;
	struct gemu_handle *h = g_object_get_data(G_OBJECT(cl), "handle");
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl);
	unsigned long req = umockdev_ioctl_client_get_request(cl);
	long res;
	int err = 0;

	(void)b;
	pthread_mutex_lock(&g->lock);
	if (!h) {
		res = -1;
		err = EBADF;
	} else {
		res = gemu_value_ioctl(g, h->off, req, arg, 0, &err);
		if (!res)
			g->value_reads[h->off]++;
	}
	pthread_mutex_unlock(&g->lock);
	umockdev_ioctl_client_complete(cl, res, err);
	return TRUE;
}

static inline UMockdevTestbed *gemu_start(struct gemu *g)
{
	UMockdevTestbed *tb = umockdev_testbed_new();
	UMockdevIoctlBase *hc = umockdev_ioctl_base_new(), *hh = umockdev_ioctl_base_new();
	UMockdevIoctlBase *he = umockdev_ioctl_base_new();
	struct termios tio;
	GError *e = NULL;
	gchar *root, *path;
	int master;

	memset(g, 0, sizeof(*g));
	pthread_mutex_init(&g->lock, NULL);
	g_queue_init(&g->pending);
	g_queue_init(&g->pending_ev);
	g->tb = tb;
	g->ev_line = -1;
	g->wire_fd = -1;
	/* "dev=254:0\n" with a literal backslash-n: libgpiod drops the last byte of the file.
	 * gpiolineevent has no content: umockdev backs it with a pty. */
	if (!umockdev_testbed_add_from_string(tb,
					      "P: /devices/platform/gpio-mock.0/gpiochip0\n"
					      "N: gpiochip0=00\n"
					      "E: SUBSYSTEM=gpio\n"
					      "E: DEVNAME=/dev/gpiochip0\n"
					      "A: dev=254:0\\n\n"
					      "\n"
					      "P: /devices/platform/gpio-mock.0/gpiolineevent\n"
					      "N: gpiolineevent\n"
					      "E: SUBSYSTEM=iowatt-test\n"
					      "E: DEVNAME=/dev/gpiolineevent\n"
					      "A: dev=254:1\n",
					      &e)) {
		printf("Bail out! testbed: %s\n", e->message);
		exit(1);
	}
	root = umockdev_testbed_get_root_dir(tb);
	path = g_build_filename(root, "dev", "gpiolinehandle", NULL);
	g_file_set_contents(path, "", 0, NULL);
	g_signal_connect(hc, "handle-ioctl", G_CALLBACK(gemu_chip_ioctl), g);
	g_signal_connect(hh, "handle-ioctl", G_CALLBACK(gemu_handle_ioctl), g);
	g_signal_connect(hh, "client-connected", G_CALLBACK(gemu_connected), g);
	g_signal_connect(he, "handle-ioctl", G_CALLBACK(gemu_event_ioctl), g);
	g_signal_connect(he, "client-connected", G_CALLBACK(gemu_event_connected), g);
	if (!umockdev_testbed_attach_ioctl(tb, "/dev/gpiochip0", hc, &e) ||
	    !umockdev_testbed_attach_ioctl(tb, "/dev/gpiolinehandle", hh, &e) ||
	    !umockdev_testbed_attach_ioctl(tb, "/dev/gpiolineevent", he, &e)) {
		printf("Bail out! attach: %s\n", e->message);
		exit(1);
	}
	/* Binary records: no line discipline between the master and the reader. */
	master = umockdev_testbed_get_dev_fd(tb, "/dev/gpiolineevent");
	if (master < 0 || tcgetattr(master, &tio) < 0) {
		printf("Bail out! no pty behind /dev/gpiolineevent\n");
		exit(1);
	}
	cfmakeraw(&tio);
	tcsetattr(master, TCSANOW, &tio);
	g_object_unref(hc);
	g_object_unref(hh);
	g_object_unref(he);
	g_free(path);
	g_free(root);
	return tb;
}

static inline void gemu_set(struct gemu *g, int line, int value)
{
	pthread_mutex_lock(&g->lock);
	g->value[line] = value;
	pthread_mutex_unlock(&g->lock);
}

/*
 * The line changes to `value`; when an event request watches that edge, the record the
 * kernel would queue (timestamp t_ns, as the test chooses) is written for the reader.
 * Returns 1 when a record was written.
 */
static inline int gemu_edge(struct gemu *g, int line, int value, uint64_t t_ns)
{
	struct gpioevent_data ev;
	struct gpio_v2_line_event ev2;
	unsigned want;
	int wrote = 0;

	pthread_mutex_lock(&g->lock);
	want = value ? GPIOEVENT_REQUEST_RISING_EDGE : GPIOEVENT_REQUEST_FALLING_EDGE;
	if (g->value[line] != value && g->ev_line == line && (g->ev_flags & want) && g->ev_v2) {
		memset(&ev2, 0, sizeof(ev2));
		ev2.timestamp_ns = t_ns;
		ev2.id = value ? GPIO_V2_LINE_EVENT_RISING_EDGE : GPIO_V2_LINE_EVENT_FALLING_EDGE;
		ev2.offset = (uint32_t)line;
		ev2.seqno = ev2.line_seqno = ++g->ev_seqno;
		wrote = write(umockdev_testbed_get_dev_fd(g->tb, "/dev/gpiolineevent"), &ev2,
			      sizeof(ev2)) == (ssize_t)sizeof(ev2);
	} else if (g->value[line] != value && g->ev_line == line && (g->ev_flags & want)) {
		memset(&ev, 0, sizeof(ev));
		ev.timestamp = t_ns;
		ev.id = value ? GPIOEVENT_EVENT_RISING_EDGE : GPIOEVENT_EVENT_FALLING_EDGE;
		wrote = write(umockdev_testbed_get_dev_fd(g->tb, "/dev/gpiolineevent"), &ev,
			      sizeof(ev)) == (ssize_t)sizeof(ev);
	}
	g->value[line] = value;
	pthread_mutex_unlock(&g->lock);
	return wrote;
}

#endif
