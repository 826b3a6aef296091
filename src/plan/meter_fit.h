/* SPDX-License-Identifier: MIT */
/* Before a job runs: can a meter of this period measure its pattern, and what to change if not. */
#ifndef IOWATT_METER_FIT_H
#define IOWATT_METER_FIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/job.h"
#include "result/result.h"

/*
 * The verdicts, worst last: the job's pattern suits the meter; its bursts' own energy
 * will be known to worse than the job's max_uncertainty (the run will call it UNCERTAIN
 * unless the power model knows it better); to worse than METER_FIT_COARSE_U95 (k = 2);
 * it is too short for ENERGY_MIN_SAMPLES samples (not valid); it is in step with the
 * readings (aliased: not valid).
 */
enum meter_fit_verdict {
	METER_FIT_OK,
	METER_FIT_UNCERTAIN,
	METER_FIT_COARSE,
	METER_FIT_SHORT,
	METER_FIT_ALIASED
};

/* Bursts' energy known to worse than this (k = 2) is "coarse"; size=auto aims inside. */
#define METER_FIT_COARSE_U95 0.5
/* The plan simulates at most this many bursts; more only narrow the spread (1 / sqrt N). */
#define METER_FIT_MAX_EVENTS 4096u
#define METER_FIT_TEXT_LEN 240

struct meter_fit {
	int judged;		/* 0: nothing to say (no meter, a streaming job of unknown length) */
	int verdict;		/* enum meter_fit_verdict */
	uint64_t period_ns;	/* the meter's */
	char pattern[96];	/* "paced 2/s", "bursts of 1 x 64 KiB every 8 s", "streaming" */
	double activity_hz;	/* bursts per second; NAN for a stream */
	uint64_t bursts;	/* in the job (threads in step count once) */
	double duration_s;	/* expected active phase; NAN: not known before running */
	double samples;		/* readings in it */
	double u95_rel;		/* the bursts' energy, relative, k = 2 (sampling term alone) */
	int dithered;
	char why[METER_FIT_TEXT_LEN]; /* what goes wrong, in numbers; "" when nothing */
	char fix[METER_FIT_TEXT_LEN]; /* what to change; "" when nothing */
};

/*
 * Judge jo's pattern (rate_iops, thinktime, their dither, its size) against a meter of
 * period_ns: simulates the job's bursts at their nominal times (dithered from its
 * randseed) and the readings, and asks the sampling term's estimator (energy/sampling.h)
 * what it would say; the job's length from its size and pacing, else at rate_bps (bytes
 * per second, all threads; 0: not known). A size=auto job is judged at the size
 * meter_fit_auto_size would choose (patterned) or as lasting what size=auto aims for.
 */
void meter_fit_judge(const struct job_opts *jo, uint64_t period_ns, double rate_bps,
		     struct meter_fit *out);

/* The limit the run will judge the job's figures against (max_uncertainty, or the default). */
double meter_fit_limit(const struct job_opts *jo);

/* A patterned job's bursts as meter_fit_judge simulates them. */
struct meter_fit_bursts {
	uint64_t *t_ns;	    /* each burst's start, the first at 1 s; caller frees */
	size_t n;	    /* simulated: at most METER_FIT_MAX_EVENTS */
	uint64_t total;	    /* in the job (at size=auto's choice where it chooses) */
	uint64_t per_burst; /* I/Os in each */
	uint64_t burst_ns;  /* how long each is taken to last */
	uint64_t end_ns;    /* the end of the last one's slot */
};
/* jo's bursts at their nominal times, dithered from its randseed, into *out; their count
 * (0, nothing allocated to keep, when jo is a stream). */
size_t meter_fit_bursts(const struct job_opts *jo, uint64_t period_ns, double rate_bps,
			struct meter_fit_bursts *out);

/*
 * size=auto for a paced (rate_iops) or bursty (thinktime) job: its own pattern, more of
 * it, never a stream: enough bursts to last target_ns and, when dithered, for their
 * energy to within METER_FIT_COARSE_U95 at the meter's window. 1 with *size (bytes per thread)
 * and a reason, 0 when the job has no pattern (the calibration chooses).
 */
int meter_fit_auto_size(const struct job_opts *jo, uint64_t period_ns, uint64_t target_ns,
			uint64_t *size, char *reason, size_t len);
/* How long the active phase of meter_fit_auto_size's choice lasts (its bursts at their
 * spacing, the plan's ETA); 0 when jo is not paced. */
uint64_t meter_fit_auto_ns(const struct job_opts *jo, uint64_t period_ns, uint64_t target_ns);

/* The plan's section: every job judged against a meter of period_ns (0: nothing). */
void meter_fit_plan(FILE *fp, const struct run_config *cfg, uint64_t period_ns,
		    const char *meter);
/* One line for the plan: "  LOG-4K-2IOPS-sync: aliased: ... ; fix: ..." */
void meter_fit_print(FILE *fp, const char *jobname, const struct meter_fit *f);
/* The result's jobs[].meter_fit (NULL when not judged). */
struct result_meter_fit *meter_fit_report(const struct meter_fit *f);

#endif
