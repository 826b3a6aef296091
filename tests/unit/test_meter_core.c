/* SPDX-License-Identifier: MIT */
/* Meter core: specs and key tables, ring, gaps, reconnects, published descriptions, push. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "capture.h"
#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "emulation.h"
#include "events_util.h"
#include "meters/emu/emu.h"
#include "meters/meter-internal.h"
#include "meters/registry/registry.h"
#include "push_meter.h"
#include "energy/energy.h"
#include "tap.h"

/* stderr of the call under test, to check its messages */
static struct capture capt;

#define diag(fmt, ...) printf("# " fmt "\n", __VA_ARGS__)

/* A fake driver whose behaviour the test scripts through this struct: the test thread
 * sets it while the sampling thread runs, so every field is atomic. */
static struct fake {
	atomic_uint to_emit;	     /* samples still to hand out, in batches */
	_Atomic uint64_t next_t;     /* arrival stamp of the next one */
	atomic_int lose_link_after;  /* read() returns -EIO after this many samples (-1: never) */
	atomic_int open_failures;    /* open() fails this many times */
	atomic_int opens, closes, starts, stops;
	atomic_int open_attempts;
	atomic_int max_timeout_ms;
	atomic_int slow_open;	     /* open() waits up to 10 s unless meter_stopping() */
	atomic_uint emitted;
	atomic_int ranged;	     /* open() declares 0-24 V; */
	atomic_uint bad_every;	     /* ... and every Nth reading is 655.35 V (0xFFFF x 10 mV) */
} fk;

static int fake_open(struct meter_dev *dev, struct meter_info *info)
{
	atomic_fetch_add(&fk.open_attempts, 1);
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
	info->period_ns = 10 * NS_PER_MS;
	if (fk.ranged) {
		snprintf(info->model, sizeof(info->model), "FAKE24");
		info->range.v_min = 0;
		info->range.v_max = 24;
	}
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
		out[n].dropped_before = 0;
		if (fk.bad_every && fk.emitted % fk.bad_every == fk.bad_every - 1)
			out[n].v = 655.35;
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
	.conn_rule = METER_CONN_REQUIRED,
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

	meter_set_events(dev, test_queue());
	return dev;
}

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	atomic_init(&fk.open_attempts, 0);
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

/* A key's value as text ("500ms"), through the driver's row; NULL: no such key. */
static const char *key_text(const struct meter_dev *dev, const char *key)
{
	static char buf[64];
	const struct opt_desc *d = opt_find(dev->drv->keys, dev->drv->nkeys, key);

	return d ? opt_format(d, dev->args, buf, sizeof(buf)) : NULL;
}

/* Whether the spec gave the key. */
static int key_given(const struct meter_dev *dev, const char *key)
{
	const struct opt_desc *d = opt_find(dev->drv->keys, dev->drv->nkeys, key);

	return d && meter_key_given(dev, (const char *)dev->args + d->off);
}

/* A spec against the registry, as the run parses it. */
static int parse_spec(const char *spec, const char *sysfs_root, struct meter_dev **out)
{
	return meter_parse_spec(meter_registry, spec, sysfs_root, out);
}

