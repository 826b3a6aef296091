/* SPDX-License-Identifier: MIT */
/* One `iowatt run` / `iowatt measure` as parts, and the phases of a job around an activity. */
#ifndef IOWATT_RUN_H
#define IOWATT_RUN_H

#include <stdint.h>

#include "core/clock.h"
#include "io/job.h"
#include "io/target.h"
#include "run/output.h"
#include "run/progress.h"
#include "plan/rate_basis.h"
#include "run/result_builder.h"
#include "run/session.h"
#include "run/size_auto.h"
#include "run/stop.h"
#include "run/wear.h"
#include "sources/sources.h"

/* A run: each part has one job; the phase loops below use them together. */
struct run_ctx {
	const struct run_config *cfg;
	uint64_t t0_ns;		   /* the run's start: charts count from here */
	struct target tg;
	int have_target;
	struct session *session;   /* meters, integrators, events, phase times */
	struct sources *sources;   /* kernel log, Pi flags, --uv-gpio, temperatures */
	struct run_output out;	   /* the interval and sample series */
	struct result_builder rb;  /* the result document */
	struct progress progress;  /* the live line */
	struct run_stop stop;	   /* signals and --stop-on-undervoltage */
	int any_failed;
	/* The jobs as they run: the profile's, with size=auto resolved (size_auto.c). */
	struct job_opts *jobs;
	struct size_choice *sizes; /* per job; size 0 until chosen */
	struct run_lead_in *lead_in; /* per job: outside its phases, given to its next result */
	char io_disk[64];	   /* measure --target: the disk whose I/O counts, or "" */
	struct rate_basis basis;   /* the device's earlier result: ETA, calibration checks */
	struct rate_basis costs;   /* --costs-from: the model forecast's costs */
	uint64_t checkpoint_ns;	   /* when the result was last rewritten mid-run */
	struct wear_probe wear;	   /* the job's disk counters and health at its ends */
	/* a size=auto calibration found the device busy with others' I/O and said so, once:
	 * later calibrations neither wait for quiet nor retry for it (size_calib.c) */
	int device_busy;
};

/*
 * What runs in a job's active phase: a benchmark (job_bench.c) or a command (child.c).
 * start() gives the active phase's start (or fails: nothing runs); wait() returns 1
 * when the activity has ended; stop() may be called again and again once the run is
 * asked to stop (sig 0 for an undervoltage) and acts once; tick() follows every pump;
 * finish() collects what it did and gives the active phase's end.
 */
struct run_activity_ops {
	int (*start)(void *arg, uint64_t *t_active_ns);
	int (*wait)(void *arg, uint64_t timeout_ns);
	void (*stop)(void *arg, int sig);
	void (*tick)(void *arg, uint64_t now_ns);
	void (*finish)(void *arg, uint64_t *t_end_ns);
};

/* Idle baseline, the activity, the tail; t_start gets the temperatures at the start. */
void run_phases(struct run_ctx *rc, const struct job_opts *jo, const struct run_activity_ops *ops,
		void *arg, struct temps *t_start);
/*
 * The job's result from the session and the sources, once its phases are over. jo: its
 * options (measure's too: its phase options and max_uncertainty hold); measure: a command,
 * not an I/O job (no size to advise); act: when the job's I/Os ran, cmpl: when each
 * completed per kind (NULL: not known).
 */
void run_job_close(struct run_ctx *rc, const struct job_opts *jo, int measure,
		   struct job_result *j, const struct temps *t_start, uint64_t bytes,
		   uint64_t ios, const struct activity *act, const struct completions *cmpl);
int run_should_stop(const struct run_ctx *rc);
/*
 * lead_in.c. The target prepared for jo, job j or its calibration's copy: its file laid
 * out (or read once), 0 or -errno. When that moved data, its times go to job j's next
 * result as its preparation: minutes of layout on a slow card must not read as measurement.
 */
int run_prepare_job(struct run_ctx *rc, size_t j, const struct job_opts *jo);
/* Job j's size=auto calibration from t0 to now, when it ran one (not a size from its
 * pattern), for its next result. */
void run_lead_in_calib(struct run_ctx *rc, size_t j, uint64_t t0);
/* The run of job j left out for its retake (first): its span, for the kept run. */
void run_lead_in_retaken(struct run_ctx *rc, size_t j, const struct job_result *first);
/* What ran for job j outside its phases, given to the last result and forgotten. */
void run_lead_in_give(struct run_ctx *rc, size_t j);
/* The temperature readings so far onto the result's series. */
void run_take_temps(struct run_ctx *rc);

/* One loop of a benchmark job in a round; appends it to the result (job_bench.c). 1 if
 * it finished its whole size. */
int run_job_loop(struct run_ctx *rc, const struct job_opts *jo, unsigned round, unsigned loop);
/* measure: the command in the active phase; appends it to the result (child.c). */
void run_command(struct run_ctx *rc, const struct job_opts *jo, char **argv);

#endif
