/* SPDX-License-Identifier: MIT */
/* `iowatt size`'s output for one device: its jobs, sleep, energy, life, interval and warnings. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sizing.h"
#include "analysis/sizing_print.h"
#include "core/mem.h"
#include "core/phase.h"
#include "core/si_units.h"
#include "core/text.h"
#include "core/units.h"

static void note_invalid(const struct rr_result *r, const struct job_result *j)
{
	char reasons[RR_REASONS_MAX];

	if (!j || rr_valid(j) != 0)
		return;
	rr_reasons(j, reasons, sizeof(reasons));
	printf("  warning: job %s is INVALID (%s): no valid job matched this workload\n",
	       rr_job_name(r, j), *reasons ? reasons : "see the result");
}

static void job_line(const struct rr_result *r, const char *what, const struct job_result *j,
		     const char *detail)
{
	char bs[32];

	printf("  %-8s job %s (%s, bs %s%s): %s\n", what, rr_job_name(r, j), rr_rw(j),
	       fmt_size(rr_bs(j), bs, sizeof(bs)), rr_valid(j) == 0 ? ", INVALID" : "", detail);
}

/* A write or read job's line: its net energy per GB times the workload's GB a day. */
static void per_gb_line(const struct rr_result *r, const char *what, const struct job_result *j,
			double bytes_per_day, double j_per_day)
{
	char detail[240];

	snprintf(detail, sizeof(detail), "%s/GB net x %.4g GB/day = %s/day",
		 sizing_fig(SI_ENERGY, rr_net_j_per_gb(j)), bytes_per_day / 1e9,
		 sizing_fig(SI_ENERGY, j_per_day));
	job_line(r, what, j, detail);
}

static void print_jobs(const struct sizing *sz, const struct size_workload *wl)
{
	const struct rr_result *r = sz->r;
	char detail[640], sbuf[32];

	if (sz->wjob)
		per_gb_line(r, "write", sz->wjob, wl->write_bpd, sz->write_j);
	if (sz->recjob && sz->rec_modelled) {
		snprintf(detail, sizeof(detail),
			 "%s/IO (write + flush, %s, %s) x %.0f IO/day (%s records) = %s/day; "
			 "awake %.1f ms per I/O",
			 sizing_fig_pm(SI_ENERGY, sz->rec_cost.j_per_io, sz->rec_cost.u95_j),
			 sz->rec_cost.from,
			 sz->rec_cost.verdict ? sz->rec_cost.verdict : "?",
			 sizing_records_per_day(wl, sz->recjob),
			 fmt_size(wl->rec_bytes, sbuf, sizeof(sbuf)), sizing_fig(SI_ENERGY, sz->rec_j),
			 sz->rec_cost.awake_s * 1e3);
		job_line(r, "records", sz->recjob, detail);
	} else if (sz->recjob) {
		snprintf(detail, sizeof(detail), "%s/IO net x %.0f IO/day (%s records) = %s/day%s%s",
			 sizing_fig_pm(SI_ENERGY, rr_net_j_per_io(sz->recjob),
				       rr_net_j_per_io_u95(sz->recjob)),
			 sizing_records_per_day(wl, sz->recjob),
			 fmt_size(wl->rec_bytes, sbuf, sizeof(sbuf)), sizing_fig(SI_ENERGY, sz->rec_j),
			 sz->rec_cost.why[0] ? "; no power model prices it: " : "",
			 sz->rec_cost.why);
		job_line(r, "records", sz->recjob, detail);
	}
	if (sz->recjob) {
		if (!isnan(sz->rec_device_bpd)) {
			snprintf(detail, sizeof(detail), "records reach the device as %s/day "
				 "(write amplification %.2f measured)",
				 fmt_size((uint64_t)llround(sz->rec_device_bpd), sbuf, sizeof(sbuf)),
				 sz->rec_wa);
			job_line(r, "wear", sz->recjob, detail);
		}
	}
	if (sz->rjob)
		per_gb_line(r, "read", sz->rjob, wl->read_bpd, sz->read_j);
	if (sz->dutyjob) {
		snprintf(detail, sizeof(detail), "(%s - %s) x %.4g s/%.4g s x 86400 s = %s/day",
			 sizing_fig(SI_POWER, rr_power(sz->dutyjob)->active_w),
			 sizing_fig(SI_POWER, rr_power(sz->dutyjob)->idle_w), wl->duty_active_s,
			 wl->duty_period_s, sizing_fig(SI_ENERGY, sz->duty_j));
		job_line(r, "duty", sz->dutyjob, detail);
	}
}