static void test_specs(void)
{
	struct meter_dev *dev = NULL;
	const char *log;
	int rc;

	ok(!parse_spec("um25c:/dev/rfcomm0,interval=500ms", "", &dev), "um25c spec parses");
	if (dev) {
		is_str(dev->drv->name, "um25c", "driver um25c");
		is_str(dev->conn, "/dev/rfcomm0", "connection");
		is_str(key_text(dev, "interval"), "500ms", "interval param");
		ok(key_given(dev, "interval") && !key_given(dev, "baud"), "... given, baud not");
		ok(!key_text(dev, "nope"), "no such key");
		meter_free(dev);
	}
	ok(!parse_spec("manual:idle_ma=85,active_ma=310,v=5.05", "", &dev),
	   "manual spec parses");
	if (dev) {
		is_str(dev->conn, "", "manual has no connection");
		is_int(__builtin_popcountll(dev->given), 3, "three params");
		is_str(key_text(dev, "v"), "5.05", "v param");
		meter_free(dev);
	}
	ok(!parse_spec("um:/dev/ttyUSB0", "/tmp/root", &dev), "um auto spec parses");
	if (dev) {
		is_str(dev->sysfs_root, "/tmp/root", "sysfs root kept");
		meter_free(dev);
	}
	ok(parse_spec("nosuch:/dev/x", "", &dev) == -EINVAL && !dev, "unknown driver refused");
	ok(parse_spec("", "", &dev) == -EINVAL, "empty spec refused");
	ok(parse_spec("um25c:/dev/x,novalue", "", &dev) == -EINVAL, "key without = refused");
	ok(parse_spec("um25c:/dev/x,a=1,a=2", "", &dev) == -EINVAL, "repeated key refused");
	capture_begin(&capt, 2);
	rc = parse_spec("um25c:/dev/x,baud=1200,BAUD=9600", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "'BAUD' given twice"), "a known key given twice, in either case");
	ok(!parse_spec("um25c:/dev/x,interval=500", "", &dev), "a bare interval parses");
	if (dev) {
		is_int(meter_spec_interval_ns(dev), 500 * NS_PER_MS, "... as milliseconds");
		meter_free(dev);
	}
	ok(parse_spec("um25c:/dev/x,=1", "", &dev) == -EINVAL, "empty key refused");

	/* Keys are checked against the driver's table while parsing, before any open(). */
	capture_begin(&capt, 2);
	rc = parse_spec("um25c:/nonexistent/x,colour=red", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && !dev, "an unknown key is refused at parse time");
	ok(strstr(log, "um25c:/nonexistent/x,colour=red") && strstr(log, "'colour'") &&
		   strstr(log, "interval, timeout, baud"),
	   "... naming the spec, the key and the keys the driver accepts");
	capture_begin(&capt, 2);
	rc = parse_spec("um25c:/dev/x,interval=20ms", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "interval=20ms") && strstr(log, "100ms"),
	   "interval under 100 ms refused, the bound said");
	capture_begin(&capt, 2);
	rc = parse_spec("um25c:/dev/x,baud=fast", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "baud=fast") && strstr(log, "whole number"),
	   "a non-number where a number goes");
	capture_begin(&capt, 2);
	rc = parse_spec("um25c:,interval=1s", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "no connection") && strstr(log, "um25c:/dev/rfcomm0"),
	   "a serial meter without a port gets an example");
	capture_begin(&capt, 2);
	rc = parse_spec("manual:idle_ma=85,v=5", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "active_ma= is required"), "manual wants active_ma");
	capture_begin(&capt, 2);
	rc = parse_spec("manual:idle_ma=x,active_ma=1,v=5", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "idle_ma=x"), "manual refuses a non-number");
	capture_begin(&capt, 2);
	rc = parse_spec("manual:/dev/x,idle_ma=1,active_ma=1,v=5", "", &dev);
	log = capture_end(&capt);
	ok(rc == -EINVAL && strstr(log, "'/dev/x'"), "manual takes no connection");
	ok(!parse_spec("um25c:/dev/x", "", &dev), "defaults come from the table");
	if (dev) {
		is_int(meter_spec_interval_ns(dev), 500 * NS_PER_MS, "interval default 500ms");
		is_str(key_text(dev, "baud"), "115200", "baud default 115200");
		ok(!key_given(dev, "baud"), "... and the user gave none");
		is_str(meter_info(dev)->spec, "um25c:/dev/x", "an unopened meter's description names it");
		is_str(meter_info(dev)->model, "", "... with no model yet");
		meter_free(dev);
	}
}

