/* SPDX-License-Identifier: MIT */
/* GPIO adapter for libgpiod 2.x (GPIO v2 uAPI): the only includer of gpiod.h in such a build. */
#ifdef HAVE_GPIOD2
#include <errno.h>
#include <fcntl.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/sysfs.h"
#include "core/util.h"
#include "sources/gpio_line.h"

#define MOD "gpio"
#define CONSUMER "iowatt"
#define GPIO_BUS_DIR "/sys/bus/gpio/devices"
#define CHIP_PREFIX "gpiochip"
#define DEV_DIR "/dev/"
/* As the v1 adapter: the kernel's per-line event FIFO holds 16. */
#define EDGES_PER_READ 16

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpiod_line_request *req;
	struct gpiod_edge_event_buffer *edges; /* edge requests only */
	unsigned offset;
	const struct gpio_spec *sp;
};

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The chip whose label is `label`, found among /sys/bus/gpio/devices/gpiochip*. */
static struct gpiod_chip *open_by_label(const char *label)
{
	struct gpiod_chip *chip = NULL, *c;
	struct gpiod_chip_info *info;
	char **names, path[GPIO_NAME_LEN + sizeof(DEV_DIR)];
	int n, i;

	n = sysfs_list(NULL, GPIO_BUS_DIR, CHIP_PREFIX, &names);
	for (i = 0; i < n && !chip; i++) {
		snprintf(path, sizeof(path), DEV_DIR "%s", names[i]);
		c = gpiod_chip_open(path);
		info = c ? gpiod_chip_get_info(c) : NULL;
		if (info && !strcmp(gpiod_chip_info_get_label(info), label))
			chip = c;
		else if (c)
			gpiod_chip_close(c);
		if (info)
			gpiod_chip_info_free(info);
	}
	sysfs_list_free(names, n);
	if (!chip)
		errno = ENOENT;
	return chip;
}

/* What libgpiod 1.x's gpiod_chip_open_lookup() accepted: a path, a name, a number, a label. */
static struct gpiod_chip *chip_lookup(const char *spec)
{
	char path[GPIO_NAME_LEN + sizeof(DEV_DIR CHIP_PREFIX)];

	if (spec[0] == '/')
		return gpiod_chip_open(spec);
	if (all_digits(spec)) {
		snprintf(path, sizeof(path), DEV_DIR CHIP_PREFIX "%s", spec);
		return gpiod_chip_open(path);
	}
	if (!strncmp(spec, CHIP_PREFIX, strlen(CHIP_PREFIX))) {
		snprintf(path, sizeof(path), DEV_DIR "%s", spec);
		return gpiod_chip_open(path);
	}
	return open_by_label(spec);
}

static unsigned chip_lines(struct gpiod_chip *chip)
{
	struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
	unsigned n = info ? (unsigned)gpiod_chip_info_get_num_lines(info) : 0;

	if (info)
		gpiod_chip_info_free(info);
	return n;
}

/* Chip and line offset found (not requested yet). */
static int line_open(const struct gpio_spec *sp, struct gpio_line *l)
{
	unsigned long off;
	char *end;
	int found;

	l->sp = sp;
	l->chip = chip_lookup(sp->chip);
	if (!l->chip) {
		log_err(MOD, "%s %s: cannot open GPIO chip '%s': %s", sp->opt, sp->text, sp->chip,
			strerror(errno));
		return -ENODEV;
	}
	errno = 0;
	off = strtoul(sp->line, &end, 10);
	if (!*end && !errno && sp->line[0])
		found = off < chip_lines(l->chip) ? (int)off : -1;
	else
		found = gpiod_chip_get_line_offset_from_name(l->chip, sp->line);
	if (found < 0) {
		log_err(MOD, "%s %s: chip %s has no line '%s' (it has %u lines)", sp->opt, sp->text,
			sp->chip, sp->line, chip_lines(l->chip));
		gpiod_chip_close(l->chip);
		return -ENOENT;
	}
	l->offset = (unsigned)found;
	return 0;
}

static int request_failed(struct gpio_line *l)
{
	int err = errno;
	struct gpiod_line_info *info = gpiod_chip_get_line_info(l->chip, l->offset);
	const char *who = info ? gpiod_line_info_get_consumer(info) : NULL;

	if (err == EBUSY)
		log_err(MOD, "%s %s: line is in use by '%s' (a kernel driver or another program)",
			l->sp->opt, l->sp->text, who ? who : "?");
	else
		log_err(MOD, "%s %s: cannot request the line: %s", l->sp->opt, l->sp->text,
			strerror(err));
	if (info)
		gpiod_line_info_free(info);
	return -err;
}

/* One line, as an output at value or an input with both edges; NULL with errno set. */
static struct gpiod_line_request *request(struct gpio_line *l, int output, int value)
{
	struct gpiod_line_settings *set = gpiod_line_settings_new();
	struct gpiod_line_config *lc = gpiod_line_config_new();
	struct gpiod_request_config *rc = gpiod_request_config_new();
	struct gpiod_line_request *req = NULL;
	int ok = set && lc && rc;

