/* SPDX-License-Identifier: MIT */
/* Before a job runs: can a meter of this period measure its pattern, and what to change if not. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "core/activity.h"
#include "io/pace.h"
#include "io/pattern.h"
#include "energy/energy.h"
#include "plan/meter_fit.h"
#include "energy/sampling.h"
#include "energy/uncertainty.h"
#include "plan/size_choice.h"

/* What one burst is taken to last when its own speed is not known: one activity bin. */
#define BURST_NS ACTIVITY_BIN_NS

/* The job's pattern: bursts every spacing_ns (0: a stream), each of per_burst I/Os. */
struct burst_pattern {
	uint64_t spacing_ns, burst_ns, per_burst;
	double dither; /* rate_dither or thinktime_dither */
	int think;     /* 1: thinktime pauses, 0: rate_iops slots */
};

static int pattern_of(const struct job_opts *jo, double rate_bps, struct burst_pattern *p)
{
	memset(p, 0, sizeof(*p));
	p->burst_ns = BURST_NS;
	if (jo->thinktime_ns) {
		p->think = 1;
		p->per_burst = jo->thinktime_blocks ? jo->thinktime_blocks : 1;
		p->dither = jo->thinktime_dither;
		if (rate_bps > 0 && !jo->rate_iops)
			p->burst_ns = (uint64_t)((double)(p->per_burst * jo->bs) * 1e9 / rate_bps);
		if (p->burst_ns < BURST_NS)
			p->burst_ns = BURST_NS;
		p->spacing_ns = jo->thinktime_ns + p->burst_ns;
		return 1;
	}
	if (jo->rate_iops) {
		p->per_burst = 1;
		p->dither = jo->rate_dither;
		p->spacing_ns = NS_PER_SEC / jo->rate_iops;
		return 1;
	}
	return 0;
}

/* Bursts a job of size bytes per thread makes (threads start together: in step). */
static uint64_t bursts_of(const struct job_opts *jo, uint64_t size, const struct burst_pattern *p)
{
	uint64_t ios = size / (jo->bs ? jo->bs : 1);

	return (ios + p->per_burst - 1) / p->per_burst;
}

/* How many dithered bursts put their energy within u95 at window share w:
 * 2 sqrt((1 - w) / (w N)) <= u95 (docs/energy.md, the sampling term's binomial
 * spread). */
static uint64_t bursts_for_energy(double w, double u95)
{
	/* aim a tenth inside the bound: the simulated phases scatter around the formula */
	double aim = u95 * 0.9;

	if (!(w > 0) || w >= 1)
		return 0;
	return (uint64_t)ceil(4 * (1 - w) / (w * aim * aim));
}

static double window_share(uint64_t period_ns)
{
	double rho = sampling_window_s(period_ns);

	return rho > 0 ? rho / ((double)period_ns / 1e9) : 1;
}

/* The first n bursts' start times in t[] (the first at 1 s), as the job paces them, its
 * dither drawn from its randseed; the end of the last burst's slot. */
static uint64_t burst_times(const struct job_opts *jo, const struct burst_pattern *p, uint64_t n,
			    uint64_t *t_ns)
{
	uint64_t rng = pattern_thread_seed(jo->randseed, 0) ^ 0xd1b54a32d192ed03ULL;
	uint64_t t = NS_PER_SEC, k, slot = NS_PER_SEC, off = 0;

	for (k = 0; k < n; k++) {
		if (!p->think && p->dither > 0)
			off = pace_next(&rng) % (uint64_t)(p->dither * (double)p->spacing_ns + 1);
		if (!p->think)
			t = slot + off;
		t_ns[k] = t;
		if (p->think)
			t += p->burst_ns + pace_think_ns(jo->thinktime_ns, p->dither, &rng);
		slot += p->spacing_ns;
	}
	return p->think ? t : slot;
}

/*
 * The bursts at their nominal times, with the job's dither from its seed, and readings
 * every period from 0: what the sampling term would say of them. Returns u_rel and the
 * least share of the activity a reading phase sees.
 */
