/* SPDX-License-Identifier: MIT */
/* GPIO phase marker output: a pulse at each job's start, high through the measured phase. */
#include <stdlib.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/phase.h"
#include "sources/gpio.h"
#include "sources/gpio_line.h"

struct gpio_marker {
	struct gpio_spec sp;
	struct gpio_line *line;
};

int gpio_marker_open(const char *spec, struct gpio_marker **out)
{
	struct gpio_marker *m = xcalloc(1, sizeof(*m));
	int ret;

	*out = NULL;
	ret = gpio_spec_parse(spec, "--mark-gpio", &m->sp);
	if (!ret)
		ret = gpio_line_request_output(&m->sp, m->sp.active_low, &m->line);
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
	int ret = gpio_line_set(m->line, !!level ^ m->sp.active_low);

	if (!ret && t_ns)
		*t_ns = t0 + (now_ns() - t0) / 2;
	return ret;
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
	gpio_line_set(m->line, m->sp.active_low);
	gpio_line_release(m->line);
	free(m);
}
