/* SPDX-License-Identifier: MIT */
/* The sleep figure of size --sleep-from: read from a result's job and phase, checked against the sized result. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/sleep_figure.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/phase.h"
#include "core/text.h"

#define MOD "sleep"

/* RESULT[:JOB]: a path that exists is the whole spec; else the last colon splits it. */
static char *split_spec(const char *spec, const char **job)
{
	char *path = xstrdup(spec), *colon;
	struct stat st;

	*job = NULL;
	if (stat(path, &st) == 0)
		return path;
	colon = strrchr(path, ':');
	if (colon && colon != path && colon[1]) {
		*colon = '\0';
		*job = spec + (colon - path) + 1;
	}
	return path;
}

/* The job without a name: the one job with power data, else a list to choose from. */
static const struct job_result *only_job(const struct rr_result *r, const char *path)
{
	const struct job_result *found = NULL;
	char names[256];
	size_t i, n = 0, used = 0;

	names[0] = '\0';
	for (i = 0; i < r->rep.njobs; i++) {
		if (!rr_has_power(&r->rep.jobs[i]))
			continue;
		found = &r->rep.jobs[i];
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s'%s'",
						 n ? ", " : "", r->names[i]);
		n++;
	}
	if (n == 1)
		return found;
	if (!n)
		log_err(MOD, "--sleep-from %s: no job with power data (a meter's active_w)", path);
	else
		log_err(MOD, "--sleep-from %s: %zu jobs with power data (%s): name one as %s:JOB",
			path, n, names, path);
	return NULL;
}

/*
 * A DC meter's mean power and its mean current times mean voltage tell the same: they
 * differ by their uncertainties and by how current and voltage move together (a supply
 * that sags under load), which this allows for as a share of the power.
 */
#define SLEEP_VA_COVARIANCE 0.05

static double sq_or_0(double x)
{
	return isfinite(x) ? x * x : 0;
}

/* 0 when the active phase's W agrees with its mA x V, else -EINVAL (logged). */
static int check_w_va(const struct sleep_figure *sf, const struct result_power *p,
		      const char *path, const char *name)
{
	double va = sf->a * sf->v, u, diff;

	/* what is not known cannot disagree (a missing W is said where it is needed) */
	if (!isfinite(sf->w) || !isfinite(sf->a) || !isfinite(sf->v) || !(sf->v > 0))
		return 0;
	u = sqrt(sq_or_0(sf->w_u95) + sq_or_0(sf->a_u95 * sf->v) + sq_or_0(p->active_v_u95 * sf->a)) +
	    SLEEP_VA_COVARIANCE * fmax(fabs(sf->w), fabs(va));
	diff = fabs(sf->w - va);
	if (diff <= u)
		return 0;
	log_err(MOD, "--sleep-from %s: job '%s': its power %.4g mW and its current x voltage "
		"%.4g mA x %.4g V = %.4g mW disagree by %.4g mW, beyond their uncertainty and "
		"the supply's sag (%.4g mW): the result is not consistent, its sleep figure is "
		"not used", path, name, sf->w * 1e3, sf->a * 1e3, sf->v, va * 1e3, diff * 1e3,
		u * 1e3);
	return -EINVAL;
}

static double span_s(const struct job_result *j, int phase)
{
	uint64_t t0, t1;

	rr_phase(j, phase, &t0, &t1);
	return t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
}

/* The phase's figures into sf; -EINVAL (logged) when it has none to use. */
static int read_phase(struct sleep_figure *sf, const char *path)
{
	const struct job_result *j = sf->j;
	const struct result_power *p = rr_power(j);
	const struct result_meter *m = sf->r->rep.nmeters ? &sf->r->rep.meters[0] : NULL;
	const char *name = rr_job_name(sf->r, j);
	char reasons[RR_REASONS_MAX];

	sf->phase = j->command ? PHASE_ACTIVE : PHASE_IDLE;
	sf->v = p->active_v;
	sf->interval_ms = m && m->period_ms > 0 ? m->period_ms : NAN;
	sf->duration_s = span_s(j, sf->phase);
	if (m)
		rr_meter_name(m, sf->meter, sizeof(sf->meter));
	if (sf->phase == PHASE_ACTIVE) {
		if (rr_valid(j) == 0) {
			rr_reasons(j, reasons, sizeof(reasons));
			log_err(MOD, "--sleep-from %s: job '%s' is INVALID (%s): its figure is not a "
				"sleep power to size a battery with", path, name, reasons);
			return -EINVAL;
		}
		sf->w = p->active_w;
		sf->w_u95 = p->active_w_u95;
		sf->a = p->active_ma / 1e3;
		sf->a_u95 = p->active_ma_u95 / 1e3;
		sf->samples = j->validity ? j->validity->samples_active : 0;
		if (check_w_va(sf, p, path, name))
			return -EINVAL;
	} else {
		sf->w = p->idle_w;
		sf->w_u95 = p->idle_w_u95;
		/* The result keeps no idle current: the idle power at the job's mean voltage
		 * (the supply is one for the whole job). */
		sf->a = sf->v > 0 ? sf->w / sf->v : NAN;
		sf->a_u95 = sf->v > 0 ? sf->w_u95 / sf->v : NAN;
		sf->a_derived = 1;
		sf->samples_estimated = 1;
		sf->samples = isfinite(sf->interval_ms) ?
				      (uint64_t)(sf->duration_s * 1e3 / sf->interval_ms) : 0;
	}
	if (!isfinite(sf->w) || !(sf->duration_s > 0)) {
		log_err(MOD, "--sleep-from %s: job '%s' has no %s power to use (%s)", path, name,
			sf->phase == PHASE_IDLE ? "idle" : "active",
			sf->duration_s > 0 ? "the figure is null in the result"
			: sf->phase == PHASE_IDLE ? "the phase is empty: was it run with --idle 0?"
						  : "the phase is empty");
		return -EINVAL;
	}
	return 0;
}