/* Every registered driver describes itself completely and its defaults pass its checks. */
static void test_descriptors(void)
{
	const struct meter_driver *drv;
	const struct emu_protocol *emu;
	const struct opt_desc *d;
	char why[200], buf[32768] = "", args[512];
	FILE *f;
	size_t i, k;
	int bad = 0, bad_default = 0, keys = 0;

	for (i = 0; (drv = meter_registry[i].driver); i++) {
		if (!drv->name || !drv->desc || !drv->open || !drv->close ||
		    !(drv->flags & METER_DRV_PUSH) != !!drv->read || !drv->example ||
		    (drv->conn_rule == METER_CONN_REQUIRED && !drv->conn)) {
			diag("driver %s: incomplete descriptor", drv->name ? drv->name : "?");
			bad++;
		}
		/* Rows fit the args struct, one row per field, and a spec can name each. */
		if (drv->nkeys > 64 || drv->args_size > sizeof(args) || (drv->nkeys && !drv->keys))
			bad++;
		for (k = 0; k < drv->nkeys && drv->args_size <= sizeof(args); k++) {
			d = &drv->keys[k];
			keys++;
			if (!d->help || (d->type == OPT_ENUM && !d->choices) ||
			    (d->type == OPT_DURATION && !d->bare_unit_ns) || d->off >= drv->args_size ||
			    opt_find(drv->keys, drv->nkeys, d->name) != d || (d->required && d->def) ||
			    (k && d->off == drv->keys[k - 1].off) || !opt_takes_value(d)) {
				diag("%s: key %s: row incomplete", drv->name, d->name);
				bad++;
			}
			if (d->def && opt_set(d, args, d->def, why, sizeof(why))) {
				diag("%s: %s=%s: %s", drv->name, d->name, d->def, why);
				bad_default++;
			}
		}
		if (drv->nmodels && !meter_driver_model(drv, drv->nmodels - 1)->name)
			bad++;
	}
	is_int(bad, 0, "every driver has a name, help, ops and well-formed key rows");
	is_int(bad_default, 0, "every default passes its own row's check (%d keys)", keys);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	meter_drivers_describe(meter_registry, f);
	fclose(f);
	for (i = 0, bad = 0; (drv = meter_registry[i].driver); i++)
		for (k = 0; k < drv->nkeys; k++)
			bad += !strstr(buf, drv->keys[k].name);
	is_int(bad, 0, "the description lists every key of every driver");
	ok(strstr(buf, "UM25C") && strstr(buf, "0-5 A") && strstr(buf, "4 to 24 V"),
	   "... and the UM25C's range");
	ok(strstr(buf, "brng=16|32") && strstr(buf, "(default 500ms; 100ms..1m"), "... types, defaults and ranges");
	is_str(meter_driver_model_by_name(meter_driver_find(meter_registry, "um"), "um34c")->name, "UM34C",
	       "models are found by name");
	for (i = 0, bad = 0; (emu = meter_emulator(meter_registry, i)); i++) {
		drv = meter_driver_find(meter_registry, emu->driver ? emu->driver : emu->name);
		if (!drv || !meter_driver_model_by_name(drv, emu->title) || !emu->summary ||
		    !emu->input || !emu->push_ns != !emu->push)
			bad++;
	}
	ok(i >= 3 && !bad, "every emulator is named after a driver that reads its model (%zu)", i);
}

