/* SPDX-License-Identifier: MIT */
/* One GPIO line through whichever libgpiod the build has: its whole interface. */
#ifndef IOWATT_GPIO_LINE_H
#define IOWATT_GPIO_LINE_H

#include <stdint.h>
#include <stdio.h>

/* "gpiochip0", "/dev/gpiochip0", a label or a number; a line offset or name */
#define GPIO_NAME_LEN 64

/* A parsed "CHIP:LINE[,active_low]" (gpio_spec.c), named in every message as "OPT SPEC". */
struct gpio_spec {
	char chip[GPIO_NAME_LEN];
	char line[GPIO_NAME_LEN];
	int active_low; /* iowatt inverts; the request stays active-high (gpioinfo shows raw) */
	char text[GPIO_NAME_LEN * 2];
	const char *opt; /* "--mark-gpio", "--uv-gpio" */
};

/* 0, or -EINVAL after saying what is wrong with the spec. */
int gpio_spec_parse(const char *spec, const char *opt, struct gpio_spec *out);

/* One edge as the kernel queued it. */
struct gpio_edge {
	uint64_t stamp_ns; /* the kernel's timestamp: see gpio_edge_mono_ns() */
	int rising;	   /* raw level went 0 -> 1 */
};

/*
 * gpio_line.c over the library calls of gpio_lib.h (gpio_gpiod1.c for libgpiod 1.x,
 * gpio_gpiod2.c for 2.x), or gpio_none.c without libgpiod. Levels are raw. Every function
 * returns 0 / a count or -errno after logging once, naming sp->opt and the spec.
 */
struct gpio_line;

/* Request as an output driven to value. */
int gpio_line_request_output(const struct gpio_spec *sp, int value, struct gpio_line **out);
/* Request as an input with events on both edges, queued by the kernel with its stamps. */
int gpio_line_request_edges(const struct gpio_spec *sp, struct gpio_line **out);
int gpio_line_set(struct gpio_line *l, int value);
/* The level now: 0 or 1. */
int gpio_line_get(struct gpio_line *l);
/* Readable (POLLIN) when edges are queued. */
int gpio_line_fd(const struct gpio_line *l);
/* Queued edges, oldest first, up to max; 0 when none: never blocks. */
int gpio_line_read_edges(struct gpio_line *l, struct gpio_edge *out, unsigned max);
/* NULL is fine. */
void gpio_line_release(struct gpio_line *l);
/* For `iowatt meters`: the chips with their labels and line counts. */
void gpio_chips_describe(const char *sysfs_root, FILE *out);

/*
 * An edge's stamp on CLOCK_MONOTONIC. The v1 uAPI stamps edges with CLOCK_MONOTONIC since
 * Linux 5.7 and with CLOCK_REALTIME before; the v2 uAPI uses CLOCK_MONOTONIC unless asked
 * otherwise. A stamp later than mono_now cannot be monotonic (the edge was read after it
 * happened): it is taken as realtime and moved by the clocks' current offset. One that
 * still makes no sense (after now, or 0) becomes mono_now, the time it was read.
 */
uint64_t gpio_edge_mono_ns(uint64_t stamp_ns, uint64_t mono_now, uint64_t real_now);

#endif
