/* SPDX-License-Identifier: MIT */
/* Battery sizing from results: the jobs that model a workload, the daily energy, the life. */
#ifndef IOWATT_SIZING_H
#define IOWATT_SIZING_H

#include <stdint.h>

#include "analysis/battery.h"
#include "analysis/endurance.h"
#include "analysis/idle_states.h"
#include "analysis/record_cost.h"
#include "analysis/results_read.h"
#include "analysis/sleep_figure.h"

/* What is written and read a day, and how the drive is kept: the command line's workload. */
struct size_workload {
	double write_bpd, read_bpd;	  /* bytes per day */
	uint64_t rec_bytes;		  /* --records */
	double rec_per_day;
	double duty_active_s, duty_period_s; /* --duty */
	const char *job;		  /* --job NAME: use it for everything */
	double off_share;		  /* --power-off: share of idle the drive is; 0: on */
	/* --sleep-from: what the system draws between bursts instead of the idle power;
	 * NULL: idle all day. mix_emulated: --mix-emulated. */
	const struct sleep_figure *sleep;
	int mix_emulated;
	double endurance_bytes; /* --endurance: the device's rated bytes written (TBW); 0: none,
				 * -1: its own wear figure extrapolated */
	double wa_given;	/* --write-amplification; 0: measured, else 1 */
	/* --idle-states-from: the device's idle states (configs/idle-states.ini's run); NULL:
	 * between records it draws the result's idle baseline */
	const struct idle_states *states;
};

/* --idle-states-from with --records: the state each pause between records reaches and
 * what waking from it adds to each record. */
struct sizing_states {
	const struct idle_state_row *row; /* the state reached; NULL: none used */
	double pause_s;			  /* between one record's I/O and the next */
	/* per record, above an I/O of the awake state: the dwell before the state and the
	 * wake (the row's first-I/O energy less the awake row's), its U95, and its extra time */
	double wake_j, wake_j_u95, wake_s;
	double day_j, day_u95_j; /* wake_j and its U95 times the records a day */
};

/* One result sized: the jobs that model each part of the workload, the load and the life. */
struct sizing {
	const struct rr_result *r;
	const struct job_result *wjob, *rjob, *recjob, *dutyjob, *base;
	double write_j, read_j, rec_j, duty_j, supply_v;
	/* --records: the bytes a day that reach the device, at the record job's measured
	 * write amplification (jobs[].wear); NAN when the job has none */
	double rec_device_bpd, rec_wa;
	double on_s; /* --power-off, --sleep-from: seconds a day the drive is on */
	/* --records priced from the power model (rec_modelled), else from the job's J/IO net */
	struct record_cost rec_cost;
	int rec_modelled;
	const struct sleep_figure *sleep; /* --sleep-from; NULL: idle between bursts */
	struct sizing_states st;	  /* --idle-states-from */
	double sleep_w; /* its power as used (a figure below zero counts as 0) */
	struct load_model lm;
	struct battery_life life;
	/* 95 % half widths: of each workload part (J/day), the inputs, the life */
	double write_u, read_u, rec_u, duty_u;
	struct load_u95 lu;
	struct life_u95 lifeu;
	/* --endurance: the device's days at the workload and which ends first (has_dev: it
	 * was worked out; not when the device has no wear figure of its own) */
	struct endurance dev;
	int has_dev;
};

/* --records: I/Os a day at job j's block size. */
double sizing_records_per_day(const struct size_workload *wl, const struct job_result *j);
/*
 * Choose the jobs of r that model wl (--job: that one) and compute the battery life with
 * its 95 % interval; supply_v_opt > 0 replaces the meter's mean voltage. 0 or -EINVAL
 * (logged: no power data, no such job, no job that fits, missing energy figures, a
 * sleep figure of another supply or an emulated one mixed with a measured one).
 */
int sizing_compute(const struct rr_result *r, const struct size_workload *wl,
		   const struct battery_model *bm, double supply_v_opt, struct sizing *sz);

/*
 * `iowatt size` after its options: the battery and the model, each result sized with the
 * jobs, energy, life and warnings, then the ranking by days on stdout. 0, or -EINVAL when
 * a result cannot be sized (logged; the results before it are printed).
 */
int sizing_print_results(const struct rr_set *set, const struct size_workload *wl,
			 const struct battery_model *bm, double supply_v_opt);

#endif