	if (ok && output)
		ok = !gpiod_line_settings_set_direction(set, GPIOD_LINE_DIRECTION_OUTPUT) &&
		     !gpiod_line_settings_set_output_value(set, value ? GPIOD_LINE_VALUE_ACTIVE
								      : GPIOD_LINE_VALUE_INACTIVE);
	else if (ok)
		ok = !gpiod_line_settings_set_direction(set, GPIOD_LINE_DIRECTION_INPUT) &&
		     !gpiod_line_settings_set_edge_detection(set, GPIOD_LINE_EDGE_BOTH);
	if (ok && !gpiod_line_config_add_line_settings(lc, &l->offset, 1, set)) {
		gpiod_request_config_set_consumer(rc, CONSUMER);
		req = gpiod_chip_request_lines(l->chip, rc, lc);
	}
	if (!ok && !errno)
		errno = ENOMEM;
	gpiod_request_config_free(rc);
	gpiod_line_config_free(lc);
	gpiod_line_settings_free(set);
	return req;
}

static void line_free(struct gpio_line *l)
{
	if (l->edges)
		gpiod_edge_event_buffer_free(l->edges);
	if (l->req)
		gpiod_line_request_release(l->req);
	if (l->chip)
		gpiod_chip_close(l->chip);
	free(l);
}

static int line_request(const struct gpio_spec *sp, int output, int value, struct gpio_line **out)
{
	struct gpio_line *l = xcalloc(1, sizeof(*l));
	int ret, fd, fl;

	*out = NULL;
	ret = line_open(sp, l);
	if (ret < 0) {
		free(l);
		return ret;
	}
	l->req = request(l, output, value);
	if (!l->req) {
		ret = request_failed(l);
		line_free(l);
		return ret;
	}
	if (!output) {
		l->edges = gpiod_edge_event_buffer_new(EDGES_PER_READ);
		/* The watcher drains the request fd until EAGAIN. */
		fd = gpiod_line_request_get_fd(l->req);
		fl = fcntl(fd, F_GETFL);
		if (!l->edges || fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
			ret = errno ? -errno : -ENOMEM;
			log_err(MOD, "%s %s: edge fd: %s", sp->opt, sp->text, strerror(-ret));
			line_free(l);
			return ret;
		}
	}
	*out = l;
	return 0;
}

int gpio_line_request_output(const struct gpio_spec *sp, int value, struct gpio_line **out)
{
	return line_request(sp, 1, value, out);
}

int gpio_line_request_edges(const struct gpio_spec *sp, struct gpio_line **out)
{
	return line_request(sp, 0, 0, out);
}

int gpio_line_set(struct gpio_line *l, int value)
{
	int err;

	if (gpiod_line_request_set_value(l->req, l->offset, value ? GPIOD_LINE_VALUE_ACTIVE
								   : GPIOD_LINE_VALUE_INACTIVE) < 0) {
		err = errno;
		log_err(MOD, "%s %s: set value: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return 0;
}

int gpio_line_get(struct gpio_line *l)
{
	enum gpiod_line_value v = gpiod_line_request_get_value(l->req, l->offset);
	int err;

	if (v == GPIOD_LINE_VALUE_ERROR) {
		err = errno;
		log_warn(MOD, "%s %s: read failed: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return v == GPIOD_LINE_VALUE_ACTIVE;
}

int gpio_line_fd(const struct gpio_line *l)
{
	return gpiod_line_request_get_fd(l->req);
}

int gpio_line_read_edges(struct gpio_line *l, struct gpio_edge *out, unsigned max)
{
	struct gpiod_edge_event *ev;
	int n, i, err;

	n = gpiod_line_request_read_edge_events(l->req, l->edges,
						max < EDGES_PER_READ ? max : EDGES_PER_READ);
	if (n < 0) {
		err = errno;
		if (err == EAGAIN || err == EINTR)
			return 0;
		log_warn(MOD, "%s %s: reading edges: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	for (i = 0; i < n; i++) {
		ev = gpiod_edge_event_buffer_get_event(l->edges, (unsigned long)i);
		out[i].stamp_ns = gpiod_edge_event_get_timestamp_ns(ev);
		out[i].rising = gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE;
	}
	return n;
}

void gpio_line_release(struct gpio_line *l)
{
	if (l)
		line_free(l);
}

void gpio_chips_describe(const char *sysfs_root, FILE *out)
{
	struct gpiod_chip *chip;
	struct gpiod_chip_info *info;
	char **names, path[GPIO_NAME_LEN + sizeof(DEV_DIR)];
	int n, i;

	n = sysfs_list(sysfs_root, GPIO_BUS_DIR, CHIP_PREFIX, &names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DEV_DIR "%s", names[i]);
		chip = gpiod_chip_open(path);
		info = chip ? gpiod_chip_get_info(chip) : NULL;
		fprintf(out, "      %s (%s, %zu lines): --uv-gpio %s:LINE[,active_low]   "
			     "--mark-gpio %s:LINE\n", names[i],
			info ? gpiod_chip_info_get_label(info) : "?",
			info ? gpiod_chip_info_get_num_lines(info) : (size_t)0, names[i], names[i]);
		if (info)
			gpiod_chip_info_free(info);
		if (chip)
			gpiod_chip_close(chip);
	}
	if (!n)
		fprintf(out, "      no GPIO chips\n");
	sysfs_list_free(names, n);
}
#endif
