/* SPDX-License-Identifier: MIT */
/* What the job runner (bench.c) and its worker loop (bench_worker.c) share. */
#ifndef IOWATT_BENCH_PRIV_H
#define IOWATT_BENCH_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/activity.h"
#include "core/completions.h"
#include "io/bench.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/pattern.h"
#include "io/stats.h"

#define CACHELINE 64

/* Why a job stops before its size is done; the first cause wins. */
enum stop_cause { STOP_NONE = 0, STOP_INTERRUPT, STOP_FAILED };

struct bench;

struct worker {
	/*
	 * Written by this worker only (relaxed stores, no read-modify-write), read by the
	 * main thread; alone on its cache line so progress polling costs the worker nothing.
	 */
	struct {
		_Atomic uint64_t bytes[DDIR_COUNT];
		_Atomic uint64_t ios[DDIR_COUNT];
	} live __attribute__((aligned(CACHELINE)));

	struct bench *b __attribute__((aligned(CACHELINE)));
	unsigned idx;
	int fd;
	const struct io_engine *eng;
	void *ectx;
	unsigned depth;
	uint64_t buf_stride; /* bs rounded up to 4096 */
	struct io_req *reqs;
	struct io_req **freeq; /* stack of idle slots */
	struct io_req **pend;  /* prepared, not yet accepted by the engine */
	struct io_req **done;
	void *rbuf, *wbuf; /* read and write pools, each nrbuf/nwbuf slots of buf_stride */
	unsigned nrbuf, nwbuf, next_wbuf;
	struct iovec pools[DDIR_COUNT]; /* the pools as the engine sees them (engine_setup) */
	unsigned npools, rbuf_index, wbuf_index;
	struct pattern pat;
	pthread_t tid;
	int started;

	/* Results, read by bench_finish after the join. */
	uint64_t t_end_ns;
	uint64_t cpu_ns, cpu_user_ns, cpu_sys_ns; /* this thread's, from start to end */
	uint64_t syncs;
	int err;
	char errmsg[256];
	uint64_t bytes[DDIR_COUNT];
	uint64_t ios[DDIR_COUNT];
	struct lat_stats clat[DDIR_COUNT];
	struct lat_stats lat[DDIR_COUNT]; /* total: from before the submit call */
	struct lat_stats sync_lat;
	struct activity act; /* when its I/Os and syncs ran (only this thread writes it) */
	struct completions cmpl; /* when each read, write and sync completed (the same) */
};

struct bench {
	struct job_opts jo;
	uint64_t t_start_ns;
	int end_fsync;
	unsigned nworkers;
	struct worker **w;

	/* Read by every worker each loop: kept off the line bench_wait's mutex dirties. */
	_Atomic int stop __attribute__((aligned(CACHELINE))); /* enum stop_cause */

	pthread_mutex_t lock __attribute__((aligned(CACHELINE)));
	pthread_cond_t done_cond; /* a worker finished (bench_wait) */
	pthread_cond_t wake_cond; /* stop requested (paced workers sleep on it) */
	unsigned running;
};

void *bench_worker_main(void *arg);

#endif
