/* SPDX-License-Identifier: MIT */
/* `iowatt size --endurance`: the device's days at the workload, and whether it or the battery ends first. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/endurance.h"
#include "analysis/sizing.h"
#include "analysis/sizing_print.h"
#include "core/units.h"

/*
 * The write amplification a part of the workload reaches the device with: the one given
 * (--write-amplification), else what the rounds of its job measured (jobs[].wear: the
 * disk's bytes written over the job's; their mean, the lowest and the highest), else 1
 * (what the job wrote is what the device wrote). *how says which, for the output.
 */
static void part_wa(const struct rr_result *r, const struct job_result *job,
		    const struct size_workload *wl, struct endurance_part *p, char *how, size_t len)
{
	double sum = 0, lo = INFINITY, hi = -INFINITY, wa;
	unsigned n = 0;
	size_t i;

	if (wl->wa_given > 0) {
		p->wa = p->wa_lo = p->wa_hi = wl->wa_given;
		snprintf(how, len, "given (--write-amplification)");
		return;
	}
	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];

		if (j->status != RESULT_OK || !j->wear || !j->jobname || !job->jobname ||
		    strcmp(j->jobname, job->jobname))
			continue;
		wa = j->wear->write_amplification;
		if (!isfinite(wa) || wa <= 0)
			continue;
		sum += wa;
		lo = fmin(lo, wa);
		hi = fmax(hi, wa);
		n++;
	}
	if (!n) {
		p->wa = p->wa_lo = p->wa_hi = 1;
		snprintf(how, len, "assumed 1: job %s has no measured write amplification "
			 "(--write-amplification gives it)", rr_job_name(r, job));
		return;
	}
	p->wa = sum / n;
	p->wa_lo = lo;
	p->wa_hi = hi;
	snprintf(how, len, "measured: the disk's writes / the job's, over %u run%s of its job", n,
		 n == 1 ? "" : "s");
}

/*
 * The device's own wear figure (used_pct: NVMe's percentage used in steps of 1, an eMMC's
 * life time band in steps of 10) extrapolated from its change over the run: B bytes reached
 * the device while it rose by d, so it is rated for about B x 100 / d, between
 * B x 100 / (d + step) and B x 100 / (d - step) (one step either way: the figure is a
 * floor). Unchanged, it says only that the rating is at least B x 100 / step. 0, or -1
 * when the run has no used_pct at both ends of a job that wrote.
 */
static int own_wear(const struct rr_result *r, struct endurance_in *in, double *bytes,
		    double *d, double *step)
{
	const struct result_context *cx = r->rep.context;
	const struct result_health *h = cx && cx->device ? cx->device->health : NULL;
	size_t i, k;
	int seen = 0;

	*bytes = *d = 0;
	*step = h && h->source && !strcmp(h->source, "emmc") ? 10 : 1;
	for (i = 0; i < r->rep.njobs; i++) {
		const struct result_wear *w = r->rep.jobs[i].wear;

		if (!w || w->device_bytes == RESULT_NULL_INT || w->device_bytes <= 0)
			continue;
		for (k = 0; k < w->nhealth_changes; k++) {
			if (!w->health_changes[k].key || strcmp(w->health_changes[k].key, "used_pct"))
				continue;
			*d += (double)(w->health_changes[k].end - w->health_changes[k].start);
			*bytes += (double)(w->smart_bytes != RESULT_NULL_INT && w->smart_bytes > 0
						   ? w->smart_bytes : w->device_bytes);
			seen = 1;
		}
	}
	if (!seen || !(*bytes > 0))
		return -1;
	if (*d > 0) {
		in->rated_bytes = *bytes * 100 / *d;
		in->rated_lo = *bytes * 100 / (*d + *step);
		in->rated_hi = *d > *step ? *bytes * 100 / (*d - *step) : INFINITY;
	} else {
		in->rated_bytes = in->rated_lo = *bytes * 100 / *step;
		in->rated_hi = INFINITY;
	}
	return 0;
}

