/* SPDX-License-Identifier: MIT */
/* The idle baseline: the idle phase's readings, which of them were quiet, a robust level. */
#ifndef IOWATT_IDLE_BASELINE_H
#define IOWATT_IDLE_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "energy/energy_unc.h"

/* Readings kept per idle phase; a faster meter keeps every 2nd, 4th... (the estimate
 * needs tens, a PPK2 delivers 100 000 a second). */
#define IDLE_READINGS_MAX 2048
/* Huber's tuning constant: 95 % of the mean's efficiency for normal scatter. */
#define IDLE_HUBER_K 1.345
#define IDLE_ESTIMATOR "huber"

/* One idle reading of W and its standard uncertainties (struct meter_u, as float). */
struct idle_reading {
	uint64_t t_ns;
	double w;
	float u_gain, u_offset, u_res, u_noise, step;
};

struct idle_readings {
	struct idle_reading r[IDLE_READINGS_MAX];
	size_t n;
	unsigned stride, skip; /* keep 1 in stride; skip counts down to the next kept */
	uint64_t seen;	       /* readings offered, kept or not */
};

/* 1 when the target did I/O at some time in [t0_ns, t1_ns] (run/idle_watch.h). */
typedef int (*idle_busy_fn)(const void *arg, uint64_t t0_ns, uint64_t t1_ns);

void idle_readings_reset(struct idle_readings *ir);
void idle_readings_add(struct idle_readings *ir, uint64_t t_ns, double w, const struct meter_u *u);

/* A reading at t_ns is quiet when the target did no I/O in [t_ns - reach_ns, t_ns]. */
size_t idle_quiet_count(const struct idle_readings *ir, idle_busy_fn busy, const void *arg,
			uint64_t reach_ns);

struct idle_estimate {
	double w;	   /* the baseline (W); NAN without readings */
	double u_stat;	   /* its standard uncertainty from the readings' scatter (W) */
	uint64_t quiet, excluded; /* readings (of those kept) */
	int all;	   /* no quiet reading: the level is over every reading */
	struct unc_terms terms; /* the baseline's parts, as an integral over span_s (W s) */
};

/*
 * Huber's M-estimate of location (scale: the normalised MAD, at least the readings'
 * declared noise) over the quiet readings, over all when none is quiet, and its parts of
 * uncertainty as an integral over span_s seconds (what energy.c's idle phase holds):
 * gain and offset as declared, resolution as in unc_terms_of, the scatter's sandwich
 * variance as noise, no discretisation (docs/energy.md, "The idle baseline").
 */
void idle_estimate(const struct idle_readings *ir, idle_busy_fn busy, const void *arg,
		   uint64_t reach_ns, double span_s, struct idle_estimate *out);

/* Huber's location of x[0..n) (x is reordered) with scale floor s_min; *u: its standard
 * uncertainty (sandwich), *scale: the scale used. NAN for n = 0. */
double idle_huber(double *x, size_t n, double s_min, double *u, double *scale);

#endif
