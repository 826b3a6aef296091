/* SPDX-License-Identifier: MIT */
/* GPIO phase marker output: a pulse at each job's start, high through the measured phase. */
#include <stdlib.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/phase.h"
#include "sources/gpio.h"
#include "sources/gpio_line.h"

/* The last edges driven, for a job's result (four a job). */
#define MARK_LOG 16

struct gpio_marker {
	struct gpio_spec sp;
	struct gpio_line *line;
	struct gpio_mark_edge log[MARK_LOG];
	unsigned nlog; /* edges driven so far; the last MARK_LOG are kept */
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
	int wire = !!level ^ m->sp.active_low;
	uint64_t t0 = now_ns();
	int ret = gpio_line_set(m->line, wire);
	uint64_t half = (now_ns() - t0) / 2;

	if (ret)
		return ret;
	m->log[m->nlog++ % MARK_LOG] = (struct gpio_mark_edge){ t0 + half, half, wire };
	if (t_ns)
		*t_ns = t0 + half;
	return 0;
}

size_t gpio_marker_edges(const struct gpio_marker *m, uint64_t since_ns,
			 struct gpio_mark_edge *out, size_t max)
{
	unsigned i = m->nlog > MARK_LOG ? m->nlog - MARK_LOG : 0;
	size_t n = 0;

	for (; i < m->nlog && n < max; i++)
		if (m->log[i % MARK_LOG].t_ns >= since_ns)
			out[n++] = m->log[i % MARK_LOG];
	return n;
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
