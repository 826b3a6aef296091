/* SPDX-License-Identifier: MIT */
/* A flood never stalls a run: 100 kS/s of drops and undervoltage flaps through a session. */
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "push_meter.h"
#include "run/result_builder.h"
#include "run/session.h"
#include "tap.h"

/*
 * What libsigrok's demo signal did to a run (issue 20): a reading dropped as impossible
 * every few samples and a voltage crossing the 4.75 V threshold every few of the others,
 * at 100 kS/s. The push meter makes that at 25 000 drops and 12 500 undervoltages (and as
 * many ends) a second; the session pumps as the phase loops do, its record sealed at each
 * phase. Bounds are generous (a shared 2-core machine, ASan): what they catch is a pump
 * that never returns (the old queue: 100 % CPU, SIGTERM unseen) and memory that grows
 * with the flood.
 */
#define BAD_EVERY 4
#define FLAP_EVERY 3
#define PHASE_NS NS_PER_SEC
#define PUMP_MAX_NS (5 * NS_PER_SEC) /* one pump, or a stop, must be far below this */
#define WATCHDOG_S 30		     /* a loop stuck this long has stalled for good */
#define UV_THRESHOLD_V 4.75
#define SESSION_QUEUE_MAX 1024 /* events_new()'s limit */

#define diag(fmt, ...) printf("# " fmt "\n", __VA_ARGS__)

