/* SPDX-License-Identifier: MIT */
/* GPIO phase markers (output) and an undervoltage input line as a flag source. */
#ifndef IOWATT_GPIO_H
#define IOWATT_GPIO_H

#include <stdint.h>
#include <stdio.h>

/*
 * Specs: "CHIP:LINE[,active_low]". CHIP is gpiochipN, /dev/gpiochipN, a chip label or a
 * number; LINE is an offset or a line name (PWR_LOW_N). active_low inverts the line in
 * iowatt (the request itself stays active-high, so gpioinfo shows the raw level).
 * Built without libgpiod, every call fails with -ENOTSUP and a message saying so.
 */

/*
 * Phase marker waveform, per job (levels after active_low):
 *
 *        job start      idle→active            active→tail
 *           |              |                       |
 *   ________┌┐_____________┌───────────────────────┐___________ next job ┌┐...
 *           1 ms           rising edge at the       falling edge at the
 *           pulse          start of the measured    end of the measured
 *                          (active) phase           phase; low in the tail
 *
 * The line rests low. gpio_marker_phase(PHASE_IDLE) emits the 1 ms "job start" pulse
 * (rising edge = start of the idle baseline); PHASE_ACTIVE drives it high; PHASE_TAIL
 * drives it low. So a PPK2 / Otii / Joulescope digital input or a logic analyser sees the
 * measured window as the long high level, and each job's start as the short pulse before
 * it. *t_ns gets the CLOCK_MONOTONIC time of the edge (midpoint of the set-value ioctl),
 * to store next to the phase timestamps so traces can be aligned to within the ioctl
 * time (microseconds).
 */
#define GPIO_MARK_PULSE_NS 1000000ull

struct gpio_marker;

/* Request the line as an output, driven low. 0 or -errno (logged, naming the spec). */
int gpio_marker_open(const char *spec, struct gpio_marker **out);
/* Drive the line to `level` (0/1, before active_low); t_ns (may be NULL) gets the edge. */
int gpio_marker_set(struct gpio_marker *m, int level, uint64_t *t_ns);
/* The waveform above; `phase` is enum phase from core/phase.h. */
int gpio_marker_phase(struct gpio_marker *m, int phase, uint64_t *t_ns);
/* Drives the line low and releases it. NULL is fine. */
void gpio_marker_close(struct gpio_marker *m);

/*
 * Undervoltage input: a thread reads the line every GPIO_UV_POLL_NS and pushes
 * EV_UNDERVOLTAGE when it becomes asserted and EV_UNDERVOLTAGE_END when it is released
 * (source "gpio"; also at start if already asserted). Polling rather than line events:
 * the brown-out supervisor holds the line for far longer than 10 ms, polling works on
 * every kernel, and umockdev 0.17 cannot emulate GPIO line events for the tests. The
 * event time is that of the read that saw the change, so it lags by at most one period.
 */
#define GPIO_UV_POLL_NS 10000000ull

struct gpio_uv;

struct event_queue;
/* Events go to `events`. */
int gpio_uv_start(const char *spec, struct event_queue *events, struct gpio_uv **out);
/* Stops within one poll period; NULL is fine. */
void gpio_uv_stop(struct gpio_uv *u);

/* For `iowatt meters`: the machine's GPIO chips with specs to paste. */
void gpio_scan(const char *sysfs_root, FILE *out);

#endif
