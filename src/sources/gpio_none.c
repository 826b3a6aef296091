/* SPDX-License-Identifier: MIT */
/* GPIO adapter for a build without libgpiod: every request fails and says why. */
#ifndef HAVE_GPIOD
#include <errno.h>

#include "core/log.h"
#include "sources/gpio_line.h"

struct gpio_line {
	int unused;
};

static int gpio_missing(const struct gpio_spec *sp)
{
	log_err("gpio", "%s needs libgpiod, which this build lacks (install libgpiod-dev and "
			"rebuild)", sp->opt);
	return -ENOTSUP;
}

int gpio_line_request_output(const struct gpio_spec *sp, int value, struct gpio_line **out)
{
	(void)value;
	*out = NULL;
	return gpio_missing(sp);
}

int gpio_line_request_edges(const struct gpio_spec *sp, struct gpio_line **out)
{
	*out = NULL;
	return gpio_missing(sp);
}

int gpio_line_set(struct gpio_line *l, int value)
{
	(void)l;
	(void)value;
	return -ENOTSUP;
}

int gpio_line_get(struct gpio_line *l)
{
	(void)l;
	return -ENOTSUP;
}

int gpio_line_fd(const struct gpio_line *l)
{
	(void)l;
	return -1;
}

int gpio_line_read_edges(struct gpio_line *l, struct gpio_edge *out, unsigned max)
{
	(void)l;
	(void)out;
	(void)max;
	return -ENOTSUP;
}

void gpio_line_release(struct gpio_line *l)
{
	(void)l;
}

void gpio_chips_describe(const char *sysfs_root, FILE *out)
{
	(void)sysfs_root;
	fprintf(out, "      not available (built without libgpiod)\n");
}
#endif
