/* SPDX-License-Identifier: MIT */
/* GPIO library calls for libgpiod 1.x (GPIO v1 uAPI); the only file including gpiod.h in such a build. */
#if defined(HAVE_GPIOD) && !defined(HAVE_GPIOD2)
#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/mem.h"
#include "sources/gpio_lib.h"

/* libgpiod 1.x hands out a line owned by its chip: the request is that line. */
struct gpio_lib_req {
	struct gpiod_line *line;
};

struct gpiod_chip *gpio_lib_chip_open(const char *path)
{
	return gpiod_chip_open(path);
}

void gpio_lib_chip_close(struct gpiod_chip *c)
{
	gpiod_chip_close(c);
}

unsigned gpio_lib_chip_info(struct gpiod_chip *c, char *label, size_t len)
{
	snprintf(label, len, "%s", gpiod_chip_label(c));
	return gpiod_chip_num_lines(c);
}

int gpio_lib_line_find(struct gpiod_chip *c, const char *name)
{
	struct gpiod_line *line = gpiod_chip_find_line(c, name);

	return line ? (int)gpiod_line_offset(line) : -1;
}

void gpio_lib_line_consumer(struct gpiod_chip *c, unsigned offset, char *who, size_t len)
{
	struct gpiod_line *line = gpiod_chip_get_line(c, offset);
	const char *s = line ? gpiod_line_consumer(line) : NULL;

	snprintf(who, len, "%s", s ? s : "");
}

struct gpio_lib_req *gpio_lib_request(struct gpiod_chip *c, unsigned offset, const char *consumer,
				      int output, int value)
{
	struct gpiod_line *line = gpiod_chip_get_line(c, offset);
	struct gpio_lib_req *r;
	int ret;

	if (!line)
		return NULL;
	ret = output ? gpiod_line_request_output(line, consumer, value)
		     : gpiod_line_request_both_edges_events(line, consumer);
	if (ret < 0)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->line = line;
	return r;
}

void gpio_lib_release(struct gpio_lib_req *r)
{
	if (!r)
		return;
	gpiod_line_release(r->line);
	free(r);
}

int gpio_lib_set(struct gpio_lib_req *r, int value)
{
	return gpiod_line_set_value(r->line, value);
}

int gpio_lib_get(struct gpio_lib_req *r)
{
	return gpiod_line_get_value(r->line);
}

int gpio_lib_fd(const struct gpio_lib_req *r)
{
	return gpiod_line_event_get_fd(r->line);
}

int gpio_lib_read_edges(struct gpio_lib_req *r, struct gpio_edge *out, unsigned max)
{
	struct gpiod_line_event ev[GPIO_EDGES_PER_READ];
	int n, i;

	n = gpiod_line_event_read_multiple(r->line, ev, max);
	for (i = 0; i < n; i++) {
		out[i].stamp_ns = (uint64_t)ev[i].ts.tv_sec * NS_PER_SEC + (uint64_t)ev[i].ts.tv_nsec;
		out[i].rising = ev[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
	}
	return n;
}
#endif