static void stalled(int sig)
{
	static const char msg[] = "not ok - the flood stalled the loop (watchdog)\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

struct watch {
	uint64_t pump_max_ns;
	size_t record_max, queue_max;
	unsigned pumps;
};

/* Pump every SESSION_PUMP_NS for len_ns, or until *stop; the worst pump and queue sizes. */
static void pump_for(struct session *s, struct result_builder *rb, uint64_t len_ns,
		     const atomic_int *stop, struct watch *w)
{
	uint64_t end = now_ns() + len_ns, t0, took;
	size_t n;

	alarm(WATCHDOG_S);
	while (now_ns() < end) {
		n = event_queue_count(s->queue);
		w->queue_max = n > w->queue_max ? n : w->queue_max;
		t0 = now_ns();
		session_pump(s, t0);
		took = now_ns() - t0;
		w->pump_max_ns = took > w->pump_max_ns ? took : w->pump_max_ns;
		w->pumps++;
		n = event_queue_count(rb->events);
		w->record_max = n > w->record_max ? n : w->record_max;
		if (stop && atomic_load(stop))
			break;
		sleep_ns(SESSION_PUMP_NS);
	}
	alarm(0);
}

struct stopper {
	atomic_int flag;
	uint64_t at_ns;
};

static void *stop_later(void *arg)
{
	struct stopper *st = arg;

	sleep_ns(PHASE_NS / 2);
	st->at_ns = now_ns();
	atomic_store(&st->flag, 1);
	return NULL;
}

/* Sums over the record: drops, undervoltages and their ends; entries of the drops. */
struct tally {
	uint64_t drops, uv, uv_end;
	size_t drop_entries;
};

static void tally(struct result_builder *rb, struct tally *t)
{
	size_t n = event_queue_count(rb->events), i;
	struct run_event *ev = calloc(n + 1, sizeof(*ev));

	memset(t, 0, sizeof(*t));
	n = event_queue_peek(rb->events, 0, ev, n);
	for (i = 0; i < n; i++) {
		if (ev[i].kind == EV_INFO && strstr(ev[i].text, "dropped as impossible")) {
			t->drops += event_count(&ev[i]);
			t->drop_entries++;
		}
		t->uv += ev[i].kind == EV_UNDERVOLTAGE ? event_count(&ev[i]) : 0;
		t->uv_end += ev[i].kind == EV_UNDERVOLTAGE_END ? event_count(&ev[i]) : 0;
	}
	free(ev);
}

static void test_flood(void)
{
	struct session *s = session_new(UV_THRESHOLD_V);
	struct meter_dev *dev = push_dev();
	struct result_builder rb;
	struct meter_counters c;
	struct stopper st = { 0 };
	struct watch w = { 0 };
	struct tally t;
	pthread_t th;
	uint64_t stop_ns, run_uv = 0;
	size_t i;

	pk.bad_every = BAD_EVERY;
	pk.flap_every = FLAP_EVERY;
	s->meters[s->nmeters++].dev = dev;
	meter_set_events(dev, s->queue);
	result_builder_init(&rb);
	session_add_sink(s, &result_builder_sink_ops, &rb);
	ok(!meter_open(dev) && !session_start(s), "a 100 kS/s push meter in a session");

	session_job_begin(s);
	pump_for(s, &rb, PHASE_NS, NULL, &w);
	diag("idle: %u pumps, the longest %.1f ms", w.pumps, (double)w.pump_max_ns / 1e6);
	session_phase(s, PHASE_ACTIVE, now_ns());
	pump_for(s, &rb, PHASE_NS, NULL, &w);
	diag("active: %u pumps, the longest %.1f ms", w.pumps, (double)w.pump_max_ns / 1e6);
	session_phase(s, PHASE_TAIL, now_ns());
	pthread_create(&th, NULL, stop_later, &st);
	pump_for(s, &rb, 20 * PHASE_NS, &st.flag, &w);
	stop_ns = now_ns() - st.at_ns;
	pthread_join(th, NULL);
	diag("tail: stopped %.1f ms after the request", (double)stop_ns / 1e6);

	ok(w.pump_max_ns < PUMP_MAX_NS, "every pump returned (the longest took %.1f ms)",
	   (double)w.pump_max_ns / 1e6);
	ok(atomic_load(&st.flag) && stop_ns < PUMP_MAX_NS,
	   "a stop asked for mid-flood is seen at the next pump (%.1f ms)", (double)stop_ns / 1e6);

	stop_ns = now_ns();
	session_stop(s);
	stop_ns = now_ns() - stop_ns;
	ok(stop_ns < PUMP_MAX_NS, "the meter thread and its driver stop mid-flood (%.1f ms)",
	   (double)stop_ns / 1e6);
	session_pump(s, now_ns() + SESSION_FEED_LAG_NS);
	meter_counters(dev, &c);
	tally(&rb, &t);
	diag("%" PRIu64 " samples, %" PRIu64 " dropped as impossible, %" PRIu64 " overruns; "
	     "record: %zu entries at most, %" PRIu64 " drops, %" PRIu64 " undervoltages, %" PRIu64
	     " ends; driver: %" PRIu64 " bad, %" PRIu64 " crossings",
	     c.samples, c.out_of_range, c.overruns, w.record_max, t.drops, t.uv, t.uv_end,
	     (uint64_t)atomic_load(&pk.bad), (uint64_t)atomic_load(&pk.drops));
	ok(c.out_of_range > 20000, "a flood it was: %" PRIu64 " readings dropped", c.out_of_range);
	is_int(c.out_of_range, atomic_load(&pk.bad), "every impossible reading was dropped");
	is_int(t.drops, c.out_of_range,
	       "every drop (one reading each) is in the count of a coalesced event");
	ok(t.drop_entries <= 2 * PHASE_COUNT,
	   "... held in a few entries, one per phase (%zu)", t.drop_entries);
	if (c.overruns)
		ok(t.uv <= atomic_load(&pk.drops) && t.uv > 0,
		   "samples were lost (a loaded machine): undervoltages counted up to the crossings");
	else
		is_int(t.uv, atomic_load(&pk.drops), "every crossing below 4.75 V is counted");
	ok(t.uv_end == t.uv || t.uv_end + 1 == t.uv, "and every return above it (%" PRIu64 ")",
	   t.uv_end);
	ok(w.record_max <= RUN_MAX_EVENTS && w.queue_max <= SESSION_QUEUE_MAX,
	   "memory is bounded: the record held %zu entries at most, the session's queue %zu",
	   w.record_max, w.queue_max);

	result_builder_events(&rb);
	for (i = 0; i < rb.rep.nevents; i++)
		if (rb.rep.events[i].kind == EV_UNDERVOLTAGE)
			run_uv += result_event_count(&rb.rep.events[i]);
	is_int(run_uv, t.uv, "the result's events carry the same counts");
	result_builder_free(&rb);
	session_free(s);
}

int main(void)
{
	signal(SIGALRM, stalled);
	log_set_level(LOG_ERR);
	test_flood();
	return done_testing();
}
