/* SPDX-License-Identifier: MIT */
/* Idle power after longer and longer pauses and the wake cost of the first I/O after each (configs/idle-states.ini), and the break-even idle time. */
#ifndef IOWATT_ANALYSIS_IDLE_STATES_H
#define IOWATT_ANALYSIS_IDLE_STATES_H

#include <stddef.h>

#include "analysis/results_read.h"

struct idle_state_row {
	const char *job;
	double gap_s;	   /* the device left alone before this job's I/O */
	double idle_w, idle_w_u95;
	double wake_j, wake_j_u95; /* energy_net_j: the job's I/O and settling above its idle */
	double io_s;	   /* its write's and sync's mean latency; NAN: not recorded */
	int valid;	   /* the job's idle and wake figures stand */
	int event;	   /* only its active phase was too short for the meter: its J/GB
			    * is not valid, its idle and net energy are */
};

struct idle_states {
	const struct rr_result *r;   /* the result they come from */
	struct idle_state_row *rows; /* by gap */
	size_t n;
	/* The shallowest (shortest pause) and the deepest (lowest idle) valid rows. */
	const struct idle_state_row *awake, *deep;
	/* How long a pause must be for the deep state to save more than its extra wake cost:
	 * (wake_deep - wake_awake) / (idle_awake - idle_deep); NAN when no lower state was
	 * seen (the deep idle is not below the awake one beyond their U95). */
	double break_even_s, break_even_u95_s;
	double saving_w; /* idle_awake - idle_deep */
};

/* From a result's jobs that have power figures and an I/O after an idle phase. 0, or
 * -ENODATA when fewer than two jobs qualify. */
int idle_states_from(const struct rr_result *r, struct idle_states *is);
/* Each result's table and break-even on stdout; record_gap_s (a record every that many
 * seconds, NAN: none) is weighed against it. 0, or -ENODATA when no result has the jobs. */
int idle_states_print(const struct rr_set *set, double record_gap_s);
void idle_states_free(struct idle_states *is);
/* The state a pause of pause_s is known to reach: the valid row of the longest measured
 * pause not above it (a deeper state may begin sooner, unmeasured), else the shallowest.
 * NULL when no row is valid. */
const struct idle_state_row *idle_states_reached(const struct idle_states *is, double pause_s);

#endif
