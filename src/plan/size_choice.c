/* SPDX-License-Identifier: MIT */
/* size=auto as data: the size a rate needs, why it was chosen, what a retake would take, its report. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/units.h"
#include "energy/energy.h"
#include "plan/rate_basis.h"
#include "plan/size_choice.h"

#define RATE_SIG 3

uint64_t size_auto_size_at(const struct job_opts *jo, double rate_bps, uint64_t target_ns)
{
	double want = rate_bps * ((double)target_ns / 1e9) / (double)jo->numjobs;
	uint64_t size = jo->bs;

	while ((double)size < want && size < SIZE_AUTO_MAX)
		size <<= 1;
	return size;
}

/* The smallest bs x 2^k per thread that lasts target_ns at rate (all threads together). */
void size_auto_fit(const struct job_opts *jo, struct size_choice *c)
{
	uint64_t cap = job_size_cap(jo);
	double ios_per_s;

	c->size = size_auto_size_at(jo, c->rate_bps, c->target_ns);
	c->capped = c->size >= SIZE_AUTO_MAX &&
		    (double)c->size < c->rate_bps * ((double)c->target_ns / 1e9) / jo->numjobs;
	c->pace_iops = 0;
	if (!cap || !rw_writes(jo->rw) || c->size <= cap)
		return;
	/* rounded down: the paced job lasts about target_ns (its last I/O starts one slot
	 * before), the meters' samples with SIZE_AUTO_HEADROOM to spare */
	ios_per_s = floor((double)(cap / jo->bs) / ((double)c->target_ns / 1e9));
	c->size = cap;
	c->pace_iops = ios_per_s >= 1 ? (uint64_t)ios_per_s : 1;
}

uint64_t size_auto_target_ns(const struct job_opts *jo, uint64_t meter_period_ns)
{
	uint64_t req = jo->size_auto_ns == OPT_AUTO_BARE ? 0 : jo->size_auto_ns;
	uint64_t meter = (uint64_t)((double)ENERGY_MIN_SAMPLES * (double)meter_period_ns *
				    SIZE_AUTO_HEADROOM);

	if (meter > req)
		req = meter;
	return req ? req : SIZE_AUTO_DEFAULT_NS;
}

static uint64_t size_of_entry(const struct job_result *j)
{
	const struct result_opt *o;

	if (j->size_auto)
		return j->size_auto->size;
	o = result_opt_find(j, "size");
	return o && o->type == RESULT_OPT_INT && o->i > 0 ? (uint64_t)o->i : 0;
}

/*
 * --same-size-as: the largest size any of the result files used for a job of this name
 * (its size_auto or its size option); 0 if none. from names the file.
 */
uint64_t size_auto_from_results(char *const *paths, unsigned n, const char *jobname,
				       char *from, size_t fromlen)
{
	struct run_result r;
	uint64_t best = 0, s;
	unsigned i;
	size_t k;

	for (i = 0; i < n; i++) {
		if (result_load(paths[i], &r))
			continue;
		for (k = 0; k < r.njobs; k++) {
			if (!r.jobs[k].jobname || strcmp(r.jobs[k].jobname, jobname))
				continue;
			s = size_of_entry(&r.jobs[k]);
			if (s > best) {
				best = s;
				snprintf(from, fromlen, "%s", paths[i]);
			}
		}
		result_free(&r);
	}
	return best;
}

int size_auto_check_results(const struct run_opts *ro)
{
	struct run_result r;
	unsigned i;
	int err;

	for (i = 0; i < ro->nsame_size_as; i++) {
		err = result_load(ro->same_size_as[i], &r);
		if (err) {
			log_err(NULL, "option --same-size-as %s: not a result iowatt can read: "
				      "refused before any I/O", ro->same_size_as[i]);
			return err;
		}
		result_free(&r);
	}
	return 0;
}

double size_auto_choosing_bps(const struct size_choice *c)
{
	return c->retake_bps > 0 ? c->retake_bps : c->rate_bps;
}

/* What the chosen size takes at the rate that chose it: all threads move size each. */
static double expected_s(const struct size_choice *c, const struct job_opts *jo)
{
	double bps = size_auto_choosing_bps(c);

	if (c->pace_iops && jo->bs)
		return (double)(c->size / jo->bs) / (double)c->pace_iops;
	return bps > 0 ? (double)c->size * (jo->numjobs ? jo->numjobs : 1) / bps : NAN;
}

