/* SPDX-License-Identifier: MIT */
/* iowatt size: battery life per device for a workload, from measured idle power and J/GB. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/phase.h"
#include "core/text.h"
#include "core/units.h"
#include "report/battery.h"

#define MOD "size"

struct workload {
	double write_bpd, read_bpd;	  /* bytes per day */
	uint64_t rec_bytes;		  /* --records */
	double rec_per_day;
	double duty_active_s, duty_period_s; /* --duty */
	const char *job;		  /* --job NAME: use it for everything */
	double off_share;		  /* --power-off: share of idle the drive is; 0: on */
};

struct sizing {
	const struct rr_result *r;
	const struct job_result *wjob, *rjob, *recjob, *dutyjob, *base;
	double write_j, read_j, rec_j, duty_j, supply_v;
	double on_s; /* --power-off: seconds a day the drive is on */
	struct load_model lm;
	struct battery_life life;
	/* 95 % half widths: of each workload part (J/day), the inputs, the life */
	double write_u, read_u, rec_u, duty_u;
	struct load_u95 lu;
	struct life_u95 lifeu;
};

/*
 * Energy above idle cannot be negative; a negative figure is noise (idle drifting up
 * during a short job) and would lengthen the battery life: count it as nothing.
 */
static double clamp_workload(const struct sizing *sz)
{
	return fmax(0, sz->write_j) + fmax(0, sz->rec_j) + fmax(0, sz->read_j) + fmax(0, sz->duty_j);
}

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

static double records_per_day(const struct workload *wl, const struct job_result *j)
{
	return wl->rec_per_day * battery_ios_per_record(wl->rec_bytes, rr_bs(j));
}

/* The jobs that model each part of the workload and their energy per day. 0 or -EINVAL. */
static int pick_jobs(const struct rr_result *r, const struct workload *wl, struct sizing *sz)
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
		sz->rec_j = battery_ios_energy_j(records_per_day(wl, sz->recjob),
						 rr_net_j_per_io(sz->recjob));
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
static int pick_duty(const struct rr_result *r, const struct workload *wl, struct sizing *sz)
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
static int pick_base(const struct rr_result *r, const struct workload *wl, struct sizing *sz)
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
static double on_seconds(const struct workload *wl, const struct sizing *sz)
{
	double on = 0, per_day;

	if (sz->wjob)
		on += battery_on_seconds(wl->write_bpd, rr_bw_bytes(sz->wjob), 0, 0, 1,
					 tail_s(sz->wjob));
	if (sz->rjob)
		on += battery_on_seconds(wl->read_bpd, rr_bw_bytes(sz->rjob), 0, 0, 1,
					 tail_s(sz->rjob));
	if (sz->recjob)
		on += battery_on_seconds(0, 0, records_per_day(wl, sz->recjob), rr_iops(sz->recjob),
					 wl->rec_per_day, tail_s(sz->recjob));
	if (sz->dutyjob) {
		per_day = BATTERY_SECONDS_PER_DAY / wl->duty_period_s;
		on += wl->duty_active_s * per_day + per_day * tail_s(sz->dutyjob);
	}
	return fmin(on, BATTERY_SECONDS_PER_DAY);
}

/*
 * The inputs' 95 % half widths from the jobs' _u95 figures: each workload part's energy
 * per day, the parts independent of each other (different jobs), and the idle power.
 */
static void size_u95(const struct workload *wl, struct sizing *sz)
{
	const struct result_power *dp;
	double frac;

	if (sz->wjob)
		sz->write_u = battery_bytes_energy_j(wl->write_bpd, rr_net_j_per_gb_u95(sz->wjob));
	if (sz->recjob)
		sz->rec_u = battery_ios_energy_j(records_per_day(wl, sz->recjob),
						 rr_net_j_per_io_u95(sz->recjob));
	if (sz->rjob)
		sz->read_u = battery_bytes_energy_j(wl->read_bpd, rr_net_j_per_gb_u95(sz->rjob));
	if (sz->dutyjob) {
		dp = rr_power(sz->dutyjob);
		frac = wl->duty_active_s / wl->duty_period_s;
		sz->duty_u = frac * BATTERY_SECONDS_PER_DAY * hypot(dp->active_w_u95, dp->idle_w_u95);
	}
	sz->lu.idle_w = rr_power(sz->base)->idle_w_u95;
	sz->lu.extra_j_per_day = sqrt(sz->write_u * sz->write_u + sz->rec_u * sz->rec_u +
				      sz->read_u * sz->read_u + sz->duty_u * sz->duty_u);
}

