/* SPDX-License-Identifier: MIT */
/* Timed run events (undervoltage, throttling, USB faults, meter gaps) from any thread. */
#ifndef IOWATT_EVENTS_H
#define IOWATT_EVENTS_H

#include <stddef.h>
#include <stdint.h>

enum event_kind {
	EV_UNDERVOLTAGE,	/* undervoltage seen (flag, kmsg, GPIO line, meter volts) */
	EV_UNDERVOLTAGE_END,	/* "Voltage normalised", alarm cleared, line released */
	EV_THROTTLED,		/* firmware throttling / frequency cap */
	EV_USB_OVERCURRENT,
	EV_USB_DISCONNECT,	/* the target's USB port dropped the device */
	EV_METER_GAP,		/* a meter lost its link or stalled */
	EV_METER_RECONNECT,
	EV_METER_RESET,		/* e.g. INA219 calibration read back 0: reprogrammed */
	EV_TEMPERATURE,		/* informational */
	EV_INFO,
	EV_KIND_COUNT
};

struct run_event {
	uint64_t t_ns;	   /* CLOCK_MONOTONIC */
	uint64_t t_end_ns; /* 0 for an instant */
	int kind;	   /* enum event_kind */
	char source[128];  /* "kmsg", "rpi_volt", "get_throttled", "um25c:/dev/pts/3", "gpio" */
	char text[200];	   /* the kernel line, flag value, or a short description */
};

/*
 * A run's event queue: any thread pushes, the run's main loop pops. Bounded with one drop
 * policy: when full, the oldest event that decides nothing is dropped (and counted);
 * an event that decides validity or ends an undervoltage span (event_must_keep) is never
 * dropped, the queue grows for it. A NULL queue discards what is pushed (a meter probed
 * outside a run).
 */
struct event_queue;

struct event_queue *event_queue_new(void);
/* The same holding up to `limit` events before the policy drops one (a run's record); its
 * memory grows with what it holds. */
struct event_queue *event_queue_new_cap(size_t limit);
void event_queue_free(struct event_queue *q);
void event_push(struct event_queue *q, const struct run_event *ev);
void event_pushf(struct event_queue *q, int kind, uint64_t t_ns, const char *source,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
size_t event_pop(struct event_queue *q, struct run_event *out, size_t max);
/* Copies events first .. first + max - 1, oldest first, without removing them. */
size_t event_queue_peek(struct event_queue *q, size_t first, struct run_event *out, size_t max);
size_t event_queue_count(struct event_queue *q);
/* Informational events dropped because the queue was full. */
uint64_t event_queue_dropped(struct event_queue *q);
const char *event_kind_name(int kind);
/* Kinds that make an overlapped job invalid. */
int event_invalidates(int kind);
/* Kinds no queue or store may drop: they decide validity or close a span that does. */
int event_must_keep(int kind);

#endif