/*
 * Which idle state the days assume between records: the one an idle-states result says
 * the pause reaches, with what each wake from it adds; without one, the run's idle
 * baseline all day.
 */
static void print_states(const struct sizing *sz, const struct size_workload *wl)
{
	const struct sizing_states *st = &sz->st;
	const struct idle_states *is = wl->states;

	/* asleep or off between bursts, their own line says what is drawn */
	if (!sz->recjob || wl->sleep || wl->off_share > 0)
		return;
	if (!is) {
		printf("  states   none measured: between records the device draws the run's idle "
		       "baseline all day (--idle-states-from a configs/idle-states.ini run prices "
		       "its lower states)\n");
		return;
	}
	if (!st->row)
		return;
	printf("  states   a record every %.4g s leaves a pause of %.4g s: ", 86400 / wl->rec_per_day,
	       st->pause_s);
	if (st->row == is->awake) {
		printf("no longer than the shortest measured (%.4g s, job %s): the awake state's "
		       "idle %s\n", st->row->gap_s, st->row->job,
		       sizing_fig_pm(SI_POWER, st->row->idle_w, st->row->idle_w_u95));
		return;
	}
	printf("the state after %.4g s alone (job %s) at %s; awake (job %s, after %.4g s) it "
	       "draws %s\n", st->row->gap_s, st->row->job,
	       sizing_fig_pm(SI_POWER, st->row->idle_w, st->row->idle_w_u95), is->awake->job,
	       is->awake->gap_s, sizing_fig_pm(SI_POWER, is->awake->idle_w, is->awake->idle_w_u95));
	printf("  wakes    each record's first I/O from it: %s above an awake one (the dwell "
	       "awake before the state and the wake)", sizing_fig_pm(SI_ENERGY, st->wake_j,
								  st->wake_j_u95));
	if (st->wake_s > 0)
		printf(", %.3g ms slower", st->wake_s * 1e3);
	printf(" x %.0f records/day = %s/day\n", wl->rec_per_day, sizing_fig(SI_ENERGY, st->day_j));
}

static void print_power_off(const struct sizing *sz, const struct size_workload *wl)
{
	if (wl->sleep) {
		printf("  asleep   between bursts: on %.1f s a day (I/O at the jobs' speeds, each "
		       "burst's tail) at the idle %s, asleep the other %.0f s at the sleep %s: "
		       "%s/day %s than idle all day\n",
		       sz->on_s, sizing_fig(SI_POWER, sz->lm.idle_w), sz->lm.off_s_per_day,
		       sizing_fig(SI_POWER, sz->sleep_w),
		       sizing_fig(SI_ENERGY, fabs(sz->lm.idle_off_w) * sz->lm.off_s_per_day),
		       sz->lm.idle_off_w >= 0 ? "less" : "more");
		return;
	}
	if (!(wl->off_share > 0))
		return;
	printf("  off      drive powered off between bursts: on %.1f s a day (I/O at the jobs' "
	       "speeds, each burst's tail); %.0f %% of the idle %s is not drawn the other "
	       "%.0f s: %s/day less\n",
	       sz->on_s, wl->off_share * 100, sizing_fig(SI_POWER, sz->lm.idle_w), sz->lm.off_s_per_day,
	       sizing_fig(SI_ENERGY, sz->lm.idle_off_w * sz->lm.off_s_per_day));
}

/* The life's 95 % interval and the input that dominates it. */
static void print_life_u95(const struct sizing *sz)
{
	const struct life_u95 *u = &sz->lifeu;
	const char *dom = "the idle power";
	double top = u->from_idle_days;

	if (isnan(u->days)) {
		int sleep_unknown = sz->sleep && isnan(sz->sleep->w_u95);
		int result_unknown = isnan(hypot(u->from_idle_days, u->from_workload_days));

		printf("  interval unknown: %s%s%s %s no measurement uncertainty (%s%s%s)\n",
		       result_unknown ? "the result" : "", result_unknown && sleep_unknown ? " and " : "",
		       sleep_unknown ? "the sleep figure" : "",
		       result_unknown && sleep_unknown ? "carry" : "carries",
		       result_unknown ? "idle_w_u95, j_per_gb_net_u95" : "",
		       result_unknown && sleep_unknown ? "; " : "",
		       !sleep_unknown ? "" : sz->sleep->phase == PHASE_IDLE ? "idle_w_u95" : "active_w_u95");
		return;
	}
	if (u->from_workload_days > top) {
		top = u->from_workload_days;
		dom = "the workload's energy";
	}
	if (u->from_sleep_days > top)
		dom = "the sleep power";
	printf("  interval +-%.2f days at 95 %%: idle power %s gives +-%.2f, the workload's "
	       "%s/day +-%.2f", u->days, sizing_fig_pm(SI_POWER, sz->lm.idle_w, sz->lu.idle_w),
	       u->from_idle_days, sizing_fig_pm(SI_ENERGY, sz->lm.extra_j_per_day, sz->lu.extra_j_per_day),
	       u->from_workload_days);
	if (sz->sleep)
		printf(", the sleep power %s +-%.2f", sizing_fig_pm(SI_POWER, sz->sleep_w, sz->sleep->w_u95),
		       u->from_sleep_days);
	printf("; %s dominates\n", dom);
}

