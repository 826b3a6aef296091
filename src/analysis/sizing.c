/* SPDX-License-Identifier: MIT */
/* Battery sizing: pick the jobs that model each part of a workload, then the daily energy and life. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/sizing.h"
#include "core/log.h"
#include "core/phase.h"

#define MOD "size"
/* Room for the names of the jobs --job could pick, in an error message. */
#define SIZING_HINT_LEN 256

/*
 * Energy above idle cannot be negative; a negative figure is noise (idle drifting up
 * during a short job) and would lengthen the battery life: count it as nothing.
 */
static double clamp_workload(const struct sizing *sz)
{
	return fmax(0, sz->write_j) + fmax(0, sz->rec_j) + fmax(0, sz->read_j) + fmax(0, sz->duty_j) +
	       fmax(0, sz->st.day_j);
}

double sizing_records_per_day(const struct size_workload *wl, const struct job_result *j)
{
	return wl->rec_per_day * battery_ios_per_record(wl->rec_bytes, rr_bs(j));
}

/* The jobs that model each part of the workload and their energy per day. 0 or -EINVAL. */
static int pick_jobs(const struct rr_result *r, const struct size_workload *wl, struct sizing *sz)
{
	if (wl->write_bpd > 0) {
		sz->wjob = rr_pick_job(r, 1, RR_STREAM_BS, wl->job);
		if (!sz->wjob)
			return -EINVAL;
		sz->write_j = battery_bytes_energy_j(wl->write_bpd, rr_net_j_per_gb(sz->wjob));
	}
	if (wl->rec_per_day > 0) {
		sz->recjob = rr_pick_job(r, 1, wl->rec_bytes, wl->job);
		if (!sz->recjob)
			return -EINVAL;
		sz->rec_modelled = !record_cost_find(r, sz->recjob, &sz->rec_cost);
		sz->rec_j = battery_ios_energy_j(sizing_records_per_day(wl, sz->recjob),
						 sz->rec_modelled ? sz->rec_cost.j_per_io
								  : rr_net_j_per_io(sz->recjob));
		/* The energy per I/O already holds what the filesystem added (it was
		 * metered); the wear does not show in it: it is what a day costs the card. */
		sz->rec_wa = rr_write_amplification(sz->recjob);
		sz->rec_device_bpd = sizing_records_per_day(wl, sz->recjob) *
				     (double)rr_bs(sz->recjob) * sz->rec_wa;
	}
	if (wl->read_bpd > 0) {
		sz->rjob = rr_pick_job(r, 0, RR_STREAM_BS, wl->job);
		if (!sz->rjob)
			return -EINVAL;
		sz->read_j = battery_bytes_energy_j(wl->read_bpd, rr_net_j_per_gb(sz->rjob));
	}
	sz->base = sz->wjob ? sz->wjob : sz->recjob ? sz->recjob : sz->rjob;
	return 0;
}

/* The duty-cycle job (the workload's, else any write job, else a read job) and its energy. */
static int pick_duty(const struct rr_result *r, const struct size_workload *wl, struct sizing *sz)
{
	if (!(wl->duty_period_s > 0))
		return 0;
	sz->dutyjob = wl->job ? rr_pick_job(r, 1, RR_STREAM_BS, wl->job) : sz->base;
	if (!sz->dutyjob)
		sz->dutyjob = rr_pick_job(r, 1, RR_STREAM_BS, NULL);
	if (!sz->dutyjob)
		sz->dutyjob = rr_pick_job(r, 0, RR_STREAM_BS, NULL);
	if (!sz->dutyjob)
		return -EINVAL;
	sz->duty_j = battery_duty_energy_j(wl->duty_active_s, wl->duty_period_s,
					   rr_power(sz->dutyjob)->active_w,
					   rr_power(sz->dutyjob)->idle_w);
	if (!sz->base)
		sz->base = sz->dutyjob;
	return 0;
}

/* The job whose idle phase gives the idle power: the workload's first, else any with power. */
static int pick_base(const struct rr_result *r, const struct size_workload *wl, struct sizing *sz)
{
	if (!sz->base)
		sz->base = rr_pick_job(r, 1, RR_STREAM_BS, wl->job);
	if (!sz->base)
		sz->base = rr_pick_job(r, 0, RR_STREAM_BS, wl->job);
	return !sz->base || isnan(rr_power(sz->base)->idle_w) ? -EINVAL : 0;
}

