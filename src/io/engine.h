/* SPDX-License-Identifier: MIT */
/* I/O engines behind one ops table that also says what each engine can do and takes. */
#ifndef IOWATT_ENGINE_H
#define IOWATT_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/options.h"

/* One request slot. The bench owns the slots; an engine may keep state per slot by idx. */
struct io_req {
	void *buf;
	uint64_t offset;
	uint64_t len;
	int64_t res; /* set at completion: bytes moved, or -errno */
	uint64_t t_issue_ns;  /* before the submit call: where total latency (fio's lat) starts */
	uint64_t t_submit_ns; /* the kernel has it: where completion latency (clat) starts */
	unsigned idx;	    /* 0 .. depth-1 */
	unsigned buf_index; /* which of engine_setup.bufs holds buf */
	int ddir;	    /* enum ddir */
	int discard;	    /* discard the range instead (DDIR_WRITE; IOENG_DISCARD engines) */
};

#define ENGINE_WAIT_FOREVER UINT64_MAX

/*
 * Capabilities: job validation and the worker read these, never an engine's name.
 * IOENG_ASYNC: keeps iodepth requests in flight and returns from submit before they
 *   finish (completion latency starts after submit); without it, depth is 1 and the I/O
 *   happens inside submit.
 * IOENG_NEEDS_DIRECT: only asynchronous with O_DIRECT, so direct=0 is refused.
 */
#define IOENG_ASYNC 0x1u
#define IOENG_NEEDS_DIRECT 0x2u
/* Discards a request's range when io_req.discard is set (rw=trim). */
#define IOENG_DISCARD 0x4u

/* What a worker hands an engine at init, all of it fixed for the job's life. */
struct engine_setup {
	int fd;
	unsigned depth;
	const struct iovec *bufs; /* the buffer pools every io_req.buf points into */
	unsigned nbufs;
	const void *opts; /* the engine's own options (options_size bytes), resolved */
};

struct io_engine {
	const char *name;
	const char *help; /* one line, for --help's list of engines */
	unsigned flags;	  /* IOENG_* */
	/*
	 * The engine's own job options, as fio's per-engine option tables: offsets are into
	 * the engine's options struct of options_size bytes, which the job stores for it.
	 */
	const struct opt_desc *options;
	size_t noptions;
	size_t options_size;
	/*
	 * Optional: whether this kernel lets the engine run at all (io_uring may be disabled
	 * by sysctl or seccomp). 0, or -errno with the reason a user can act on in why.
	 */
	int (*probe)(char *why, size_t len);
	/* Allocate state for s->depth requests in flight on s->fd; 0 or -errno (logged),
	 * except -EAGAIN (a kernel limit others hold for now), which the caller handles. */
	int (*init)(void **ctx, const struct engine_setup *s);
	/* Optional: called once by the thread that will submit, before its first submit. */
	int (*attach)(void *ctx);
	/* Optional: called by that thread after its last reap, before cleanup elsewhere. */
	void (*detach)(void *ctx);
	/* Start n requests; returns how many were accepted (0 = full, reap first) or -errno. */
	int (*submit)(void *ctx, struct io_req **reqs, unsigned n);
	/*
	 * Collect between min and max completions into done[], setting each req->res;
	 * waits at most timeout_ns (ENGINE_WAIT_FOREVER: no timer) for the first min.
	 * Returns the count or -errno.
	 */
	int (*reap)(void *ctx, struct io_req **done, unsigned min, unsigned max,
		    uint64_t timeout_ns);
	void (*cleanup)(void *ctx);
};

/* NULL-terminated, best first: the default engine is the first one the kernel allows. */
extern const struct io_engine *const io_engines[];
/* The engine called `name`, or NULL (the caller names the option in its error). */
const struct io_engine *io_engine_find(const char *name);

#endif
