/* SPDX-License-Identifier: MIT */
/* Run one fixed-size job: set up the workers, start, wait, stop, join and merge results. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/signals.h"
#include "core/units.h"
#include "io/bench_priv.h"

#define BUF_ALIGN 4096
/* Per pool: bounds memory for big blocks at depth (1 MiB x QD32 would be 32 MiB). */
#define BUF_POOL_MAX (2 * MIB)
/* An engine busy with EAGAIN at setup: tries after 100, 200, 400, 800 ms, then smaller
 * depths. */
#define ENGINE_BUSY_RETRIES 4
#define ENGINE_BUSY_FIRST_WAIT_NS (100 * NS_PER_MS)

/* Zeroed, on its own cache lines (the structs carry aligned members); NULL if out of
 * memory (logged). */
static void *zalloc_cacheline(size_t size)
{
	size_t n = (size + CACHELINE - 1) / CACHELINE * CACHELINE;
	void *p = aligned_alloc(CACHELINE, n);

	if (!p) {
		log_err("bench", "out of memory (%zu bytes)", n);
		return NULL;
	}
	memset(p, 0, n);
	return p;
}

/* NULL if out of memory (logged): a clean error for the job, never an abort. */
static void *buf_pool(const char *job, uint64_t stride, unsigned n)
{
	char sz[32];
	void *p = NULL;

	if ((uint64_t)(size_t)(stride * n) != stride * n || posix_memalign(&p, BUF_ALIGN, (size_t)(stride * n))) {
		log_err("bench", "%s: out of memory for %u I/O buffers (%s)", job, n,
			fmt_size(stride * n, sz, sizeof(sz)));
		return NULL;
	}
	return p;
}

/* Slots that share one buffer only in pools capped by BUF_POOL_MAX: in-flight writes may
 * read the same memory, and reads that land in the same buffer are thrown away anyway. */
static unsigned pool_count(uint64_t stride, unsigned depth)
{
	uint64_t n = BUF_POOL_MAX / stride;

	if (n < 1)
		n = 1;
	return n < depth ? (unsigned)n : depth;
}

static void worker_free_buffers(struct worker *w)
{
	free(w->reqs);
	free(w->freeq);
	free(w->pend);
	free(w->done);
	free(w->rbuf);
	free(w->wbuf);
	w->reqs = NULL;
	w->freeq = w->pend = w->done = NULL;
	w->rbuf = w->wbuf = NULL;
	w->npools = 0;
}

static void worker_free(struct worker *w)
{
	if (!w)
		return;
	if (w->ectx)
		w->eng->cleanup(w->ectx);
	if (w->fd >= 0)
		close(w->fd);
	worker_free_buffers(w);
	activity_free(&w->act);
	completions_free(&w->cmpl);
	free(w);
}

/* The file by its open descriptor when there is one (never by a path that may have been
 * swapped since), else by path. */
struct bench_file {
	int fd;
	const char *path;
};