static double tail_s(const struct job_result *j)
{
	uint64_t t0, t1;

	rr_phase(j, PHASE_TAIL, &t0, &t1);
	return t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
}

/*
 * --power-off: the drive is on for each part's I/O at its job's speed and each burst's
 * tail (a stream is one burst a day, a record or a duty period one each), off the rest.
 */
static double on_seconds(const struct size_workload *wl, const struct sizing *sz)
{
	double on = 0, per_day;

	if (sz->wjob)
		on += battery_on_seconds(wl->write_bpd, rr_bw_bytes(sz->wjob), 0, 0, 1,
					 tail_s(sz->wjob));
	if (sz->rjob)
		on += battery_on_seconds(wl->read_bpd, rr_bw_bytes(sz->rjob), 0, 0, 1,
					 tail_s(sz->rjob));
	/* a record keeps the drive awake for its write and flushes, not for its pacing slot
	 * (1 / the job's IOPS), where the model prices it */
	if (sz->recjob)
		on += battery_on_seconds(0, 0, sizing_records_per_day(wl, sz->recjob),
					 sz->rec_modelled ? 1 / sz->rec_cost.awake_s
							  : rr_iops(sz->recjob),
					 wl->rec_per_day, tail_s(sz->recjob));
	if (sz->dutyjob) {
		per_day = BATTERY_SECONDS_PER_DAY / wl->duty_period_s;
		on += wl->duty_active_s * per_day + per_day * tail_s(sz->dutyjob);
	}
	return fmin(on, BATTERY_SECONDS_PER_DAY);
}

/*
 * --idle-states-from: between records the device draws the idle power of the state the
 * pause reaches, and each record's first I/O costs what waking from it did in the
 * idle-states run above an I/O of the awake state. That cost was measured above the
 * state's own idle until the power settled back to it, so it holds both the dwell at the
 * awake level before the device entered the state and the wake itself: the day is the
 * state's idle power all day plus, per record, the I/O as priced and that extra.
 */
static void states_apply(const struct size_workload *wl, struct sizing *sz)
{
	const struct idle_states *is = wl->states;
	struct sizing_states *st = &sz->st;
	const struct idle_state_row *row;
	double io_s;

	/* the record's own I/O out of its period, at the record job's speed */
	io_s = sz->rec_modelled ? sz->rec_cost.awake_s : 1 / rr_iops(sz->recjob);
	io_s *= battery_ios_per_record(wl->rec_bytes, rr_bs(sz->recjob));
	st->pause_s = fmax(0, BATTERY_SECONDS_PER_DAY / wl->rec_per_day - (isfinite(io_s) ? io_s : 0));
	row = idle_states_reached(is, st->pause_s);
	if (!row)
		return;
	st->row = row;
	if (row != is->awake) {
		st->wake_j = row->wake_j - is->awake->wake_j;
		st->wake_j_u95 = hypot(row->wake_j_u95, is->awake->wake_j_u95);
		st->wake_s = fmax(0, row->io_s - is->awake->io_s);
	}
	st->day_j = st->wake_j * wl->rec_per_day;
	st->day_u95_j = st->wake_j_u95 * wl->rec_per_day;
	sz->lm.idle_w = row->idle_w;
}

/*
 * The inputs' 95 % half widths from the jobs' _u95 figures: each workload part's energy
 * per day, the parts independent of each other (different jobs), and the idle power.
 */
static void size_u95(const struct size_workload *wl, struct sizing *sz)
{
	const struct result_power *dp;
	double frac;

	if (sz->wjob)
		sz->write_u = battery_bytes_energy_j(wl->write_bpd, rr_net_j_per_gb_u95(sz->wjob));
	if (sz->recjob)
		sz->rec_u = battery_ios_energy_j(sizing_records_per_day(wl, sz->recjob),
						 sz->rec_modelled ? sz->rec_cost.u95_j
								  : rr_net_j_per_io_u95(sz->recjob));
	if (sz->rjob)
		sz->read_u = battery_bytes_energy_j(wl->read_bpd, rr_net_j_per_gb_u95(sz->rjob));
	if (sz->dutyjob) {
		dp = rr_power(sz->dutyjob);
		frac = wl->duty_active_s / wl->duty_period_s;
		sz->duty_u = frac * BATTERY_SECONDS_PER_DAY * hypot(dp->active_w_u95, dp->idle_w_u95);
	}
	sz->lu.idle_w = sz->st.row ? sz->st.row->idle_w_u95 : rr_power(sz->base)->idle_w_u95;
	sz->lu.extra_j_per_day = sqrt(sz->write_u * sz->write_u + sz->rec_u * sz->rec_u +
				      sz->read_u * sz->read_u + sz->duty_u * sz->duty_u +
				      sz->st.day_u95_j * sz->st.day_u95_j);
}

