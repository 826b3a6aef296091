/* SPDX-License-Identifier: MIT */
/* size=auto: a short calibration of the job, then a fixed size long enough for the meters. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/units.h"
#include "io/bench.h"
#include "plan/rate_basis.h"
#include "plan/meter_fit.h"
#include "run/run.h"
#include "run/size_auto.h"
#include "run/size_calib.h"

#define MOD "size"

/* The slowest meter: what a job needs ENERGY_MIN_SAMPLES samples of. */
static void slowest_meter(const struct session *s, struct size_choice *c)
{
	unsigned m;

	c->meter_index = -1;
	for (m = 0; m < s->nmeters; m++) {
		const struct meter_info *in = meter_info(s->meters[m].dev);

		if (in->period_ns > c->meter_period_ns) {
			c->meter_period_ns = in->period_ns;
			c->meter_index = (int)m;
			snprintf(c->meter, sizeof(c->meter), "%s", in->spec);
		}
	}
	c->meter_ns = (uint64_t)((double)ENERGY_MIN_SAMPLES * (double)c->meter_period_ns *
				 SIZE_AUTO_HEADROOM);
}

/*
 * Calibrate jo (its size=auto request in requested_ns) on the run's target with the
 * meters pumped but no phase open (size_calib.c), and choose its size. 0, or -errno
 * (logged) when the job cannot run or moved nothing.
 */
static int size_auto_choose(struct run_ctx *rc, size_t j, uint64_t requested_ns,
			    struct size_choice *out)
{
	const struct job_opts *jo = &rc->cfg->jobs[j];
	int err;

	memset(out, 0, sizeof(*out));
	out->requested_ns = requested_ns == OPT_AUTO_BARE ? 0 : requested_ns;
	slowest_meter(rc->session, out);
	out->target_ns = out->requested_ns > out->meter_ns ? out->requested_ns : out->meter_ns;
	if (!out->target_ns)
		out->target_ns = SIZE_AUTO_DEFAULT_NS;
	/* a paced or bursty job keeps its pattern: more of it, never a calibrated stream */
	if (meter_fit_auto_size(jo, out->meter_period_ns, out->target_ns, &out->size,
				out->pattern, sizeof(out->pattern))) {
		snprintf(out->from, sizeof(out->from), "pattern");
		return 0;
	}
	err = size_calib_run(rc, j, jo, out);
	if (err)
		return err;
	size_auto_fit(jo, out);
	snprintf(out->from, sizeof(out->from), "calibration");
	if (out->capped)
		log_warn(MOD, "job '%s': size=auto capped at %" PRIu64 " GiB per thread", jo->name,
			 (uint64_t)(SIZE_AUTO_MAX >> 30));
	return 0;
}

/*
 * After a calibration the drive may go on working (a write cache flushing): with meters,
 * wait tail_hold before the idle baseline that follows, so its after-work does not enter
 * the baseline.
 */
static void settle(struct run_ctx *rc, const struct job_opts *jo)
{
	uint64_t until = now_ns() + jo->tail_hold_ns, now;

	if (!rc->session->nmeters)
		return;
	while ((now = now_ns()) < until && !run_should_stop(rc)) {
		session_pump(rc->session, now);
		progress_set(&rc->progress, "%s: settling after the size=auto calibration",
			     jo->name);
		sleep_ns(SESSION_PUMP_NS);
	}
	progress_clear(&rc->progress);
}

/* The profile's job j with its chosen size: a fixed-size job from here on. */
static void apply(struct run_ctx *rc, size_t j)
{
	rc->jobs[j] = job_sized(&rc->cfg->jobs[j], rc->sizes[j].size);
	if (rc->sizes[j].pace_iops)
		rc->jobs[j].rate_iops = rc->sizes[j].pace_iops;
}

static int resolve(struct run_ctx *rc, size_t j)
{
	const struct job_opts *jo = &rc->cfg->jobs[j];
	const struct run_opts *ro = &rc->cfg->run;
	struct size_choice *c = &rc->sizes[j];
	char from[sizeof(c->from)], reason[SIZE_AUTO_REASON_LEN];
	uint64_t other;
	int err;

	err = size_auto_choose(rc, j, jo->size_auto_ns, c);
	if (err)
		return err;
	other = size_auto_from_results(ro->same_size_as, ro->nsame_size_as, jo->name, from,
				       sizeof(from));
	/* a writer's size_max holds against another run's size too */
	if (other > c->size && !c->pace_iops) {
		uint64_t cap = rw_writes(jo->rw) ? job_size_cap(jo) : 0;

		c->size = cap && other > cap ? cap : other;
		snprintf(c->from, sizeof(c->from), "%s", from);
	}
	apply(rc, j);
	/* A size from another result file was never checked against this job's bs: the same
	 * checks as for a size given in the profile, naming the file it came from. */
	if (job_validate(&rc->jobs[j])) {
		log_err(NULL, "job '%s': size=auto: the size %" PRIu64 " taken from %s does not fit "
			"this job", jo->name, c->size, c->from);
		return -EINVAL;
	}
	size_auto_reason(c, &rc->jobs[j], reason, sizeof(reason));
	log_info(NULL, "job '%s': size=auto: %s", jo->name, reason);
	return 0;
}

int size_auto_resolve(struct run_ctx *rc, size_t j)
{
	uint64_t t0 = now_ns();
	int err;

	if (!rc->cfg->jobs[j].size_auto_ns)
		return 0;
	if (rc->cfg->run.same_size && rc->sizes[j].size)
		return 0;
	err = resolve(rc, j);
	if (!err)
		settle(rc, &rc->jobs[j]);
	run_lead_in_calib(rc, j, t0);
	return err;
}

int size_auto_resolve_all(struct run_ctx *rc)
{
	const struct job_opts *last = NULL;
	uint64_t t0;
	int err, rc_all = 0;
	size_t j, last_j = 0;

	for (j = 0; j < rc->cfg->njobs && !run_should_stop(rc); j++) {
		if (!rc->cfg->jobs[j].size_auto_ns)
			continue;
		t0 = now_ns();
		err = resolve(rc, j);
		run_lead_in_calib(rc, j, t0);
		if (err) {
			rc_all = err;
		} else {
			last = &rc->jobs[j];
			last_j = j;
		}
	}
	if (last) {
		t0 = rc->lead_in[last_j].calib_start_ns;
		settle(rc, last);
		if (t0)
			run_lead_in_calib(rc, last_j, t0);
	}
	return rc_all;
}

uint64_t size_auto_retake_size(const struct run_ctx *rc, size_t j, const struct job_result *res)
{
	return size_auto_retake_plan(&rc->sizes[j], &rc->cfg->jobs[j], &rc->jobs[j], res);
}

void size_auto_retake(struct run_ctx *rc, size_t j, const struct job_result *res, uint64_t size)
{
	struct size_choice *c = &rc->sizes[j];

	size_auto_retake_note(c, res, size);
	apply(rc, j);
	log_warn(MOD, "job '%s': size=auto: %s%s", rc->jobs[j].name, c->retake, c->retake_kept);
}

void size_auto_retake_undo(struct run_ctx *rc, size_t j, const struct size_choice *before,
			   const char *kept)
{
	struct size_choice *c = &rc->sizes[j];
	char retake[sizeof(c->retake)];

	memcpy(retake, c->retake, sizeof(retake));
	*c = *before;
	memcpy(c->retake, retake, sizeof(retake));
	c->retake_kept = kept;
	apply(rc, j);
	log_warn(MOD, "job '%s': size=auto: %s%s", rc->jobs[j].name, c->retake, kept);
}
