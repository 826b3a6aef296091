/* SPDX-License-Identifier: MIT */
/* GPIO adapter for libgpiod 1.x (GPIO v1 uAPI): the only includer of gpiod.h. */
#if defined(HAVE_GPIOD) && !defined(HAVE_GPIOD2)
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
/* The kernel's per-line event FIFO holds 16; libgpiod 1.x reads at most that many. */
#define EDGES_PER_READ 16

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpiod_line *line;
	const struct gpio_spec *sp;
};

/* Chip and line found (not requested yet). */
static int line_open(const struct gpio_spec *sp, struct gpio_line *l)
{
	unsigned long off;
	char *end;

	l->sp = sp;
	l->chip = gpiod_chip_open_lookup(sp->chip);
	if (!l->chip) {
		log_err(MOD, "%s %s: cannot open GPIO chip '%s': %s", sp->opt, sp->text, sp->chip,
			strerror(errno));
		return -ENODEV;
	}
	errno = 0;
	off = strtoul(sp->line, &end, 10);
	if (!*end && !errno)
		l->line = gpiod_chip_get_line(l->chip, (unsigned)off);
	else
		l->line = gpiod_chip_find_line(l->chip, sp->line);
	if (!l->line) {
		log_err(MOD, "%s %s: chip %s has no line '%s' (it has %u lines)", sp->opt, sp->text,
			gpiod_chip_name(l->chip), sp->line, gpiod_chip_num_lines(l->chip));
		gpiod_chip_close(l->chip);
		return -ENOENT;
	}
	return 0;
}

static int request_failed(struct gpio_line *l)
{
	int err = errno;
	const char *who = gpiod_line_consumer(l->line);

	if (err == EBUSY)
		log_err(MOD, "%s %s: line is in use by '%s' (a kernel driver or another program)",
			l->sp->opt, l->sp->text, who ? who : "?");
	else
		log_err(MOD, "%s %s: cannot request the line: %s", l->sp->opt, l->sp->text,
			strerror(err));
	gpiod_chip_close(l->chip);
	return -err;
}

static int line_request(const struct gpio_spec *sp, int output, int value, struct gpio_line **out)
{
	struct gpio_line *l = xcalloc(1, sizeof(*l));
	int ret, fl;

	*out = NULL;
	ret = line_open(sp, l);
	if (!ret && output && gpiod_line_request_output(l->line, CONSUMER, value) < 0)
		ret = request_failed(l);
	if (!ret && !output && gpiod_line_request_both_edges_events(l->line, CONSUMER) < 0)
		ret = request_failed(l);
	/* The watcher drains the edge fd until EAGAIN; the kernel allows O_NONBLOCK on it. */
	if (!ret && !output) {
		fl = fcntl(gpiod_line_event_get_fd(l->line), F_GETFL);
		if (fl < 0 || fcntl(gpiod_line_event_get_fd(l->line), F_SETFL, fl | O_NONBLOCK) < 0) {
			ret = -errno;
			log_err(MOD, "%s %s: edge fd: %s", sp->opt, sp->text, strerror(errno));
			gpiod_line_release(l->line);
			gpiod_chip_close(l->chip);
		}
	}
	if (ret < 0) {
		free(l);
		return ret;
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

	if (gpiod_line_set_value(l->line, value) < 0) {
		err = errno;
		log_err(MOD, "%s %s: set value: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return 0;
}

int gpio_line_get(struct gpio_line *l)
{
	int v = gpiod_line_get_value(l->line), err;

	if (v < 0) {
		err = errno;
		log_warn(MOD, "%s %s: read failed: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return v;
}

int gpio_line_fd(const struct gpio_line *l)
{
	return gpiod_line_event_get_fd(l->line);
}

int gpio_line_read_edges(struct gpio_line *l, struct gpio_edge *out, unsigned max)
{
	struct gpiod_line_event ev[EDGES_PER_READ];
	int n, i, err;

	n = gpiod_line_event_read_multiple(l->line, ev, max < EDGES_PER_READ ? max : EDGES_PER_READ);
	if (n < 0) {
		err = errno;
		if (err == EAGAIN || err == EINTR)
			return 0;
		log_warn(MOD, "%s %s: reading edges: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	for (i = 0; i < n; i++) {
		out[i].stamp_ns = (uint64_t)ev[i].ts.tv_sec * NS_PER_SEC + (uint64_t)ev[i].ts.tv_nsec;
		out[i].rising = ev[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
	}
	return n;
}

void gpio_line_release(struct gpio_line *l)
{
	if (!l)
		return;
	gpiod_line_release(l->line);
	gpiod_chip_close(l->chip);
	free(l);
}

void gpio_chips_describe(const char *sysfs_root, FILE *out)
{
	struct gpiod_chip *chip;
	char **names;
	int n, i;

	n = sysfs_list(sysfs_root, GPIO_BUS_DIR, CHIP_PREFIX, &names);
	for (i = 0; i < n; i++) {
		chip = gpiod_chip_open_by_name(names[i]);
		fprintf(out, "      %s (%s, %u lines): --uv-gpio %s:LINE[,active_low]   "
			     "--mark-gpio %s:LINE\n", names[i], chip ? gpiod_chip_label(chip) : "?",
			chip ? gpiod_chip_num_lines(chip) : 0, names[i], names[i]);
		if (chip)
			gpiod_chip_close(chip);
	}
	if (!n)
		fprintf(out, "      no GPIO chips\n");
	sysfs_list_free(names, n);
}
#endif