int sleep_figure_load(const char *spec, struct sleep_figure *sf)
{
	const char *job;
	char *path = split_spec(spec, &job);
	int rc;

	memset(sf, 0, sizeof(*sf));
	rc = rr_set_load(&sf->set, &path, 1, NULL, 0);
	if (rc) {
		free(path);
		return -EINVAL;
	}
	sf->r = &sf->set.res[0];
	sf->j = job ? rr_find_job(sf->r, job) : only_job(sf->r, path);
	rc = -EINVAL;
	if (job && !sf->j)
		log_err(MOD, "--sleep-from %s: no job named '%s'", path, job);
	else if (sf->j && !rr_has_power(sf->j))
		log_err(MOD, "--sleep-from %s: job '%s' has no power data", path, job);
	else if (sf->j && sf->j->status != RESULT_OK && sf->j->status != RESULT_INTERRUPTED)
		log_err(MOD, "--sleep-from %s: job '%s' %s: no figure to trust", path,
			rr_job_name(sf->r, sf->j), result_status_name(sf->j->status));
	else if (sf->j)
		rc = read_phase(sf, path);
	free(path);
	if (rc)
		sleep_figure_free(sf);
	return rc;
}

void sleep_figure_free(struct sleep_figure *sf)
{
	if (sf->set.res)
		rr_set_free(&sf->set);
	memset(sf, 0, sizeof(*sf));
}

int sleep_figure_check(const struct sleep_figure *sf, const struct rr_result *r, double v,
		       int mix_emulated)
{
	char *a = text_clean_dup(sf->r->path), *b = text_clean_dup(r->path);
	int rc = -EINVAL;

	if (!(sf->v > 0) || !(v > 0))
		log_err(MOD, "--sleep-from %s: %s's supply voltage is not known: cannot tell that "
			"the sleep was measured on the same supply as %s", a,
			sf->v > 0 ? b : a, b);
	else if (fabs(sf->v - v) > SLEEP_MAX_V_DIFF * v)
		log_err(MOD, "--sleep-from %s: measured at %.3g V, %s at %.3g V: more than %.0f %% "
			"apart, a different supply (not mixed)", a, sf->v, b, v,
			SLEEP_MAX_V_DIFF * 100);
	else if (sf->r->emulated != r->emulated && !mix_emulated)
		log_err(MOD, "--sleep-from %s is %s, %s is %s: not mixed unless --mix-emulated "
			"says so", a, sf->r->emulated ? "EMULATED" : "measured", b,
			r->emulated ? "EMULATED" : "measured");
	else
		rc = 0;
	free(a);
	free(b);
	return rc;
}

int sleep_figure_check_set(const struct sleep_figure *sf, const struct rr_set *set,
			   int mix_emulated)
{
	const struct job_result *j;
	size_t i;

	for (i = 0; i < set->nres; i++) {
		if (!set->res[i].has_power)
			continue;
		j = rr_pick_job(&set->res[i], 1, RR_STREAM_BS, NULL);
		if (!j)
			j = rr_pick_job(&set->res[i], 0, RR_STREAM_BS, NULL);
		if (j && sleep_figure_check(sf, &set->res[i], rr_power(j)->active_v, mix_emulated))
			return -EINVAL;
	}
	return 0;
}

void sleep_figure_source(const struct sleep_figure *sf, char *buf, size_t len)
{
	char *path = text_clean_dup(sf->r->path), *job = text_clean_dup(rr_job_name(sf->r, sf->j));

	snprintf(buf, len, "%s, job '%s', %s phase", path, job,
		 sf->phase == PHASE_IDLE ? "idle" : "active");
	free(path);
	free(job);
}

void sleep_figure_extent(const struct sleep_figure *sf, char *buf, size_t len)
{
	char d[32], ms[32], iv[48];

	fmt_sig(sf->duration_s, 4, d, sizeof(d));
	if (isfinite(sf->interval_ms) && sf->interval_ms < 1)
		snprintf(iv, sizeof(iv), " every %s \u00b5s",
			 fmt_sig(sf->interval_ms * 1e3, 3, ms, sizeof(ms)));
	else if (isfinite(sf->interval_ms))
		snprintf(iv, sizeof(iv), " every %s ms", fmt_sig(sf->interval_ms, 3, ms, sizeof(ms)));
	else
		snprintf(iv, sizeof(iv), " (interval unknown)");
	snprintf(buf, len, "%s s, %s%llu samples%s", d, sf->samples_estimated ? "about " : "",
		 (unsigned long long)sf->samples, iv);
}
