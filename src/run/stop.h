/* SPDX-License-Identifier: MIT */
/* Why a run stops early: a signal, seen by a watcher thread, or an undervoltage event. */
#ifndef IOWATT_STOP_H
#define IOWATT_STOP_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "run/progress.h"
#include "run/session.h"

struct run_stop {
	/* The first SIGINT/SIGTERM/SIGHUP/SIGQUIT, 0 if none. Only the watcher thread writes
	 * it, the main thread (and a target layout, through target.stop_flag) reads it:
	 * atomic, as ThreadSanitizer rightly asked (volatile orders nothing between threads). */
	atomic_int signal;
	int on_undervoltage;	   /* --stop-on-undervoltage */
	int undervoltage;	   /* stopped for an undervoltage */
	struct progress *progress; /* erased before the stop is announced; may be NULL */
	/* measure: the command's process group while iowatt owns it, else 0. A signal after
	 * the first kills the group at once (the run then reaps it and writes its result);
	 * one more exits. child_killed: the group got SIGKILL, from here or the run. */
	atomic_int child_pgid;
	atomic_int child_killed;

	pthread_t thread;
	int watching;
	atomic_int quit; /* set by run_stop_unwatch: the watcher's next signal ends it */
	sigset_t set, old_mask;
	uint64_t first_ns;
	void (*last_resort)(void);
};

/*
 * Block the stop signals in this thread (and so in every thread it starts later) and
 * watch them in a thread of their own: the first asks for an orderly stop; a second one
 * later than 0.5 s kills measure's command group if there is one (and nothing more),
 * else calls last_resort (may be NULL) and exits with 128 + the signal. Call before any
 * other thread is started. SIGPIPE is ignored. 0 or -errno.
 */
int run_stop_watch(struct run_stop *st, void (*last_resort)(void));
void run_stop_unwatch(struct run_stop *st);
int run_stop_requested(const struct run_stop *st);

/* A session sink: the first undervoltage stops the run when on_undervoltage is set. */
extern const struct session_sink_ops run_stop_sink_ops;

#endif