static void test_ring(void)
{
	struct meter_dev *dev = fake_dev("ring");
	struct meter_sample buf[512];
	unsigned n, i, total = 0, cap;
	int in_order = 1;
	uint64_t t0;

	fake_reset();
	ok(!meter_open(dev), "fake meter opens");
	is_int(meter_info(dev)->period_ns, 10 * NS_PER_MS, "its description is published at open");
	cap = 16384; /* the least a ring holds; a 100 Hz meter's half second is less */
	fk.to_emit = cap + 3000;
	t0 = fk.next_t;
	ok(!meter_thread_start(dev), "fake meter starts");
	is_int(meter_ring_capacity(dev), cap, "ring of %u samples", cap);
	wait_samples(dev, cap + 3000);
	is_int(METER_LOAD(dev->overruns), 3000, "a full ring counts the overrun, never blocks");
	is_int(METER_LOAD(dev->samples), cap, "only stored readings count as delivered");

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
	is_int(total, cap, "the ring held exactly its capacity");
	ok(in_order, "samples come out in order, oldest kept, newest dropped");
	meter_thread_stop(dev);
	ok(fk.max_timeout_ms <= 100, "reads never block more than 100 ms (got %d)", fk.max_timeout_ms);
	is_int(fk.stops, 1, "stop() called once");
	/* Stop and start again: the thread comes back and samples flow. */
	fk.to_emit = 10;
	ok(!meter_thread_start(dev), "restart after stop");
	wait_samples(dev, cap + 3010);
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
	while (atomic_load(&fk.open_attempts) < 3 && now_ns() < end)
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
	while (atomic_load(&fk.open_attempts) < 2 && now_ns() < end)
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

/*
 * Readings that cannot be true (a 24 V meter reading 655.35 V, its 0xFFFF) never reach the
 * ring: counted in out_of_range, the next stored sample carries how many were dropped
 * before it, and each episode is one event with the value and the limit.
 */
static void test_impossible(void)
{
	struct meter_dev *dev = fake_dev("impossible");
	struct meter_sample buf[64];
	struct meter_counters cn;
	struct run_event ev[16];
	unsigned n, i, after = 0, bad_seen = 0, dropped = 0, events = 0, entries = 0;
	size_t ne;

	fake_reset();
	count_events(-1);
	fk.ranged = 1;
	fk.bad_every = 5;
	fk.to_emit = 20;
	ok(!meter_open(dev) && !meter_thread_start(dev), "a 0-24 V meter starts");
	wait_samples(dev, 16);
	{
		uint64_t end = now_ns() + 10 * NS_PER_SEC;

		while (METER_LOAD(dev->out_of_range) < 4 && now_ns() < end)
			sleep_ns(2 * NS_PER_MS);
	}
	meter_thread_stop(dev);
	meter_counters(dev, &cn);
	is_int(cn.out_of_range, 4, "4 readings of 655.35 V in 20 are counted out of range");
	is_int(cn.samples, 16, "and only the 16 others are stored");
	while ((n = meter_pop(dev, buf, 64, UINT64_MAX)) > 0)
		for (i = 0; i < n; i++) {
			bad_seen += buf[i].v > 24;
			if (buf[i].flags & SAMPLE_AFTER_DROP) {
				after++;
				dropped += buf[i].dropped_before;
			}
		}
	is_int(bad_seen, 0, "no impossible reading reaches the ring");
	ok(after == 3 && dropped == 3,
	   "the sample after each of the first three carries the drop (%u flagged, %u dropped)",
	   after, dropped);
	ne = test_events_pop(ev, 16);
	for (i = 0; i < ne; i++)
		if (ev[i].kind == EV_INFO && strstr(ev[i].text, "655.4 V above the FAKE24's 24 V")) {
			events += (unsigned)event_count(&ev[i]);
			entries++;
		}
	is_int(events, 4, "each episode is one event naming the value and the limit");
	is_int(entries, 1, "coalesced into one entry (one kind, one source)");
	meter_free(dev);
}

/*
 * A driver whose reconnects change what it is: odd opens are a "fast" model at 10 ms,
 * even opens a "slow" one at 20 ms, and every read after the first loses the link. A
 * reader on the main thread must never see one open's model with another's period.
 */
static atomic_int flip_opens;

static int flip_open(struct meter_dev *dev, struct meter_info *info)
{
	int n = atomic_fetch_add(&flip_opens, 1) + 1;

	(void)dev;
	snprintf(info->model, sizeof(info->model), "%s #%d", n % 2 ? "fast" : "slow", n);
	info->period_ns = (n % 2 ? 10 : 20) * NS_PER_MS;
	return 0;
}

static int flip_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	(void)dev;
	(void)max;
	(void)timeout_ms;
	out->t_ns = 0;
	out->v = out->a = out->w = 1;
	out->flags = 0;
	return -EIO;
}

static const struct meter_driver flip_drv = {
	.name = "flip", .desc = "test driver", .conn_rule = METER_CONN_REQUIRED,
	.open = flip_open, .read = flip_read, .close = meter_std_free_priv,
};

static void test_info_snapshot(void)
{
	struct meter_dev *dev = meter_dev_new(&flip_drv, "x", "");
	const struct meter_info *first, *in;
	uint64_t end;
	unsigned reads = 0, torn = 0, seen_slow = 0;

	meter_set_events(dev, test_queue());
	atomic_init(&flip_opens, 0);
	ok(!meter_open(dev), "flip opens");
	first = meter_info(dev);
	is_str(first->model, "fast #1", "first description");
	ok(!meter_thread_start(dev), "flip starts: it reconnects about five times a second");
	end = now_ns() + 1500 * NS_PER_MS;
	while (now_ns() < end && (atomic_load(&flip_opens) < 4 || !seen_slow)) {
		in = meter_info(dev);
		reads++;
		if ((in->period_ns == 10 * NS_PER_MS) != !strncmp(in->model, "fast", 4))
			torn++;
		seen_slow |= !strncmp(in->model, "slow", 4);
	}
	meter_thread_stop(dev);
	ok(atomic_load(&flip_opens) >= 3 && seen_slow,
	   "reconnects published new descriptions (%d opens)", atomic_load(&flip_opens));
	is_int(torn, 0, "no read paired one open's model with another's period (%u reads)", reads);
	ok(!strcmp(first->model, "fast #1") && first->period_ns == 10 * NS_PER_MS,
	   "a description already handed out never changes");
	test_events_drain();
	meter_free(dev);
}

