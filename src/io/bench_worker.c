/* SPDX-License-Identifier: MIT */
/* One worker thread's submit/reap loop: exact size, pacing, syncs, errors, live counters. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "io/bench_priv.h"
#include "io/pace.h"

/* How long a paced or capped reap may block before the loop looks at the clock again. */
#define REAP_TIMEOUT_NS (100 * NS_PER_MS)

static const char *const ddir_names[DDIR_COUNT] = {"read", "write"};

static void worker_fail(struct worker *w, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The first error of a worker stops the whole job; later ones are consequences. */
static void worker_fail(struct worker *w, int err, const char *fmt, ...)
{
	struct bench *b = w->b;
	int expect = STOP_NONE;
	va_list ap;

	if (w->err)
		return;
	w->err = err;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	log_err("bench", "%s: thread %u: %s", b->jo.name, w->idx, w->errmsg);
	pthread_mutex_lock(&b->lock);
	atomic_compare_exchange_strong(&b->stop, &expect, STOP_FAILED);
	pthread_cond_broadcast(&b->wake_cond);
	pthread_mutex_unlock(&b->lock);
}

static void publish(struct worker *w)
{
	int d;

	for (d = 0; d < DDIR_COUNT; d++) {
		atomic_store_explicit(&w->live.bytes[d], w->bytes[d], memory_order_relaxed);
		atomic_store_explicit(&w->live.ios[d], w->ios[d], memory_order_relaxed);
	}
}

/* Account completions; a failed or short transfer is an error, never a counted I/O. */
static unsigned complete(struct worker *w, unsigned n, uint64_t now, unsigned nfree)
{
	struct io_req *r;
	unsigned i;

	for (i = 0; i < n; i++) {
		r = w->done[i];
		if (r->res == (int64_t)r->len) {
			lat_add(&w->clat[r->ddir], now - r->t_submit_ns);
			lat_add(&w->lat[r->ddir], now - r->t_issue_ns);
			activity_add(&w->act, r->t_submit_ns, now);
			completions_add(&w->cmpl, r->ddir == DDIR_READ ? COMPL_READ : COMPL_WRITE, now);
			w->bytes[r->ddir] += r->len;
			w->ios[r->ddir]++;
		} else if (r->res < 0) {
			worker_fail(w, (int)r->res, "%s at offset %" PRIu64 ": %s",
				    ddir_names[r->ddir], r->offset, strerror((int)-r->res));
		} else {
			worker_fail(
			    w, -EIO,
			    "%s at offset %" PRIu64 ": short %s (%" PRId64 " of %" PRIu64 " bytes)",
			    ddir_names[r->ddir], r->offset, ddir_names[r->ddir], r->res, r->len);
		}
		w->freeq[nfree++] = r;
	}
	publish(w);
	return nfree;
}

static void do_sync(struct worker *w, int full)
{
	uint64_t t0 = now_ns(), t1;
	int rc;

	rc = full ? fsync(w->fd) : fdatasync(w->fd);
	if (rc) {
		worker_fail(w, -errno, "%s: %s", full ? "fsync" : "fdatasync", strerror(errno));
		return;
	}
	t1 = now_ns();
	lat_add(&w->sync_lat, t1 - t0);
	activity_add(&w->act, t0, t1);
	completions_add(&w->cmpl, COMPL_FLUSH, t1);
	w->syncs++;
}

static struct io_req *prepare(struct worker *w, struct io_req *r)
{
	pattern_next(&w->pat, &r->offset, &r->ddir);
	r->discard = w->b->jo.rw == RW_TRIM;
	if (r->discard) {
		r->buf = NULL; /* a discard moves no data */
		r->buf_index = 0;
	} else if (r->ddir == DDIR_WRITE) {
		r->buf = (char *)w->wbuf + (uint64_t)w->next_wbuf * w->buf_stride;
		r->buf_index = w->wbuf_index;
		if (++w->next_wbuf == w->nwbuf)
			w->next_wbuf = 0;
	} else {
		r->buf = (char *)w->rbuf + (uint64_t)(r->idx % w->nrbuf) * w->buf_stride;
		r->buf_index = w->rbuf_index;
	}
	return r;
}

/*
 * Defaults measured against fio on virtio (bench/vs-fio.sh): io_submit calls of a
 * quarter of the queue reach the device sooner than one big plugged batch, and reaping
 * an eighth at a time keeps the queue nearly full with one wake-up per several I/Os.
 */
static unsigned default_batch_submit(unsigned depth)
{
	return depth >= 4 ? depth / 4 : 1;
}

static unsigned default_batch_complete(unsigned depth)
{
	return depth >= 8 ? depth / 8 : 1;
}

/* Sleep until the deadline or until the job is asked to stop (bench_stop wakes it). */
static void bench_sleep_until(struct bench *b, uint64_t deadline_ns)
{
	struct timespec ts;

	timespec_from_ns(deadline_ns, &ts);
	pthread_mutex_lock(&b->lock);
	while (atomic_load(&b->stop) == STOP_NONE &&
	       pthread_cond_timedwait(&b->wake_cond, &b->lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&b->lock);
}

/* The loop's state: counters of one worker's run, kept apart from the worker's results. */
struct loop {
	uint64_t total;	 /* I/Os this worker must complete */
	uint64_t issued; /* prepared so far */
	uint64_t t_cap;	 /* runtime cap deadline, UINT64_MAX = none */
	uint64_t rate;	 /* rate_iops, 0 = unpaced */
	uint64_t slot;	 /* the start of the next paced I/O's slot (its undithered time) */
	uint64_t due;	 /* when the next paced I/O may start: slot + its dither */
	uint64_t acc;	 /* remainder of 1 s / rate, so the schedule never drifts */
	uint64_t dither_ns; /* rate_dither's share of a slot; 0 = none */
	uint64_t rng;	 /* splitmix64 state of the dither, from randseed and the thread */
	uint64_t now;
	uint64_t think_until; /* thinktime: no I/O starts before this */
	unsigned nfree, npend, inflight, writes, bsub, bcomp;
	unsigned burst;	 /* I/Os prepared since the last thinktime pause */
	int stopping, capped, sync_due;
	int think_due;	 /* a burst is prepared: pause once it has completed */
};

static int may_queue(const struct loop *l)
{
	return l->issued < l->total && !l->sync_due && !l->think_due && !l->stopping &&
	       (!l->rate || l->due <= l->now) && l->think_until <= l->now;
}

/*
 * rate_dither: I/O k is due at its slot's start plus an offset drawn uniformly from
 * [0, dither x slot), independently for each I/O. The offsets do not accumulate, so the
 * mean rate is exact and the job's length moves by less than one slot; a periodic load
 * then falls at every phase of a meter's sampling instead of the same one.
 */
static void pace_dither(struct loop *l)
{
	l->due = l->slot;
	if (l->dither_ns)
		l->due += pace_next(&l->rng) % l->dither_ns;
}

/* Absolute schedule: I/O k's slot starts at t_start + k * 1e9 / rate, in integers. */
static void pace_advance(struct loop *l)
{
	l->slot += NS_PER_SEC / l->rate;
	l->acc += NS_PER_SEC % l->rate;
	if (l->acc >= l->rate) {
		l->slot++;
		l->acc -= l->rate;
	}
	pace_dither(l);
}

/* Prepare free slots up to the submit batch; an fdatasync point ends the batch. */
static void fill(struct worker *w, struct loop *l)
{
	unsigned fdatasync = w->b->jo.fdatasync;
	struct io_req *r;

	if (l->rate)
		l->now = now_ns();
	while (l->nfree && l->npend < l->bsub && may_queue(l)) {
		r = prepare(w, w->freeq[--l->nfree]);
		w->pend[l->npend++] = r;
		l->issued++;
		if (l->rate)
			pace_advance(l);
		if (r->ddir == DDIR_WRITE && fdatasync && ++l->writes == fdatasync) {
			l->writes = 0;
			l->sync_due = 1;
		}
		if (w->b->jo.thinktime_ns && ++l->burst >= w->b->jo.thinktime_blocks) {
			l->burst = 0;
			l->think_due = 1;
		}
	}
}

/* Prepared requests that will never start go back to the free slots, uncounted. */
static void drop_pending(struct worker *w, struct loop *l)
{
	unsigned i;

	for (i = 0; i < l->npend; i++)
		w->freeq[l->nfree++] = w->pend[i];
	l->npend = 0;
}

/* Hand the prepared requests to the engine; 1 when more slots can be filled at once. */
static int submit(struct worker *w, struct loop *l)
{
	uint64_t t = now_ns();
	unsigned i;
	int k;

	for (i = 0; i < l->npend; i++)
		w->pend[i]->t_issue_ns = w->pend[i]->t_submit_ns = t;
	k = w->eng->submit(w->ectx, w->pend, l->npend);
	if (k < 0) {
		worker_fail(w, k, "%s at offset %" PRIu64 ": %s", ddir_names[w->pend[0]->ddir],
			    w->pend[0]->offset, strerror(-k));
		return 0;
	}
	if (!k && !l->inflight) {
		worker_fail(w, -EAGAIN, "%s: engine accepted no request", w->eng->name);
		return 0;
	}
	/*
	 * Completion latency starts when the kernel has the request, as fio's clat does for
	 * libaio: time inside io_submit is submission, not completion. A synchronous engine
	 * did the whole I/O inside submit, so its stamp stays before the call.
	 */
	if (w->eng->flags & IOENG_ASYNC) {
		t = now_ns();
		for (i = 0; i < (unsigned)k; i++)
			w->pend[i]->t_submit_ns = t;
	}
	l->inflight += (unsigned)k;
	l->npend -= (unsigned)k;
	if (l->npend) {
		memmove(w->pend, w->pend + k, l->npend * sizeof(*w->pend));
		return 0;
	}
	return l->nfree && may_queue(l);
}

/* Wait for at least a batch of completions (less when paced or capped) and account them. */
static int reap(struct worker *w, struct loop *l)
{
	unsigned min = l->bcomp < l->inflight ? l->bcomp : l->inflight;
	uint64_t tmo;
	int k;

	/* Unpaced and uncapped, the wait needs no timer: min <= inflight will come. */
	tmo = l->rate || l->t_cap != UINT64_MAX ? REAP_TIMEOUT_NS : ENGINE_WAIT_FOREVER;
	if (l->rate && l->nfree && !l->npend && l->issued < l->total && !l->sync_due &&
	    !l->stopping)
		tmo = l->due > l->now ? l->due - l->now : 0;
	if (l->t_cap != UINT64_MAX && !l->stopping)
		tmo = l->t_cap > l->now ? (l->t_cap - l->now < tmo ? l->t_cap - l->now : tmo) : 0;
	k = w->eng->reap(w->ectx, w->done, tmo ? min : 0, l->inflight, tmo);
	if (k < 0) {
		worker_fail(w, k, "reaping completions: %s", strerror(-k));
		return k;
	}
	l->now = now_ns();
	l->inflight -= (unsigned)k;
	l->nfree = complete(w, (unsigned)k, l->now, l->nfree);
	if (l->now >= l->t_cap)
		l->capped = 1;
	return 0;
}

/*
 * Keep the queue full: prepare free slots in submit batches and hand each batch to the
 * engine until no slot is free, then reap at least a batch of completions. Paced jobs
 * prepare only I/Os whose time has come and sleep (not spin) while nothing is in flight.
 * Two clock reads per batch, none per I/O. Stopping (bench_stop, a failure, the runtime
 * cap) drains what is in flight; only a job that was not stopped gets its end_fsync.
 */
static void loop_init(const struct worker *w, struct loop *l)
{
	const struct bench *b = w->b;
	const struct job_opts *jo = &b->jo;

	memset(l, 0, sizeof(*l));
	l->total = jo->size / jo->bs;
	l->t_cap = jo->runtime_ns ? b->t_start_ns + jo->runtime_ns : UINT64_MAX;
	l->rate = jo->rate_iops;
	l->now = l->slot = b->t_start_ns;
	if (l->rate && jo->rate_dither > 0)
		l->dither_ns = (uint64_t)(jo->rate_dither * (double)(NS_PER_SEC / l->rate));
	l->rng = pattern_thread_seed(jo->randseed, w->idx) ^ 0xd1b54a32d192ed03ULL;
	pace_dither(l);
	l->nfree = w->depth;
	l->bsub =
	    jo->iodepth_batch_submit ? jo->iodepth_batch_submit : default_batch_submit(w->depth);
	l->bcomp = jo->iodepth_batch_complete ? jo->iodepth_batch_complete
					      : default_batch_complete(w->depth);
	if (l->bsub > w->depth)
		l->bsub = w->depth;
	if (l->bcomp > w->depth)
		l->bcomp = w->depth;
}

static void worker_loop(struct worker *w)
{
	struct bench *b = w->b;
	struct loop l;

	loop_init(w, &l);
	for (;;) {
		l.stopping = l.capped || w->err ||
			     atomic_load_explicit(&b->stop, memory_order_relaxed) != STOP_NONE;
		if (l.stopping)
			drop_pending(w, &l);
		else if (!l.sync_due)
			fill(w, &l);
		if (l.npend && submit(w, &l))
			continue;
		if (l.inflight) {
			if (reap(w, &l))
				break;
			continue;
		}
		if (l.sync_due) {
			l.sync_due = 0;
			if (!l.stopping)
				do_sync(w, 0);
		} else if (l.stopping || l.issued == l.total) {
			break;
		} else if (l.think_due) {
			/* the burst and its sync are done: the pause starts now */
			l.think_due = 0;
			l.now = now_ns();
			l.think_until = l.now + pace_think_ns(b->jo.thinktime_ns, b->jo.thinktime_dither,
								&l.rng);
		} else if (l.think_until > l.now) {
			bench_sleep_until(b, l.think_until < l.t_cap ? l.think_until : l.t_cap);
			l.now = now_ns();
			l.capped = l.now >= l.t_cap;
		} else if (l.rate && l.due > l.now) {
			bench_sleep_until(b, l.due < l.t_cap ? l.due : l.t_cap);
			l.now = now_ns();
			l.capped = l.now >= l.t_cap;
		}
	}
	if (!w->err && atomic_load(&b->stop) == STOP_NONE && b->end_fsync)
		do_sync(w, 1);
	w->t_end_ns = now_ns();
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NS_PER_SEC + (uint64_t)tv->tv_usec * NS_PER_US;
}

static uint64_t thread_clock_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * The thread's CPU time since the start: its CPU clock is exact to the nanosecond;
 * rusage (RUSAGE_THREAD, Linux 2.6.26) splits it into user and system time, but only
 * from the scheduler tick's samples, so the split is an estimate.
 */
static void thread_cpu(struct worker *w, const struct rusage *from, uint64_t clock0_ns)
{
	struct rusage now;
	uint64_t total = thread_clock_ns() - clock0_ns, user, sys;

	w->cpu_ns = total;
	if (getrusage(RUSAGE_THREAD, &now))
		return;
	user = tv_ns(&now.ru_utime) - tv_ns(&from->ru_utime);
	sys = tv_ns(&now.ru_stime) - tv_ns(&from->ru_stime);
	w->cpu_user_ns = user + sys ? (uint64_t)((double)total * (double)user / (double)(user + sys))
				    : 0;
	w->cpu_sys_ns = total - w->cpu_user_ns;
}

void *bench_worker_main(void *arg)
{
	struct worker *w = arg;
	struct bench *b = w->b;
	struct rusage ru0;
	uint64_t clock0_ns = thread_clock_ns();
	int rc;

	memset(&ru0, 0, sizeof(ru0));
	getrusage(RUSAGE_THREAD, &ru0);
	activity_init(&w->act, b->t_start_ns);
	completions_init(&w->cmpl, b->t_start_ns);

	rc = w->eng->attach ? w->eng->attach(w->ectx) : 0;
	if (rc)
		worker_fail(w, rc, "%s: %s", w->eng->name, strerror(-rc));
	worker_loop(w);
	if (w->eng->detach)
		w->eng->detach(w->ectx);
	thread_cpu(w, &ru0, clock0_ns);
	pthread_mutex_lock(&b->lock);
	b->running--;
	pthread_cond_broadcast(&b->done_cond);
	pthread_mutex_unlock(&b->lock);
	return NULL;
}
