/* SPDX-License-Identifier: MIT */
/* Why a run stops early: a signal, seen by a watcher thread, or an undervoltage event. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/signals.h"
#include "run/stop.h"

/*
 * `timeout` and terminals can deliver one Ctrl-C twice (to the process group and
 * forwarded): a second signal this soon is the same one and must not cost the user the
 * partial result.
 */
#define SAME_SIGNAL_NS (500 * NS_PER_MS)
#define EXIT_ON_SIGNAL 128

static void *watch(void *arg)
{
	struct run_stop *st = arg;
	uint64_t t;
	int sig, pg;

	for (;;) {
		if (sigwait(&st->set, &sig))
			continue;
		if (atomic_load(&st->quit))
			return NULL;
		t = now_ns();
		if (!st->signal) {
			st->first_ns = t;
			st->signal = sig;
			continue;
		}
		if (t - st->first_ns < SAME_SIGNAL_NS)
			continue;
		pg = atomic_load(&st->child_pgid);
		if (pg > 0) {
			kill(-pg, SIGKILL);
			if (!atomic_exchange(&st->child_killed, 1)) {
				log_warn(NULL, "signal %d again: the command's process group is "
					       "killed (SIGKILL); once more exits at once", sig);
				continue;
			}
		}
		if (st->last_resort)
			st->last_resort();
		_exit(EXIT_ON_SIGNAL + sig);
	}
	return NULL;
}

int run_stop_watch(struct run_stop *st, void (*last_resort)(void))
{
	static const int pipe_sig[] = { SIGPIPE };
	int err;

	signals_set(SIG_IGN, pipe_sig, 1);
	st->last_resort = last_resort;
	atomic_store(&st->quit, 0);
	sigemptyset(&st->set);
	sigaddset(&st->set, SIGINT);
	sigaddset(&st->set, SIGTERM);
	/* An ssh session to the board that drops must not leave the test file behind. */
	sigaddset(&st->set, SIGHUP);
	sigaddset(&st->set, SIGQUIT);
	err = pthread_sigmask(SIG_BLOCK, &st->set, &st->old_mask);
	if (!err)
		err = pthread_create(&st->thread, NULL, watch, st);
	if (err) {
		log_err(NULL, "cannot watch for signals: %s", strerror(err));
		return -err;
	}
	st->watching = 1;
	return 0;
}

void run_stop_unwatch(struct run_stop *st)
{
	if (!st->watching)
		return;
	/*
	 * Woken by one of its own signals and told to end, not cancelled: a cancelled thread's
	 * frames stay poisoned for AddressSanitizer, whose thread teardown then reports its own
	 * locals there (armhf). A Ctrl-C arriving in this instant ends nothing more.
	 */
	atomic_store(&st->quit, 1);
	pthread_kill(st->thread, SIGINT);
	pthread_join(st->thread, NULL);
	st->watching = 0;
	pthread_sigmask(SIG_SETMASK, &st->old_mask, NULL);
}

int run_stop_requested(const struct run_stop *st)
{
	return st->signal || st->undervoltage;
}

static void stop_event(void *arg, const struct run_event *ev)
{
	struct run_stop *st = arg;

	if (ev->kind != EV_UNDERVOLTAGE || !st->on_undervoltage || st->undervoltage)
		return;
	st->undervoltage = 1;
	if (st->progress)
		progress_clear(st->progress);
	log_warn(NULL, "undervoltage (%s: %s): stopping the run as asked (--stop-on-undervoltage)",
		 ev->source, ev->text);
}

const struct session_sink_ops run_stop_sink_ops = { .event = stop_event };