/* What a drain of the ring saw: order, spacing, numbering. */
struct drained {
	uint64_t n, last_t, last_a, exact_steps, steps, backwards, renumbered, flagged;
	int have;
};

static void drain_into(struct meter_dev *dev, struct drained *d)
{
	struct meter_sample buf[4096];
	unsigned n, i;

	while ((n = meter_pop(dev, buf, 4096, UINT64_MAX)) > 0) {
		for (i = 0; i < n; i++) {
			if (d->have) {
				d->steps++;
				d->exact_steps += buf[i].t_ns - d->last_t == PUSH_PERIOD_NS;
				d->backwards += buf[i].t_ns <= d->last_t;
				d->renumbered += (uint64_t)buf[i].a != d->last_a + 1;
			}
			d->flagged += !!(buf[i].flags & SAMPLE_AFTER_GAP);
			d->last_t = buf[i].t_ns;
			d->last_a = (uint64_t)buf[i].a;
			d->have = 1;
			d->n++;
		}
	}
}

static void test_push_rate(void)
{
	struct meter_dev *dev = push_dev();
	struct drained d;
	struct meter_counters c;
	uint64_t t0, t1, end, stop_ns, gen;
	unsigned cap;
	char why[128];

	memset(&d, 0, sizeof(d));
	ok(!meter_open(dev) && !meter_thread_start(dev), "push meter starts its own thread");
	cap = meter_ring_capacity(dev);
	ok(cap * PUSH_PERIOD_NS >= 500 * NS_PER_MS, "the ring is sized from the rate: %u samples "
	   "hold %.0f ms at 100 kS/s", cap, (double)cap * PUSH_PERIOD_NS / 1e6);
	/* One second drained as the run does, every 10 ms. */
	t0 = now_ns();
	end = t0 + NS_PER_SEC;
	while (now_ns() < end) {
		sleep_ns(10 * NS_PER_MS);
		drain_into(dev, &d);
	}
	t1 = now_ns();
	meter_counters(dev, &c);
	gen = atomic_load(&pk.generated);
	drain_into(dev, &d);
	diag("push: %" PRIu64 " samples in %.3f s = %.0f S/s delivered, %" PRIu64 " overruns, "
	     "%" PRIu64 " gaps", d.n, (double)(t1 - t0) / 1e9, (double)d.n / ((double)(t1 - t0) / 1e9),
	     c.overruns, c.gaps);
	ok(d.n >= PUSH_RATE / 2, "at least half the nominal 100 kS/s arrived (%" PRIu64 ")", d.n);
	is_int(d.backwards, 0, "timestamps strictly increase");
	/* The spacing of a 100 kS/s clock is a timing property: a generator starved past the
	 * grid's slack delivers late, and the grid rightly moves to the arrival time. */
	if (under_emulation(why, sizeof(why)))
		skip(why);
	else if (atomic_load(&pk.late_ns) > METER_GRID_SLACK_NS / 2)
		skip("the generator thread was starved (a busy machine): the grid moved to arrivals");
	else
		ok(d.exact_steps >= d.steps * 99 / 100,
		   "the sample clock spaces them 10 us apart (%" PRIu64 " of %" PRIu64 " steps)",
		   d.exact_steps, d.steps);
	ok(c.overruns || !d.renumbered, "none lost while drained (or the loss is counted)");
	ok(c.gaps < 5, "bursts every 2 ms are not stalls at 10 us per sample (%" PRIu64 " gaps)",
	   c.gaps);

	/* Not drained: the ring fills, the newest are dropped and counted. */
	end = now_ns() + 10 * NS_PER_SEC;
	while (!METER_LOAD(dev->overruns) && now_ns() < end)
		sleep_ns(10 * NS_PER_MS);
	t0 = now_ns();
	meter_thread_stop(dev);
	stop_ns = now_ns() - t0;
	gen = atomic_load(&pk.generated);
	meter_counters(dev, &c);
	ok(c.overruns > 0, "an undrained ring overruns (%" PRIu64 " dropped)", c.overruns);
	is_int(c.samples + c.overruns, gen, "every sample handed over is stored or counted");
	ok(stop_ns < NS_PER_SEC, "stop returns promptly (%.1f ms)", (double)stop_ns / 1e6);
	diag("push: stop took %.2f ms", (double)stop_ns / 1e6);
	is_int(atomic_load(&pk.stops), 1, "the driver's stop() ran once");
	memset(&d, 0, sizeof(d));
	drain_into(dev, &d);
	is_int(d.n, cap, "the full ring holds exactly its capacity");
	is_int(d.renumbered, 0, "... the oldest, in order: the newest were dropped");
	sleep_ns(20 * NS_PER_MS);
	is_int(atomic_load(&pk.generated), gen, "nothing is delivered after stop()");
	meter_free(dev);
}

