/* SPDX-License-Identifier: MIT */
/* `iowatt size`'s output around the devices: the battery and model first, the ranking last. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/sizing.h"
#include "analysis/sizing_print.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "core/text.h"
#include "core/units.h"

static void print_header(const struct battery_model *bm, const struct size_workload *wl)
{
	char buf[32];

	if (bm->bat.nominal_v > 0)
		printf("battery   %s @ %.2f V = %s nominal", sizing_fig(SI_CHARGE, bm->bat.capacity_mah / 1e3),
		       bm->bat.nominal_v, sizing_fig_wh(bm->bat.capacity_wh));
	else
		printf("battery   %s nominal", sizing_fig_wh(bm->bat.capacity_wh));
	printf("; usable %.0f %% = %s; regulator %.0f %%; self-discharge %.1f %%/month\n",
	       bm->usable_frac * 100, sizing_fig_wh(bm->bat.capacity_wh * bm->usable_frac),
	       bm->regulator_eff * 100, bm->self_discharge_month * 100);
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
	if (wl->states)
		printf("                  + records x wake_J   (--idle-states-from: idle_W is the state "
		       "the pause reaches, wake_J waking from it)\n");
	if (wl->sleep)
		printf("                  - (idle_W - sleep_W) x (86400 s - on_s)   (--sleep-from; "
		       "on_s: the bursts' I/O and tails)\n");
	else if (wl->off_share > 0)
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

/* The table's current and energy columns: one unit each, chosen from their figures. */
static void summary_units(const struct sizing *sz, size_t n, struct si_unit *cur,
			  struct si_unit *wh)
{
	double *a = xcalloc(n + 1, sizeof(*a)), *e = xcalloc(n + 1, sizeof(*e));
	size_t i;

	for (i = 0; i < n; i++) {
		a[i] = sz[i].life.avg_ma / 1e3;
		e[i] = sz[i].life.energy_day_j / 3600.0;
	}
	*cur = si_unit_for(SI_CURRENT, a, n);
	*wh = si_unit_for(SI_POWER, e, n);
	free(a);
	free(e);
}

/* A device's days in the table: "never" when the workload writes nothing. */
static const char *fmt_dev_days(double days, char *buf, size_t len)
{
	if (isinf(days))
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, days < 1000 ? "%.2f" : "%.0f", days);
	return buf;
}

/*
 * --endurance: the device's days beside the battery's, their interval (from the write
 * amplification's and the rating's ranges) and which ends first, so one table answers it.
 */
static void print_dev_cells(const struct sizing *sz)
{
	static const char *const first[] = { [ENDS_BATTERY] = "battery", [ENDS_DEVICE] = "device",
					     [ENDS_UNCLEAR] = "overlap", [ENDS_NEVER] = "battery" };
	char d[32], lo[32], hi[32], range[72];

	if (!sz->has_dev) {
		printf(" %12s %19s  %s", "-", "-", "-");
		return;
	}
	if (!(sz->dev.days_hi > sz->dev.days_lo))
		snprintf(range, sizeof(range), "-");
	else if (isinf(sz->dev.days_hi))
		snprintf(range, sizeof(range), ">= %s", fmt_dev_days(sz->dev.days_lo, lo, sizeof(lo)));
	else
		snprintf(range, sizeof(range), "%s..%s", fmt_dev_days(sz->dev.days_lo, lo, sizeof(lo)),
			 fmt_dev_days(sz->dev.days_hi, hi, sizeof(hi)));
	printf(" %12s %19s  %s", fmt_dev_days(sz->dev.days, d, sizeof(d)), range,
	       first[sz->dev.first]);
}

static void print_summary(const struct sizing *sz, size_t n, const struct size_workload *wl)
{
	char u[32], head_a[24], head_e[24], fa[32], fe[32];
	struct si_unit cur, wh;
	size_t i, best = 0, second = SIZE_MAX;
	int dev = wl->endurance_bytes != 0;

	summary_units(sz, n, &cur, &wh);
	snprintf(head_a, sizeof(head_a), "avg %s", cur.text);
	snprintf(head_e, sizeof(head_e), "%sh/day", wh.text);
	printf("%-40s %*s %*s %10s %8s", "device", 10 + (int)text_extra_bytes(head_a), head_a,
	       10 + (int)text_extra_bytes(head_e), head_e, "days", "+-95%");
	if (dev)
		printf(" %12s %19s  %s", "device days", "interval", "ends first");
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("%-40s %10s %10s %10.2f %8s", sz[i].r->label,
		       si_fmt(&cur, sz[i].life.avg_ma / 1e3, SIZE_SIG, fa, sizeof(fa)),
		       si_fmt(&wh, sz[i].life.energy_day_j / 3600.0, SIZE_SIG, fe, sizeof(fe)),
		       sz[i].life.days, fmt_fixed(sz[i].lifeu.days, 2, u, sizeof(u)));
		if (dev)
			print_dev_cells(&sz[i]);
		printf("\n");
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
			sizing_print_device(&sz[i], wl, bm, supply_v_opt);
	}
	if (!err)
		print_summary(sz, set->nres, wl);
	free(sz);
	return err;
}
