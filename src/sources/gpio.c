/* SPDX-License-Identifier: MIT */
/* GPIO through libgpiod 1.x: phase marker output and undervoltage input (only gpiod.h user). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/log.h"
#include "core/phase.h"
#include "core/util.h"
#include "sources/gpio.h"

#define CONSUMER "iowatt"

#ifdef HAVE_GPIOD
#include <dirent.h>
#include <gpiod.h>

struct gpio_line {
	struct gpiod_chip *chip;
	struct gpiod_line *line;
	int active_low;
	char spec[64];
};

struct gpio_marker {
	struct gpio_line l;
};

struct gpio_uv {
	struct gpio_line l;
	struct event_queue *events;
	pthread_t thread;
	atomic_int stop;
	int asserted;
};

/* "CHIP:LINE[,active_low]" -> chip and line opened (not requested). */
static int gpio_line_open(const char *spec, const char *opt, struct gpio_line *l)
{
	char buf[64], *colon, *comma, *end;
	unsigned long off;

	memset(l, 0, sizeof(*l));
	snprintf(l->spec, sizeof(l->spec), "%s", spec);
	snprintf(buf, sizeof(buf), "%s", spec);
	colon = strrchr(buf, ':');
	comma = strchr(colon ? colon : buf, ',');
	if (comma) {
		*comma = 0;
		if (strcmp(comma + 1, "active_low")) {
			log_err("gpio", "%s %s: unknown flag '%s' (only active_low)", opt, spec,
				comma + 1);
			return -EINVAL;
		}
		l->active_low = 1;
	}
	if (!colon || colon == buf || !colon[1]) {
		log_err("gpio", "%s %s: use CHIP:LINE, e.g. gpiochip0:17", opt, spec);
		return -EINVAL;
	}
	*colon = 0;
	l->chip = gpiod_chip_open_lookup(buf);
	if (!l->chip) {
		log_err("gpio", "%s %s: cannot open GPIO chip '%s': %s", opt, spec, buf,
			strerror(errno));
		return -ENODEV;
	}
	errno = 0;
	off = strtoul(colon + 1, &end, 10);
	if (!*end && !errno)
		l->line = gpiod_chip_get_line(l->chip, (unsigned)off);
	else
		l->line = gpiod_chip_find_line(l->chip, colon + 1);
	if (!l->line) {
		log_err("gpio", "%s %s: chip %s has no line '%s' (it has %u lines)", opt, spec,
			gpiod_chip_name(l->chip), colon + 1, gpiod_chip_num_lines(l->chip));
		gpiod_chip_close(l->chip);
		return -ENOENT;
	}
	return 0;
}

static int gpio_request_err(struct gpio_line *l, const char *opt)
{
	int err = errno;

	if (err == EBUSY)
		log_err("gpio", "%s %s: line is in use by '%s' (a kernel driver or another program)",
			opt, l->spec, gpiod_line_consumer(l->line) ? gpiod_line_consumer(l->line) : "?");
	else
		log_err("gpio", "%s %s: cannot request the line: %s", opt, l->spec, strerror(err));
	gpiod_chip_close(l->chip);
	return -err;
}

int gpio_marker_open(const char *spec, struct gpio_marker **out)
{
	struct gpio_marker *m = xcalloc(1, sizeof(*m));
	int ret;

	*out = NULL;
	ret = gpio_line_open(spec, "--mark-gpio", &m->l);
	if (!ret && gpiod_line_request_output(m->l.line, CONSUMER, m->l.active_low) < 0)
		ret = gpio_request_err(&m->l, "--mark-gpio");
	if (ret < 0) {
		free(m);
		return ret;
	}
	*out = m;
	return 0;
}

int gpio_marker_set(struct gpio_marker *m, int level, uint64_t *t_ns)
{
	uint64_t t0 = now_ns();
	int err;

	if (gpiod_line_set_value(m->l.line, !!level ^ m->l.active_low) < 0) {
		err = errno;
		log_err("gpio", "--mark-gpio %s: set value: %s", m->l.spec, strerror(err));
		return -err;
	}
	if (t_ns)
		*t_ns = t0 + (now_ns() - t0) / 2;
	return 0;
}

int gpio_marker_phase(struct gpio_marker *m, int phase, uint64_t *t_ns)
{
	int ret;

	switch (phase) {
	case PHASE_IDLE:
		ret = gpio_marker_set(m, 1, t_ns);
		if (ret < 0)
			return ret;
		sleep_ns(GPIO_MARK_PULSE_NS);
		return gpio_marker_set(m, 0, NULL);
	case PHASE_ACTIVE:
		return gpio_marker_set(m, 1, t_ns);
	default:
		return gpio_marker_set(m, 0, t_ns);
	}
}