static int count_kind(const struct run_event *ev, size_t n, int kind)
{
	size_t i;
	int c = 0;

	for (i = 0; i < n; i++)
		c += ev[i].kind == kind;
	return c;
}

/*
 * Exact counts of gaps hold while the only silences are the ones the test makes. A
 * generator starved past the core's stall floor on a busy machine makes a real stall, so
 * each such silence (counted by the generator, or going on now) allows one more gap, flag
 * and event, and the counts are checked within those bounds.
 */
static uint64_t starved_since(uint64_t counted0)
{
	return atomic_load(&pk.silences) - counted0 + (uint64_t)push_silent_now();
}

static int within(int n, int exact, uint64_t starved)
{
	return starved ? n >= 0 && n <= exact + (int)starved : n == exact;
}

static void test_push_link_and_stall(void)
{
	struct meter_dev *dev = push_dev();
	struct run_event ev[64];
	struct drained d;
	uint64_t end, g0, f0, s0, o0, s;
	size_t ne;

	memset(&d, 0, sizeof(d));
	pk.fail_at = 20000;
	ok(!meter_open(dev) && !meter_thread_start(dev), "push meter starts");
	end = now_ns() + 10 * NS_PER_SEC;
	while ((!METER_LOAD(dev->reconnects) || atomic_load(&pk.generated) < 30000) &&
	       now_ns() < end) {
		sleep_ns(10 * NS_PER_MS);
		drain_into(dev, &d);
	}
	is_int(METER_LOAD(dev->reconnects), 1, "meter_deliver_error(): the core reconnects");
	ok(atomic_load(&pk.stops) >= 1 && atomic_load(&pk.opens) == 2 &&
		   atomic_load(&pk.starts) == 2,
	   "... through the driver's stop, close, open and start");
	drain_into(dev, &d);
	/* What is starved from here on may show in the next part's counts as well. */
	s0 = atomic_load(&pk.silences);
	ne = test_events_pop(ev, 64);
	s = starved_since(0);
	if (s)
		diag("push: the generator was starved past the stall floor (%" PRIu64 ")", s);
	ok(d.flagged >= 1 && within((int)d.flagged, 1, s),
	   "the first sample after the reconnect is flagged after-gap (%" PRIu64 " flagged, %" PRIu64
	   " starved)", d.flagged, s);
	is_int(d.backwards, 0, "timestamps still increase across it");
	ok(count_kind(ev, ne, EV_METER_GAP) >= 1 && within(count_kind(ev, ne, EV_METER_GAP), 1, s) &&
		   count_kind(ev, ne, EV_METER_RECONNECT) >= 1 &&
		   within(count_kind(ev, ne, EV_METER_RECONNECT), 1, s),
	   "one gap and one reconnect event (%d, %d; %" PRIu64 " starved)",
	   count_kind(ev, ne, EV_METER_GAP), count_kind(ev, ne, EV_METER_RECONNECT), s);

	/* Silence longer than the push stall threshold, then data again. A stall already
	 * open when the pause begins (a starved generator) is the same silence. */
	g0 = METER_LOAD(dev->gaps);
	f0 = d.flagged;
	o0 = (uint64_t)push_silent_now();
	atomic_store(&pk.paused, 1);
	end = now_ns() + 10 * NS_PER_SEC;
	while (METER_LOAD(dev->gaps) <= g0 && now_ns() < end) {
		sleep_ns(10 * NS_PER_MS);
		drain_into(dev, &d);
	}
	s = starved_since(s0) + o0;
	ok(within((int)(METER_LOAD(dev->gaps) - g0), 1, s),
	   "a silent push meter is a stall (gaps %" PRIu64 " -> %" PRIu64 "; %" PRIu64
	   " starved)", g0, (uint64_t)METER_LOAD(dev->gaps), s);
	atomic_store(&pk.paused, 0);
	end = now_ns() + 10 * NS_PER_SEC;
	while (d.flagged <= f0 && now_ns() < end) {
		sleep_ns(10 * NS_PER_MS);
		drain_into(dev, &d);
	}
	meter_thread_stop(dev);
	drain_into(dev, &d);
	s = starved_since(s0) + o0;
	ok(d.flagged > f0 && within((int)(d.flagged - f0), 1, s),
	   "the first sample after the stall is flagged (%" PRIu64 " -> %" PRIu64 "; %" PRIu64
	   " starved)", f0, d.flagged, s);
	ne = test_events_pop(ev, 64);
	ok(count_kind(ev, ne, EV_METER_RECONNECT) >= 1 &&
		   within(count_kind(ev, ne, EV_METER_GAP), 1, s) &&
		   within(count_kind(ev, ne, EV_METER_RECONNECT), 1, s),
	   "stall and resume events (%d, %d; %" PRIu64 " starved)",
	   count_kind(ev, ne, EV_METER_GAP), count_kind(ev, ne, EV_METER_RECONNECT), s);
	is_int(METER_LOAD(dev->reconnects), 1, "a stall is not a reconnect");
	meter_free(dev);
}