/*
 * A job the automatic pick passes over may still be the one meant: a measured command
 * moves no blocks of a size, so none models a workload, yet --job NAME sizes from it.
 * The names of the finished jobs with power data, for the error message.
 */
static void job_hint(const struct rr_result *r, const struct size_workload *wl, char *buf,
		     size_t len)
{
	size_t i, n = 0, used = 0;

	buf[0] = '\0';
	if (wl->job)
		return;
	for (i = 0; i < r->rep.njobs && used < len; i++) {
		const struct job_result *j = &r->rep.jobs[i];

		if (!rr_has_power(j) || j->status != RESULT_OK)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s'%s'",
					 n++ ? ", " : "; name one with --job: ", r->names[i]);
	}
	if (used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

int sizing_compute(const struct rr_result *r, const struct size_workload *wl,
			const struct battery_model *bm, double supply_v_opt, struct sizing *sz)
{
	double v;

	memset(sz, 0, sizeof(*sz));
	sz->r = r;
	if (!r->has_power) {
		log_err(MOD, "%s: no power data (the run had no meter): cannot size a battery from it",
			r->path);
		return -EINVAL;
	}
	if (wl->job && !rr_find_job(r, wl->job)) {
		log_err(MOD, "%s: no job named '%s' (--job)", r->path, wl->job);
		return -EINVAL;
	}
	if (pick_jobs(r, wl, sz) || pick_duty(r, wl, sz) || pick_base(r, wl, sz)) {
		char hint[SIZING_HINT_LEN];

		job_hint(r, wl, hint, sizeof(hint));
		log_err(MOD, "%s: no finished job with power data that %s%s", r->path,
			wl->job ? "matches --job" : "models this workload", hint);
		return -EINVAL;
	}
	if (isnan(sz->write_j + sz->rec_j + sz->read_j + sz->duty_j)) {
		log_err(MOD, "%s: the chosen job lacks energy figures (energy_net_j / j_per_gb_net)",
			r->path);
		return -EINVAL;
	}
	sz->supply_v = supply_v_opt > 0 ? supply_v_opt : rr_power(sz->base)->active_v;
	sz->lm.idle_w = rr_power(sz->base)->idle_w;
	if (wl->states && sz->recjob)
		states_apply(wl, sz);
	sz->lm.extra_j_per_day = clamp_workload(sz);
	sz->lm.supply_v = sz->supply_v;
	if (wl->off_share > 0 || wl->sleep) {
		sz->on_s = on_seconds(wl, sz);
		if (isnan(sz->on_s)) {
			log_err(MOD, "%s: %s needs the chosen jobs' speeds", r->path,
				wl->sleep ? "--sleep-from" : "--power-off");
			return -EINVAL;
		}
		sz->lm.off_s_per_day = BATTERY_SECONDS_PER_DAY - sz->on_s;
		sz->lm.idle_off_w = sz->lm.idle_w * wl->off_share;
	}
	if (wl->sleep) {
		/* The supply the meter saw, not --supply-v: the two runs' own voltages. */
		v = rr_power(sz->base)->active_v;
		if (sleep_figure_check(wl->sleep, r, isfinite(v) ? v : sz->supply_v,
				       wl->mix_emulated))
			return -EINVAL;
		/* Asleep the system draws the sleep run's power instead of the idle power. */
		sz->sleep = wl->sleep;
		sz->sleep_w = fmax(0, wl->sleep->w);
		sz->lm.idle_off_w = sz->lm.idle_w - sz->sleep_w;
	}
	battery_life_compute(bm, &sz->lm, &sz->life);
	size_u95(wl, sz);
	/* Powered off or asleep, the idle power is drawn only part of the day: so is its
	 * uncertainty; the sleep power's the rest of it. */
	sz->lu.idle_w *= 1 - (wl->sleep ? 1 : wl->off_share) * sz->lm.off_s_per_day /
				     BATTERY_SECONDS_PER_DAY;
	if (wl->sleep)
		sz->lu.sleep_w = wl->sleep->w_u95 * sz->lm.off_s_per_day / BATTERY_SECONDS_PER_DAY;
	battery_life_u95(bm, &sz->life, &sz->lu, &sz->lifeu);
	return 0;
}