static void print_life(const struct sizing *sz, const struct battery_model *bm)
{
	const struct battery_life *life = &sz->life;
	/* Asleep, the idle power is drawn only while the drive is on; the sleep power the rest. */
	double idle_j = sz->lm.idle_w * BATTERY_SECONDS_PER_DAY -
			(sz->sleep ? sz->lm.idle_w : sz->lm.idle_off_w) * sz->lm.off_s_per_day;
	printf("  energy   %s/day (%s/day) = idle %s", sizing_fig(SI_ENERGY, life->energy_day_j),
	       sizing_fig_wh(life->energy_day_j / 3600.0), sizing_fig(SI_ENERGY, idle_j));
	if (sz->sleep)
		printf(" + sleep %s", sizing_fig(SI_ENERGY, sz->sleep_w * sz->lm.off_s_per_day));
	printf(" + workload %s\n", sizing_fig(SI_ENERGY, sz->lm.extra_j_per_day));
	printf("  average  %s = %s at %.2f V; from the battery %s", sizing_fig(SI_POWER, life->avg_w),
	       sizing_fig(SI_CURRENT, life->avg_ma / 1e3), sz->supply_v, sizing_fig(SI_POWER, life->battery_w));
	if (!isnan(life->battery_ma))
		printf(" = %s at %.2f V", sizing_fig(SI_CURRENT, life->battery_ma / 1e3), bm->bat.nominal_v);
	printf("\n  life     %.2f days (%s usable / 24 h / (%s + %s self-discharge))\n",
	       life->days, sizing_fig_wh(life->usable_wh), sizing_fig(SI_POWER, life->battery_w),
	       sizing_fig(SI_POWER, life->self_discharge_w));
	print_life_u95(sz);
}

/* What a sleep figure changes: its share of the day, a figure below zero, one above idle. */
static void print_sleep_warnings(const struct sizing *sz)
{
	const struct sleep_figure *sf = sz->sleep;
	double sleep_j = sz->sleep_w * sz->lm.off_s_per_day;

	if (sf->w < 0)
		printf("  warning: the sleep power was measured below zero (%s: the meter's offset): "
		       "counted as 0\n", sizing_fig_pm(SI_POWER, sf->w, sf->w_u95));
	if (sz->sleep_w > sz->lm.idle_w)
		printf("  warning: the sleep power %s is above the idle %s of job %s: is the sleep run "
		       "of the same system?\n", sizing_fig(SI_POWER, sz->sleep_w), sizing_fig(SI_POWER, sz->lm.idle_w),
		       rr_job_name(sz->r, sz->base));
	if (sz->life.energy_day_j > 0 && sleep_j > 0.5 * sz->life.energy_day_j)
		printf("  warning: sleep is %.0f %% of the daily energy: the sleep current decides "
		       "the battery life, not the drive's J/GB\n",
		       100 * sleep_j / sz->life.energy_day_j);
	if (sf->r->emulated != sz->r->emulated)
		printf("  warning: the sleep figure is %s and this result %s (--mix-emulated)\n",
		       sf->r->emulated ? "EMULATED" : "measured",
		       sz->r->emulated ? "EMULATED" : "measured");
	else if (sf->r->emulated)
		printf("  warning: the sleep figure comes from an EMULATED meter, not a measurement\n");
}

