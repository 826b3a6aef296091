/* SPDX-License-Identifier: MIT */
/* The plan's lines of the power model's forecast: each job's U95, the costs and fit it simulated, the fix. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/units.h"
#include "energy/energy_model.h"
#include "plan/meter_fit.h"
#include "plan/model_forecast.h"

/* "write +-41 uJ (7 %)", or the pair's "write+flush +-41 uJ (5 %)", ", "-joined. */
static void u95_text(const struct model_forecast *f, char *buf, size_t len)
{
	const char *const *names = emodel_kind_names;
	char v[32];
	size_t n = 0;
	int k;

	buf[0] = 0;
	if (f->sum_base >= 0 && isfinite(f->sum_u95_uj))
		n += (size_t)snprintf(buf + n, len - n, "%s+%s \u00b1%s \u00b5J (%.1f %%)",
				      names[f->sum_base], names[f->sum_with],
				      fmt_sig(f->sum_u95_uj, 2, v, sizeof(v)),
				      100 * f->sum_u95_uj / f->sum_cost_uj);
	for (k = 0; k < COMPL_KINDS && n < len; k++)
		if (isfinite(f->u95_uj[k]))
			n += (size_t)snprintf(buf + n, len - n, "%s%s \u00b1%s \u00b5J (%.1f %%)",
					      n ? ", " : "", names[k],
					      fmt_sig(f->u95_uj[k], 2, v, sizeof(v)),
					      100 * f->u95_uj[k] / f->cost_uj[k]);
	if (!n)
		snprintf(buf, len, "no cost known");
}

/* What takes the ops out of step with the meter: dither, or (paced) the nearest rate the
 * same simulation finds in step at no phase (a multiple of the meter's rate always is; at
 * 2 Hz and a 100 ms window most odd rates still are, as 11/s: checked, not assumed). */
static void step_fix(const struct job_opts *jo, const struct model_forecast *f, char *buf,
		     size_t len)
{
	struct job_opts alt = *jo;
	uint64_t d, r;

	snprintf(buf, len, "%s", jo->thinktime_ns ? "thinktime_dither=100%" : "rate_dither=100%");
	if (jo->thinktime_ns || !jo->rate_iops || jo->rate_dither > 0)
		return;
	for (d = 1; d <= FORECAST_RATE_SEARCH; d++)
		for (r = jo->rate_iops + d; r + 2 * d > jo->rate_iops + d; r -= 2 * d) {
			alt.rate_iops = r;
			if (r && !model_forecast_step_phases(&alt, f->period_ns)) {
				snprintf(buf + strlen(buf), len - strlen(buf),
					 ", or rate_iops=%" PRIu64 " (in step at no phase)", r);
				return;
			}
			if (r < 2 * d)
				break;
		}
}

/* The faster meter as a fix, where it forecasts better than now (now unknown: better). */
static void fast_fix(FILE *fp, const struct model_forecast *f, int first)
{
	/* worse than now, or (now unknown) than the coarse bound: no fix */
	if (!(f->fast_worst_rel < (isfinite(f->worst_rel) ? f->worst_rel : METER_FIT_COARSE_U95)))
		return;
	fprintf(fp, "%s a meter reading every %.0f ms (\u00b1%.1f %%)", first ? "; fix:" : ", or",
		(double)FORECAST_FAST_NS / 1e6, 100 * f->fast_worst_rel);
}

static void forecast_print(FILE *fp, const struct job_opts *jo, const struct model_forecast *f)
{
	char u[256], fix[160], held[96];

	step_fix(jo, f, fix, sizeof(fix));
	if (f->step_phases == FORECAST_PHASES) {
		if (f->step_held_min == f->step_held_max)
			snprintf(held, sizeof(held), "each reading holds %u I/O%s at every phase",
				 f->step_held_min, f->step_held_min == 1 ? "" : "s");
		else
			snprintf(held, sizeof(held), "at every phase its readings each hold the same "
				 "count of I/Os, %u to %u by phase", f->step_held_min, f->step_held_max);
		fprintf(fp, "  %s: not identifiable: ops in step with the meter (%s), so what they "
			    "cost cannot be told from idle, however many: UNCERTAIN; fix: %s",
			jo->name, held, fix);
		fast_fix(fp, f, 0);
		fputc('\n', fp);
		return;
	}
	u95_text(f, u, sizeof(u));
	fprintf(fp, "  %s: %s, %" PRIu64 " of %" PRIu64 " readings hold I/O", jo->name, u,
		f->readings_with_ops, f->readings);
	if (!f->uncertain) {
		fprintf(fp, ": within %.0f %%\n", 100 * f->limit);
		return;
	}
	if (f->step_phases) {
		/* the U95 above is a phase that is not in step: the run may meet one that is */
		fprintf(fp, ": UNCERTAIN (depends on the meter's phase: at %d of %d the ops are in "
			    "step with it, not identifiable); fix: %s", f->step_phases,
			FORECAST_PHASES, fix);
		fast_fix(fp, f, 0);
		fputc('\n', fp);
		return;
	}
	fprintf(fp, ": UNCERTAIN (above %.0f %%", 100 * f->limit);
	/* a lock-step pair is not identifiable by kind: its sum is the figure shown */
	if (f->verdict != EMODEL_OK && !(f->verdict == EMODEL_NOT_IDENTIFIABLE && f->sum_base >= 0))
		fprintf(fp, ", %s", energy_model_verdict_name((enum emodel_verdict)f->verdict));
	fputs(")", fp);
	if (f->need_ios)
		fprintf(fp, "; fix: %" PRIu64 " I/Os or more (now %" PRIu64 ")", f->need_ios,
			f->ios);
	fast_fix(fp, f, !f->need_ios);
	fputc('\n', fp);
}

