/* SPDX-License-Identifier: MIT */
/* One worker thread's submit/reap loop: exact size, pacing, syncs, errors, live counters. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench_priv.h"
#include "log.h"
#include "util.h"

/* How long a paced or capped reap may block before the loop looks at the clock again. */
#define REAP_TIMEOUT_NS (100 * NS_PER_MS)

static const char *const ddir_names[DDIR_COUNT] = { "read", "write" };

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
			w->bytes[r->ddir] += r->len;
			w->ios[r->ddir]++;
		} else if (r->res < 0) {
			worker_fail(w, (int)r->res, "%s at offset %" PRIu64 ": %s",
				    ddir_names[r->ddir], r->offset, strerror((int)-r->res));
		} else {
			worker_fail(w, -EIO, "%s at offset %" PRIu64 ": short %s (%" PRId64
					     " of %" PRIu64 " bytes)",
				    ddir_names[r->ddir], r->offset, ddir_names[r->ddir], r->res,
				    r->len);
		}
		w->freeq[nfree++] = r;
	}
	publish(w);
	return nfree;
}

static void do_sync(struct worker *w, int full)
{
	uint64_t t0 = now_ns();
	int rc;

	rc = full ? fsync(w->fd) : fdatasync(w->fd);
	if (rc) {
		worker_fail(w, -errno, "%s: %s", full ? "fsync" : "fdatasync", strerror(errno));
		return;
	}
	lat_add(&w->sync_lat, now_ns() - t0);
	w->syncs++;
}

static struct io_req *prepare(struct worker *w, struct io_req *r)
{
	pattern_next(&w->pat, &r->offset, &r->ddir);
	if (r->ddir == DDIR_WRITE) {
		r->buf = (char *)w->wbuf + (uint64_t)w->next_wbuf * w->buf_stride;
		if (++w->next_wbuf == w->nwbuf)
			w->next_wbuf = 0;
	} else {
		r->buf = (char *)w->rbuf + (uint64_t)(r->idx % w->nrbuf) * w->buf_stride;
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

/*
 * The loop keeps the queue full: prepare every free slot (up to the submit batch), hand
 * them to the engine in one call, then reap at least a batch of completions. Paced jobs
 * prepare only I/Os whose slot on the absolute schedule t_start + k / rate has come, and
 * sleep (not spin) when nothing is in flight. Two clock reads per loop, none per I/O.
 */
static void worker_loop(struct worker *w)
{
	struct bench *b = w->b;
	const struct job_opts *jo = &b->jo;
	const uint64_t total = jo->size / jo->bs;
	const uint64_t t_cap = jo->runtime_ns ? b->t_start_ns + jo->runtime_ns : UINT64_MAX;
	const uint64_t rate = jo->rate_iops;
	uint64_t issued = 0, now = b->t_start_ns, due = b->t_start_ns, acc = 0, tmo, t;
	unsigned nfree = w->depth, npend = 0, inflight = 0, writes = 0, bsub, bcomp, min, i;
	int stopping = 0, capped = 0, sync_due = 0, k;

	bsub = jo->iodepth_batch_submit ? jo->iodepth_batch_submit
					 : default_batch_submit(w->depth);
	bcomp = jo->iodepth_batch_complete ? jo->iodepth_batch_complete
					   : default_batch_complete(w->depth);
	if (bsub > w->depth)
		bsub = w->depth;
	if (bcomp > w->depth)
		bcomp = w->depth;

	for (;;) {
		stopping = capped || w->err ||
			   atomic_load_explicit(&b->stop, memory_order_relaxed) != STOP_NONE;
		if (stopping) {
			nfree += npend; /* prepared but never started: not counted */
			for (i = 0; i < npend; i++)
				w->freeq[nfree - npend + i] = w->pend[i];
			npend = 0;
		} else if (!sync_due) {
			if (rate)
				now = now_ns();
			while (nfree && npend < bsub && issued < total && (!rate || due <= now)) {
				w->pend[npend++] = prepare(w, w->freeq[--nfree]);
				issued++;
				if (rate) {
					due += NS_PER_SEC / rate;
					acc += NS_PER_SEC % rate;
					if (acc >= rate) {
						due++;
						acc -= rate;
					}
				}
				if (w->pend[npend - 1]->ddir == DDIR_WRITE && jo->fdatasync &&
				    ++writes == jo->fdatasync) {
					writes = 0;
					sync_due = 1;
					break;
				}
			}
		}
		if (npend) {
			t = now_ns();
			for (i = 0; i < npend; i++)
				w->pend[i]->t_submit_ns = t;
			k = w->eng->submit(w->ectx, w->pend, npend);
			if (k < 0) {
				worker_fail(w, k, "%s at offset %" PRIu64 ": %s",
					    ddir_names[w->pend[0]->ddir], w->pend[0]->offset,
					    strerror(-k));
				continue;
			}
			if (!k && !inflight) {
				worker_fail(w, -EAGAIN, "%s: engine accepted no request",
					    w->eng->name);
				continue;
			}
			inflight += (unsigned)k;
			npend -= (unsigned)k;
			if (npend)
				memmove(w->pend, w->pend + k, npend * sizeof(*w->pend));
			/* A batch went out and slots are still free: fill them before reaping. */
			else if (nfree && issued < total && !sync_due && !stopping &&
				 (!rate || due <= now))
				continue;
		}
		if (!inflight) {
			if (sync_due) {
				sync_due = 0;
				if (!stopping)
					do_sync(w, 0);
				continue;
			}
			if (stopping || issued == total)
				break;
			if (rate && due > now) {
				bench_sleep_until(b, due < t_cap ? due : t_cap);
				now = now_ns();
				capped = now >= t_cap;
			}
			continue;
		}
		min = bcomp < inflight ? bcomp : inflight;
		/* Unpaced and uncapped, the wait needs no timer: min <= inflight will come. */
		tmo = rate || t_cap != UINT64_MAX ? REAP_TIMEOUT_NS : ENGINE_WAIT_FOREVER;
		if (rate && nfree && !npend && issued < total && !sync_due && !stopping)
			tmo = due > now ? due - now : 0;
		if (t_cap != UINT64_MAX && !stopping)
			tmo = t_cap > now ? (t_cap - now < tmo ? t_cap - now : tmo) : 0;
		k = w->eng->reap(w->ectx, w->done, tmo ? min : 0, inflight, tmo);
		if (k < 0) {
			worker_fail(w, k, "reaping completions: %s", strerror(-k));
			break;
		}
		now = now_ns();
		inflight -= (unsigned)k;
		nfree = complete(w, (unsigned)k, now, nfree);
		if (now >= t_cap)
			capped = 1;
	}
	if (!w->err && atomic_load(&b->stop) == STOP_NONE && b->end_fsync)
		do_sync(w, 1);
	w->t_end_ns = now_ns();
}

void *bench_worker_main(void *arg)
{
	struct worker *w = arg;
	struct bench *b = w->b;

	worker_loop(w);
	pthread_mutex_lock(&b->lock);
	b->running--;
	pthread_cond_broadcast(&b->done_cond);
	pthread_mutex_unlock(&b->lock);
	return NULL;
}
