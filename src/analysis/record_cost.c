/* SPDX-License-Identifier: MIT */
/* A record priced from the power model: write + its flushes per I/O, and the time awake for it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/op_energy.h"
#include "analysis/record_cost.h"

/* op_energy_kinds' write and flush */
enum { RECORD_WRITE = 1, RECORD_FLUSH = 2 };

static int64_t opt_int(const struct job_result *j, const char *key)
{
	const struct result_opt *o = result_opt_find(j, key);

	return o && o->type == RESULT_OPT_INT ? o->i : 0;
}

/*
 * A record (a write and its fpw flushes) from a lock-step pair's sum, c_base + ratio x
 * c_with per base op, where ratio is how the fit's windows counted the second kind per the
 * first, not how the job did (an end_fsync's flush, windows cut at the ends: 0.78 flushes
 * a write in windows of a job of 33 to 32). The record is A x sum + B x c_with, and c_with
 * is only known to lie in [0, sum / ratio] (no cost below zero): the middle of that range,
 * its half-width added to the sum's U95 scaled alike. NAN when the pair is not a record's.
 */
static double pair_price(const char *sum_of, double sum, double sum_u, double ratio, double fpw,
			 double *u95)
{
	double a, b, lo, hi, with_max;
	int first, second;

	if (!(ratio > 0) || !isfinite(sum) || !op_energy_pair(sum_of, &first, &second))
		return NAN;
	if (first == RECORD_WRITE && second == RECORD_FLUSH) {
		a = 1;
		b = fpw - ratio;
	} else if (first == RECORD_FLUSH && second == RECORD_WRITE) {
		a = fpw;
		b = 1 - fpw * ratio;
	} else {
		return NAN;
	}
	with_max = fmax(sum, 0) / ratio;
	lo = a * sum + fmin(b, 0) * with_max;
	hi = a * sum + fmax(b, 0) * with_max;
	*u95 = (lo + hi) / (2 * sum) * sum_u + (hi - lo) / 2;
	return (lo + hi) / 2;
}

/* write + fpw flushes from the costs (uJ), or their lock-step sum (*from_sum 1); NAN when
 * not priced. */
static double price(double w, double w_u, double f, double f_u, double sum, double sum_u,
		    double ratio, const char *sum_of, double fpw, double *u95, int *from_sum)
{
	double x;

	*from_sum = 0;
	if (isfinite(w) && (fpw == 0 || isfinite(f))) {
		*u95 = fpw > 0 ? hypot(w_u, fpw * f_u) : w_u;
		return w + (fpw > 0 ? fpw * f : 0);
	}
	x = pair_price(sum_of, sum, sum_u, ratio, fpw, u95);
	if (isfinite(x))
		*from_sum = 1;
	return x;
}

/*
 * Whether a model's price of a record can size a battery: its verdict ok, or not
 * identifiable only in how the record splits into write and flush (priced from their
 * sum: what a record costs is known), with a U95 below the price. Else why not, after
 * what is in why already.
 */
static int usable(const char *from, const char *verdict, int from_sum, double uj, double u,
		  char *why, size_t len)
{
	size_t at = strlen(why);

	if (!isfinite(uj)) {
		snprintf(why + at, len - at, "%s%s is %s and prices no write", at ? "; " : "", from,
			 verdict ? verdict : "?");
		return 0;
	}
	if (verdict && (!strcmp(verdict, "ok") || (from_sum && !strcmp(verdict, "not identifiable")))) {
		if (isfinite(u) && u <= fabs(uj))
			return 1;
		snprintf(why + at, len - at, "%s%s prices it %.0f +-%.0f uJ, its U95 above 100 %%",
			 at ? "; " : "", from, uj, u);
		return 0;
	}
	snprintf(why + at, len - at, "%s%s is %s", at ? "; " : "", from, verdict ? verdict : "?");
	return 0;
}

int record_cost_find(const struct rr_result *r, const struct job_result *j, struct record_cost *rc)
{
	const struct result_device_model *d = op_energy_model(r, j);
	const struct result_energy_model *m = rr_power(j)->energy_model;
	double writes = j->write ? (double)j->write->total_ios : 0;
	double syncs = j->sync ? (double)j->sync->total_ios : 0, fpw, u = NAN, uj = NAN, w_ns;
	int sum = 0, ok = 0;

	memset(rc, 0, sizeof(*rc));
	if (!(writes > 0))
		return -ENOENT;
	/* end_fsync's one sync closes the job, not a record */
	fpw = opt_int(j, "fdatasync") > 0 ? fmin(syncs, writes) / writes : 0;
	/* the pool first, where it is ok: else the job's own */
	if (d) {
		uj = price(d->write_uj_per_op, d->write_uj_per_op_u95, d->flush_uj_per_op,
			   d->flush_uj_per_op_u95, d->sum_uj_per_op, d->sum_uj_per_op_u95,
			   d->sum_ratio, d->sum_of, fpw, &u, &sum);
		rc->from = "the device's pooled model";
		rc->verdict = d->verdict;
		ok = usable(rc->from, rc->verdict, sum, uj, u, rc->why, sizeof(rc->why));
	}
	if (!ok && m) {
		uj = price(m->write_uj_per_op, m->write_uj_per_op_u95, m->flush_uj_per_op,
			   m->flush_uj_per_op_u95, m->sum_uj_per_op, m->sum_uj_per_op_u95,
			   m->sum_ratio, m->sum_of, fpw, &u, &sum);
		rc->from = "the job's model";
		rc->verdict = m->verdict;
		ok = usable(rc->from, rc->verdict, sum, uj, u, rc->why, sizeof(rc->why));
	}
	if (!ok)
		return -ENOENT;
	rc->j_per_io = uj * 1e-6;
	rc->u95_j = u * 1e-6;
	/* A write keeps the drive busy for its latency (total where recorded, else completion:
	 * results before it), but no longer than its share of the time when many were in
	 * flight (1 / IOPS at depth 32); a paced job's slot is idle time, not awake. Its
	 * flushes ran one at a time. */
	w_ns = j->write->lat.mean_ns > 0 ? j->write->lat.mean_ns : j->write->clat.mean_ns;
	if (j->write->iops > 0)
		w_ns = fmin(w_ns, 1e9 / j->write->iops);
	rc->awake_s = (w_ns + fpw * (j->sync ? j->sync->lat.mean_ns : 0)) / 1e9;
	if (!(rc->awake_s > 0))
		return -ENOENT;
	return 0;
}
