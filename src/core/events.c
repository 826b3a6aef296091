/* SPDX-License-Identifier: MIT */
/* A bounded, mutex-protected queue of run events that any thread may push. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/events.h"
#include "core/util.h"

#define EVENTS_CAP 1024

static struct run_event ring[EVENTS_CAP];
static size_t head, count;
static uint64_t dropped;
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;

void events_push(const struct run_event *ev)
{
	pthread_mutex_lock(&ev_lock);
	if (count == EVENTS_CAP) {
		head = (head + 1) % EVENTS_CAP;
		count--;
		dropped++;
	}
	ring[(head + count) % EVENTS_CAP] = *ev;
	count++;
	pthread_mutex_unlock(&ev_lock);
}

void events_pushf(int kind, uint64_t t_ns, const char *source, const char *fmt, ...)
{
	struct run_event ev;
	va_list ap;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.t_ns = t_ns ? t_ns : now_ns();
	snprintf(ev.source, sizeof(ev.source), "%s", source ? source : "");
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof(ev.text), fmt, ap);
	va_end(ap);
	events_push(&ev);
}

size_t events_pop(struct run_event *out, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&ev_lock);
	while (n < max && count) {
		out[n++] = ring[head];
		head = (head + 1) % EVENTS_CAP;
		count--;
	}
	pthread_mutex_unlock(&ev_lock);
	return n;
}

uint64_t events_dropped(void)
{
	uint64_t d;

	pthread_mutex_lock(&ev_lock);
	d = dropped;
	pthread_mutex_unlock(&ev_lock);
	return d;
}

const char *event_kind_name(int kind)
{
	static const char *const names[EV_KIND_COUNT] = {
		[EV_UNDERVOLTAGE] = "undervoltage",
		[EV_UNDERVOLTAGE_END] = "undervoltage_end",
		[EV_THROTTLED] = "throttled",
		[EV_USB_OVERCURRENT] = "usb_overcurrent",
		[EV_USB_DISCONNECT] = "usb_disconnect",
		[EV_METER_GAP] = "meter_gap",
		[EV_METER_RECONNECT] = "meter_reconnect",
		[EV_METER_RESET] = "meter_reset",
		[EV_TEMPERATURE] = "temperature",
		[EV_INFO] = "info",
	};

	if (kind < 0 || kind >= EV_KIND_COUNT)
		return "unknown";
	return names[kind];
}

int event_invalidates(int kind)
{
	return kind == EV_UNDERVOLTAGE || kind == EV_USB_OVERCURRENT || kind == EV_USB_DISCONNECT;
}