/* Decimal bytes as storage is rated: "40 TB", "200 MB". */
static const char *fmt_bytes(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	char num[32];
	unsigned k = 0;

	while (v >= 1000 && k + 1 < sizeof(unit) / sizeof(unit[0])) {
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%s %s", fmt_sig(v, 4, num, sizeof(num)), unit[k]);
	return buf;
}

/* "548 years" for days beyond two years, else "123.4 days". */
static const char *fmt_days(double days, char *buf, size_t len)
{
	if (isinf(days))
		snprintf(buf, len, "never");
	else if (days >= 730)
		snprintf(buf, len, "%.0f days (%.3g years)", days, days / 365.25);
	else if (days >= 100)
		snprintf(buf, len, "%.0f days", days);
	else
		snprintf(buf, len, "%.3g days", days);
	return buf;
}

void sizing_print_endurance(struct sizing *sz, const struct size_workload *wl)
{
	struct endurance_in in = { .rated_bytes = wl->endurance_bytes };
	struct endurance e;
	double own_b = 0, own_d = 0, own_step = 1;
	char how[RR_LABEL_MAX + 160], how2[RR_LABEL_MAX + 160];
	char a[64], b[64], c[64], rated[32];
	double jpg, user_bpd = 0;
	unsigned i;

	if (sz->wjob && wl->write_bpd > 0) {
		in.part[in.nparts].user_bpd = wl->write_bpd;
		part_wa(sz->r, sz->wjob, wl, &in.part[in.nparts++], how, sizeof(how));
	}
	if (sz->recjob && wl->rec_per_day > 0) {
		/* a record is written as whole blocks of the job's size */
		in.part[in.nparts].user_bpd = sizing_records_per_day(wl, sz->recjob) *
					      (double)rr_bs(sz->recjob);
		part_wa(sz->r, sz->recjob, wl, &in.part[in.nparts], in.nparts ? how2 : how,
			sizeof(how));
		in.nparts++;
	}
	if (wl->endurance_bytes < 0 && own_wear(sz->r, &in, &own_b, &own_d, &own_step)) {
		printf("  device   no wear figure of its own moved or was read over this run's "
		       "writes (context.device.health.used_pct): give --endurance TBW\n");
		return;
	}
	in.battery_days = sz->life.days;
	in.battery_days_u95 = sz->lifeu.days;
	endurance_compute(&in, &e);
	sz->dev = e;
	sz->has_dev = 1;
	for (i = 0; i < in.nparts; i++)
		user_bpd += in.part[i].user_bpd;
	fmt_bytes(in.rated_bytes, rated, sizeof(rated));
	if (wl->endurance_bytes < 0)
		printf("  rating   %s%s: used_pct rose %.0f (steps of %.0f) while %s reached the "
		       "device\n", own_d > 0 ? "about " : "at least ", rated, own_d, own_step,
		       fmt_bytes(own_b, a, sizeof(a)));
	if (e.first == ENDS_NEVER) {
		printf("  device   rated for %s written; the workload writes nothing: its endurance "
		       "does not end\n", rated);
		return;
	}
	printf("  device   %s written a day (the workload's %s x write amplification %.3g, %s%s%s)\n",
	       fmt_bytes(e.device_bpd, a, sizeof(a)), fmt_bytes(user_bpd, b, sizeof(b)),
	       e.device_bpd / user_bpd, how, in.nparts > 1 ? "; records: " : "",
	       in.nparts > 1 ? how2 : "");
	printf("  wears    %s rated / %s a day = %s%s", rated, a,
	       wl->endurance_bytes < 0 && !(own_d > 0) ? "at least " : "",
	       fmt_days(e.days, c, sizeof(c)));
	if (isinf(e.days_hi) && e.days_hi > e.days_lo && own_d > 0)
		printf(" (at least %.0f days)", e.days_lo);
	else if (e.days_hi > e.days_lo && isfinite(e.days_hi))
		printf(" (%.0f to %.0f days over the %s)", e.days_lo, e.days_hi,
		       wl->endurance_bytes < 0 ? "rating's and write amplification's ranges"
					       : "measured write amplification");
	printf("\n");
	/* the written parts' energy a day over their bytes: J/GB of data, records included */
	jpg = (fmax(0, sz->write_j) + fmax(0, sz->rec_j)) / (user_bpd / 1e9);
	if (isfinite(jpg) && jpg > 0)
		printf("  per GB   %s per GB of the workload's data (net, as measured); %s per GB "
		       "reaching the device\n", sizing_fig(SI_ENERGY, jpg),
		       sizing_fig(SI_ENERGY, jpg * user_bpd / e.device_bpd));
	printf("  first    %s\n",
	       e.first == ENDS_BATTERY ? "the battery runs out before the device wears out"
	       : e.first == ENDS_DEVICE ? "the device wears out before the battery runs out"
				  : "too close to call: the battery's and the device's intervals overlap");
}
