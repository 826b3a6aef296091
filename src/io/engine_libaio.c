/* SPDX-License-Identifier: MIT */
/* libaio engine: batched io_submit, completions read from the ring in user space when ready. */
#ifdef HAVE_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "io/engine.h"
#include "io/job.h"

/*
 * The completion ring the kernel maps at the address io_setup returns (fs/aio.c, stable
 * ABI since 2.6). Reading it directly saves an io_getevents syscall whenever the
 * completions we want are already there; the kernel reads `head` back when it needs
 * room, so consuming here is safe (fio's userspace_reap does the same).
 */
struct aio_ring {
	unsigned id;
	unsigned nr;
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC 0xa10a10a1u

struct aio_ctx {
	io_context_t ctx;
	struct aio_ring *ring; /* NULL when the ring layout is not the one we know */
	unsigned depth;
	struct iocb *iocbs;	 /* one per request slot */
	struct iocb **iocbps;	 /* submit vector */
	struct io_event *events; /* io_getevents output */
};

/*
 * qemu-user does not emulate the aio syscalls (ENOSYS), and a seccomp filter may refuse
 * them: say so before any job counts on the engine.
 */
static int aio_probe(char *why, size_t len)
{
	io_context_t ctx = 0;
	int rc = io_setup(1, &ctx);

	if (rc < 0) {
		snprintf(why, len, "libaio is not available here (io_setup: %s%s)",
			 rc == -ENOSYS ? "ENOSYS, " : "", strerror(-rc));
		return rc;
	}
	io_destroy(ctx);
	return 0;
}

static int aio_init(void **ctxp, const struct engine_setup *s)
{
	struct aio_ctx *c = xcalloc(1, sizeof(*c));
	unsigned i, depth = s->depth;
	int rc;

	rc = io_setup((int)depth, &c->ctx);
	if (rc < 0) {
		/* EAGAIN: fs.aio-max-nr is taken; the worker retries or asks for less. */
		if (rc == -EAGAIN)
			log_debug("libaio", "io_setup(%u): EAGAIN", depth);
		else
			log_err("libaio", "io_setup(%u): %s", depth, strerror(-rc));
		free(c);
		return rc;
	}
	c->depth = depth;
	c->iocbs = xcalloc(depth, sizeof(*c->iocbs));
	c->iocbps = xcalloc(depth, sizeof(*c->iocbps));
	c->events = xcalloc(depth, sizeof(*c->events));
	for (i = 0; i < depth; i++)
		c->iocbs[i].aio_fildes = s->fd;
	c->ring = (struct aio_ring *)c->ctx;
	if (c->ring->magic != AIO_RING_MAGIC || c->ring->incompat_features != 0 ||
	    c->ring->header_length != sizeof(struct aio_ring))
		c->ring = NULL;
	*ctxp = c;
	return 0;
}

static int aio_submit(void *ctx, struct io_req **reqs, unsigned n)
{
	struct aio_ctx *c = ctx;
	struct iocb *cb;
	unsigned i;
	int fd, rc;

	for (i = 0; i < n; i++) {
		cb = &c->iocbs[reqs[i]->idx];
		fd = cb->aio_fildes;
		if (reqs[i]->ddir == DDIR_WRITE)
			io_prep_pwrite(cb, fd, reqs[i]->buf, reqs[i]->len,
				       (long long)reqs[i]->offset);
		else
			io_prep_pread(cb, fd, reqs[i]->buf, reqs[i]->len,
				      (long long)reqs[i]->offset);
		cb->data = reqs[i];
		c->iocbps[i] = cb;
	}
	do {
		rc = io_submit(c->ctx, (long)n, c->iocbps);
	} while (rc == -EINTR);
	/* The kernel's request table is full: the caller reaps and retries. */
	if (rc == -EAGAIN)
		return 0;
	return rc;
}

static unsigned ring_reap(struct aio_ctx *c, struct io_req **done, unsigned min, unsigned max)
{
	struct aio_ring *r = c->ring;
	unsigned head, tail, avail, nr = r->nr, i;
	struct io_event *ev;

	head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
	tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	avail = tail >= head ? tail - head : nr - head + tail;
	if (!avail || avail < min)
		return 0;
	if (avail > max)
		avail = max;
	for (i = 0; i < avail; i++) {
		ev = &r->events[head];
		done[i] = ev->data;
		done[i]->res = (int64_t)(long)ev->res;
		if (++head == nr)
			head = 0;
	}
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return avail;
}

static int aio_reap(void *ctx, struct io_req **done, unsigned min, unsigned max,
		    uint64_t timeout_ns)
{
	struct aio_ctx *c = ctx;
	struct timespec ts;
	unsigned got;
	int rc, i;

	if (max > c->depth)
		max = c->depth;
	if (c->ring) {
		got = ring_reap(c, done, min ? min : 1, max);
		if (got)
			return (int)got;
	}
	ts.tv_sec = (time_t)(timeout_ns / NS_PER_SEC);
	ts.tv_nsec = (long)(timeout_ns % NS_PER_SEC);
	rc = io_getevents(c->ctx, (long)min, (long)max, c->events,
			  timeout_ns == ENGINE_WAIT_FOREVER ? NULL : &ts);
	if (rc == -EINTR)
		return 0;
	if (rc < 0) {
		log_err("libaio", "io_getevents: %s", strerror(-rc));
		return rc;
	}
	for (i = 0; i < rc; i++) {
		done[i] = c->events[i].data;
		done[i]->res = (int64_t)(long)c->events[i].res;
	}
	return rc;
}

static void aio_cleanup(void *ctx)
{
	struct aio_ctx *c = ctx;

	io_destroy(c->ctx);
	free(c->iocbs);
	free(c->iocbps);
	free(c->events);
	free(c);
}

const struct io_engine engine_libaio = {
    .name = "libaio",
    .help = "Linux native asynchronous I/O, iodepth requests in flight (needs direct=1)",
    .flags = IOENG_ASYNC | IOENG_NEEDS_DIRECT,
    .probe = aio_probe,
    .init = aio_init,
    .submit = aio_submit,
    .reap = aio_reap,
    .cleanup = aio_cleanup,
};
#endif
