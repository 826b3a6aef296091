/* SPDX-License-Identifier: MIT */
/* State of one `iowatt run` / `iowatt measure`: meters, outputs, the job being metered. */
#ifndef IOWATT_RUN_H
#define IOWATT_RUN_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/bench.h"
#include "bench/job.h"
#include "bench/target.h"
#include "core/events.h"
#include "meters/meter.h"
#include "result/report.h"
#include "run/energy.h"
#include "sources/gpio.h"
#include "sources/sources.h"

/* Samples are fed to the energy integrators this long after they were taken, so every
 * phase boundary is known before the samples around it are integrated. */
#define RUN_FEED_LAG_NS (200 * NS_PER_MS)
#define RUN_PUMP_NS (50 * NS_PER_MS)
#define RUN_MAX_EVENTS 4096

struct run_meter {
	struct meter_dev *dev;
	struct meter_sample last; /* last sample fed, left end for the next job's idle */
	int have_last;
	int uv_armed;		  /* saw a 5 V rail: the voltage threshold applies */
	int uv_low;		  /* currently below the threshold */
	struct energy_job ej;	  /* the job being metered */
};

struct run_ctx {
	const struct run_config *cfg;
	struct target tg;
	int have_target;
	struct run_meter meters[MAX_METERS];
	unsigned nmeters;
	struct event_queue *queue; /* meters and event sources push here */
	struct sources *sources;
	struct gpio_marker *marker; /* --mark-gpio */
	uint64_t mark_ns[PHASE_COUNT]; /* edge times of the current job's marker */

	uint64_t t0_ns;
	char *json_path, *intervals_path, *samples_path;
	FILE *samples_csv, *intervals_csv;
	struct run_report rep; /* the document, filled as the run goes */

	/* every event of the run, assigned to the jobs whose phases they overlap */
	struct run_event events[RUN_MAX_EVENTS];
	size_t nevents;
	uint64_t events_dropped;
	uint64_t uv_events;	/* undervoltage events seen, for --stop-on-undervoltage */

	int progress;		/* draw the live line on stderr */
	int progress_drawn;
	int stop_reason;	/* 0, SIGINT, SIGTERM, or -1 for undervoltage */
	int any_failed;
};

/* Set by the signal handler; the loops poll it. */
extern volatile sig_atomic_t run_signal;

/* The phase boundaries of one job. */
struct run_times {
	uint64_t idle_ns, active_ns, end_ns, tail_end_ns;
};

/* What the active phase moved, for the efficiency figures. */
struct run_io {
	uint64_t bytes, ios;
};

/* Phases of one job loop; appends the job to the report. 0, or -errno for a setup failure. */
int run_job_loop(struct run_ctx *rc, const struct job_opts *jo, unsigned loop);
/* measure: the same phases around a child process. */
int run_command(struct run_ctx *rc, const struct job_opts *jo, char **argv);

/* Everything the three phases add to a job (run_report.c); jo NULL for measure. */
void run_job_report(struct run_ctx *rc, const struct job_opts *jo, struct job_report *j,
		    const struct run_times *t, const struct run_io *io, const struct temps *t_start);

/* Pop events and samples up to now - lag, feed integrators, write CSVs, draw progress. */
void run_pump(struct run_ctx *rc, uint64_t now);
int run_should_stop(const struct run_ctx *rc);

/* Output files (src/run_output.c). */
int run_output_open(struct run_ctx *rc, const char *stem);
void run_output_sample(struct run_ctx *rc, unsigned meter, const struct meter_sample *s);
void run_output_interval(struct run_ctx *rc, const char *job, unsigned loop, uint64_t t0,
			 uint64_t t1, const uint64_t ios[DDIR_COUNT],
			 const uint64_t bytes[DDIR_COUNT]);
void run_output_flush(struct run_ctx *rc);
void run_output_close(struct run_ctx *rc);
/* Progress line: only on a TTY. */
void run_progress(struct run_ctx *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void run_progress_clear(struct run_ctx *rc);
/* The document so far, with the run's status (enum report_status); written atomically
 * after every job. */
int run_write_result(struct run_ctx *rc, int status);

#endif