/* Choose the jobs and compute the battery life of one result. 0 or -EINVAL (logged). */
static int size_compute(const struct rr_result *r, const struct workload *wl,
			const struct battery_model *bm, double supply_v_opt, struct sizing *sz)
{
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
		log_err(MOD, "%s: no finished job with power data that %s", r->path,
			wl->job ? "matches --job" : "models this workload");
		return -EINVAL;
	}
	if (isnan(sz->write_j + sz->rec_j + sz->read_j + sz->duty_j)) {
		log_err(MOD, "%s: the chosen job lacks energy figures (energy_net_j / j_per_gb_net)",
			r->path);
		return -EINVAL;
	}
	sz->supply_v = supply_v_opt > 0 ? supply_v_opt : rr_power(sz->base)->active_v;
	sz->lm.idle_w = rr_power(sz->base)->idle_w;
	sz->lm.extra_j_per_day = clamp_workload(sz);
	sz->lm.supply_v = sz->supply_v;
	if (wl->off_share > 0) {
		sz->on_s = on_seconds(wl, sz);
		if (isnan(sz->on_s)) {
			log_err(MOD, "%s: --power-off needs the chosen jobs' speeds", r->path);
			return -EINVAL;
		}
		sz->lm.idle_off_w = sz->lm.idle_w * wl->off_share;
		sz->lm.off_s_per_day = BATTERY_SECONDS_PER_DAY - sz->on_s;
	}
	battery_life_compute(bm, &sz->lm, &sz->life);
	size_u95(wl, sz);
	/* Powered off, the idle power is drawn only part of the day: so is its uncertainty. */
	sz->lu.idle_w *= 1 - wl->off_share * sz->lm.off_s_per_day / BATTERY_SECONDS_PER_DAY;
	battery_life_u95(bm, &sz->life, &sz->lu, &sz->lifeu);
	return 0;
}

static void print_jobs(const struct sizing *sz, const struct workload *wl)
{
	const struct rr_result *r = sz->r;
	char detail[200], sbuf[32];

	if (sz->wjob) {
		snprintf(detail, sizeof(detail), "%.2f J/GB net x %.4g GB/day = %.2f J/day",
			 rr_net_j_per_gb(sz->wjob), wl->write_bpd / 1e9, sz->write_j);
		job_line(r, "write", sz->wjob, detail);
	}
	if (sz->recjob) {
		snprintf(detail, sizeof(detail), "%.4g mJ/IO net x %.0f IO/day (%s records) = %.2f J/day",
			 rr_net_j_per_io(sz->recjob) * 1e3, records_per_day(wl, sz->recjob),
			 fmt_size(wl->rec_bytes, sbuf, sizeof(sbuf)), sz->rec_j);
		job_line(r, "records", sz->recjob, detail);
	}
	if (sz->rjob) {
		snprintf(detail, sizeof(detail), "%.2f J/GB net x %.4g GB/day = %.2f J/day",
			 rr_net_j_per_gb(sz->rjob), wl->read_bpd / 1e9, sz->read_j);
		job_line(r, "read", sz->rjob, detail);
	}
	if (sz->dutyjob) {
		snprintf(detail, sizeof(detail), "(%.3f - %.3f) W x %.4g s/%.4g s x 86400 s = %.2f J/day",
			 rr_power(sz->dutyjob)->active_w, rr_power(sz->dutyjob)->idle_w,
			 wl->duty_active_s, wl->duty_period_s, sz->duty_j);
		job_line(r, "duty", sz->dutyjob, detail);
	}
}

static void print_power_off(const struct sizing *sz, const struct workload *wl)
{
	if (!(wl->off_share > 0))
		return;
	printf("  off      drive powered off between bursts: on %.1f s a day (I/O at the jobs' "
	       "speeds, each burst's tail); %.0f %% of the idle %.4f W is not drawn the other "
	       "%.0f s: %.1f J/day less\n",
	       sz->on_s, wl->off_share * 100, sz->lm.idle_w, sz->lm.off_s_per_day,
	       sz->lm.idle_off_w * sz->lm.off_s_per_day);
}

