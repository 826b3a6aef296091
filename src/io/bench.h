/* SPDX-License-Identifier: MIT */
/* Run one fixed-size job: numjobs worker threads, each with its own engine queue. */
#ifndef IOWATT_BENCH_H
#define IOWATT_BENCH_H

#include <stdint.h>

#include "core/activity.h"
#include "core/completions.h"
#include "io/job.h"
#include "io/stats.h"

enum bench_status { BENCH_OK = 0, BENCH_FAILED, BENCH_INTERRUPTED };

struct dir_result {
	uint64_t io_bytes;
	uint64_t total_ios;
	struct lat_stats clat; /* from the kernel having the request to its completion */
	struct lat_stats lat;  /* from before the submit call to the completion, as fio's lat */
};

struct bench_result {
	int status;		   /* enum bench_status */
	int err;		   /* -errno of the first failure, 0 if none */
	char errmsg[256];	   /* "write at offset 123: No space left on device" */
	uint64_t t_start_ns;	   /* taken by bench_start once the workers are ready, before
				    * their threads start (CLOCK_MONOTONIC) */
	uint64_t t_end_ns;	   /* last completion, including end_fsync */
	uint64_t syncs;		   /* fdatasync/fsync calls made */
	struct lat_stats sync_lat; /* their durations, apart from the I/O latencies */
	struct dir_result dir[DDIR_COUNT];
	unsigned threads;
	/* CPU time of the worker threads (their CPU clocks; the user/system split from
	 * their rusage), the benchmark's own cost */
	uint64_t cpu_ns, cpu_user_ns, cpu_sys_ns;
	unsigned depth; /* requests in flight per thread it ran with (less than iodepth when
			 * the kernel refused that many), 0 if it never started */
};

/* Live counters the main thread reads for progress and the interval series. */
struct bench_progress {
	uint64_t bytes[DDIR_COUNT];
	uint64_t ios[DDIR_COUNT];
};

struct bench;

/*
 * Start the job on `path` (already prepared: exists, extent laid out) and return at
 * once; the workers run in their own threads. Opening the file, the engine queues and
 * the buffers happen before t_start_ns; a failure there is returned (-errno, logged)
 * and nothing runs.
 */
int bench_start(const struct job_opts *jo, const char *path, struct bench **out);
/* The same on the file `fd` refers to (each worker reopens it through /proc/self/fd, never
 * by path); `name` is how messages call it. */
int bench_start_fd(const struct job_opts *jo, int fd, const char *name, struct bench **out);
/* Bytes of I/O buffers the job's threads allocate (all numjobs, read and write pools). */
uint64_t bench_buffer_bytes(const struct job_opts *jo);
/* -ENOMEM (logged, naming the job, its buffers and `limit`) when they exceed `avail`
 * bytes: checked before any file is laid out, instead of failing at bench_start. */
int bench_check_memory(const struct job_opts *jo, uint64_t avail, const char *limit);
/* The job's t_start_ns (known once bench_start has returned 0). */
uint64_t bench_start_ns(const struct bench *b);
/* Sum of all workers' live counters; cheap, lock-free. */
void bench_get_progress(const struct bench *b, struct bench_progress *p);
/* Wait up to timeout_ns for the job to finish; 1 when done, 0 on timeout. */
int bench_wait(struct bench *b, uint64_t timeout_ns);
/* Ask the workers to stop submitting and drain what is in flight (SIGINT path). */
void bench_stop(struct bench *b);
/* Join the workers, merge their statistics, free the job. */
void bench_finish(struct bench *b, struct bench_result *res);
/* The same, and the workers' activity series merged into act (activity_free it), their
 * completions per kind into cmpl (completions_free it); either may be NULL. */
void bench_finish_activity(struct bench *b, struct bench_result *res, struct activity *act,
			   struct completions *cmpl);

#endif
