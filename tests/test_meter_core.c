/* SPDX-License-Identifier: MIT */
/* Meter core: spec parsing, ring order and overrun, before_ns, stop, gaps, reconnects. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "events_util.h"
#include "core/events.h"
#include "core/log.h"
#include "core/util.h"
#include "meters/meter.h"
#include "run/energy.h"
#include "tap.h"

/* A fake driver whose behaviour the test scripts through this struct. */
static struct fake {
	unsigned to_emit;	/* samples still to hand out, in batches */
	uint64_t next_t;	/* arrival stamp of the next one */
	int lose_link_after;	/* read() returns -EIO after this many samples (-1: never) */
	int open_failures;	/* open() fails this many times */
	int opens, closes, starts, stops, open_attempts;
	int max_timeout_ms;
	int slow_open;		/* open() waits up to 10 s unless meter_stopping() */
	unsigned emitted;
} fk;

static int fake_open(struct meter_dev *dev)
{
	__atomic_fetch_add(&fk.open_attempts, 1, __ATOMIC_RELAXED);
	if (fk.slow_open) {
		uint64_t end = now_ns() + 10 * NS_PER_SEC;

		while (!meter_stopping(dev) && now_ns() < end)
			sleep_ns(5 * NS_PER_MS);
		return -ETIMEDOUT;
	}
	if (fk.open_failures > 0) {
		fk.open_failures--;
		return -ENOENT;
	}
	fk.opens++;
	dev->period_ns = 10 * NS_PER_MS;
	return 0;
}

static int fake_start(struct meter_dev *dev)
{
	(void)dev;
	fk.starts++;
	return 0;
}

static int fake_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	unsigned n = 0;

	(void)dev;
	if (timeout_ms > fk.max_timeout_ms)
		fk.max_timeout_ms = timeout_ms;
	if (fk.lose_link_after >= 0 && fk.emitted >= (unsigned)fk.lose_link_after) {
		fk.lose_link_after = -1;
		return -EIO;
	}
	while (n < max && fk.to_emit) {
		out[n].t_ns = fk.next_t;
		out[n].v = 5.0;
		out[n].a = (double)fk.emitted;
		out[n].w = 5.0 * (double)fk.emitted;
		out[n].flags = 0;
		fk.next_t += 1000;
		fk.to_emit--;
		fk.emitted++;
		n++;
		if (fk.lose_link_after >= 0 && fk.emitted >= (unsigned)fk.lose_link_after)
			break;
	}
	if (!n)
		sleep_ns((uint64_t)timeout_ms * NS_PER_MS); /* blocks its whole timeout */
	return (int)n;
}

static void fake_stop(struct meter_dev *dev)
{
	(void)dev;
	fk.stops++;
}

static void fake_close(struct meter_dev *dev)
{
	(void)dev;
	fk.closes++;
}

static const struct meter_driver fake_drv = {
	.name = "fake",
	.desc = "test driver",
	.open = fake_open,
	.start = fake_start,
	.read = fake_read,
	.stop = fake_stop,
	.close = fake_close,
};

/* A fake meter whose events go to the test's queue. */
static struct meter_dev *fake_dev(const char *conn)
{
	struct meter_dev *dev = meter_dev_new(&fake_drv, conn, "");

	dev->events = test_queue();
	return dev;
}

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.lose_link_after = -1;
	fk.next_t = 1000000;
}

/* Waits (bounded) until the producer has delivered `want` samples. */
static int wait_samples(struct meter_dev *dev, uint64_t want)
{
	uint64_t end = now_ns() + 10 * NS_PER_SEC;

	while (METER_LOAD(dev->samples) + METER_LOAD(dev->overruns) < want && now_ns() < end)
		sleep_ns(2 * NS_PER_MS);
	return METER_LOAD(dev->samples) + METER_LOAD(dev->overruns) >= want;
}