/* The life's 95 % interval and the input that dominates it. */
static void print_life_u95(const struct sizing *sz)
{
	const struct life_u95 *u = &sz->lifeu;

	if (isnan(u->days)) {
		printf("  interval unknown: the result carries no measurement uncertainty "
		       "(idle_w_u95, j_per_gb_net_u95)\n");
		return;
	}
	printf("  interval +-%.2f days at 95 %%: idle power %.4f +-%.4f W gives +-%.2f, the "
	       "workload's %.1f +-%.2f J/day +-%.2f; %s dominates\n", u->days, sz->lm.idle_w,
	       sz->lu.idle_w, u->from_idle_days, sz->lm.extra_j_per_day, sz->lu.extra_j_per_day,
	       u->from_workload_days,
	       u->from_idle_days >= u->from_workload_days ? "the idle power" : "the workload's energy");
}

static void print_life(const struct sizing *sz, const struct battery_model *bm)
{
	const struct battery_life *life = &sz->life;

	printf("  energy   %.1f J/day (%.3f Wh/day) = idle %.1f + workload %.1f\n", life->energy_day_j,
	       life->energy_day_j / 3600.0,
	       sz->lm.idle_w * BATTERY_SECONDS_PER_DAY - sz->lm.idle_off_w * sz->lm.off_s_per_day,
	       sz->lm.extra_j_per_day);
	printf("  average  %.2f mW = %.2f mA at %.2f V; from the battery %.2f mW", life->avg_w * 1e3,
	       life->avg_ma, sz->supply_v, life->battery_w * 1e3);
	if (!isnan(life->battery_ma))
		printf(" = %.2f mA at %.2f V", life->battery_ma, bm->bat.nominal_v);
	printf("\n  life     %.2f days (%.3f Wh usable / 24 h / (%.2f mW + %.3f mW self-discharge))\n",
	       life->days, life->usable_wh, life->battery_w * 1e3, life->self_discharge_w * 1e3);
	print_life_u95(sz);
}

static void print_warnings(const struct sizing *sz)
{
	const struct rr_result *r = sz->r;

	if (sz->lm.extra_j_per_day > sz->write_j + sz->rec_j + sz->read_j + sz->duty_j)
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
	if (sz->life.idle_share > 0.5)
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

static void print_sizing(const struct sizing *sz, const struct workload *wl,
			 const struct battery_model *bm, double supply_v_opt)
{
	char *path = text_clean_dup(sz->r->path); /* a file name is anyone's bytes */

	printf("%s  [%s]\n", sz->r->label, path);
	free(path);
	printf("  idle     %.4f W from job %s's idle phase; supply %.2f V%s\n", sz->lm.idle_w,
	       rr_job_name(sz->r, sz->base), sz->supply_v,
	       supply_v_opt > 0 ? " (--supply-v)" : " (meter mean)");
	print_jobs(sz, wl);
	print_power_off(sz, wl);
	print_life(sz, bm);
	print_warnings(sz);
	printf("\n");
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: iowatt size --battery CAPACITY RESULT.json... [workload] [options]\n"
		"  --battery 3000mAh@3.7V | 3Ah@3.7V | 11.1Wh     battery (required)\n"
		"  --write 200MB/day     data written per day (MB = 10^6 B, MiB = 2^20 B; /s /min /h /day /week)\n"
		"  --read 50MB/day       data read per day\n"
		"  --records 4KiB@1/min  small writes: record size @ count per time unit\n"
		"  --duty 2s/60s         drive busy (its job's active power) 2 s of every 60 s\n"
		"  --power-off[=100%%]    drive powered off between bursts: that share of the\n"
		"                        measured idle power (100%%: the meter saw the drive alone)\n"
		"                        is not drawn while no I/O or tail runs\n"
		"  --job NAME            use this job for every workload instead of the closest one\n"
		"  --usable 85%%          usable share of the nominal capacity (cut-off, ageing)\n"
		"  --regulator 90%%       battery -> supply conversion efficiency\n"
		"  --self-discharge 2%%/month   of the nominal capacity\n"
		"  --supply-v V          supply voltage of the measured system (default: meter mean)\n"
		"  --label FILE=NAME     device name for a result file\n");
}

static int parse_frac_opt(const char *opt, const char *arg, double *out, int allow_zero)
{
	if (battery_parse_fraction(arg, out) || (!allow_zero && *out <= 0)) {
		log_err(MOD, "%s '%s': expected a percentage such as 85%%", opt, arg);
		return -EINVAL;
	}
	return 0;
}

