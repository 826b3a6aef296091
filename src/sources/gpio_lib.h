/* SPDX-License-Identifier: MIT */
/* The libgpiod calls one GPIO line needs, one adapter per library API (gpio_gpiod1.c, gpio_gpiod2.c). */
#ifndef IOWATT_GPIO_LIB_H
#define IOWATT_GPIO_LIB_H

#include <stddef.h>

#include "sources/gpio_line.h"

/* The kernel's per-line event FIFO holds 16: no read asks for more. */
#define GPIO_EDGES_PER_READ 16

/*
 * gpio_line.c holds the logic (chip lookup, line names, messages, non-blocking edges) and
 * calls only these. They log nothing: NULL or -1 with errno set on failure.
 */
struct gpiod_chip; /* libgpiod's own chip handle: the same type in 1.x and 2.x */
struct gpio_lib_req;

/* A chip by its /dev path. */
struct gpiod_chip *gpio_lib_chip_open(const char *path);
void gpio_lib_chip_close(struct gpiod_chip *c);
/* The chip's line count (0 if unknown); its label into label ("" if unknown). */
unsigned gpio_lib_chip_info(struct gpiod_chip *c, char *label, size_t len);
/* The offset of the line named name, or -1. */
int gpio_lib_line_find(struct gpiod_chip *c, const char *name);
/* Who holds the line, into who ("" if nobody or unknown). */
void gpio_lib_line_consumer(struct gpiod_chip *c, unsigned offset, char *who, size_t len);
/* One line as an output at value (0/1), or an input with events on both edges. */
struct gpio_lib_req *gpio_lib_request(struct gpiod_chip *c, unsigned offset, const char *consumer,
				      int output, int value);
/* Before its chip is closed. NULL is fine. */
void gpio_lib_release(struct gpio_lib_req *r);
int gpio_lib_set(struct gpio_lib_req *r, int value);
/* 0/1, or -1. */
int gpio_lib_get(struct gpio_lib_req *r);
int gpio_lib_fd(const struct gpio_lib_req *r);
/* Queued edges into out (max <= GPIO_EDGES_PER_READ): their count, or -1 (EAGAIN: none). */
int gpio_lib_read_edges(struct gpio_lib_req *r, struct gpio_edge *out, unsigned max);

#endif
