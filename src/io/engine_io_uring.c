/* SPDX-License-Identifier: MIT */
/* io_uring engine (liburing): registered buffers and file, batched submit, CQ reaped in place. */
#ifdef HAVE_LIBURING
#include <errno.h>
#include <inttypes.h>
#include <liburing.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "io/engine.h"
#include "io/job.h"

#define MOD "io_uring"
#define G_URING "io_uring engine options (ioengine=io_uring)"
#define DISABLED_SYSCTL "/proc/sys/kernel/io_uring_disabled"
/* Ring size of the probe: the smallest ring the kernel accepts. */
#define PROBE_ENTRIES 1

/* The engine's own job options, stored by the job in its slice of engine_opts. */
struct uring_opts {
	int fixedbufs;
	int registerfiles;
	int sqthread_poll;
};

static const struct opt_desc uring_options[] = {
	{ .name = "fixedbufs", .type = OPT_BOOL, .off = offsetof(struct uring_opts, fixedbufs),
	  .def = "1", .group = G_URING,
	  .help = "register the I/O buffers once, so the kernel does not map them per I/O "
		  "(counts against the locked-memory limit, ulimit -l)" },
	{ .name = "registerfiles", .type = OPT_BOOL,
	  .off = offsetof(struct uring_opts, registerfiles), .def = "1", .group = G_URING,
	  .help = "register the file once, so the kernel does not look it up per I/O" },
	{ .name = "sqthread_poll", .type = OPT_BOOL,
	  .off = offsetof(struct uring_opts, sqthread_poll), .def = "0", .group = G_URING,
	  .help = "a kernel thread polls for submissions: fewer syscalls, but it spins on a "
		  "CPU (and draws power) while the job runs" },
};

struct uring_ctx {
	struct io_uring ring;
	struct uring_opts o;
	unsigned setup_flags; /* what the kernel accepted */
	int registered;	      /* buffers or file still registered */
	int fd;		      /* registered index 0, or the plain descriptor */
	unsigned depth;
	struct io_uring_cqe **cqes; /* peek output, depth entries */
};

/* Why io_uring_setup failed, in words a user can act on. */
static void refusal(int err, char *why, size_t len)
{
	char v[16];

	if (err == -ENOSYS) {
		snprintf(why, len, "the kernel has no io_uring (io_uring_setup: %s)", strerror(-err));
	} else if (err == -EPERM && !read_text_file(DISABLED_SYSCTL, v, sizeof(v)) &&
		   strcmp(v, "0")) {
		snprintf(why, len, "io_uring is disabled: %s is %s%s", DISABLED_SYSCTL, v,
			 !strcmp(v, "1") ? " (root and kernel.io_uring_group only)" : "");
	} else if (err == -EPERM) {
		snprintf(why, len, "the kernel refuses io_uring_setup (%s): a seccomp filter or "
			 "security policy blocks it, as container runtimes often do",
			 strerror(-err));
	} else {
		snprintf(why, len, "io_uring_setup: %s", strerror(-err));
	}
}

static int uring_probe(char *why, size_t len)
{
	struct io_uring ring;
	int rc = io_uring_queue_init(PROBE_ENTRIES, &ring, 0);

	if (rc < 0) {
		refusal(rc, why, len);
		return rc;
	}
	io_uring_queue_exit(&ring);
	return 0;
}

/*
 * As fio does: a CQ no bigger than the SQ; completions run as deferred task work when
 * this thread asks for events, not as interrupts (DEFER_TASKRUN, one issuer), and the
 * kernel flags pending work (TASKRUN_FLAG) so a peek knows when entering is worth it.
 * SINGLE_ISSUER binds the ring to the thread that enables it: the worker, not this one.
 * Older kernels refuse newer flags with EINVAL: drop them in order and retry.
 */
