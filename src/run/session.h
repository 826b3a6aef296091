/* SPDX-License-Identifier: MIT */
/* A measurement session: meters, their integrators, the event queue and the phase times. */
#ifndef IOWATT_SESSION_H
#define IOWATT_SESSION_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/phase.h"
#include "io/job.h"
#include "meters/meter.h"
#include "energy/energy.h"
#include "run/idle_watch.h"
#include "sources/gpio.h"

/* Samples are fed to the energy integrators this long after they were taken, so every
 * phase boundary is known before the samples around it are integrated. */
#define SESSION_FEED_LAG_NS (200 * NS_PER_MS)
/* How often the phase loops pump samples and events. */
#define SESSION_PUMP_NS (50 * NS_PER_MS)
#define SESSION_MAX_SINKS 4

/*
 * Where a session's data goes: each sample as it is fed, each event as it is popped, each
 * phase as it begins, and the end of every pump. Any op may be NULL.
 */
struct session_sink_ops {
	void (*sample)(void *arg, unsigned meter, const struct meter_sample *s);
	void (*event)(void *arg, const struct run_event *ev);
	void (*phase)(void *arg, int phase, uint64_t t_ns);
	void (*flush)(void *arg, uint64_t pump_ns);
};

struct session_sink {
	const struct session_sink_ops *ops;
	void *arg;
};

struct session_meter {
	struct meter_dev *dev;
	struct meter_sample last; /* last sample fed, left end for the next job's idle */
	int have_last;
	int uv_armed;		  /* saw a 5 V rail: the voltage threshold applies */
	int uv_low;		  /* currently below the threshold */
	struct energy_job ej;	  /* the job being metered */
	/* The times of the job's samples, for the sampling term (energy/sampling.h); kept only
	 * for a meter slower than SAMPLING_MIN_PERIOD_NS, so a fast one costs no memory. */
	uint64_t *trace_ns;
	size_t ntrace, trace_cap;
	uint64_t overruns_seen;	  /* the meter's overruns when the last job began */
};

/* The phase boundaries of the current job; the idle phase ends at idle_end_ns when that
 * is set (measure: the command's start, its file layout then in no phase). */
struct phase_times {
	uint64_t idle_ns, active_ns, end_ns, tail_end_ns, idle_end_ns;
};

struct session {
	struct session_meter meters[MAX_METERS];
	unsigned nmeters;
	struct event_queue *queue;  /* meters and event sources push here */
	double uv_threshold_v;	    /* a meter's voltage below this is an undervoltage */
	struct gpio_marker *marker; /* --mark-gpio: edges at the phase boundaries, or NULL */
	/* The run's stop signal: a meter being opened gives up when it is set. */
	const atomic_int *cancel;
	uint64_t mark_ns[PHASE_COUNT];
	struct phase_times times;
	struct session_sink sinks[SESSION_MAX_SINKS];
	unsigned nsinks;
	/* The target's disk during idle phases, and how long a device may draw more after
	 * its last I/O (the job's idle_settle, set before session_job_begin). */
	struct idle_watch watch;
	uint64_t idle_settle_ns;
};

struct session *session_new(double uv_threshold_v);
/* Every spec is checked, then every meter opened. 0 or -errno (logged). */
int session_add_meters(struct session *s, char *const *specs, unsigned n, const char *sysfs_root);
void session_add_sink(struct session *s, const struct session_sink_ops *ops, void *arg);
/* Watch this disk's /proc/diskstats (under root) in idle phases ("": none). */
void session_watch_target(struct session *s, const char *disk, const char *root);
/* Read the watched disk's counters now (the idle phase calls it every IDLE_WATCH_POLL_NS). */
void session_watch_poll(struct session *s, uint64_t now);
/* How far back a reading of meter m may see the target's I/O: its period, the window a
 * reading averages, and idle_settle (docs/energy.md, "The idle baseline"). */
uint64_t session_idle_reach_ns(const struct session *s, unsigned m);
/* The meters with fewer than n quiet idle readings so far. */
unsigned session_quiet_short_of(const struct session *s, unsigned n);
/* The meters' sampling threads. */
int session_start(struct session *s);
void session_stop(struct session *s);
/* Stops, closes the meters and the marker, frees. NULL is fine. */
void session_free(struct session *s);

/* Pop samples up to now - lag and the events so far; feed, check, hand them to the sinks. */
void session_pump(struct session *s, uint64_t now);

/* A new job: integrators reset, the idle phase begins now. Returns its start. */
uint64_t session_job_begin(struct session *s);
/* Phase `phase` begins at t_ns (ending the one before it). */
void session_phase(struct session *s, int phase, uint64_t t_ns);
/* The marker's edge for a phase, as soon as it is known to have begun. */
void session_mark(struct session *s, int phase);
/*
 * The tail ends: for each meter where its power settled when `settled` (the hold after
 * that only proved it), else at t_cut. The job's tail ends with the last meter's; returned.
 */
uint64_t session_tail_end(struct session *s, uint64_t t_cut, int settled);

/* Each meter's samples again, in order, to one callback (run_output_replay). */
typedef int (*session_replay_fn)(void *arg, unsigned meter,
				 void (*feed)(void *feed_arg, const struct meter_sample *s),
				 void *feed_arg);
/*
 * After the fact: the active phase was [t_active, t_end] (fio's own I/O inside the
 * command's run, or one fio job's span of it), the idle phase still ends where it did,
 * the stretch between is in no phase, and the tail runs from t_end to t_tail_end (0:
 * where the job's tail ended). Every meter's integrals are rebuilt from its samples. 0
 * or -errno (the old phases stand).
 */
int session_rephase(struct session *s, uint64_t t_active, uint64_t t_end, uint64_t t_tail_end,
		    session_replay_fn replay, void *arg);
/* A copy of the job's phases and integrals (session_job_put_back), for phases taken again
 * after the job's figures were written; xmalloc'd. */
struct session_job_copy;
struct session_job_copy *session_job_keep(const struct session *s);
/* Puts the copy back and frees it. */
void session_job_put_back(struct session *s, struct session_job_copy *c);

/* Meters with fewer than n samples in the phase so far. */
unsigned session_short_of(const struct session *s, int phase, unsigned n);
/* Every meter's tail power is back within tol of idle for hold_ns. */
int session_settled(struct session *s, double tol, uint64_t hold_ns);
/* Every meter has fed a sample at or after t_ns. */
int session_sampled_past(const struct session *s, uint64_t t_ns);
uint64_t session_period_ns(const struct session *s, unsigned meter);

#endif
