/* SPDX-License-Identifier: MIT */
/* One GPIO line over either libgpiod adapter: chip lookup, line names, messages, edge reads. */
#ifdef HAVE_GPIOD
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "sources/gpio_lib.h"

#define MOD "gpio"
#define CONSUMER "iowatt"
#define GPIO_BUS_DIR "/sys/bus/gpio/devices"
#define CHIP_PREFIX "gpiochip"
#define DEV_DIR "/dev/"

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpio_lib_req *req;
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

/* The chip of /dev/NAME. */
static struct gpiod_chip *open_by_name(const char *name)
{
	char path[GPIO_NAME_LEN + sizeof(DEV_DIR CHIP_PREFIX)];

	snprintf(path, sizeof(path), DEV_DIR "%s", name);
	return gpio_lib_chip_open(path);
}

/* The chip whose label is `label`, found among /sys/bus/gpio/devices/gpiochip*. */
static struct gpiod_chip *open_by_label(const char *label)
{
	struct gpiod_chip *chip = NULL, *c;
	char **names, l[GPIO_NAME_LEN];
	int n, i;

	n = sysfs_list(NULL, GPIO_BUS_DIR, CHIP_PREFIX, &names);
	for (i = 0; i < n && !chip; i++) {
		c = open_by_name(names[i]);
		if (!c)
			continue;
		gpio_lib_chip_info(c, l, sizeof(l));
		if (!strcmp(l, label))
			chip = c;
		else
			gpio_lib_chip_close(c);
	}
	sysfs_list_free(names, n);
	if (!chip)
		errno = ENOENT;
	return chip;
}

/* What libgpiod 1.x's gpiod_chip_open_lookup() accepted: a path, a name, a number, a label. */
static struct gpiod_chip *chip_lookup(const char *spec)
{
	char name[GPIO_NAME_LEN + sizeof(CHIP_PREFIX)];

	if (spec[0] == '/')
		return gpio_lib_chip_open(spec);
	if (all_digits(spec)) {
		snprintf(name, sizeof(name), CHIP_PREFIX "%s", spec);
		return open_by_name(name);
	}
	if (!strncmp(spec, CHIP_PREFIX, strlen(CHIP_PREFIX)))
		return open_by_name(spec);
	return open_by_label(spec);
}

/* Chip and line offset found (not requested yet). */
static int line_open(const struct gpio_spec *sp, struct gpio_line *l)
{
	char label[GPIO_NAME_LEN];
	unsigned long off;
	unsigned lines;
	char *end;
	int found;

	l->sp = sp;
	l->chip = chip_lookup(sp->chip);
	if (!l->chip) {
		log_err(MOD, "%s %s: cannot open GPIO chip '%s': %s", sp->opt, sp->text, sp->chip,
			strerror(errno));
		return -ENODEV;
	}
	lines = gpio_lib_chip_info(l->chip, label, sizeof(label));
	errno = 0;
	off = strtoul(sp->line, &end, 10);
	if (!*end && !errno && sp->line[0])
		found = off < lines ? (int)off : -1;
	else
		found = gpio_lib_line_find(l->chip, sp->line);
	if (found < 0) {
		log_err(MOD, "%s %s: chip %s has no line '%s' (it has %u lines)", sp->opt, sp->text,
			sp->chip, sp->line, lines);
		return -ENOENT;
	}
	l->offset = (unsigned)found;
	return 0;
}

static int request_failed(struct gpio_line *l)
{
	int err = errno ? errno : ENOMEM;
	char who[GPIO_NAME_LEN];

	if (err == EBUSY) {
		gpio_lib_line_consumer(l->chip, l->offset, who, sizeof(who));
		log_err(MOD, "%s %s: line is in use by '%s' (a kernel driver or another program)",
			l->sp->opt, l->sp->text, who[0] ? who : "?");
	} else {
		log_err(MOD, "%s %s: cannot request the line: %s", l->sp->opt, l->sp->text,
			strerror(err));
	}
	return -err;
}

/* The watcher drains the edge fd until EAGAIN; the kernel allows O_NONBLOCK on it. */
static int edges_nonblocking(struct gpio_line *l)
{
	int fd = gpio_lib_fd(l->req), fl = fcntl(fd, F_GETFL), err;

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		err = errno;
		log_err(MOD, "%s %s: edge fd: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return 0;
}

static int line_request(const struct gpio_spec *sp, int output, int value, struct gpio_line **out)
{
	struct gpio_line *l = xcalloc(1, sizeof(*l));
	int ret;

	*out = NULL;
	ret = line_open(sp, l);
	if (!ret) {
		errno = 0;
		l->req = gpio_lib_request(l->chip, l->offset, CONSUMER, output, value);
		if (!l->req)
			ret = request_failed(l);
	}
	if (!ret && !output)
		ret = edges_nonblocking(l);
	if (ret < 0) {
		gpio_line_release(l);
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

	if (gpio_lib_set(l->req, !!value) < 0) {
		err = errno;
		log_err(MOD, "%s %s: set value: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return 0;
}

int gpio_line_get(struct gpio_line *l)
{
	int v = gpio_lib_get(l->req), err;

	if (v < 0) {
		err = errno;
		log_warn(MOD, "%s %s: read failed: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return v;
}

int gpio_line_fd(const struct gpio_line *l)
{
	return gpio_lib_fd(l->req);
}

int gpio_line_read_edges(struct gpio_line *l, struct gpio_edge *out, unsigned max)
{
	int n, err;

	n = gpio_lib_read_edges(l->req, out, max < GPIO_EDGES_PER_READ ? max : GPIO_EDGES_PER_READ);
	if (n < 0) {
		err = errno;
		if (err == EAGAIN || err == EINTR)
			return 0;
		log_warn(MOD, "%s %s: reading edges: %s", l->sp->opt, l->sp->text, strerror(err));
		return -err;
	}
	return n;
}

void gpio_line_release(struct gpio_line *l)
{
	if (!l)
		return;
	gpio_lib_release(l->req);
	if (l->chip)
		gpio_lib_chip_close(l->chip);
	free(l);
}

void gpio_chips_describe(const char *sysfs_root, FILE *out)
{
	struct gpiod_chip *chip;
	char **names, label[GPIO_NAME_LEN];
	unsigned lines;
	int n, i;

	n = sysfs_list(sysfs_root, GPIO_BUS_DIR, CHIP_PREFIX, &names);
	for (i = 0; i < n; i++) {
		chip = open_by_name(names[i]);
		lines = chip ? gpio_lib_chip_info(chip, label, sizeof(label)) : 0;
		fprintf(out, "      %s (%s, %u lines): --uv-gpio %s:LINE[,active_low]   "
			     "--mark-gpio %s:LINE\n", names[i], chip && label[0] ? label : "?",
			lines, names[i], names[i]);
		if (chip)
			gpio_lib_chip_close(chip);
	}
	if (!n)
		fprintf(out, "      no GPIO chips\n");
	sysfs_list_free(names, n);
}
#endif