static int ring_create(struct uring_ctx *c)
{
	static const unsigned optional[] = {
	    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
	    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	    IORING_SETUP_SUBMIT_ALL,
	    IORING_SETUP_CQSIZE,
	};
	struct io_uring_params p;
	unsigned flags = IORING_SETUP_CQSIZE | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN |
			 IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_R_DISABLED;
	size_t k = 0;
	int rc;

	/* The kernel's polling thread is the one issuer: nothing to defer to this thread. */
	if (c->o.sqthread_poll)
		flags |= IORING_SETUP_SQPOLL;
	else
		flags |= IORING_SETUP_DEFER_TASKRUN;
	for (;;) {
		memset(&p, 0, sizeof(p));
		p.flags = flags;
		p.cq_entries = c->depth;
		rc = io_uring_queue_init_params(c->depth, &c->ring, &p);
		if (rc != -EINVAL || k == ARRAY_SIZE(optional))
			break;
		flags &= ~optional[k++];
	}
	if (rc < 0)
		return rc;
	c->setup_flags = flags;
	return 0;
}

static int register_buffers(struct uring_ctx *c, const struct engine_setup *s)
{
	struct rlimit rl;
	uint64_t bytes = 0;
	unsigned i;
	int rc;

	rc = io_uring_register_buffers(&c->ring, s->bufs, s->nbufs);
	if (!rc)
		return 0;
	for (i = 0; i < s->nbufs; i++)
		bytes += s->bufs[i].iov_len;
	if (rc == -ENOMEM && !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		log_err(MOD, "registering %" PRIu64 " KiB of I/O buffers: %s: the locked-memory "
			"limit is %" PRIu64 " KiB; raise it (ulimit -l) or set fixedbufs=0",
			(uint64_t)(bytes / KIB), strerror(-rc), (uint64_t)(rl.rlim_cur / KIB));
	else
		log_err(MOD, "registering %" PRIu64 " KiB of I/O buffers: %s", (uint64_t)(bytes / KIB),
			strerror(-rc));
	return rc;
}

static void uring_free(struct uring_ctx *c, int ring_up)
{
	if (ring_up)
		io_uring_queue_exit(&c->ring);
	free(c->cqes);
	free(c);
}

static int uring_init(void **ctxp, const struct engine_setup *s)
{
	struct uring_ctx *c = xcalloc(1, sizeof(*c));
	char why[256];
	int rc;

	memcpy(&c->o, s->opts, sizeof(c->o));
	c->depth = s->depth;
	c->fd = s->fd;
	c->cqes = xcalloc(s->depth, sizeof(*c->cqes));
	rc = ring_create(c);
	if (rc) {
		refusal(rc, why, sizeof(why));
		log_err(MOD, "%s", why);
		uring_free(c, 0);
		return rc;
	}
	if (c->o.fixedbufs && (rc = register_buffers(c, s))) {
		uring_free(c, 1);
		return rc;
	}
	c->registered = c->o.fixedbufs;
	if (c->o.registerfiles) {
		rc = io_uring_register_files(&c->ring, &s->fd, 1);
		if (rc) {
			log_err(MOD, "registering the file: %s", strerror(-rc));
			uring_free(c, 1);
			return rc;
		}
		c->fd = 0;
		c->registered = 1;
	}
	*ctxp = c;
	return 0;
}

/*
 * The worker thread becomes the ring's one submitter. Through io_uring_register: Debian's
 * liburing 2.3 declares io_uring_enable_rings but does not export it.
 */
static int uring_attach(void *ctx)
{
	struct uring_ctx *c = ctx;
	int rc;

	if (!(c->setup_flags & IORING_SETUP_R_DISABLED))
		return 0;
	rc = io_uring_register((unsigned)c->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0);
	if (rc == -1)
		rc = -errno;
	if (rc < 0)
		log_err(MOD, "enabling the ring: %s", strerror(-rc));
	return rc < 0 ? rc : 0;
}

static void prep(struct uring_ctx *c, struct io_uring_sqe *sqe, struct io_req *r)
{
	unsigned len = (unsigned)r->len;

	if (c->o.fixedbufs && r->ddir == DDIR_WRITE)
		io_uring_prep_write_fixed(sqe, c->fd, r->buf, len, r->offset, (int)r->buf_index);
	else if (c->o.fixedbufs)
		io_uring_prep_read_fixed(sqe, c->fd, r->buf, len, r->offset, (int)r->buf_index);
	else if (r->ddir == DDIR_WRITE)
		io_uring_prep_write(sqe, c->fd, r->buf, len, r->offset);
	else
		io_uring_prep_read(sqe, c->fd, r->buf, len, r->offset);
	if (c->o.registerfiles)
		io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
	io_uring_sqe_set_data(sqe, r);
}

/*
 * One io_uring_enter for the batch. Requests in the SQ ring belong to the kernel even if
 * this enter did not take them all (a transient EAGAIN/EBUSY): the next enter, in reap,
 * submits the rest, so all n count as accepted.
 */
static int uring_submit(void *ctx, struct io_req **reqs, unsigned n)
{
	struct uring_ctx *c = ctx;
	struct io_uring_sqe *sqe;
	unsigned i;
	int rc;

	for (i = 0; i < n && (sqe = io_uring_get_sqe(&c->ring)); i++)
		prep(c, sqe, reqs[i]);
	if (!i)
		return 0;
	rc = io_uring_submit(&c->ring);
	if (rc < 0 && rc != -EAGAIN && rc != -EBUSY && rc != -EINTR) {
		log_err(MOD, "io_uring_enter: %s", strerror(-rc));
		return rc;
	}
	return (int)i;
}

/* Completions already in the CQ ring; enters the kernel only to run pending task work. */
static unsigned take(struct uring_ctx *c, struct io_req **done, unsigned max)
{
	unsigned n = io_uring_peek_batch_cqe(&c->ring, c->cqes, max), i;

	for (i = 0; i < n; i++) {
		done[i] = io_uring_cqe_get_data(c->cqes[i]);
		done[i]->res = c->cqes[i]->res;
	}
	io_uring_cq_advance(&c->ring, n);
	return n;
}

/*
 * At most one io_uring_enter per call: when fewer than min completions are visible in
 * the CQ ring, one enter submits anything left in the SQ ring, runs the completions
 * waiting as task work and sleeps until min are there; then they are read in place.
 */
static int uring_reap(void *ctx, struct io_req **done, unsigned min, unsigned max,
		      uint64_t timeout_ns)
{
	struct uring_ctx *c = ctx;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int rc;

	if (max > c->depth)
		max = c->depth;
	if (min && timeout_ns && io_uring_cq_ready(&c->ring) < min) {
		ts.tv_sec = (long long)(timeout_ns / NS_PER_SEC);
		ts.tv_nsec = (long long)(timeout_ns % NS_PER_SEC);
		rc = io_uring_submit_and_wait_timeout(
		    &c->ring, &cqe, min, timeout_ns == ENGINE_WAIT_FOREVER ? NULL : &ts, NULL);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN) {
			log_err(MOD, "waiting for completions: %s", strerror(-rc));
			return rc;
		}
	}
	return (int)take(c, done, max);
}