static void simulate(const struct job_opts *jo, const struct burst_pattern *p, uint64_t nbursts,
		     uint64_t period_ns, struct sampling_est *est)
{
	uint64_t n = nbursts < METER_FIT_MAX_EVENTS ? nbursts : METER_FIT_MAX_EVENTS;
	uint64_t *t = xcalloc(n, sizeof(*t)), k, end, nread, *reads;
	struct activity act;
	struct sampling_in in;

	activity_init(&act, 0);
	end = burst_times(jo, p, n, t) + NS_PER_SEC;
	for (k = 0; k < n; k++)
		activity_add(&act, t[k], t[k] + p->burst_ns);
	free(t);
	nread = end / period_ns + 1;
	reads = xcalloc(nread, sizeof(*reads));
	for (k = 0; k < nread; k++)
		reads[k] = k * period_ns;
	memset(&in, 0, sizeof(in));
	in.t_ns = reads;
	in.n = nread;
	in.period_ns = period_ns;
	in.window_ns = SAMPLING_WINDOW_NS;
	in.active_ns = NS_PER_SEC;
	in.end_ns = end - NS_PER_SEC;
	in.act = &act;
	in.act_j = 1;
	sampling_estimate(&in, est);
	/* more bursts than simulated at random phases: the binomial spread narrows */
	if (nbursts > n && isfinite(est->u_rel))
		est->u_rel *= sqrt((double)n / (double)nbursts);
	free(reads);
	activity_free(&act);
}

static void describe_pattern(const struct job_opts *jo, const struct burst_pattern *p, char *buf,
			     size_t len)
{
	char bs[32], tt[32];

	if (!p->spacing_ns)
		snprintf(buf, len, "streaming");
	else if (!p->think)
		snprintf(buf, len, "paced %" PRIu64 "/s%s", jo->rate_iops,
			 p->dither > 0 ? ", dithered" : "");
	else
		snprintf(buf, len, "bursts of %" PRIu64 " x %s every %s%s", p->per_burst,
			 fmt_size(jo->bs, bs, sizeof(bs)),
			 fmt_duration(jo->thinktime_ns, tt, sizeof(tt)),
			 p->dither > 0 ? ", dithered" : "");
}

/* The size size=auto gives a patterned job, or the job's own. */
static uint64_t judged_size(const struct job_opts *jo, uint64_t period_ns)
{
	uint64_t size = jo->size, target;
	char reason[8];

	if (!jo->size_auto_ns)
		return size;
	target = (uint64_t)((double)ENERGY_MIN_SAMPLES * (double)period_ns * SIZE_AUTO_HEADROOM);
	if (jo->size_auto_ns != OPT_AUTO_BARE && jo->size_auto_ns > target)
		target = jo->size_auto_ns;
	if (meter_fit_auto_size(jo, period_ns, target, &size, reason, sizeof(reason)))
		return size;
	return 0;
}

size_t meter_fit_bursts(const struct job_opts *jo, uint64_t period_ns, double rate_bps,
			struct meter_fit_bursts *out)
{
	struct burst_pattern p;

	memset(out, 0, sizeof(*out));
	if (!pattern_of(jo, rate_bps, &p))
		return 0;
	out->total = bursts_of(jo, judged_size(jo, period_ns), &p);
	out->n = out->total < METER_FIT_MAX_EVENTS ? out->total : METER_FIT_MAX_EVENTS;
	out->per_burst = p.per_burst;
	out->burst_ns = p.burst_ns;
	if (!out->n)
		return 0;
	out->t_ns = xcalloc(out->n, sizeof(*out->t_ns));
	out->end_ns = burst_times(jo, &p, out->n, out->t_ns);
	return out->n;
}

double meter_fit_limit(const struct job_opts *jo)
{
	return jo->max_uncertainty > 0 ? jo->max_uncertainty : UNC_LIMIT;
}

/*
 * Within the coarse bound but above the run's limit: the run will call the job UNCERTAIN
 * from its readings' integral, unless the power model knows the energy better (it does
 * not scale with the catch, but how well it fits is known only from the readings).
 */