static void print_header(const struct battery_model *bm, const struct workload *wl)
{
	char buf[32];

	if (bm->bat.nominal_v > 0)
		printf("battery   %.0f mAh @ %.2f V = %.2f Wh nominal", bm->bat.capacity_mah,
		       bm->bat.nominal_v, bm->bat.capacity_wh);
	else
		printf("battery   %.2f Wh nominal", bm->bat.capacity_wh);
	printf("; usable %.0f %% = %.3f Wh; regulator %.0f %%; self-discharge %.1f %%/month\n",
	       bm->usable_frac * 100, bm->bat.capacity_wh * bm->usable_frac, bm->regulator_eff * 100,
	       bm->self_discharge_month * 100);
	printf("workload ");
	if (wl->write_bpd > 0)
		printf(" write %s MB/day", fmt_sig(wl->write_bpd / 1e6, 4, buf, sizeof(buf)));
	if (wl->rec_per_day > 0)
		printf(" records %s x %.0f/day", fmt_size(wl->rec_bytes, buf, sizeof(buf)), wl->rec_per_day);
	if (wl->read_bpd > 0)
		printf(" read %s MB/day", fmt_sig(wl->read_bpd / 1e6, 4, buf, sizeof(buf)));
	if (wl->duty_period_s > 0)
		printf(" busy %.4g s every %.4g s", wl->duty_active_s, wl->duty_period_s);
	if (!(wl->write_bpd > 0 || wl->rec_per_day > 0 || wl->read_bpd > 0 || wl->duty_period_s > 0))
		printf(" none (idle only)");
	printf("\nmodel     E_day = idle_W x 86400 s + write_B x J/GB_net / 1e9 + records x J/IO_net\n"
	       "                  + read_B x J/GB_net / 1e9 + (active_W - idle_W) x duty x 86400 s\n");
	if (wl->off_share > 0)
		printf("                  - idle_W x %.0f %% x (86400 s - on_s)   (--power-off; on_s: "
		       "the bursts' I/O and tails)\n", wl->off_share * 100);
	printf("          days  = usable_Wh / 24 h / (E_day / 86400 s / regulator + Wh x self_discharge / %.4g d / 24 h)\n\n",
	       BATTERY_DAYS_PER_MONTH);
}