/*
 * Unregistering waits for the kernel to drop its references, where the ring's own
 * teardown runs later in a kernel worker: a file it still held would keep its blocks in
 * use after the caller removes it. Only the ring's submitter may unregister.
 */
static void uring_detach(void *ctx)
{
	struct uring_ctx *c = ctx;

	if (!c->registered)
		return;
	if (c->o.registerfiles)
		io_uring_unregister_files(&c->ring);
	if (c->o.fixedbufs)
		io_uring_unregister_buffers(&c->ring);
	c->registered = 0;
}

static void uring_cleanup(void *ctx)
{
	uring_detach(ctx); /* a ring no thread enabled has no submitter yet */
	uring_free(ctx, 1);
}

const struct io_engine engine_io_uring = {
    .name = "io_uring",
    .help = "Linux io_uring: iodepth requests in flight, registered buffers and file, "
	    "buffered I/O too",
    .flags = IOENG_ASYNC,
    .options = uring_options,
    .noptions = ARRAY_SIZE(uring_options),
    .options_size = sizeof(struct uring_opts),
    .probe = uring_probe,
    .init = uring_init,
    .attach = uring_attach,
    .detach = uring_detach,
    .submit = uring_submit,
    .reap = uring_reap,
    .cleanup = uring_cleanup,
};
#endif
