/* SPDX-License-Identifier: MIT */
/* I/O engines behind one small ops table: submit apart from reap, as fio's queue/getevents. */
#ifndef IOWATT_ENGINE_H
#define IOWATT_ENGINE_H

#include <stdint.h>

/* One request slot. The bench owns the slots; an engine may keep state per slot by idx. */
struct io_req {
	void *buf;
	uint64_t offset;
	uint64_t len;
	int64_t res; /* set at completion: bytes moved, or -errno */
	uint64_t t_submit_ns;
	unsigned idx; /* 0 .. depth-1 */
	int ddir;     /* enum ddir */
};

#define ENGINE_WAIT_FOREVER UINT64_MAX

/* The engine can keep more than one request in flight; without it, depth is 1. */
#define IOENG_ASYNC 0x1u

struct io_engine {
	const char *name;
	unsigned flags;
	/* Allocate state for `depth` requests in flight on fd; 0 or -errno. */
	int (*init)(void **ctx, int fd, unsigned depth);
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

extern const struct io_engine engine_libaio;
extern const struct io_engine engine_psync;

/* NULL-terminated, in order of preference. */
extern const struct io_engine *const io_engines[];
/* The engine called `name`, or NULL (the caller names the option in its error). */
const struct io_engine *io_engine_find(const char *name);

#endif
