/* SPDX-License-Identifier: MIT */
/* Each job over its rounds: statistics of every figure, and steady state as SNIA PTS judges it. */
#ifndef IOWATT_ANALYSIS_REPEATS_H
#define IOWATT_ANALYSIS_REPEATS_H

#include "result/result.h"

/*
 * (Re)build r->summary from r->jobs: for each job name (in order of first appearance),
 * the statistics of every figure over its entries that count (finished, and no meter
 * judged them invalid), and its steady state when it has steady=. Leaves summary NULL
 * when every job ran once.
 */
void result_summarize(struct run_result *r);
/*
 * The job's steady state over its counted entries so far: 1 reached, 0 not (out says
 * how close the best window came), -1 no verdict yet (no steady=, or fewer rounds than
 * a window). out->metric is the caller's to free (NULL without steady=).
 */
int result_steady_of(const struct run_result *r, const char *jobname, struct result_steady *out);
/*
 * A job's figure as charts show it: over its rounds the summary's mean with half its 95 %
 * interval (result_stat_u95), else the entry's with its _u95. u95 may be NULL.
 */
double result_job_figure(const struct run_result *r, const struct job_result *j, const char *key,
			 double *u95);
/* A summary figure by its key ("j_per_gb", "iops"), NULL if the summary has none. */
const struct result_stat *result_summary_stat(const struct result_job_summary *s, const char *key);
/*
 * How far the mean may be from the truth at 95 %: the run-to-run spread (half the Student
 * t interval) and the rounds' measurement uncertainty, which repeating does not shrink,
 * in quadrature; whichever is known when only one is. NAN without either.
 */
double result_stat_u95(const struct result_stat *st);
/* The summary of jobname, NULL if none. */
const struct result_job_summary *result_summary_find(const struct run_result *r,
						     const char *jobname);

#endif
