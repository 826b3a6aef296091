/* SPDX-License-Identifier: MIT */
/* Undervoltage input line (--uv-gpio) as an event source: the kernel's edge events. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "sources/gpio_line.h"
#include "sources/gpio_uv/gpio_uv.h"
#include "sources/source-internal.h"

/* Edges taken per read; more stay queued and wake poll() again. */
#define UV_EDGES 16

struct gpio_uv {
	struct gpio_spec sp;
	struct gpio_line *line;
	int asserted;
};

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static int uv_open(struct source *src)
{
	struct gpio_uv *u;
	int ret;

	if (!src->cfg->uv_gpio)
		return SOURCE_OFF;
	u = xcalloc(1, sizeof(*u));
	ret = gpio_spec_parse(src->cfg->uv_gpio, "--uv-gpio", &u->sp);
	if (!ret)
		ret = gpio_line_request_edges(&u->sp, &u->line);
	if (ret < 0) {
		free(u);
		return ret;
	}
	src->fd = gpio_line_fd(u->line);
	src->poll_events = POLLIN;
	src->priv = u;
	return 0;
}

static void uv_change(struct source *src, int asserted, uint64_t t)
{
	struct gpio_uv *u = src->priv;

	u->asserted = asserted;
	event_pushf(src->events, asserted ? EV_UNDERVOLTAGE : EV_UNDERVOLTAGE_END, t, src->drv->name,
		    "%s %s", u->sp.text, asserted ? "asserted" : "released");
}

/* A line already asserted is an undervoltage now; its edge came before the request. */
static int uv_start(struct source *src)
{
	struct gpio_uv *u = src->priv;
	int v = gpio_line_get(u->line);

	if (v >= 0 && (v ^ u->sp.active_low))
		uv_change(src, 1, now_ns());
	return 0;
}

/*
 * Each edge carries the kernel's timestamp, taken in the interrupt handler: the event is
 * dated when the line moved, not when the watcher woke. An edge that does not change the
 * state (the one the start level already showed, or a bounce pair read together) is
 * not an event.
 */
static int uv_read(struct source *src, uint64_t now)
{
	struct gpio_uv *u = src->priv;
	struct gpio_edge e[UV_EDGES];
	uint64_t mono, real;
	int n, i, asserted;

	(void)now;
	do {
		n = gpio_line_read_edges(u->line, e, UV_EDGES);
		/* After the read: every stamp in hand is older than these. */
		mono = now_ns();
		real = realtime_ns();
		for (i = 0; i < n; i++) {
			asserted = e[i].rising ^ u->sp.active_low;
			if (asserted != u->asserted)
				uv_change(src, asserted, gpio_edge_mono_ns(e[i].stamp_ns, mono, real));
		}
	} while (n == UV_EDGES);
	return n < 0 ? n : 0;
}

static void uv_close(struct source *src)
{
	struct gpio_uv *u = src->priv;

	if (!u)
		return;
	gpio_line_release(u->line);
	free(u);
	src->priv = NULL;
	src->fd = -1;
}

static void uv_describe(const char *root, int covered, FILE *out)
{
	(void)covered;
	gpio_chips_describe(root, out);
}

const struct source_driver source_gpio_uv = {
	.name = "gpio",
	.desc = "an undervoltage line, --uv-gpio CHIP:LINE[,active_low]: its edge events with "
		"the kernel's timestamps",
	.open = uv_open,
	.start = uv_start,
	.read = uv_read,
	.close = uv_close,
	.describe = uv_describe,
};