/* Does jo do operations of kind k (a flush: fdatasync writes)? */
static int does(const struct job_opts *jo, int k)
{
	return k == COMPL_READ ? rw_reads(jo->rw) != 0
			       : rw_writes(jo->rw) && (k == COMPL_WRITE || jo->fdatasync);
}

/* "  costs: write 640 ±20 µJ, flush 310 ±12 µJ; from FILE: sda's pooled model (...)". */
static void costs_text(const struct job_opts *jo, const struct forecast_costs *c, char *buf,
		       size_t len)
{
	static const char *const how[] = { " (assumed)", "", " (of their measured sum)" };
	char v[32], u[48];
	size_t n = (size_t)snprintf(buf, len, "  costs:");
	int k, m = 0;

	for (k = 0; k < COMPL_KINDS && n < len; k++) {
		if (!does(jo, k))
			continue;
		u[0] = 0;
		if (isfinite(c->u95_uj[k]))
			snprintf(u, sizeof(u), " \u00b1%s", fmt_sig(c->u95_uj[k], 2, v, sizeof(v)));
		n += (size_t)snprintf(buf + n, len - n, "%s %s %s%s \u00b5J%s", m++ ? "," : "",
				      emodel_kind_names[k], fmt_sig(c->uj[k], 3, v, sizeof(v)), u,
				      how[c->how[k]]);
	}
	if (n < len)
		snprintf(buf + n, len - n, "; %s", c->from);
}

/* "  fit: residuals 1.1 x the meter's noise (assumed: ...), a 100 ms window held ..." */
static void fit_text(const struct model_forecast *f, char *buf, size_t len)
{
	char v[32], w[32], h[32], l[32];
	double lag_ms = f->lag_s * 1e3;

	fmt_sig(f->misfit, 2, v, sizeof(v));
	fmt_sig(f->window_s * 1e3, 3, w, sizeof(w));
	fmt_sig(f->hold_s * 1e3, 3, h, sizeof(h));
	fmt_sig(lag_ms, 2, l, sizeof(l));
	snprintf(buf, len, "  fit simulated: residuals %s x the meter's noise%s, a %s ms window%s%s%s, "
		 "lag %s ms%s", v,
		 f->misfit_assumed ? " (assumed: the median of " FORECAST_MISFIT_FROM "; "
				     "--costs-from RESULT takes a device's own)" : "",
		 w, f->hold_s > 0 ? " held until the next conversion, every " : " not held",
		 f->hold_s > 0 ? h : "", f->hold_s > 0 ? " ms" : "", lag_ms == 0 ? "0" : l,
		 f->shape_assumed ? (f->hold_s > 0 ? " (assumed, as a USB tester converts)"
						   : " (assumed)")
				  : ", as the earlier result's fit found them");
}

void model_forecast_plan(FILE *fp, const struct run_config *cfg, uint64_t period_ns,
			 const struct meter_accuracy *acc, const struct rate_basis *src)
{
	struct model_forecast f;
	char per[32], costs[FORECAST_FROM_LEN + 640], last[sizeof(costs)] = "";
	size_t i, n, shown = 0, step = 0;

	for (i = 0; period_ns && i < cfg->njobs; i++) {
		model_forecast_judge(&cfg->jobs[i], period_ns, acc, src, &f);
		if (!f.judged)
			continue;
		if (!shown++)
			fprintf(fp, "model fit: the power model's per-op U95, the job's I/O simulated "
				    "against a reading every %s with %.2g mW noise%s%s%s, at the costs "
				    "below:\n",
				fmt_duration(period_ns, per, sizeof(per)), f.noise_w * 1e3,
				f.noise_assumed ? " (assumed: the meter declares its own once open)"
						: " (the meter's declared accuracy: ",
				f.noise_assumed ? "" : f.noise_from,
				f.noise_assumed ? "" : ")");
		/* the costs once, and again where a job's differ */
		costs_text(&cfg->jobs[i], &f.costs, costs, sizeof(costs));
		n = strlen(costs);
		if (n + 2 < sizeof(costs)) {
			costs[n++] = '\n';
			fit_text(&f, costs + n, sizeof(costs) - n);
		}
		if (strcmp(costs, last))
			fprintf(fp, "%s\n", costs);
		memcpy(last, costs, sizeof(last));
		forecast_print(fp, &cfg->jobs[i], &f);
		step += f.step_phases == FORECAST_PHASES;
	}
	/* the meter fit above judges the readings' integral, which such a job suits */
	if (step)
		fprintf(fp, "model fit: %zu job%s in step with the meter: %s per-op costs cannot "
			    "be measured as given, however long %s run%s (UNCERTAIN when run)\n",
			step, step == 1 ? "" : "s", step == 1 ? "its" : "their",
			step == 1 ? "it" : "they", step == 1 ? "s" : "");
}
