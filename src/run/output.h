/* SPDX-License-Identifier: MIT */
/* A run's files: where the JSON goes, and the interval and sample series streamed beside it. */
#ifndef IOWATT_OUTPUT_H
#define IOWATT_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "io/job.h"
#include "energy/sample_bins.h"
#include "result/samples_file.h"
#include "run/session.h"

/* --samples: how the samples file holds each meter's stream. */
enum samples_mode {
	SAMPLES_AUTO,	/* CSV; meters with >= 10 samples per --samples-bin are binned */
	SAMPLES_RAW,	/* CSV, every sample */
	SAMPLES_BINARY, /* NAME.samples.bin, every sample as a fixed record */
};

struct run_output {
	char *json_path, *intervals_path, *samples_path;
	FILE *samples_csv, *intervals_csv;
	int mode;		    /* enum samples_mode */
	int binned;		    /* some meter is binned: the CSV has the bin columns */
	unsigned nmeters;
	struct sample_binner *bins; /* per meter; bin_ns 0: every sample as it comes */
};

/*
 * Before any I/O: every output path (--json-out and its CSVs, or --output) is one
 * run_output_open will be allowed to create: not existing unless --force, never a
 * directory, symlink or FIFO, in a directory iowatt may write, and (run != 0) not the
 * --target. 0 or -errno (logged, naming the option).
 */
int run_output_check(const struct run_opts *ro, int run);
/* Paths from --json-out or --output and the profile's stem; the CSVs are created (samples
 * only with meters, in the form --samples and the meters' rates ask for). 0 or -errno
 * (logged, naming the option). */
int run_output_open(struct run_output *o, const struct run_opts *ro, const char *stem,
		    const struct session *s);
/* One interval's row: rates over [t0, t1]. */
void run_output_interval(struct run_output *o, const char *job, unsigned loop, uint64_t t0,
			 uint64_t t1, const uint64_t ios[DDIR_COUNT], const uint64_t bytes[DDIR_COUNT]);
void run_output_close(struct run_output *o);
/* Every sample of meter `meter` written so far, read back in order (session_replay_fn);
 * a binned meter's bins as samples of their means. 0 or -errno (logged). */
int run_output_replay(void *o, unsigned meter,
		      void (*feed)(void *feed_arg, const struct meter_sample *s), void *feed_arg);

/* A session sink: every sample into the samples CSV, flushed after each pump. */
extern const struct session_sink_ops run_output_sink_ops;

#endif