static int worker_open(struct worker *w, const struct bench_file *f)
{
	const struct job_opts *jo = &w->b->jo;
	int flags, rc;

	flags = (job_modifies(jo) ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (jo->direct)
		flags |= O_DIRECT;
	if (f->fd >= 0) {
		w->fd = fd_reopen(f->fd, flags);
		errno = w->fd < 0 ? -w->fd : 0;
	} else {
		w->fd = open(f->path, flags);
	}
	if (w->fd < 0) {
		rc = -errno;
		w->fd = -1;
		log_err("bench", "%s: open %s%s: %s", jo->name, f->path,
			jo->direct ? " (O_DIRECT)" : "", strerror(errno));
		return rc;
	}
	return 0;
}

/* Request slots, and the read and write pools their buffers point into. 0 or -ENOMEM. */
static int worker_buffers(struct worker *w)
{
	const struct job_opts *jo = &w->b->jo;
	unsigned i;

	w->reqs = xcalloc(w->depth, sizeof(*w->reqs));
	w->freeq = xcalloc(w->depth, sizeof(*w->freeq));
	w->pend = xcalloc(w->depth, sizeof(*w->pend));
	w->done = xcalloc(w->depth, sizeof(*w->done));
	for (i = 0; i < w->depth; i++) {
		w->reqs[i].idx = i;
		w->reqs[i].len = jo->bs;
		w->freeq[i] = &w->reqs[w->depth - 1 - i];
	}
	w->buf_stride = (jo->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	if (rw_reads(jo->rw)) {
		w->nrbuf = pool_count(w->buf_stride, w->depth);
		w->rbuf = buf_pool(jo->name, w->buf_stride, w->nrbuf);
		if (!w->rbuf)
			return -ENOMEM;
		memset(w->rbuf, 0, (size_t)(w->buf_stride * w->nrbuf));
		w->rbuf_index = w->npools;
		w->pools[w->npools].iov_base = w->rbuf;
		w->pools[w->npools++].iov_len = (size_t)(w->buf_stride * w->nrbuf);
	}
	if (rw_writes(jo->rw)) {
		w->nwbuf = pool_count(w->buf_stride, w->depth);
		w->wbuf = buf_pool(jo->name, w->buf_stride, w->nwbuf);
		if (!w->wbuf)
			return -ENOMEM;
		pattern_fill(w->wbuf, (size_t)(w->buf_stride * w->nwbuf),
			     pattern_thread_seed(jo->randseed, w->idx));
		w->wbuf_index = w->npools;
		w->pools[w->npools].iov_base = w->wbuf;
		w->pools[w->npools++].iov_len = (size_t)(w->buf_stride * w->nwbuf);
	}
	return 0;
}

static int engine_init(struct worker *w)
{
	struct engine_setup es = {
		.fd = w->fd, .depth = w->depth, .bufs = w->pools, .nbufs = w->npools,
		.opts = job_engine_opts(&w->b->jo, w->eng),
	};
	int rc = w->eng->init(&w->ectx, &es);

	if (rc)
		w->ectx = NULL;
	return rc;
}

/* "65530 of 65536": how much of the kernel's aio request limit is taken, for the warning. */
static void aio_usage(char *buf, size_t len)
{
	char nr[32], max[32];

	if (read_text_file("/proc/sys/fs/aio-nr", nr, sizeof(nr)) ||
	    read_text_file("/proc/sys/fs/aio-max-nr", max, sizeof(max)))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%.*s of %.*s", (int)strcspn(nr, "\n"), nr,
			 (int)strcspn(max, "\n"), max);
}

/*
 * EAGAIN from the engine's setup is the kernel's limit on aio requests (fs.aio-max-nr),
 * shared by every program: others may hold it for a moment (a backup, a database), so
 * wait a little and try again; then run at a smaller depth rather than not at all,
 * saying so, since the result records the depth it ran at.
 */
static int engine_init_backoff(struct worker *w)
{
	unsigned asked = w->depth, i;
	uint64_t wait_ns = ENGINE_BUSY_FIRST_WAIT_NS;
	char usage[64];
	int rc = engine_init(w);

	for (i = 0; rc == -EAGAIN && i < ENGINE_BUSY_RETRIES; i++, wait_ns *= 2) {
		sleep_ns(wait_ns);
		rc = engine_init(w);
	}
	while (rc == -EAGAIN && w->depth > 1) {
		w->depth /= 2;
		worker_free_buffers(w);
		rc = worker_buffers(w);
		if (rc)
			return rc;
		rc = engine_init(w);
	}
	if (rc == -EAGAIN) {
		aio_usage(usage, sizeof(usage));
		log_err("bench", "%s: %s refused even one request in flight (EAGAIN): the kernel's "
			"aio request limit is taken by other programs (/proc/sys/fs/aio-nr: %s in "
			"/proc/sys/fs/aio-max-nr); raise it or try --ioengine psync", w->b->jo.name,
			w->eng->name, usage);
	} else if (!rc && w->depth < asked) {
		aio_usage(usage, sizeof(usage));
		log_warn("bench", "%s: %s refused %u requests in flight (EAGAIN, %u tries over "
			 "%.1f s): the kernel's aio request limit is taken by other programs "
			 "(/proc/sys/fs/aio-nr: %s in /proc/sys/fs/aio-max-nr); running at iodepth "
			 "%u, which the result records", w->b->jo.name, w->eng->name, asked,
			 ENGINE_BUSY_RETRIES + 1,
			 (double)(ENGINE_BUSY_FIRST_WAIT_NS * ((1u << ENGINE_BUSY_RETRIES) - 1)) / 1e9,
			 usage, w->depth);
	}
	return rc;
}

static int worker_setup(struct bench *b, unsigned idx, const struct bench_file *f,
			const struct io_engine *eng, struct worker **out)
{
	const struct job_opts *jo = &b->jo;
	uint64_t region = job_region(jo);
	struct worker *w;
	unsigned i;
	int rc;

	w = zalloc_cacheline(sizeof(*w));
	*out = w;
	if (!w)
		return -ENOMEM;
	w->b = b;
	w->idx = idx;
	w->eng = eng;
	w->fd = -1;
	w->depth = (eng->flags & IOENG_ASYNC) && jo->iodepth ? jo->iodepth : 1;

	rc = pattern_init(&w->pat, jo->rw, jo->rwmixread, jo->bs, (uint64_t)idx * region, region,
			  pattern_thread_seed(jo->randseed, idx));
	if (rc) {
		log_err("bench", "%s: region of %" PRIu64 " bytes holds no block of %" PRIu64,
			jo->name, region, jo->bs);
		return rc;
	}
	rc = worker_open(w, f);
	if (rc)
		return rc;
	rc = worker_buffers(w);
	if (rc)
		return rc;
	rc = engine_init_backoff(w);
	if (rc)
		return rc;
	for (i = 0; i < DDIR_COUNT; i++) {
		lat_init(&w->clat[i]);
		lat_init(&w->lat[i]);
	}
	lat_init(&w->sync_lat);
	return 0;
}

static void bench_free(struct bench *b)
{
	unsigned i;

	for (i = 0; i < b->nworkers; i++)
		worker_free(b->w[i]);
	free(b->w);
	pthread_cond_destroy(&b->done_cond);
	pthread_cond_destroy(&b->wake_cond);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

static void cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(c, &ca);
	pthread_condattr_destroy(&ca);
}

/* The job and its workers, ready to start: everything that can fail or take time. */
static int bench_create(const struct job_opts *jo, const struct bench_file *f,
			struct bench **out)
{
	const struct io_engine *eng = io_engine_find(jo->ioengine);
	struct bench *b;
	unsigned i;
	int rc;

	*out = NULL;
	if (!eng) {
		log_err("bench", "%s: unknown ioengine '%s'", jo->name, jo->ioengine);
		return -EINVAL;
	}
	b = zalloc_cacheline(sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->jo = *jo;
	b->end_fsync = job_end_fsync(jo);
	b->nworkers = jo->numjobs ? jo->numjobs : 1;
	b->w = xcalloc(b->nworkers, sizeof(*b->w));
	pthread_mutex_init(&b->lock, NULL);
	cond_init_monotonic(&b->done_cond);
	cond_init_monotonic(&b->wake_cond);
	for (i = 0; i < b->nworkers; i++) {
		rc = worker_setup(b, i, f, eng, &b->w[i]);
		if (rc) {
			bench_free(b);
			return rc;
		}
	}
	*out = b;
	return 0;
}

/*
 * Workers inherit a full signal mask: SIGINT/SIGTERM go to the main thread, which calls
 * bench_stop, and no worker syscall sees EINTR. On failure the started ones are stopped
 * and joined.
 */
static int bench_launch(struct bench *b)
{
	char name[16];
	unsigned i;
	int rc = 0;

	b->t_start_ns = now_ns();
	for (i = 0; i < b->nworkers && !rc; i++) {
		pthread_mutex_lock(&b->lock);
		b->running++;
		pthread_mutex_unlock(&b->lock);
		rc = signals_blocked_thread(&b->w[i]->tid, bench_worker_main, b->w[i]);
		if (rc) {
			log_err("bench", "%s: cannot start thread: %s", b->jo.name, strerror(-rc));
			break;
		}
		b->w[i]->started = 1;
		snprintf(name, sizeof(name), "iowatt-io%u", i % 1000u);
		pthread_setname_np(b->w[i]->tid, name);
	}
	if (!rc)
		return 0;
	bench_stop(b);
	for (i = 0; i < b->nworkers; i++)
		if (b->w[i]->started)
			pthread_join(b->w[i]->tid, NULL);
	return rc;
}

/*
 * All that can fail or take time (open, engine setup, buffers) happens before
 * t_start_ns, so the job's clock covers I/O and not preparation.
 */
static int start(const struct job_opts *jo, const struct bench_file *f, struct bench **out)
{
	struct bench *b;
	int rc;

	*out = NULL;
	rc = bench_create(jo, f, &b);
	if (rc)
		return rc;
	rc = bench_launch(b);
	if (rc) {
		bench_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

/* Threads that run at depth > 1: the asynchronous engines'. */
static unsigned job_depth(const struct job_opts *jo)
{
	const struct io_engine *eng = io_engine_find(jo->ioengine);

	return eng && (eng->flags & IOENG_ASYNC) && jo->iodepth ? jo->iodepth : 1;
}

uint64_t bench_buffer_bytes(const struct job_opts *jo)
{
	uint64_t stride = (jo->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	uint64_t pool = stride * pool_count(stride, job_depth(jo));
	uint64_t per = (rw_reads(jo->rw) ? pool : 0) + (rw_writes(jo->rw) ? pool : 0);

	return per * (jo->numjobs ? jo->numjobs : 1);
}

int bench_check_memory(const struct job_opts *jo, uint64_t avail, const char *limit)
{
	uint64_t need = bench_buffer_bytes(jo);
	char n1[32], n2[32];

	if (need <= avail)
		return 0;
	log_err("bench", "job '%s' needs %s of I/O buffers (numjobs=%u x bs=%llu%s) but only "
		"%s can be allocated (%s): lower bs or numjobs", jo->name,
		fmt_size(need, n1, sizeof(n1)), jo->numjobs ? jo->numjobs : 1,
		(unsigned long long)jo->bs, rw_reads(jo->rw) && rw_writes(jo->rw) ?
		", read and write pools" : "", fmt_size(avail, n2, sizeof(n2)), limit);
	return -ENOMEM;
}

int bench_start(const struct job_opts *jo, const char *path, struct bench **out)
{
	struct bench_file f = {.fd = -1, .path = path};

	return start(jo, &f, out);
}

int bench_start_fd(const struct job_opts *jo, int fd, const char *name, struct bench **out)
{
	struct bench_file f = {.fd = fd, .path = name};

	return start(jo, &f, out);
}

void bench_get_progress(const struct bench *b, struct bench_progress *p)
{
	const struct worker *w;
	unsigned i, d;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < b->nworkers; i++) {
		w = b->w[i];
		for (d = 0; d < DDIR_COUNT; d++) {
			p->bytes[d] +=
			    atomic_load_explicit(&w->live.bytes[d], memory_order_relaxed);
			p->ios[d] += atomic_load_explicit(&w->live.ios[d], memory_order_relaxed);
		}
	}
}

int bench_wait(struct bench *b, uint64_t timeout_ns)
{
	struct timespec ts;
	int done;

	timespec_from_ns(now_ns() + timeout_ns, &ts);
	pthread_mutex_lock(&b->lock);
	while (b->running && pthread_cond_timedwait(&b->done_cond, &b->lock, &ts) != ETIMEDOUT)
		;
	done = !b->running;
	pthread_mutex_unlock(&b->lock);
	return done;
}

void bench_stop(struct bench *b)
{
	int expect = STOP_NONE;

	pthread_mutex_lock(&b->lock);
	atomic_compare_exchange_strong(&b->stop, &expect, STOP_INTERRUPT);
	pthread_cond_broadcast(&b->wake_cond);
	pthread_mutex_unlock(&b->lock);
}

void bench_finish(struct bench *b, struct bench_result *res)
{
	bench_finish_activity(b, res, NULL, NULL);
}

void bench_finish_activity(struct bench *b, struct bench_result *res, struct activity *act,
			   struct completions *cmpl)
{
	struct worker *w;
	unsigned i, d;

	memset(res, 0, sizeof(*res));
	for (d = 0; d < DDIR_COUNT; d++) {
		lat_init(&res->dir[d].clat);
		lat_init(&res->dir[d].lat);
	}
	lat_init(&res->sync_lat);
	res->t_start_ns = b->t_start_ns;
	res->t_end_ns = b->t_start_ns;
	res->threads = b->nworkers;
	if (act)
		activity_init(act, b->t_start_ns);
	if (cmpl)
		completions_init(cmpl, b->t_start_ns);
	for (i = 0; i < b->nworkers; i++) {
		w = b->w[i];
		if (!w->started)
			continue;
		if (!res->depth || w->depth < res->depth)
			res->depth = w->depth;
		pthread_join(w->tid, NULL);
		if (w->t_end_ns > res->t_end_ns)
			res->t_end_ns = w->t_end_ns;
		res->syncs += w->syncs;
		res->cpu_ns += w->cpu_ns;
		res->cpu_user_ns += w->cpu_user_ns;
		res->cpu_sys_ns += w->cpu_sys_ns;
		lat_merge(&res->sync_lat, &w->sync_lat);
		if (act)
			activity_merge(act, &w->act);
		if (cmpl)
			completions_merge(cmpl, &w->cmpl);
		for (d = 0; d < DDIR_COUNT; d++) {
			res->dir[d].io_bytes += w->bytes[d];
			res->dir[d].total_ios += w->ios[d];
			lat_merge(&res->dir[d].clat, &w->clat[d]);
			lat_merge(&res->dir[d].lat, &w->lat[d]);
		}
		if (w->err && !res->err) {
			res->err = w->err;
			snprintf(res->errmsg, sizeof(res->errmsg), "%s", w->errmsg);
		}
	}
	if (res->err)
		res->status = BENCH_FAILED;
	else if (atomic_load(&b->stop) != STOP_NONE)
		res->status = BENCH_INTERRUPTED;
	else
		res->status = BENCH_OK;
	bench_free(b);
}

uint64_t bench_start_ns(const struct bench *b)
{
	return b->t_start_ns;
}
