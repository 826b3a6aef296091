/* SPDX-License-Identifier: MIT */
/* Building the result document as the run goes: the run's events, each job's figures. */
#ifndef IOWATT_RUN_RESULT_BUILDER_H
#define IOWATT_RUN_RESULT_BUILDER_H

#include <stdint.h>

#include "core/activity.h"
#include "core/completions.h"
#include "io/job.h"
#include "result/result.h"
#include "run/session.h"
#include "sources/sources.h"

/* Informational events a run keeps (those that decide validity are always kept). */
#define RUN_MAX_EVENTS 4096

struct result_builder {
	struct run_result rep;
	struct event_queue *events; /* every event of the run, with the queue's drop policy */
	int warned_full;
};

/* What the root of the document needs before the first job. */
struct result_start {
	const char *command, *profile;
	const char *label; /* --label: the user's name for the device; NULL: none */
	uint64_t t0_ns;
	const struct session *session;
	struct result_context *context;	 /* taken over; NULL without a target (measure) */
	const char *intervals_path, *samples_path; /* samples NULL without meters */
};

/* How a job ended, for its figures. */
struct job_close {
	const struct job_opts *jo;  /* NULL: none (the defaults hold) */
	int measure;		    /* a command, not an I/O job: no size to advise */
	uint64_t bytes, ios;	    /* moved in the active phase */
	const struct temps *t_start, *t_now; /* t_now NULL: no temperature sources */
	int stopping;		    /* the run is stopping: no size advice */
	const char *marker_spec;    /* --mark-gpio, or NULL */
	int mark_input;		    /* --mark-input: the meter's digital input, 0..7; -1 auto */
	const struct activity *act; /* when its I/Os ran, for the sampling term; NULL: unknown */
	const struct completions *cmpl; /* when each completed, per kind; NULL: unknown */
};

/*
 * What a job too short for its meter should do, for its validity reason: a size a person
 * types ("try --size 256M", "try --size 184MB" for bs=2300), from the throughput it had
 * over active_s; a paced or bursty job (rate_iops, thinktime) size=auto instead, which
 * gives it more of its own bursts (a size from its throughput would read as a stream).
 * A failed job is told its figures are partial instead; a stopped one or one that moved
 * nothing gets NULL (the default advice).
 */
const char *job_remedy(const struct job_opts *jo, int status, int stopping, uint64_t bytes,
		       double active_s, uint64_t period_ns, char *buf, size_t len);

void result_builder_init(struct result_builder *rb);
void result_builder_free(struct result_builder *rb);
/* A session sink: every event into the run's record. */
extern const struct session_sink_ops result_builder_sink_ops;

void result_builder_begin(struct result_builder *rb, const struct result_start *st);
/* The job's phases, overlapping events, energy per meter, marker and temperatures. */
void result_builder_job(struct result_builder *rb, const struct session *s,
			const struct job_close *jc, struct job_result *j);
/* A job whose file could not be prepared: its options and why. */
void result_builder_unprepared(struct result_builder *rb, const struct job_opts *jo,
			       unsigned round, int err, int stopped);
/* Temperature readings (sources_temps_take) onto the run's series. */
/*
 * What ran for a job outside its phases before its next result: its size=auto calibration
 * (with the settling after it) and its file layout, as times (0: none), so that a
 * timeline shows them for what they are.
 */
struct run_lead_in {
	uint64_t calib_start_ns, calib_end_ns;
	uint64_t prep_start_ns, prep_end_ns;
	uint64_t retaken_start_ns, retaken_end_ns; /* a short run left out, run again */
};
/* l into j's phases (prepare, calibration, retaken) where it holds them. */
void result_job_lead_in(struct job_result *j, const struct run_lead_in *l);
void result_builder_temps(struct result_builder *rb, const struct temp_sample *t, size_t n);
/* The run's own event list, once the run has ended. */
void result_builder_events(struct result_builder *rb);
/* The document with the meters' counters as they are now and the run's status
 * (enum result_status), written atomically. 0 or -errno. */
int result_builder_write(struct result_builder *rb, const struct session *s, const char *path,
			 int status);

#endif