static void uncertain(const struct job_opts *jo, const struct burst_pattern *p,
		      struct meter_fit *f, const struct sampling_est *est, double w)
{
	double limit = meter_fit_limit(jo);
	uint64_t need = bursts_for_energy(w, limit);
	const char *dither_opt = p->think ? "thinktime_dither=100%" : "rate_dither=100%";

	f->verdict = METER_FIT_UNCERTAIN;
	snprintf(f->why, sizeof(f->why),
		 "%" PRIu64 " bursts: their energy above idle known to +-%.0f %% (k = 2) from the "
		 "readings, above the run's %.0f %% limit: UNCERTAIN when run unless the power "
		 "model fits it better", f->bursts, 200 * est->u_rel, limit * 100);
	snprintf(f->fix, sizeof(f->fix), "%s%s%" PRIu64 " bursts or more, or a meter reading "
		 "every %.0f ms or faster", p->dither > 0 ? "" : dither_opt,
		 p->dither > 0 ? "" : " and ", need, (double)SAMPLING_WINDOW_NS / 1e6);
}

static void verdict(const struct job_opts *jo, const struct burst_pattern *p, struct meter_fit *f,
		    const struct sampling_est *est)
{
	double hz = 1e9 / (double)f->period_ns, w = window_share(f->period_ns), need_hz;
	uint64_t need = bursts_for_energy(w, METER_FIT_COARSE_U95);
	const char *dither_opt = p->think ? "thinktime_dither=100%" : "rate_dither=100%";

	need_hz = (double)ENERGY_MIN_SAMPLES / (isfinite(f->duration_s) ? f->duration_s : 1);
	if (p->spacing_ns && est->evaluated && est->g_min < SAMPLING_UNSEEN && p->dither > 0) {
		/* dithered, but so few bursts that some phase of the readings misses them all */
		f->verdict = METER_FIT_ALIASED;
		snprintf(f->why, sizeof(f->why),
			 "%" PRIu64 " bursts at random phases: at some phase the meter's %.0f ms "
			 "windows every %.0f ms see %.0f %% of them, so their energy cannot be known",
			 f->bursts, sampling_window_s(f->period_ns) * 1e3, (double)f->period_ns / 1e6,
			 fmax(est->g_min, 0) * 100);
		snprintf(f->fix, sizeof(f->fix),
			 "%" PRIu64 " bursts or more (size=auto chooses them), or a meter reading "
			 "every %.0f ms or faster", need > f->bursts ? need : 2 * f->bursts,
			 (double)SAMPLING_WINDOW_NS / 1e6);
	} else if (p->spacing_ns && est->evaluated && est->g_min < SAMPLING_UNSEEN) {
		f->verdict = METER_FIT_ALIASED;
		snprintf(f->why, sizeof(f->why),
			 "activity at %.3g Hz in step with the meter's %.3g Hz readings: at some "
			 "phase they see %.0f %% of its bursts, so their energy cannot be known "
			 "(aliased)", f->activity_hz, hz, fmax(est->g_min, 0) * 100);
		snprintf(f->fix, sizeof(f->fix),
			 "%s, or a meter reading every %.0f ms or faster (its readings then cover "
			 "all of the time)", dither_opt, (double)SAMPLING_WINDOW_NS / 1e6);
	} else if (isfinite(f->duration_s) && f->samples < ENERGY_MIN_SAMPLES) {
		f->verdict = METER_FIT_SHORT;
		snprintf(f->why, sizeof(f->why),
			 "about %.3g s active: %.0f readings at %.3g Hz (a valid job needs %d)",
			 f->duration_s, f->samples, hz, ENERGY_MIN_SAMPLES);
		snprintf(f->fix, sizeof(f->fix),
			 p->spacing_ns ? "size=auto (more of the same bursts), a larger size, or a "
					 "meter of %.3g Hz or more"
				       : "size=auto, a larger size, or a meter of %.3g Hz or more",
			 need_hz);
	} else if (p->spacing_ns && 2 * est->u_rel > METER_FIT_COARSE_U95) {
		f->verdict = METER_FIT_COARSE;
		snprintf(f->why, sizeof(f->why),
			 "%" PRIu64 " bursts, each seen by a %.0f ms reading window of %.0f ms: "
			 "their energy above idle is known to +-%.0f %% (k = 2) only",
			 f->bursts, sampling_window_s(f->period_ns) * 1e3, (double)f->period_ns / 1e6,
			 200 * est->u_rel);
		if (p->dither > 0)
			snprintf(f->fix, sizeof(f->fix),
				 "%" PRIu64 " bursts or more (size=auto chooses them), or a faster meter",
				 need);
		else
			snprintf(f->fix, sizeof(f->fix), "%s and %" PRIu64 " bursts or more, or a "
				 "faster meter", dither_opt, need);
	} else if (p->spacing_ns && 2 * est->u_rel > meter_fit_limit(jo)) {
		uncertain(jo, p, f, est, w);
	}
}

