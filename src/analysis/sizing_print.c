/* SPDX-License-Identifier: MIT */
/* `iowatt size`'s output: the battery and model, each device's jobs, energy and life, the ranking. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sizing.h"
#include "core/mem.h"
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

static void print_jobs(const struct sizing *sz, const struct size_workload *wl)
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
			 rr_net_j_per_io(sz->recjob) * 1e3, sizing_records_per_day(wl, sz->recjob),
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

static void print_power_off(const struct sizing *sz, const struct size_workload *wl)
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

static void print_sizing(const struct sizing *sz, const struct size_workload *wl,
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

static void print_header(const struct battery_model *bm, const struct size_workload *wl)
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

int sizing_print_results(const struct rr_set *set, const struct size_workload *wl,
			 const struct battery_model *bm, double supply_v_opt)
{
	struct sizing *sz;
	size_t i;
	int err = 0;

	print_header(bm, wl);
	sz = xcalloc(set->nres, sizeof(*sz));
	for (i = 0; i < set->nres && !err; i++) {
		err = sizing_compute(&set->res[i], wl, bm, supply_v_opt, &sz[i]);
		if (!err)
			print_sizing(&sz[i], wl, bm, supply_v_opt);
	}
	if (!err)
		print_summary(sz, set->nres);
	free(sz);
	return err;
}