static void test_specs(void)
{
	struct meter_dev *dev = NULL;

	ok(!meter_parse_spec("um25c:/dev/rfcomm0,interval=500ms", "", &dev), "um25c spec parses");
	if (dev) {
		is_str(dev->drv->name, "um25c", "driver um25c");
		is_str(dev->conn, "/dev/rfcomm0", "connection");
		is_str(meter_param(dev, "interval"), "500ms", "interval param");
		ok(!meter_param(dev, "nope"), "absent param is NULL");
		meter_free(dev);
	}
	ok(!meter_parse_spec("manual:idle_ma=85,active_ma=310,v=5.05", "", &dev),
	   "manual spec parses");
	if (dev) {
		is_str(dev->conn, "", "manual has no connection");
		is_int(dev->nparams, 3, "three params");
		is_str(meter_param(dev, "v"), "5.05", "v param");
		meter_free(dev);
	}
	ok(!meter_parse_spec("um:/dev/ttyUSB0", "/tmp/root", &dev), "um auto spec parses");
	if (dev) {
		is_str(dev->sysfs_root, "/tmp/root", "sysfs root kept");
		meter_free(dev);
	}
	ok(meter_parse_spec("nosuch:/dev/x", "", &dev) == -EINVAL && !dev, "unknown driver refused");
	ok(meter_parse_spec("", "", &dev) == -EINVAL, "empty spec refused");
	ok(meter_parse_spec("um25c:/dev/x,novalue", "", &dev) == -EINVAL, "key without = refused");
	ok(meter_parse_spec("um25c:/dev/x,a=1,a=2", "", &dev) == -EINVAL, "repeated key refused");
	ok(meter_parse_spec("um25c:/dev/x,=1", "", &dev) == -EINVAL, "empty key refused");

	/* Unknown keys are rejected by open, before any device is touched. */
	ok(!meter_parse_spec("um25c:/nonexistent/x,colour=red", "", &dev), "parses with odd key");
	is_int(meter_open(dev), -EINVAL, "open rejects the unknown key");
	meter_free(dev);
	ok(!meter_parse_spec("um25c:/dev/x,interval=20ms", "", &dev), "parses short interval");
	is_int(meter_open(dev), -EINVAL, "interval under 100 ms refused");
	meter_free(dev);
	ok(!meter_parse_spec("manual:idle_ma=85,v=5", "", &dev), "manual without active_ma parses");
	is_int(meter_open(dev), -EINVAL, "manual open wants active_ma");
	meter_free(dev);
	ok(!meter_parse_spec("manual:idle_ma=x,active_ma=1,v=5", "", &dev), "manual bad number parses");
	is_int(meter_open(dev), -EINVAL, "manual refuses a non-number");
	meter_free(dev);
}

static void test_ring(void)
{
	struct meter_dev *dev = fake_dev("ring");
	struct meter_sample buf[512];
	unsigned n, i, total = 0;
	int in_order = 1;
	uint64_t t0;

	fake_reset();
	fk.to_emit = METER_RING_CAP + 3000;
	t0 = fk.next_t;
	ok(!meter_open(dev) && !meter_thread_start(dev), "fake meter starts");
	wait_samples(dev, METER_RING_CAP + 3000);
	is_int(METER_LOAD(dev->overruns), 3000, "a full ring counts the overrun, never blocks");
	is_int(METER_LOAD(dev->samples), METER_RING_CAP, "only stored readings count as delivered");

	n = meter_pop(dev, buf, 512, t0 + 100 * 1000);
	is_int(n, 100, "before_ns keeps later samples in the ring");
	ok(n && buf[0].t_ns == t0 && buf[99].t_ns == t0 + 99 * 1000, "the first 100, in order");
	n = meter_pop(dev, buf, 512, t0 + 100 * 1000);
	is_int(n, 0, "nothing more before that time");
	total = 100;
	while ((n = meter_pop(dev, buf, 512, UINT64_MAX)) > 0) {
		for (i = 0; i < n; i++)
			if (buf[i].t_ns != t0 + (uint64_t)(total + i) * 1000 ||
			    buf[i].a != (double)(total + i))
				in_order = 0;
		total += n;
	}
	is_int(total, METER_RING_CAP, "the ring held exactly its capacity");
	ok(in_order, "samples come out in order, oldest kept, newest dropped");
	meter_thread_stop(dev);
	ok(fk.max_timeout_ms <= 100, "reads never block more than 100 ms (got %d)", fk.max_timeout_ms);
	is_int(fk.stops, 1, "stop() called once");
	/* Stop and start again: the thread comes back and samples flow. */
	fk.to_emit = 10;
	ok(!meter_thread_start(dev), "restart after stop");
	wait_samples(dev, METER_RING_CAP + 3010);
	meter_thread_stop(dev);
	n = meter_pop(dev, buf, 512, UINT64_MAX);
	is_int(n, 10, "samples flow after a restart");
	is_int(fk.starts, 2, "start() called again");
	meter_free(dev);
	is_int(fk.closes, 1, "close() called once");
}