static void test_manual(void)
{
	struct meter_dev *dev = NULL;
	struct meter_sample s;
	uint64_t end;
	int got = 0;

	ok(!parse_spec("manual:idle_ma=85,active_ma=310,v=5.05,tail_ma=120", "", &dev),
	   "manual spec");
	ok(!meter_open(dev), "manual opens");
	is_str(meter_info(dev)->model, "manual (hand readings)", "manual model string");
	ok(meter_info(dev)->manual && !meter_info(dev)->emulated, "manual=1");
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

/*
 * Bench mode for bench/meter-push.sh: the fake push driver at `rate` S/s for `secs`,
 * drained every 10 ms as a run does. Prints what arrived, what was lost and the CPU the
 * whole process used (push thread, supervisor and drain) as a share of one core.
 */
static int push_bench(unsigned rate, double secs)
{
	struct meter_dev *dev;
	struct meter_counters c;
	struct drained d;
	struct rusage ru0, ru1;
	uint64_t t0, t1, end, stop_ns;
	double cpu;

	push_rate = rate;
	dev = push_dev();
	memset(&d, 0, sizeof(d));
	if (meter_open(dev) || meter_thread_start(dev))
		return 1;
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_ns();
	end = t0 + (uint64_t)(secs * 1e9);
	while (now_ns() < end) {
		sleep_ns(10 * NS_PER_MS);
		drain_into(dev, &d);
	}
	t1 = now_ns();
	meter_thread_stop(dev);
	stop_ns = now_ns() - t1;
	getrusage(RUSAGE_SELF, &ru1);
	drain_into(dev, &d);
	meter_counters(dev, &c);
	cpu = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec + ru1.ru_stime.tv_sec -
		       ru0.ru_stime.tv_sec) +
	      (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec + ru1.ru_stime.tv_usec -
		       ru0.ru_stime.tv_usec) / 1e6;
	printf("rate %u delivered/s %.0f samples %" PRIu64 " overruns %" PRIu64 " gaps %" PRIu64
	       " out_of_order %" PRIu64 " on_grid %.4f cpu %.2f%% stop_ms %.2f ring %u\n", rate,
	       (double)d.n / ((double)(t1 - t0) / 1e9), d.n, c.overruns, c.gaps, d.backwards,
	       d.steps ? (double)d.exact_steps / (double)d.steps : 1.0,
	       100 * cpu / ((double)(t1 - t0) / 1e9), (double)stop_ns / 1e6,
	       meter_ring_capacity(dev));
	meter_free(dev);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--push-rate"))
		return push_bench((unsigned)atoi(argv[2]), atof(argv[3]));
	log_set_level(LOG_ERR);
	test_specs();
	test_descriptors();
	test_ring();
	test_reconnect();
	test_stall();
	test_impossible();
	test_info_snapshot();
	test_push_rate();
	test_push_link_and_stall();
	test_manual();
	return done_testing();
}