/* "1 GiB = 2^18 x 4k: 3.6 s at 300 MB/s (1 s calibration), 2.5 s for 20 samples of
 * um25c:... (100 ms)": the size's own time first, then the target it had to reach. */
void size_auto_reason(const struct size_choice *c, const struct job_opts *jo, char *buf,
			     size_t len)
{
	char sz[32], bs[32], t[32], per[32], rate[32], exp[32];
	double e = expected_s(c, jo);
	unsigned k = 0;
	int n;

	if (!strcmp(c->from, "pattern")) {
		n = snprintf(buf, len, "%s", c->pattern);
		if (n >= 0 && (size_t)n < len && c->meter_ns)
			snprintf(buf + n, len - (size_t)n, " (%d samples of %s, %s apart)",
				 ENERGY_MIN_SAMPLES, c->meter,
				 fmt_duration(c->meter_period_ns, per, sizeof(per)));
		return;
	}
	while ((jo->bs << k) < c->size && k < 63)
		k++;
	fmt_size(c->size, sz, sizeof(sz));
	fmt_size(jo->bs, bs, sizeof(bs));
	fmt_duration(c->target_ns, t, sizeof(t));
	fmt_duration(isfinite(e) ? (uint64_t)(e * 1e9) : 0, exp, sizeof(exp));
	if (c->retake_bps > 0 && c->retake_limit > 0) {
		char first[32], took[32];

		fmt_size(c->retake_size, first, sizeof(first));
		fmt_duration((uint64_t)(c->retake_s * 1e9), took, sizeof(took));
		n = snprintf(buf, len, "%s = 2^%u x %s: %s at %s MB/s (its first run's rate: %s in %s "
			     "gave +-%.1f %%, over the %.1f %% limit), at least %s", sz, k, bs, exp,
			     fmt_sig(c->retake_bps / 1e6, RATE_SIG, rate, sizeof(rate)), first, took,
			     100 * c->retake_u95, 100 * c->retake_limit, t);
	} else if (c->retake_bps > 0) {
		char was[32], first[32], took[32];

		fmt_size(c->retake_size, first, sizeof(first));
		fmt_duration((uint64_t)(c->retake_s * 1e9), took, sizeof(took));
		n = snprintf(buf, len, "%s = 2^%u x %s: %s at %s MB/s (its first run's rate: the "
			     "calibration's %s MB/s chose %s, done in %s), at least %s", sz, k, bs, exp,
			     fmt_sig(c->retake_bps / 1e6, RATE_SIG, rate, sizeof(rate)),
			     fmt_sig(c->rate_bps / 1e6, RATE_SIG, was, sizeof(was)), first, took, t);
	} else if (c->pace_iops) {
		char pace[32];

		n = snprintf(buf, len, "%s = 2^%u x %s, size_max: paced to %" PRIu64 " I/Os per s "
			     "(%s MB/s per thread) to last %s without writing more (the calibration ran "
			     "%s MB/s, %.2g s), at least %s", sz, k, bs, c->pace_iops,
			     fmt_sig((double)(c->pace_iops * jo->bs) / 1e6, RATE_SIG, pace,
				     sizeof(pace)), exp,
			     fmt_sig(c->rate_bps / 1e6, RATE_SIG, rate, sizeof(rate)), c->calib_s, t);
	} else {
		n = snprintf(buf, len, "%s = 2^%u x %s: %s at %s MB/s (%.2g s calibration), at least %s",
			     sz, k, bs, exp, fmt_sig(c->rate_bps / 1e6, RATE_SIG, rate, sizeof(rate)),
			     c->calib_s, t);
	}
	if (n < 0 || (size_t)n >= len)
		return;
	if (c->meter_ns && c->meter_ns >= c->requested_ns)
		snprintf(buf + n, len - (size_t)n, " for %d samples of %s (%s apart)",
			 ENERGY_MIN_SAMPLES, c->meter,
			 fmt_duration(c->meter_period_ns, per, sizeof(per)));
	else if (c->requested_ns)
		snprintf(buf + n, len - (size_t)n, ", as size=auto:SECONDS asked");
	else
		snprintf(buf + n, len - (size_t)n, ", the default without a meter");
	if (strcmp(c->from, "calibration"))
		snprintf(buf + strlen(buf), len - strlen(buf), "; the larger size of %s", c->from);
}