/* "0.41", or "-" where the result had no uncertainty. */
static const char *fmt_fixed(double v, int decimals, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

static void print_summary(const struct sizing *sz, size_t n)
{
	char u[32];
	size_t i, best = 0, second = SIZE_MAX;

	printf("%-40s %10s %10s %10s %8s\n", "device", "avg mA", "Wh/day", "days", "+-95%");
	for (i = 0; i < n; i++) {
		printf("%-40s %10.2f %10.3f %10.2f %8s\n", sz[i].r->label, sz[i].life.avg_ma,
		       sz[i].life.energy_day_j / 3600.0, sz[i].life.days,
		       fmt_fixed(sz[i].lifeu.days, 2, u, sizeof(u)));
		if (sz[i].life.days > sz[best].life.days)
			best = i;
	}
	for (i = 0; i < n; i++)
		if (i != best && (second == SIZE_MAX || sz[i].life.days > sz[second].life.days))
			second = i;
	printf("\nlongest: %s, %.2f days", sz[best].r->label, sz[best].life.days);
	if (second != SIZE_MAX && sz[second].life.days > 0)
		printf(" (%.2fx %s)", sz[best].life.days / sz[second].life.days, sz[second].r->label);
	printf("\n");
	if (second != SIZE_MAX && sz[best].life.days - sz[second].life.days <=
				      sz[best].lifeu.days + sz[second].lifeu.days)
		printf("\u2248 %s and %s are indistinguishable at 95 %%: their intervals overlap\n",
		       sz[best].r->label, sz[second].r->label);
}

/* What the command line asks for. */
struct size_args {
	struct result_args ra; /* labels, the battery and its losses */
	struct workload wl;
	double supply_v;
};

static int bad_arg(const char *fmt, const char *arg)
{
	log_err(MOD, fmt, arg);
	return EXIT_USAGE;
}

/* --write/--read: rc from battery_parse_rate(). */
static int rate_arg(const char *opt, const char *arg, int rc)
{
	if (rc == -ERANGE)
		log_err(MOD, "%s '%s': out of range (at most %.0f GB/s)", opt, arg,
			BATTERY_MAX_BYTES_PER_S / 1e9);
	else if (rc)
		log_err(MOD, "%s '%s': expected SIZE/PERIOD, e.g. 200MB/day", opt, arg);
	return rc ? EXIT_USAGE : 0;
}

/* The battery's losses and the supply; 1 if c is not one of those options. */
static int battery_option(struct size_args *a, int c)
{
	switch (c) {
	case 'U':
		return parse_frac_opt("--usable", optarg, &a->ra.bm.usable_frac, 0) ? EXIT_USAGE : 0;
	case 'R':
		return parse_frac_opt("--regulator", optarg, &a->ra.bm.regulator_eff, 0) ? EXIT_USAGE : 0;
	case 'S':
		return parse_frac_opt("--self-discharge", optarg, &a->ra.bm.self_discharge_month, 1)
			       ? EXIT_USAGE : 0;
	case 'V':
		if (parse_double(optarg, &a->supply_v) || a->supply_v <= 0)
			return bad_arg("--supply-v '%s': expected volts, e.g. 5.0", optarg);
		return 0;
	default:
		return 1;
	}
}

/* The workload and the rest; 0 or an exit code. */
static int workload_option(struct size_args *a, int c)
{
	struct workload *wl = &a->wl;
	int rc;

	switch (c) {
	case 'w':
		return rate_arg("--write", optarg, battery_parse_rate(optarg, &wl->write_bpd));
	case 'r':
		return rate_arg("--read", optarg, battery_parse_rate(optarg, &wl->read_bpd));
	case 'c':
		rc = battery_parse_records(optarg, &wl->rec_bytes, &wl->rec_per_day);
		if (rc == -ERANGE) {
			log_err(MOD, "--records '%s': out of range (at most %.0f million a second)",
				optarg, BATTERY_MAX_RECORDS_PER_S / 1e6);
			return EXIT_USAGE;
		}
		if (rc)
			return bad_arg("--records '%s': expected SIZE@COUNT/PERIOD, e.g. 4KiB@1/min",
				       optarg);
		return 0;
	case 'd':
		if (battery_parse_duty(optarg, &wl->duty_active_s, &wl->duty_period_s))
			return bad_arg("--duty '%s': expected ACTIVE/PERIOD with ACTIVE <= PERIOD, "
				       "e.g. 2s/60s", optarg);
		return 0;
	case 'j':
		wl->job = optarg;
		return 0;
	case 'P':
		wl->off_share = 1;
		if (optarg && (battery_parse_fraction(optarg, &wl->off_share) ||
			       !(wl->off_share > 0)))
			return bad_arg("--power-off=%s: expected the drive's share of the idle "
				       "power, e.g. 100%% (a meter on the drive alone) or 40%%", optarg);
		return 0;
	default:
		return result_option(&a->ra, c, optarg);
	}
}

static int parse_args(int argc, char **argv, struct size_args *a)
{
	static const struct option opts[] = {
		{ "battery", required_argument, NULL, 'B' }, { "usable", required_argument, NULL, 'U' },
		{ "regulator", required_argument, NULL, 'R' },
		{ "self-discharge", required_argument, NULL, 'S' },
		{ "supply-v", required_argument, NULL, 'V' },	{ "write", required_argument, NULL, 'w' },
		{ "read", required_argument, NULL, 'r' },	{ "records", required_argument, NULL, 'c' },
		{ "duty", required_argument, NULL, 'd' },	{ "job", required_argument, NULL, 'j' },
		{ "power-off", optional_argument, NULL, 'P' },
		{ "label", required_argument, NULL, 'l' },	{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	result_args_init(&a->ra, MOD, usage, NULL);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		rc = battery_option(a, c);
		if (rc == 1)
			rc = workload_option(a, c);
		if (rc)
			return rc;
	}
	if (!a->ra.have_battery)
		return bad_arg("%s", "--battery is required (e.g. --battery 3000mAh@3.7V)");
	return 0;
}

int cmd_size(int argc, char **argv)
{
	struct size_args a;
	struct sizing *sz;
	struct rr_set set;
	size_t i;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	print_header(&a.ra.bm, &a.wl);
	sz = xcalloc(set.nres, sizeof(*sz));
	for (i = 0; i < set.nres && rc == EXIT_OK; i++) {
		if (size_compute(&set.res[i], &a.wl, &a.ra.bm, a.supply_v, &sz[i]))
			rc = EXIT_USAGE;
		else
			print_sizing(&sz[i], &a.wl, &a.ra.bm, a.supply_v);
	}
	if (rc == EXIT_OK)
		print_summary(sz, set.nres);
	free(sz);
	rr_set_free(&set);
	return rc;
}
