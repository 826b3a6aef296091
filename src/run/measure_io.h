/* SPDX-License-Identifier: MIT */
/* What `measure` knows of its command's I/O: the target's diskstats, or fio's own JSON. */
#ifndef IOWATT_MEASURE_IO_H
#define IOWATT_MEASURE_IO_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diskstats.h"
#include "result/result.h"

/* fio's JSON kept from its stdout, at most this much (a few MB for thousands of jobs). */
#define MEASURE_FIO_JSON_MAX (64u << 20)

struct measure_io {
	/* The device whose counters are read ("" for none) and where they are. */
	char disk[64];
	char diskstats_path[4096];
	struct diskstats start, end;
	int have_start, have_end;
	/* The command is fio writing JSON: to stdout (captured through a pipe and passed on)
	 * or to the file of its --output. */
	int fio;
	const char *fio_output;
	int pipe_r, pipe_w;
	pthread_t reader;
	int reader_started;
	char *json;
	size_t json_len;
	int json_truncated;
};

/* One fio job's own I/O figures, its numjobs clones summed: a row of its own. */
struct measure_fio_row {
	char name[64];
	struct result_dir *read, *write;
	struct result_sync *sync;
	/* Its own span of I/O (CLOCK_MONOTONIC, inside fio's window; 0: not known) and in
	 * fio's ms stamps; shared_with: a row whose span overlapped it ("": none), so the
	 * meters saw the two together and their energy cannot be split. */
	uint64_t t_start_ns, t_end_ns;
	double a_ms, b_ms;
	char shared_with[64];
};

/* The figures measure_io_fill() found, for the active phase and the summary. */
struct measure_io_window {
	uint64_t t_start_ns, t_end_ns; /* fio's own I/O, inside the command's run; 0 unknown */
	const char *source;	       /* "fio", "diskstats" or NULL (none) */
	/* fio's job names, "+" between them in fio's order ("" without fio): the row's name */
	char name[64];
	unsigned fio_jobs; /* how many jobs fio's JSON reports (numjobs clones each count) */
	/* with two fio jobs or more (by name): each one's figures, in fio's order; the
	 * caller takes them (measure_io_window_free frees what is left) */
	struct measure_fio_row *rows;
	size_t nrows;
	/* the rows' spans: 1 from fio's job_start stamps, 0 from job_runtime, its groups one
	 * after another before its report (fio 3.33 stamps no job's start) */
	int spans_stamped;
};

/*
 * Before the command runs: what its I/O can be read from. disk may be "" (no --target);
 * root prefixes /proc/diskstats for tests. A pipe for fio's stdout when it writes JSON
 * there. 0 or -errno (logged).
 */
int measure_io_init(struct measure_io *mi, char *const *argv, const char *disk,
		    const char *root);
/* The fd to put on the command's stdout, or -1 to leave it as iowatt's. */
int measure_io_stdout_fd(const struct measure_io *mi);
/* Right after the command started (the parent's end of the pipe closed, the reader on). */
void measure_io_started(struct measure_io *mi);
/* Counters at the active phase's start and end; the end also waits for fio's output. */
void measure_io_begin(struct measure_io *mi);
void measure_io_end(struct measure_io *mi);
/*
 * The job's read and write objects from fio's JSON when there is one (its I/O, and its
 * per-job runtime as the window of its own I/O, so that the file layout before it is
 * left out), else from the device's counters over the active phase [t0, t1]. Sets
 * io_source in the job and w. 0, or -ENOENT when neither source gave anything.
 */
int measure_io_fill(struct measure_io *mi, uint64_t t0, uint64_t t1, struct job_result *j,
		    struct measure_io_window *w);
void measure_io_free(struct measure_io *mi);
void measure_io_window_free(struct measure_io_window *w);

#endif