/* The job's active phase in seconds; 0 when it has none. */
double size_auto_active_s(const struct job_result *j)
{
	return result_span_s(j && j->phases ? j->phases->active : NULL);
}

static double sq(double x)
{
	return isfinite(x) ? x * x : 0;
}

double size_auto_precision_factor(const struct result_validity *v)
{
	const struct result_uncertainty *u = v ? v->uncertainty : NULL;
	const struct result_unc_budget *b;
	double fixed2, shrink2, want2, x;

	if (!u || !v->valid || !v->uncertain || !(u->limit > 0) || !isfinite(u->u95_rel))
		return 0;
	/* the headline itself over its limit (idle_uncertain marks a job uncertain for its
	 * baseline with U95 inside it: no length helps that) */
	if (!(u->u95_rel > u->limit))
		return 0;
	b = &u->budget;
	/* resolution keeps a systematic part on a steady signal (energy_unc.c res_sys) that
	 * does not average down: counted with the terms that stay */
	fixed2 = sq(b->gain) + sq(b->offset) + sq(b->baseline) + sq(b->resolution);
	shrink2 = sq(b->noise) + sq(b->discretisation) + sq(b->sampling);
	want2 = sq(SIZE_AUTO_RETAKE_AIM * u->limit / 2);
	if (!(shrink2 > 0) || want2 <= fixed2)
		return 0;
	x = shrink2 / (want2 - fixed2);
	return x > 1 && x <= SIZE_AUTO_RETAKE_MAX_X ? x : 0;
}

const struct result_validity *size_auto_retake_validity(const struct size_choice *c,
							const struct job_result *res)
{
	const struct result_validity *v = res->validity;
	double x, most;
	size_t i;

	if (c->meter_index >= 0 && (size_t)c->meter_index < res->nmeters)
		v = &res->meters[c->meter_index].validity;
	if (!v || !v->valid)
		return v;
	most = size_auto_precision_factor(v);
	for (i = 0; i < res->nmeters; i++) {
		x = size_auto_precision_factor(&res->meters[i].validity);
		if (x > most) {
			most = x;
			v = &res->meters[i].validity;
		}
	}
	return v;
}

uint64_t size_auto_retake_plan(const struct size_choice *c, const struct job_opts *asked,
			      const struct job_opts *jo, const struct job_result *res)
{
	const struct result_validity *v = size_auto_retake_validity(c, res);
	double rate = rate_of_job(res), need_s = (double)ENERGY_MIN_SAMPLES *
						  (double)c->meter_period_ns / 1e9;
	uint64_t size;

	if (!asked->size_auto_ns || strcmp(c->from, "calibration") || c->retake_bps > 0 ||
	    c->retake[0] || c->runs_kept || !c->meter_period_ns)
		return 0;
	if (res->status != RESULT_OK || !v || !(rate > 0))
		return 0;
	/* a writer held by size_max is paced to its length: longer would write more */
	if (c->pace_iops)
		return 0;
	if (v->valid) {
		double x = size_auto_precision_factor(v);

		for (size = c->size; x > 0 && (double)size < (double)c->size * x &&
				     size < SIZE_AUTO_MAX;)
			size <<= 1;
		if (!(x > 0))
			return 0;
	} else {
		/* Too few samples because the job was short: not a meter that went quiet (its
		 * gap is its own reason). */
		if (v->samples_active >= ENERGY_MIN_SAMPLES || !(size_auto_active_s(res) < need_s))
			return 0;
		size = size_auto_size_at(jo, rate, c->target_ns);
	}
	/* size_max: a writer never writes more than it, a retake included */
	if (rw_writes(asked->rw) && job_size_cap(asked) && size > job_size_cap(asked))
		return 0;
	return size > c->size ? size : 0;
}

