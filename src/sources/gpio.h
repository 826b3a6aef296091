/* SPDX-License-Identifier: MIT */
/* GPIO phase marker: an output line that shows a logic analyser the measured window. */
#ifndef IOWATT_GPIO_H
#define IOWATT_GPIO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Specs: "CHIP:LINE[,active_low]". CHIP is gpiochipN, /dev/gpiochipN, a chip label or a
 * number; LINE is an offset or a line name. active_low inverts the line in iowatt (the
 * request itself stays active-high, so gpioinfo shows the raw level). Built without
 * libgpiod, opening fails with -ENOTSUP and a message saying so. The undervoltage input
 * (--uv-gpio) is an event source (gpio_uv.c).
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

/* An edge driven on the marker line: the midpoint of the set call, half its duration
 * (the edge lies within +- that), the line's level after it (after active_low: what a
 * meter's digital input wired to it sees). */
struct gpio_mark_edge {
	uint64_t t_ns, half_ns;
	int level;
};

/* Request the line as an output, driven low. 0 or -errno (logged, naming the spec). */
int gpio_marker_open(const char *spec, struct gpio_marker **out);
/* Drive the line to `level` (0/1, before active_low); t_ns (may be NULL) gets the edge. */
int gpio_marker_set(struct gpio_marker *m, int level, uint64_t *t_ns);
/* The waveform above; `phase` is enum phase from core/phase.h. */
int gpio_marker_phase(struct gpio_marker *m, int phase, uint64_t *t_ns);
/* The edges driven at or after since_ns (the last 16 at most), oldest first: how many. */
size_t gpio_marker_edges(const struct gpio_marker *m, uint64_t since_ns,
			 struct gpio_mark_edge *out, size_t max);
/* Drives the line low and releases it. NULL is fine. */
void gpio_marker_close(struct gpio_marker *m);

#endif
