/* SPDX-License-Identifier: MIT */
/* Battery and duty-cycle sizing maths: pure functions, no I/O, unit-tested. */
#ifndef IOWATT_BATTERY_H
#define IOWATT_BATTERY_H

#include <stdint.h>

#define BATTERY_SECONDS_PER_DAY 86400.0
/* Self-discharge is quoted per month; a month is a twelfth of a Julian year. */
#define BATTERY_DAYS_PER_MONTH 30.4375

#define BATTERY_DEFAULT_USABLE 0.85
#define BATTERY_DEFAULT_REGULATOR 0.90
#define BATTERY_DEFAULT_SELF_DISCHARGE 0.02

/* A battery as the user gave it: "3000mAh@3.7V" or "11.1Wh". */
struct battery_spec {
	double capacity_wh;  /* nominal energy */
	double capacity_mah; /* 0 when given in Wh */
	double nominal_v;    /* 0 when given in Wh */
};

struct battery_model {
	struct battery_spec bat;
	double usable_frac;	     /* share of the nominal capacity the cut-off lets us use */
	double regulator_eff;	     /* battery -> supply conversion efficiency */
	double self_discharge_month; /* fraction of nominal capacity lost per month */
	int assumed;		     /* bat is the command's default, not one the user gave */
};

/* The measured system's load at its supply (what the meter saw). */
struct load_model {
	double idle_w;		/* power drawn all day long */
	double extra_j_per_day; /* energy above idle for the workload, per day */
	double supply_v;	/* to express the average power as a current */
	/* A drive powered off between bursts: this much of idle_w is not drawn for
	 * off_s_per_day seconds a day (0 and 0: always on). */
	double idle_off_w, off_s_per_day;
};

struct battery_life {
	double energy_day_j;	  /* at the supply: idle + workload */
	double avg_w, avg_ma;	  /* at the supply */
	double battery_w;	  /* drawn from the battery: avg_w / regulator_eff */
	double battery_ma;	  /* at the battery's nominal voltage; NAN if unknown */
	double self_discharge_w;  /* self-discharge as an equivalent constant drain */
	double usable_wh;
	double days;
	double idle_share;	  /* idle energy / energy per day, 0..1 */
};

/*
 * days = usable_wh / (24 h * (avg_w / regulator_eff + capacity_wh * sd / (24 h * month)))
 * with avg_w = (idle_w x 86400 s - idle_off_w x off_s_per_day + extra_j_per_day) / 86400 s. Self-discharge is taken as linear in
 * the nominal capacity: fine for the few percent a month of Li-ion / LiFePO4 cells.
 */
void battery_life_compute(const struct battery_model *bm, const struct load_model *lm,
			  struct battery_life *out);

/* The 95 % half widths of a load's inputs (from the results' _u95 figures), each as the
 * power it adds to the day's average: the idle power's scaled by the share of the day it
 * is drawn, a measured sleep power's (size --sleep-from; 0: none) by the rest. */
struct load_u95 {
	double idle_w;
	double extra_j_per_day;
	double sleep_w;
};

/* How far the battery life may be off at 95 %, and each input's share of it. */
struct life_u95 {
	double days;		  /* the shares in quadrature */
	double from_idle_days;	  /* |d days / d idle_w| x its half width */
	double from_workload_days;
	double from_sleep_days;
};

/*
 * First-order propagation: days = usable_wh / (24 h x (P / regulator + self-discharge)),
 * P = idle_w + extra / 86400 s, so d days / d P = -days / (regulator x (P / regulator +
 * self-discharge)). The inputs are taken as independent (they come from different
 * phases or runs: the idle baseline, the jobs' energy above it, the sleep run). NAN where
 * an input is.
 */
void battery_life_u95(const struct battery_model *bm, const struct battery_life *life,
		      const struct load_u95 *u, struct life_u95 *out);

/* Workload energy above idle, per day, at the supply. */
double battery_bytes_energy_j(double bytes_per_day, double j_per_gb_net);
double battery_ios_energy_j(double ios_per_day, double net_j_per_io);
double battery_duty_energy_j(double active_s, double period_s, double active_w, double idle_w);
/*
 * A drive powered off between bursts is on for the bursts' I/O (bytes at the job's
 * speed, I/Os at its IOPS) and each burst's tail, the drive settling before it may be
 * switched off. Seconds a day, at most a day.
 */
double battery_on_seconds(double bytes_per_day, double bytes_per_s, double ios_per_day,
			  double iops, double bursts_per_day, double tail_s);
/* I/Os one record of rec_bytes needs with a job of block size bs (at least one). */
double battery_ios_per_record(uint64_t rec_bytes, uint64_t bs);

/*
 * Parsers: 0 or -EINVAL/-ERANGE, never print (the caller names the option).
 * Sizes as everywhere in iowatt: "200MB" is 200 x 10^6 bytes, "200MiB" (or "200m")
 * 200 x 2^20.
 */
/*
 * Beyond these the input is a typo, not a device (1e308 Ah, 16 TB/s): -ERANGE. The
 * largest are a home storage battery, a 48 V pack with margin, and a rate well past the
 * fastest NVMe drive.
 */
#define BATTERY_MAX_WH 100000.0
#define BATTERY_MAX_V 100.0
#define BATTERY_MAX_BYTES_PER_S 100e9
#define BATTERY_MAX_RECORDS_PER_S 10e6
int battery_parse(const char *s, struct battery_spec *out);   /* 3000mAh@3.7V, 3Ah@3.7V, 11.1Wh, 11100mWh */
int battery_parse_rate(const char *s, double *bytes_per_day); /* 200MB/day, 5MB/h, 1GB/week */
int battery_parse_records(const char *s, uint64_t *rec_bytes, double *per_day); /* 4KiB@1/min */
int battery_parse_duty(const char *s, double *active_s, double *period_s);	 /* 2s/60s */
int battery_parse_fraction(const char *s, double *out); /* 85%, 0.85; optional "/month" */

#endif