void meter_fit_judge(const struct job_opts *jo, uint64_t period_ns, double rate_bps,
		     struct meter_fit *f)
{
	struct sampling_est est;
	struct burst_pattern p;
	uint64_t size;

	memset(f, 0, sizeof(*f));
	f->activity_hz = NAN;
	f->duration_s = NAN;
	f->u95_rel = NAN;
	if (!period_ns)
		return;
	f->period_ns = period_ns;
	memset(&est, 0, sizeof(est));
	if (!pattern_of(jo, rate_bps, &p)) {
		describe_pattern(jo, &p, f->pattern, sizeof(f->pattern));
		/* a stream: the readings see it at every phase; only its length can fail */
		if (jo->size_auto_ns)
			f->duration_s = (double)ENERGY_MIN_SAMPLES * (double)period_ns / 1e9 *
					SIZE_AUTO_HEADROOM;
		else if (rate_bps > 0)
			f->duration_s = (double)jo->size * (double)jo->numjobs / rate_bps;
		else
			return;
		f->judged = 1;
		f->samples = f->duration_s * 1e9 / (double)period_ns;
		verdict(jo, &p, f, &est);
		return;
	}
	f->judged = 1;
	f->dithered = p.dither > 0;
	describe_pattern(jo, &p, f->pattern, sizeof(f->pattern));
	size = judged_size(jo, period_ns);
	f->bursts = bursts_of(jo, size, &p);
	f->activity_hz = 1e9 / (double)p.spacing_ns;
	f->duration_s = f->bursts ? (double)(f->bursts - 1) * (double)p.spacing_ns / 1e9 +
					    (double)p.burst_ns / 1e9
				  : 0;
	f->samples = f->duration_s * 1e9 / (double)period_ns;
	if (f->bursts)
		simulate(jo, &p, f->bursts, period_ns, &est);
	f->u95_rel = est.evaluated && isfinite(est.u_rel) ? 2 * est.u_rel : NAN;
	verdict(jo, &p, f, &est);
}

/* size=auto's bursts for a paced job: enough for the target's time and, dithered, for
 * their energy at the meter's window; 0 when the job is not paced. */
static uint64_t auto_bursts(const struct job_opts *jo, uint64_t period_ns, uint64_t target_ns,
			    struct burst_pattern *p, uint64_t *for_time, uint64_t *for_energy)
{
	if (!pattern_of(jo, 0, p))
		return 0;
	/* the first burst starts the phase: n bursts last (n - 1) spacings */
	*for_time = target_ns / p->spacing_ns + 2;
	*for_energy = p->dither > 0 && period_ns
			      ? bursts_for_energy(window_share(period_ns), METER_FIT_COARSE_U95)
			      : 0;
	return *for_time > *for_energy ? *for_time : *for_energy;
}

uint64_t meter_fit_auto_ns(const struct job_opts *jo, uint64_t period_ns, uint64_t target_ns)
{
	struct burst_pattern p;
	uint64_t for_time, for_energy, n = auto_bursts(jo, period_ns, target_ns, &p, &for_time,
						       &for_energy);

	return n ? (n - 1) * p.spacing_ns + p.burst_ns : 0;
}