/* An idle-states result of another device or supply, or emulated against measured. */
static void print_states_warnings(const struct sizing *sz, const struct idle_states *is)
{
	const struct idle_state_row *aw = is->awake;
	double base_w = rr_power(sz->base)->idle_w, u = hypot(aw->idle_w_u95,
							      rr_power(sz->base)->idle_w_u95);

	if (fabs(aw->idle_w - base_w) > fmax(isnan(u) ? 0 : u, 0.1 * fabs(base_w)))
		printf("  warning: the idle-states run's awake idle %s is not this run's idle %s: "
		       "the same device, host and supply?\n", sizing_fig(SI_POWER, aw->idle_w),
		       sizing_fig(SI_POWER, base_w));
	if (is->r->emulated != sz->r->emulated)
		printf("  warning: the idle states are %s and this result %s\n",
		       is->r->emulated ? "EMULATED" : "measured", sz->r->emulated ? "EMULATED" : "measured");
}

static void print_warnings(const struct sizing *sz, const struct size_workload *wl)
{
	const struct rr_result *r = sz->r;

	if (sz->lm.extra_j_per_day > sz->write_j + sz->rec_j + sz->read_j + sz->duty_j + sz->st.day_j)
		printf("  warning: a job's energy above idle came out negative (meter noise or drift "
		       "exceeded the workload's energy): counted as 0\n");
	note_invalid(r, sz->wjob);
	if (sz->recjob != sz->wjob)
		note_invalid(r, sz->recjob);
	if (sz->rjob != sz->wjob && sz->rjob != sz->recjob)
		note_invalid(r, sz->rjob);
	if (sz->dutyjob && sz->dutyjob != sz->wjob && sz->dutyjob != sz->recjob &&
	    sz->dutyjob != sz->rjob)
		note_invalid(r, sz->dutyjob);
	if (sz->st.row)
		print_states_warnings(sz, wl->states);
	if (sz->sleep)
		print_sleep_warnings(sz);
	else if (sz->life.idle_share > 0.5)
		printf("  warning: idle power is %.0f %% of the daily energy: %s\n",
		       sz->life.idle_share * 100,
		       sz->lm.idle_off_w > 0 ? "idle while the drive is on for its bursts (their "
					      "tails) and what stays on when it is off: fewer, larger "
					      "bursts matter more than its J/GB"
					    : "sleeping deeper or power-gating the drive matters "
					      "more than its J/GB (--power-off models it)");
	if (r->emulated)
		printf("  warning: power figures come from an EMULATED meter, not a measurement\n");
}

/* The sleep figure and where it comes from: file, job, phase, samples, duration, interval. */
static void print_sleep_line(const struct sleep_figure *sf)
{
	char src[RR_LABEL_MAX + 160], ext[96];

	sleep_figure_source(sf, src, sizeof(src));
	sleep_figure_extent(sf, ext, sizeof(ext));
	printf("  sleep    %s = %s at %.2f V%s from %s: %s%s%s%s\n",
	       sizing_fig_pm(SI_POWER, sf->w, sf->w_u95), sizing_fig_pm(SI_CURRENT, sf->a, sf->a_u95), sf->v,
	       sf->a_derived ? " (current: power / voltage)" : "", src, ext,
	       *sf->meter ? ", " : "", sf->meter, sf->r->emulated ? ", EMULATED" : "");
}

void sizing_print_device(struct sizing *sz, const struct size_workload *wl,
			 const struct battery_model *bm, double supply_v_opt)
{
	char *path = text_clean_dup(sz->r->path); /* a file name is anyone's bytes */

	printf("%s  [%s]\n", sz->r->label, path);
	free(path);
	if (sz->st.row)
		printf("  idle     %s: the idle state of %s (--idle-states-from); the run's idle "
		       "baseline %s from job %s's idle phase; supply %.2f V%s\n",
		       sizing_fig(SI_POWER, sz->lm.idle_w), wl->states->r->label,
		       sizing_fig(SI_POWER, rr_power(sz->base)->idle_w), rr_job_name(sz->r, sz->base),
		       sz->supply_v, supply_v_opt > 0 ? " (--supply-v)" : " (meter mean)");
	else
		printf("  idle     %s from job %s's idle phase; supply %.2f V%s\n",
		       sizing_fig(SI_POWER, sz->lm.idle_w), rr_job_name(sz->r, sz->base), sz->supply_v,
		       supply_v_opt > 0 ? " (--supply-v)" : " (meter mean)");
	if (sz->sleep)
		print_sleep_line(sz->sleep);
	print_jobs(sz, wl);
	print_states(sz, wl);
	print_power_off(sz, wl);
	print_life(sz, bm);
	if (wl->endurance_bytes != 0)
		sizing_print_endurance(sz, wl);
	print_warnings(sz, wl);
	printf("\n");
}

