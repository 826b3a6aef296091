/* SPDX-License-Identifier: MIT */
/* GPIO phase markers and the undervoltage input against an emulated gpiochip0 (umockdev). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_util.h"
#include "board_util.h"
#include "core/events.h"
#include "gpio_emul.h"
#include "run/energy.h"
#include "sources/gpio.h"
#include "tap.h"
#include "umock_asan.h"

/* stderr of the call under test, to check its messages */
static struct capture cap;

static struct gemu g;

/* Copy of the driven levels of one line since index `from`. */
static int levels(int line, int from, struct gemu_edge *out, int max)
{
	int i, n = 0;

	g_mutex_lock(&g.lock);
	for (i = from; i < g.nlog && n < max; i++)
		if (g.log[i].line == line)
			out[n++] = g.log[i];
	g_mutex_unlock(&g.lock);
	return n;
}

static int nlog(void)
{
	int n;

	g_mutex_lock(&g.lock);
	n = g.nlog;
	g_mutex_unlock(&g.lock);
	return n;
}

static void test_marker(void)
{
	struct gpio_marker *m = NULL;
	struct gemu_edge e[8];
	uint64_t t0, t1, t_edge;
	int n, from;

	is_int(gpio_marker_open("gpiochip0:17", &m), 0, "marker on gpiochip0:17");
	n = levels(17, 0, e, 8);
	ok(n == 1 && e[0].value == 0, "requested as output, driven low");
	g_mutex_lock(&g.lock);
	ok(g.is_out[17], "the chip sees an output line");
	g_mutex_unlock(&g.lock);

	from = nlog();
	t0 = now_ns();
	is_int(gpio_marker_phase(m, PHASE_IDLE, &t_edge), 0, "job start pulse");
	t1 = now_ns();
	n = levels(17, from, e, 8);
	ok(n == 2 && e[0].value == 1 && e[1].value == 0, "pulse: high then low");
	ok(n == 2 && e[1].t_ns - e[0].t_ns >= GPIO_MARK_PULSE_NS, "pulse lasts at least 1 ms");
	ok(t0 <= e[0].t_ns && e[0].t_ns <= t1 && t0 <= t_edge && t_edge <= t1,
	   "returned edge time brackets the chip's rising edge");

	from = nlog();
	t0 = now_ns();
	gpio_marker_phase(m, PHASE_ACTIVE, &t_edge);
	t1 = now_ns();
	n = levels(17, from, e, 8);
	ok(n == 1 && e[0].value == 1 && t0 <= e[0].t_ns && e[0].t_ns <= t1,
	   "idle->active: line high, edge within the call");
	from = nlog();
	gpio_marker_phase(m, PHASE_TAIL, &t_edge);
	n = levels(17, from, e, 8);
	ok(n == 1 && e[0].value == 0, "active->tail: line low");
	ok(e[0].t_ns >= t1, "falling edge after the rising one");
	gpio_marker_close(m);
	g_mutex_lock(&g.lock);
	ok(g.value[17] == 0, "closed: line left low");
	g_mutex_unlock(&g.lock);

	is_int(gpio_marker_open("gpiochip0:MARK", &m), 0, "marker by line name");
	gpio_marker_close(m);
}

static void test_bad_specs(void)
{
	struct gpio_marker *m = NULL;
	const char *log;

	capture_begin(&cap, 2);
	is_int(gpio_marker_open("gpiochip0", &m), -EINVAL, "no line: -EINVAL");
	is_int(gpio_marker_open("gpiochip0:99", &m), -ENOENT, "line 99 of 64: -ENOENT");
	is_int(gpio_marker_open("gpiochip0:17,pullup", &m), -EINVAL, "unknown flag");
	is_int(gpio_marker_open("gpiochip7:1", &m), -ENODEV, "missing chip: -ENODEV");
	log = capture_end(&cap);
	ok(strstr(log, "--mark-gpio gpiochip0:99") && strstr(log, "64 lines"),
	   "errors name the option and the spec");
}

/* Poll the event queue for one of `kind` (the uv thread reads every 10 ms). */
static int wait_event(int kind, struct run_event *out)
{
	uint64_t end = now_ns() + 3 * NS_PER_SEC;

	while (now_ns() < end) {
		if (test_events_pop(out, 1) == 1) {
			if (out->kind == kind)
				return 1;
			return 0; /* a different event first: out of order */
		}
		sleep_ns(2 * NS_PER_MS);
	}
	return 0;
}

static void test_uv(void)
{
	struct gpio_uv *u = NULL;
	struct run_event ev;
	uint64_t t_set, t_uv = 0;

	test_events_drain();
	gemu_set(&g, 35, 1); /* PWR_LOW_N released (active low) */
	is_int(gpio_uv_start("gpiochip0:35,active_low", test_queue(), &u), 0, "uv input on gpiochip0:35, active low");
	sleep_ns(30 * NS_PER_MS);
	is_int(test_events_pop(&ev, 1), 0, "released line: no event");
	t_set = now_ns();
	gemu_set(&g, 35, 0);
	ok(wait_event(EV_UNDERVOLTAGE, &ev), "line pulled low -> EV_UNDERVOLTAGE");
	is_str(ev.source, "gpio", "... from source gpio");
	ok(ev.t_ns >= t_set, "... timed after the line changed");
	t_uv = ev.t_ns;
	t_set = now_ns();
	gemu_set(&g, 35, 1);
	ok(wait_event(EV_UNDERVOLTAGE_END, &ev), "line released -> EV_UNDERVOLTAGE_END");
	ok(ev.t_ns >= t_set && ev.t_ns > t_uv, "... after the start event");
	gpio_uv_stop(u);

	gemu_set(&g, 35, 0);
	is_int(gpio_uv_start("gpiochip0:PWR_LOW_N,active_low", test_queue(), &u), 0, "by line name");
	ok(wait_event(EV_UNDERVOLTAGE, &ev), "already asserted at start -> event");
	gpio_uv_stop(u);
	gemu_set(&g, 35, 1);
}

int main(void)
{
	UMockdevTestbed *tb;

	if (gemu_skip())
		return 0;
	tb = gemu_start(&g);
	test_marker();
	test_bad_specs();
	test_uv();
	g_object_unref(tb);
	return done_testing();
}
