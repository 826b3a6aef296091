/* SPDX-License-Identifier: MIT */
/* A run's files: where the JSON goes, and the interval and sample series streamed beside it. */
#ifndef IOWATT_OUTPUT_H
#define IOWATT_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "bench/job.h"
#include "run/session.h"

struct run_output {
	char *json_path, *intervals_path, *samples_path;
	FILE *samples_csv, *intervals_csv;
};

/* Paths from --json-out or --output and the profile's stem; the CSVs are created (samples
 * only with meters). 0 or -errno (logged, naming the option). */
int run_output_open(struct run_output *o, const struct run_opts *ro, const char *stem,
		    int with_samples);
/* One interval's row: rates over [t0, t1]. */
void run_output_interval(struct run_output *o, const char *job, unsigned loop, uint64_t t0,
			 uint64_t t1, const uint64_t ios[DDIR_COUNT], const uint64_t bytes[DDIR_COUNT]);
void run_output_close(struct run_output *o);
/* Every sample of meter `meter` written so far, read back in order (session_replay_fn).
 * 0 or -errno (logged). */
int run_output_replay(void *o, unsigned meter,
		      void (*feed)(void *feed_arg, const struct meter_sample *s), void *feed_arg);

/* A session sink: every sample into the samples CSV, flushed after each pump. */
extern const struct session_sink_ops run_output_sink_ops;

#endif