int meter_fit_auto_size(const struct job_opts *jo, uint64_t period_ns, uint64_t target_ns,
			uint64_t *size, char *reason, size_t len)
{
	struct burst_pattern p;
	uint64_t for_time, for_energy, n;
	char bs[32], sz[32], d[32], pat[96];

	n = auto_bursts(jo, period_ns, target_ns, &p, &for_time, &for_energy);
	if (!n)
		return 0;
	*size = n * p.per_burst * jo->bs;
	describe_pattern(jo, &p, pat, sizeof(pat));
	snprintf(reason, len, "%" PRIu64 " bursts (%s = %" PRIu64 " x %" PRIu64 " x %s, %s): "
		 "about %s, for %s", n, fmt_size(*size, sz, sizeof(sz)), n, p.per_burst,
		 fmt_size(jo->bs, bs, sizeof(bs)), pat,
		 fmt_duration((n - 1) * p.spacing_ns, d, sizeof(d)),
		 for_energy > for_time ? "their energy to within +-50 % (k = 2) at the meter's "
					 "window"
				       : "the active phase's length");
	return 1;
}

static const char *const verdict_names[] = { "ok", "uncertain", "coarse", "too short",
					     "aliased" };

void meter_fit_print(FILE *fp, const char *jobname, const struct meter_fit *f)
{
	if (!f->judged)
		return;
	if (f->verdict == METER_FIT_OK) {
		fprintf(fp, "  %s: %s, %.3g s, %.0f readings: ok\n", jobname, f->pattern,
			f->duration_s, f->samples);
		return;
	}
	fprintf(fp, "  %s: %s: %s: %s; fix: %s\n", jobname, f->pattern,
		verdict_names[f->verdict], f->why, f->fix);
}

struct result_meter_fit *meter_fit_report(const struct meter_fit *f)
{
	struct result_meter_fit *r;

	if (!f->judged)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->verdict = xstrdup(verdict_names[f->verdict]);
	r->meter_period_s = (double)f->period_ns / 1e9;
	r->pattern = xstrdup(f->pattern);
	r->activity_hz = f->activity_hz;
	r->bursts = f->bursts;
	r->duration_s = f->duration_s;
	r->samples = f->samples;
	r->bursts_u95_rel = f->u95_rel;
	r->why = f->why[0] ? xstrdup(f->why) : NULL;
	r->fix = f->fix[0] ? xstrdup(f->fix) : NULL;
	return r;
}

void meter_fit_plan(FILE *fp, const struct run_config *cfg, uint64_t period_ns, const char *meter)
{
	struct meter_fit f;
	size_t i, bad = 0, shown = 0, unknown = 0, unsure = 0;
	char per[32];

	if (!period_ns)
		return;
	fmt_duration(period_ns, per, sizeof(per));
	/* only what needs saying: a job that suits the meter adds no line */
	for (i = 0; i < cfg->njobs; i++) {
		meter_fit_judge(&cfg->jobs[i], period_ns, 0, &f);
		unknown += !f.judged;
		if (!f.judged || f.verdict == METER_FIT_OK)
			continue;
		if (!shown++)
			fprintf(fp, "meter fit: against %s (a reading every %s):\n", meter, per);
		meter_fit_print(fp, cfg->jobs[i].name, &f);
		bad += f.verdict >= METER_FIT_SHORT;
		unsure += f.verdict == METER_FIT_UNCERTAIN || f.verdict == METER_FIT_COARSE;
	}
	if (!shown)
		fprintf(fp, "meter fit: every job's pattern suits %s (a reading every %s)%s\n", meter,
			per, unknown ? "; streams of fixed size are judged on their length when run"
				     : "");
	if (bad)
		fprintf(fp, "meter fit: %zu job%s this meter cannot measure as given (not valid "
			    "when run)\n", bad, bad == 1 ? "" : "s");
	if (unsure)
		fprintf(fp, "meter fit: %zu job%s UNCERTAIN when run from the readings alone (above "
			    "max_uncertainty); the power model may measure %s\n", unsure,
			unsure == 1 ? "" : "s", unsure == 1 ? "it" : "them");
}