void size_auto_retake_note(struct size_choice *c, const struct job_result *res, uint64_t size)
{
	const struct result_validity *v = size_auto_retake_validity(c, res);
	char first[32], now[32], took[32], rate[32], was[32];

	c->retake_bps = rate_of_job(res);
	c->retake_s = size_auto_active_s(res);
	c->retake_size = c->size;
	fmt_size(c->size, first, sizeof(first));
	fmt_size(size, now, sizeof(now));
	fmt_duration((uint64_t)(c->retake_s * 1e9), took, sizeof(took));
	if (v->valid) {
		const struct result_uncertainty *u = v->uncertainty;

		c->retake_u95 = u->u95_rel;
		c->retake_limit = u->limit;
		snprintf(c->retake, sizeof(c->retake),
			 "the calibrated %s (%s) gave %s +-%.1f %%, over the %.1f %% limit, mostly "
			 "from terms more readings average down (%s): run again at %s, %.0fx as "
			 "long",
			 first, took, u->figure ? u->figure : "its figure", 100 * u->u95_rel,
			 100 * u->limit, u->dominant ? u->dominant : "-", now,
			 (double)size / (double)c->size);
	} else {
		snprintf(c->retake, sizeof(c->retake),
		 "the calibrated %s ran in %s at %s MB/s, %.1fx the calibration's %s MB/s: %" PRIu64
		 " samples (< %d); run again at %s from that rate",
		 first, took, fmt_sig(c->retake_bps / 1e6, RATE_SIG, rate, sizeof(rate)),
		 c->rate_bps > 0 ? c->retake_bps / c->rate_bps : 0.0,
		 fmt_sig(c->rate_bps / 1e6, RATE_SIG, was, sizeof(was)),
		 v->samples_active, ENERGY_MIN_SAMPLES, now);
	}
	c->retake_kept = v->valid ? ", the first run left out" : ", the short run left out";
	c->size = size;
}

/* The calibration's tries, and what it was checked against, into the result. */
static void report_tries(struct result_size_auto *r, const struct size_choice *c)
{
	unsigned i;

	r->reference_rate_bytes_per_s = c->ref_bps > 0 ? c->ref_bps : NAN;
	r->reference = c->ref[0] ? xstrdup(c->ref) : NULL;
	r->note = c->note[0] ? xstrdup(c->note) : NULL;
	r->retake = c->retake[0] ? xasprintf("%s%s", c->retake, c->retake_kept) : NULL;
	r->tries = xcalloc(c->ntries + 1, sizeof(*r->tries));
	for (i = 0; i < c->ntries; i++) {
		const struct size_try *t = &c->tries[i];

		r->tries[i] = (struct result_calib_try){
			.wait_s = t->wait_s, .seconds = t->seconds, .bytes = t->bytes,
			.ios = t->ios, .rate_bytes_per_s = t->bytes ? t->rate_bps : NAN,
			.rejected = t->rejected[0] ? xstrdup(t->rejected) : NULL,
		};
	}
	r->ntries = c->ntries;
}

/* What the job of the chosen size took: its active phase, and what it moved in it. */
static void report_job(struct result_size_auto *r, const struct job_result *j)
{
	r->job_s = size_auto_active_s(j) > 0 ? size_auto_active_s(j) : NAN;
	r->job_rate_bytes_per_s = j ? rate_of_job(j) : 0;
	if (!(r->job_rate_bytes_per_s > 0))
		r->job_rate_bytes_per_s = NAN;
}

struct result_size_auto *size_auto_report(const struct size_choice *c, const struct job_opts *jo,
					  const struct job_result *j)
{
	struct result_size_auto *r = xcalloc(1, sizeof(*r));
	char reason[SIZE_AUTO_REASON_LEN];

	r->requested_s = c->requested_ns ? (double)c->requested_ns / 1e9 : NAN;
	r->meter_s = c->meter_ns ? (double)c->meter_ns / 1e9 : NAN;
	r->target_s = (double)c->target_ns / 1e9;
	r->meter = c->meter[0] ? xstrdup(c->meter) : NULL;
	r->calibration_s = c->calib_s;
	r->calibration_bytes = c->calib_bytes;
	r->rate_bytes_per_s = c->rate_bps;
	r->size = c->size;
	r->extent = job_region(jo);
	r->from = xstrdup(c->from);
	size_auto_reason(c, jo, reason, sizeof(reason));
	r->reason = xstrdup(reason);
	r->expected_s = expected_s(c, jo);
	report_tries(r, c);
	report_job(r, j);
	return r;
}
