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
	uint64_t t_ns;	    /* CLOCK_MONOTONIC; coalesced: the first occurrence's */
	uint64_t t_end_ns;  /* 0 for an instant */
	uint64_t t_last_ns; /* coalesced: the last occurrence's time; 0 for one event */
	uint64_t count;	    /* occurrences it stands for; 0 on a push means 1 */
	int kind;	    /* enum event_kind */
	char source[128];   /* "kmsg", "rpi_volt", "get_throttled", "um25c:/dev/pts/3", "gpio" */
	char text[200];	    /* the first occurrence's kernel line, flag value or description */
};

/* How many occurrences an event stands for, and when the last of them was. */
uint64_t event_count(const struct run_event *ev);
uint64_t event_last_ns(const struct run_event *ev);

/*
 * A run's event queue: any thread pushes, the run's main loop pops; every operation but
 * peek is O(1). Events of one kind from one source with the same text, numbers aside,
 * coalesce: while an entry of that kind and source is in the queue and its epoch is open, a
 * new one adds to its count and moves its last time instead of taking a place (a flood is
 * one entry). event_queue_seal closes
 * the current entries: what comes after starts new ones (a record sealed at each phase
 * keeps its counts per phase).
 *
 * Bounded, with one drop policy: when `limit` entries are held, the oldest entry that
 * decides nothing is dropped (its events counted); an entry that decides validity or ends
 * an undervoltage span (event_must_keep) is never dropped: a new one joins its kind and
 * source's newest entry, sealed or not, and only a kind and source without an entry takes
 * a place past the limit. A NULL queue discards what is pushed (a meter probed outside a
 * run).
 */
struct event_queue;

struct event_queue *event_queue_new(void);
/* The same holding up to `limit` entries before the policy drops one (a run's record); its
 * memory grows with what it holds. */
struct event_queue *event_queue_new_cap(size_t limit);
void event_queue_free(struct event_queue *q);
void event_push(struct event_queue *q, const struct run_event *ev);
void event_pushf(struct event_queue *q, int kind, uint64_t t_ns, const char *source,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
size_t event_pop(struct event_queue *q, struct run_event *out, size_t max);
/* Copies entries first .. first + max - 1, oldest first, without removing them. */
size_t event_queue_peek(struct event_queue *q, size_t first, struct run_event *out, size_t max);
/* Entries held (each may stand for many events). */
size_t event_queue_count(struct event_queue *q);
/* Events dropped because the queue was full (the counts of the entries dropped). */
uint64_t event_queue_dropped(struct event_queue *q);
/* Entries held now take no more events: later ones of their kind and source start anew. */
void event_queue_seal(struct event_queue *q);
const char *event_kind_name(int kind);
/* Kinds that make an overlapped job invalid. */
int event_invalidates(int kind);
/* Kinds no queue or store may drop: they decide validity or close a span that does. */
int event_must_keep(int kind);

#endif