void gpio_marker_close(struct gpio_marker *m)
{
	if (!m)
		return;
	gpiod_line_set_value(m->l.line, m->l.active_low);
	gpiod_line_release(m->l.line);
	gpiod_chip_close(m->l.chip);
	free(m);
}

static void gpio_uv_edge(struct gpio_uv *u, int asserted, uint64_t t)
{
	u->asserted = asserted;
	event_pushf(u->events, asserted ? EV_UNDERVOLTAGE : EV_UNDERVOLTAGE_END, t, "gpio",
		     "%s %s", u->l.spec, asserted ? "asserted" : "released");
}

static void *gpio_uv_thread(void *arg)
{
	struct gpio_uv *u = arg;
	uint64_t next = now_ns(), t;
	int v, failed = 0;

	while (!atomic_load(&u->stop)) {
		v = gpiod_line_get_value(u->l.line);
		t = now_ns();
		if (v < 0) {
			if (!failed++)
				log_warn("gpio", "--uv-gpio %s: read failed: %s", u->l.spec,
					 strerror(errno));
		} else if ((v ^ u->l.active_low) != u->asserted) {
			gpio_uv_edge(u, v ^ u->l.active_low, t);
		}
		next += GPIO_UV_POLL_NS;
		if (next < t)
			next = t + GPIO_UV_POLL_NS;
		sleep_until_ns(next);
	}
	return NULL;
}

int gpio_uv_start(const char *spec, struct event_queue *events, struct gpio_uv **out)
{
	struct gpio_uv *u = xcalloc(1, sizeof(*u));
	int ret, v;

	*out = NULL;
	u->events = events;
	ret = gpio_line_open(spec, "--uv-gpio", &u->l);
	if (!ret && gpiod_line_request_input(u->l.line, CONSUMER) < 0)
		ret = gpio_request_err(&u->l, "--uv-gpio");
	if (ret < 0) {
		free(u);
		return ret;
	}
	v = gpiod_line_get_value(u->l.line);
	if (v >= 0 && (v ^ u->l.active_low))
		gpio_uv_edge(u, 1, now_ns());
	ret = pthread_create(&u->thread, NULL, gpio_uv_thread, u);
	if (ret) {
		log_err("gpio", "--uv-gpio %s: cannot start the poll thread: %s", spec, strerror(ret));
		gpiod_line_release(u->l.line);
		gpiod_chip_close(u->l.chip);
		free(u);
		return -ret;
	}
	*out = u;
	return 0;
}

void gpio_uv_stop(struct gpio_uv *u)
{
	if (!u)
		return;
	atomic_store(&u->stop, 1);
	pthread_join(u->thread, NULL);
	gpiod_line_release(u->l.line);
	gpiod_chip_close(u->l.chip);
	free(u);
}

void gpio_scan(const char *sysfs_root, FILE *out)
{
	char path[300];
	struct gpiod_chip *chip;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sys/bus/gpio/devices", sysfs_root ? sysfs_root : "");
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "gpiochip", 8))
			continue;
		chip = gpiod_chip_open_by_name(de->d_name);
		fprintf(out, "  GPIO %s (%s, %u lines)\n      --mark-gpio %s:LINE   --uv-gpio %s:LINE[,active_low]\n",
			de->d_name, chip ? gpiod_chip_label(chip) : "?",
			chip ? gpiod_chip_num_lines(chip) : 0, de->d_name, de->d_name);
		if (chip)
			gpiod_chip_close(chip);
	}
	closedir(d);
}

#else /* !HAVE_GPIOD */

struct gpio_marker {
	int unused;
};
struct gpio_uv {
	int unused;
};

static int gpio_missing(const char *opt)
{
	log_err("gpio", "%s needs libgpiod, which this build lacks (install libgpiod-dev and rebuild)",
		opt);
	return -ENOTSUP;
}

int gpio_marker_open(const char *spec, struct gpio_marker **out)
{
	(void)spec;
	*out = NULL;
	return gpio_missing("--mark-gpio");
}

int gpio_marker_set(struct gpio_marker *m, int level, uint64_t *t_ns)
{
	(void)m;
	(void)level;
	(void)t_ns;
	return -ENOTSUP;
}

int gpio_marker_phase(struct gpio_marker *m, int phase, uint64_t *t_ns)
{
	(void)m;
	(void)phase;
	(void)t_ns;
	return -ENOTSUP;
}

void gpio_marker_close(struct gpio_marker *m)
{
	(void)m;
}

int gpio_uv_start(const char *spec, struct event_queue *events, struct gpio_uv **out)
{
	(void)spec;
	(void)events;
	*out = NULL;
	return gpio_missing("--uv-gpio");
}

void gpio_uv_stop(struct gpio_uv *u)
{
	(void)u;
}

void gpio_scan(const char *sysfs_root, FILE *out)
{
	(void)sysfs_root;
	fprintf(out, "  GPIO: not available (built without libgpiod)\n");
}

#endif