static int count_events(int kind)
{
	struct run_event ev[64];
	size_t n, i;
	int c = 0;

	n = test_events_pop(ev, 64);
	for (i = 0; i < n; i++)
		if (ev[i].kind == kind)
			c++;
	return c;
}

static void test_reconnect(void)
{
	struct meter_dev *dev = fake_dev("flaky");
	struct meter_sample buf[64];
	unsigned n, i, after_gap = 0, first_after = 0, total = 0;
	struct run_event ev[64];
	size_t ne, k;
	int gaps = 0, recs = 0;
	uint64_t t0, t1, end;

	fake_reset();
	test_events_pop(ev, 64);
	fk.to_emit = 20;
	fk.lose_link_after = 10;
	fk.open_failures = 0;
	ok(!meter_open(dev), "flaky opens");
	fk.open_failures = 2; /* the reconnect needs three tries: 0.2 s, 0.4 s back-off */
	ok(!meter_thread_start(dev), "flaky starts");
	wait_samples(dev, 20);
	is_int(METER_LOAD(dev->samples), 20, "all samples arrive across the reconnect");
	is_int(METER_LOAD(dev->reconnects), 1, "one reconnect");
	ok(METER_LOAD(dev->gaps) >= 1, "the link loss is a gap");
	is_int(fk.opens, 2, "opened twice (first + reconnect)");
	is_int(fk.closes, 1, "closed once on link loss");
	while ((n = meter_pop(dev, buf, 64, UINT64_MAX)) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i].flags & SAMPLE_AFTER_GAP) {
				after_gap++;
				first_after = total + i;
			}
		}
		total += n;
	}
	is_int(after_gap, 1, "exactly one sample flagged after the gap");
	is_int(first_after, 10, "it is the first one after the reconnect");
	ne = test_events_pop(ev, 64);
	for (k = 0; k < ne; k++) {
		gaps += ev[k].kind == EV_METER_GAP;
		recs += ev[k].kind == EV_METER_RECONNECT;
	}
	ok(gaps >= 1, "EV_METER_GAP pushed");
	ok(recs >= 1, "EV_METER_RECONNECT pushed");

	/*
	 * Stop in the middle of a back-off: after failed opens at +0.2, +0.6 and +1.4 s the
	 * core waits 1.6 s; stop must cut that wait short, not sit it out.
	 */
	fk.open_attempts = 0;
	fk.open_failures = 1000;
	fk.lose_link_after = (int)fk.emitted;
	fk.to_emit = 1;
	end = now_ns() + 10 * NS_PER_SEC;
	while (__atomic_load_n(&fk.open_attempts, __ATOMIC_RELAXED) < 3 && now_ns() < end)
		sleep_ns(5 * NS_PER_MS);
	sleep_ns(100 * NS_PER_MS);
	t0 = now_ns();
	meter_thread_stop(dev);
	t1 = now_ns();
	ok(t1 - t0 < 1200 * NS_PER_MS, "stop inside a 1.6 s back-off returns early (%.0f ms)",
	   (double)(t1 - t0) / 1e6);
	meter_free(dev);

	/* A driver whose reconnecting open() waits long sees meter_stopping() and gives up. */
	dev = fake_dev("slow-open");
	fake_reset();
	fk.to_emit = 3;
	fk.lose_link_after = 3;
	ok(!meter_open(dev) && !meter_thread_start(dev), "slow-open meter starts");
	fk.slow_open = 1;
	end = now_ns() + 10 * NS_PER_SEC;
	while (__atomic_load_n(&fk.open_attempts, __ATOMIC_RELAXED) < 2 && now_ns() < end)
		sleep_ns(5 * NS_PER_MS);
	t0 = now_ns();
	meter_thread_stop(dev);
	t1 = now_ns();
	ok(t1 - t0 < 5 * NS_PER_SEC, "stop interrupts a 10 s open() (%.0f ms)",
	   (double)(t1 - t0) / 1e6);
	meter_free(dev);
}

