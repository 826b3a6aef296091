/* SPDX-License-Identifier: MIT */
/* GPIO phase markers and the undervoltage input's edge events on an emulated gpiochip0. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "events_util.h"
#include "board_util.h"
#include "core/events.h"
#include "gpio_emul.h"
#include "energy/energy.h"
#include "sources/gpio.h"
#include "sources/registry/registry.h"
#include "sources/sources.h"
#include "tap.h"
#include "umock_asan.h"

/* stderr of the call under test, to check its messages */
static struct capture cap;

static struct gemu g;

#define UV_LINE 35
/* Only a fallback so a broken watcher fails instead of hanging; nothing is timed. */
#define WAIT_NS (15 * NS_PER_SEC)

/* Copy of the driven levels of one line since index `from`. */
static int levels(int line, int from, struct gemu_edge *out, int max)
{
	int i, n = 0;

	pthread_mutex_lock(&g.lock);
	for (i = from; i < g.nlog && n < max; i++)
		if (g.log[i].line == line)
			out[n++] = g.log[i];
	pthread_mutex_unlock(&g.lock);
	return n;
}

/* A field of the emulated chip, read under its lock. */
static int locked(const int *field)
{
	int v;

	pthread_mutex_lock(&g.lock);
	v = *field;
	pthread_mutex_unlock(&g.lock);
	return v;
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
	pthread_mutex_lock(&g.lock);
	ok(g.is_out[17], "the chip sees an output line");
	pthread_mutex_unlock(&g.lock);

	from = locked(&g.nlog);
	t0 = now_ns();
	is_int(gpio_marker_phase(m, PHASE_IDLE, &t_edge), 0, "job start pulse");
	t1 = now_ns();
	n = levels(17, from, e, 8);
	ok(n == 2 && e[0].value == 1 && e[1].value == 0, "pulse: high then low");
	ok(n == 2 && e[1].t_ns - e[0].t_ns >= GPIO_MARK_PULSE_NS, "pulse lasts at least 1 ms");
	ok(t0 <= e[0].t_ns && e[0].t_ns <= t1 && t0 <= t_edge && t_edge <= t1,
	   "returned edge time brackets the chip's rising edge");

	from = locked(&g.nlog);
	t0 = now_ns();
	gpio_marker_phase(m, PHASE_ACTIVE, &t_edge);
	t1 = now_ns();
	n = levels(17, from, e, 8);
	ok(n == 1 && e[0].value == 1 && t0 <= e[0].t_ns && e[0].t_ns <= t1,
	   "idle->active: line high, edge within the call");
	from = locked(&g.nlog);
	gpio_marker_phase(m, PHASE_TAIL, &t_edge);
	n = levels(17, from, e, 8);
	ok(n == 1 && e[0].value == 0, "active->tail: line low");
	ok(e[0].t_ns >= t1, "falling edge after the rising one");
	gpio_marker_close(m);
	pthread_mutex_lock(&g.lock);
	ok(g.value[17] == 0, "closed: line left low");
	pthread_mutex_unlock(&g.lock);

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

/* The next event, waiting for the watcher (a fallback bound only: nothing is timed). */
static int next_event(struct run_event *out)
{
	uint64_t end = now_ns() + WAIT_NS;

	while (now_ns() < end) {
		if (test_events_pop(out, 1) == 1)
			return 1;
		sleep_ns(2 * NS_PER_MS);
	}
	return 0;
}

/* The bounce after t: falling edges at +1000 and +3000, the release at +2000. */
static int bounce_seen(uint64_t t)
{
	struct run_event ev;
	uint64_t low = 0, high = 0, low_first = UINT64_MAX, low_last = 0, high_t = 0;

	while (low + high < 3 && next_event(&ev)) {
		if (ev.kind == EV_UNDERVOLTAGE) {
			low += event_count(&ev);
			low_first = ev.t_ns < low_first ? ev.t_ns : low_first;
			low_last = event_last_ns(&ev) > low_last ? event_last_ns(&ev) : low_last;
		} else if (ev.kind == EV_UNDERVOLTAGE_END) {
			high += event_count(&ev);
			high_t = ev.t_ns;
		}
	}
	return low == 2 && high == 1 && low_first == t + 1000 && low_last == t + 3000 &&
	       high_t == t + 2000;
}

static int uv_open(const char *spec, struct sources **out)
{
	/* No tree: the only source is the GPIO line. */
	struct sources_config cfg = { .sysfs_root = "/nonexistent", .kmsg_path = "none",
				      .uv_gpio = spec, .events = test_queue() };
	int rc = sources_open(&cfg, source_registry, out);

	return rc ? rc : sources_start(*out);
}

static uint64_t realtime_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void test_uv_edges(void)
{
	struct sources *s = NULL;
	struct run_event ev;
	uint64_t t_stamp, t_inject, real;

	test_events_drain();
	gemu_set(&g, UV_LINE, 1); /* PWR_LOW_N released (active low) */
	is_int(uv_open("gpiochip0:35,active_low", &s), 0, "uv input on gpiochip0:35, active low");
	if (!s)
		return;
	pthread_mutex_lock(&g.lock);
	ok(g.ev_line == UV_LINE && g.ev_flags == GPIOEVENT_REQUEST_BOTH_EDGES &&
		   (g.ev_handleflags & GPIOHANDLE_REQUEST_INPUT) && !g.is_out[UV_LINE],
	   "libgpiod asked the chip for a line event request on both edges, as an input");
	pthread_mutex_unlock(&g.lock);
	is_int(locked(&g.value_reads[UV_LINE]), 1, "the level was read once, at start");
	is_int(test_events_pop(&ev, 1), 0, "released line: no event");

	/* The kernel's stamp, not the time the watcher read it: one 40 ms in the past. */
	t_stamp = now_ns() - 40 * NS_PER_MS;
	ok(gemu_edge(&g, UV_LINE, 0, t_stamp), "falling edge queued on the event fd");
	ok(next_event(&ev) && ev.kind == EV_UNDERVOLTAGE, "line pulled low -> EV_UNDERVOLTAGE");
	is_str(ev.source, "gpio", "... from source gpio");
	ok(ev.t_ns == t_stamp, "... dated with the edge's kernel timestamp");
	t_stamp += 10 * NS_PER_MS;
	gemu_edge(&g, UV_LINE, 1, t_stamp);
	ok(next_event(&ev) && ev.kind == EV_UNDERVOLTAGE_END && ev.t_ns == t_stamp,
	   "line released -> EV_UNDERVOLTAGE_END at its stamp");

	/* Edges in quick succession (a bounce): every one, at its own stamp. Queued together,
	 * the two falling edges may be one entry (one kind, one source) counting both. */
	gemu_edge(&g, UV_LINE, 0, t_stamp + 1000);
	gemu_edge(&g, UV_LINE, 1, t_stamp + 2000);
	gemu_edge(&g, UV_LINE, 0, t_stamp + 3000);
	ok(bounce_seen(t_stamp), "three queued edges: every one counted, each at its own stamp");

	/* Before Linux 5.7 the v1 uAPI stamped edges with CLOCK_REALTIME. */
	real = realtime_now();
	t_inject = now_ns();
	gemu_edge(&g, UV_LINE, 1, real - 2 * NS_PER_SEC);
	ok(next_event(&ev) && ev.kind == EV_UNDERVOLTAGE_END, "an edge with a realtime stamp");
	ok(ev.t_ns <= t_inject - NS_PER_SEC && ev.t_ns >= t_inject - 3 * NS_PER_SEC,
	   "... is placed on the monotonic clock, 2 s before it was queued (%.3f s)",
	   ((double)t_inject - (double)ev.t_ns) / 1e9);

	is_int(locked(&g.value_reads[UV_LINE]), 1,
	       "no value was polled: every change came as an edge event");

	/* Nothing queued: the watcher sleeps in poll() with no timeout; stop still wakes it. */
	t_inject = now_ns();
	sources_close(s);
	ok(now_ns() - t_inject < WAIT_NS, "stop returns while the watcher waits for an edge");
	{
		uint64_t end = now_ns() + WAIT_NS;

		while (locked(&g.ev_line) >= 0 && now_ns() < end)
			sleep_ns(2 * NS_PER_MS);
	}
	is_int(locked(&g.ev_line), -1, "the line event request was released");
	is_int(test_events_pop(&ev, 1), 0, "no stray event");
}

/* iowatt meters: the gpio source lists the chip with what its driver reports. */
static void test_describe(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sources_describe(source_registry, "", f);
	fclose(f);
	ok(buf && strstr(buf, "gpiochip0 (iowatt-mock, 64 lines): --uv-gpio gpiochip0:LINE"),
	   "iowatt meters lists the emulated chip with its label and line count");
	free(buf);
}

static void test_uv_start_and_errors(void)
{
	struct gpio_marker *m = NULL;
	struct sources *s = NULL;
	struct run_event ev;
	const char *log;

	test_events_drain();
	gemu_set(&g, UV_LINE, 0);
	is_int(uv_open("gpiochip0:PWR_LOW_N,active_low", &s), 0, "by line name");
	ok(next_event(&ev) && ev.kind == EV_UNDERVOLTAGE && strstr(ev.text, "asserted"),
	   "already asserted at start -> event");
	sources_close(s);
	gemu_set(&g, UV_LINE, 1);

	is_int(gpio_marker_open("gpiochip0:17", &m), 0, "marker holds line 17");
	capture_begin(&cap, 2);
	is_int(uv_open("gpiochip0:17", &s), -EBUSY, "--uv-gpio on a line in use: -EBUSY");
	is_int(uv_open("gpiochip7:1", &s), -ENODEV, "--uv-gpio on a missing chip: -ENODEV");
	log = capture_end(&cap);
	ok(s == NULL, "no sources when one the user named fails");
	ok(strstr(log, "--uv-gpio gpiochip0:17") && strstr(log, "in use"),
	   "the error names the option, the spec and the cause");
	gpio_marker_close(m);
	test_events_drain();
}

int main(void)
{
	UMockdevTestbed *tb;

	if (gemu_skip())
		return 0;
	tb = gemu_start(&g);
	test_marker();
	test_bad_specs();
	test_uv_edges();
	test_uv_start_and_errors();
	test_describe();
	g_object_unref(tb);
	return done_testing();
}
