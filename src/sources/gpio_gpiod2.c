/* SPDX-License-Identifier: MIT */
/* GPIO library calls for libgpiod 2.x (GPIO v2 uAPI); the only file including gpiod.h in such a build. */
#ifdef HAVE_GPIOD2
#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>

#include "core/mem.h"
#include "sources/gpio_lib.h"

struct gpio_lib_req {
	struct gpiod_line_request *req;
	struct gpiod_edge_event_buffer *edges; /* edge requests only */
	unsigned offset;
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
	struct gpiod_chip_info *info = gpiod_chip_get_info(c);
	unsigned n = info ? (unsigned)gpiod_chip_info_get_num_lines(info) : 0;

	snprintf(label, len, "%s", info ? gpiod_chip_info_get_label(info) : "");
	if (info)
		gpiod_chip_info_free(info);
	return n;
}

int gpio_lib_line_find(struct gpiod_chip *c, const char *name)
{
	return gpiod_chip_get_line_offset_from_name(c, name);
}

void gpio_lib_line_consumer(struct gpiod_chip *c, unsigned offset, char *who, size_t len)
{
	struct gpiod_line_info *info = gpiod_chip_get_line_info(c, offset);
	const char *s = info ? gpiod_line_info_get_consumer(info) : NULL;

	snprintf(who, len, "%s", s ? s : "");
	if (info)
		gpiod_line_info_free(info);
}

/* The line's settings: an output at value, or an input with both edges. */
static int settings(struct gpiod_line_settings *set, int output, int value)
{
	if (output)
		return gpiod_line_settings_set_direction(set, GPIOD_LINE_DIRECTION_OUTPUT) ||
		       gpiod_line_settings_set_output_value(set, value ? GPIOD_LINE_VALUE_ACTIVE
								       : GPIOD_LINE_VALUE_INACTIVE);
	return gpiod_line_settings_set_direction(set, GPIOD_LINE_DIRECTION_INPUT) ||
	       gpiod_line_settings_set_edge_detection(set, GPIOD_LINE_EDGE_BOTH);
}

struct gpio_lib_req *gpio_lib_request(struct gpiod_chip *c, unsigned offset, const char *consumer,
				      int output, int value)
{
	struct gpiod_line_settings *set = gpiod_line_settings_new();
	struct gpiod_line_config *lc = gpiod_line_config_new();
	struct gpiod_request_config *rc = gpiod_request_config_new();
	struct gpio_lib_req *r = xcalloc(1, sizeof(*r));

	r->offset = offset;
	if (set && lc && rc && !settings(set, output, value) &&
	    !gpiod_line_config_add_line_settings(lc, &offset, 1, set)) {
		gpiod_request_config_set_consumer(rc, consumer);
		r->req = gpiod_chip_request_lines(c, rc, lc);
	}
	if (r->req && !output)
		r->edges = gpiod_edge_event_buffer_new(GPIO_EDGES_PER_READ);
	gpiod_request_config_free(rc);
	gpiod_line_config_free(lc);
	gpiod_line_settings_free(set);
	if (!r->req || (!output && !r->edges)) {
		if (!errno)
			errno = ENOMEM;
		gpio_lib_release(r);
		return NULL;
	}
	return r;
}

void gpio_lib_release(struct gpio_lib_req *r)
{
	if (!r)
		return;
	if (r->edges)
		gpiod_edge_event_buffer_free(r->edges);
	if (r->req)
		gpiod_line_request_release(r->req);
	free(r);
}

int gpio_lib_set(struct gpio_lib_req *r, int value)
{
	return gpiod_line_request_set_value(r->req, r->offset,
					    value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

int gpio_lib_get(struct gpio_lib_req *r)
{
	enum gpiod_line_value v = gpiod_line_request_get_value(r->req, r->offset);

	if (v == GPIOD_LINE_VALUE_ERROR)
		return -1;
	return v == GPIOD_LINE_VALUE_ACTIVE;
}

int gpio_lib_fd(const struct gpio_lib_req *r)
{
	return gpiod_line_request_get_fd(r->req);
}

int gpio_lib_read_edges(struct gpio_lib_req *r, struct gpio_edge *out, unsigned max)
{
	struct gpiod_edge_event *ev;
	int n, i;

	n = gpiod_line_request_read_edge_events(r->req, r->edges, max);
	for (i = 0; i < n; i++) {
		ev = gpiod_edge_event_buffer_get_event(r->edges, (unsigned long)i);
		out[i].stamp_ns = gpiod_edge_event_get_timestamp_ns(ev);
		out[i].rising = gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE;
	}
	return n;
}
#endif