static void test_stall(void)
{
	struct meter_dev *dev = fake_dev("stall");
	struct meter_sample buf[64];
	unsigned n, i, flagged = 0;
	uint64_t end;

	fake_reset();
	count_events(-1);
	fk.to_emit = 5;
	ok(!meter_open(dev) && !meter_thread_start(dev), "stall meter starts");
	wait_samples(dev, 5);
	/* No data for more than 2 periods (10 ms each): a stall. */
	end = now_ns() + 10 * NS_PER_SEC;
	while (!METER_LOAD(dev->gaps) && now_ns() < end)
		sleep_ns(10 * NS_PER_MS);
	ok(METER_LOAD(dev->gaps) >= 1, "silence longer than 2 periods counts a gap");
	fk.to_emit = 3;
	wait_samples(dev, 8);
	meter_thread_stop(dev);
	while ((n = meter_pop(dev, buf, 64, UINT64_MAX)) > 0)
		for (i = 0; i < n; i++)
			flagged += !!(buf[i].flags & SAMPLE_AFTER_GAP);
	ok(flagged >= 1, "the sample after a stall is flagged");
	is_int(METER_LOAD(dev->reconnects), 0, "a stall is not a reconnect");
	ok(count_events(EV_METER_GAP) >= 1, "stall pushes EV_METER_GAP");
	meter_free(dev);
}

static void test_manual(void)
{
	struct meter_dev *dev = NULL;
	struct meter_sample s;
	uint64_t end;
	int got = 0;

	ok(!meter_parse_spec("manual:idle_ma=85,active_ma=310,v=5.05,tail_ma=120", "", &dev),
	   "manual spec");
	ok(!meter_open(dev), "manual opens");
	is_str(dev->model, "manual (hand readings)", "manual model string");
	ok(dev->manual && !dev->emulated, "manual=1");
	meter_set_phase(dev, PHASE_ACTIVE, 12345);
	is_int(meter_get_phase(dev, &end), PHASE_ACTIVE, "phase hint reads back");
	is_int(end, 12345, "with the boundary's time");
	ok(!meter_thread_start(dev), "manual starts");
	end = now_ns() + 5 * NS_PER_SEC;
	while (!got && now_ns() < end) {
		if (meter_pop(dev, &s, 1, UINT64_MAX))
			got = 1;
		else
			sleep_ns(10 * NS_PER_MS);
	}
	ok(got, "manual produces samples");
	is_dbl(s.a, 0.310, 1e-12, "active phase gives active_ma");
	is_dbl(s.w, 5.05 * 0.310, 1e-12, "w = v * a");
	ok((s.flags & SAMPLE_MANUAL) && (s.flags & SAMPLE_W_COMPUTED), "flagged manual, w computed");
	meter_set_phase(dev, PHASE_TAIL, now_ns());
	end = now_ns() + 5 * NS_PER_SEC;
	got = 0;
	while (!got && now_ns() < end) {
		while (!got && meter_pop(dev, &s, 1, UINT64_MAX))
			got = fabs(s.a - 0.120) < 1e-12;
		if (!got)
			sleep_ns(10 * NS_PER_MS);
	}
	ok(got, "tail phase gives tail_ma");
	meter_free(dev);
}

int main(void)
{
	log_set_level(LOG_ERR);
	test_specs();
	test_ring();
	test_reconnect();
	test_stall();
	test_manual();
	return done_testing();
}
