/* SPDX-License-Identifier: MIT */
/* The plan of a run before it starts: jobs, bytes moved, and how long it should take. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "plan/run_plan.h"
#include "core/blockdev.h"
#include "core/log.h"
#include "core/units.h"
#include "result/result.h"
#include "plan/meter_fit.h"
#include "plan/rate_basis.h"
#include "plan/size_choice.h"

#define FMT_LEN 32
/* A size=auto calibration without retries: the wait for a quiet device and its second. */
#define PLAN_CALIB_S ((double)(SIZE_AUTO_QUIET_NS + SIZE_AUTO_CALIB_NS) / 1e9)

/*
 * The whole disk a path (or, for a path not created yet, its directory) sits on, as
 * "sda", without opening or creating anything: what --dry-run can tell.
 */
int run_plan_disk(const char *target, const char *sysfs_root, char *disk, size_t len)
{
	char part[64], dir[PATH_MAX], *slash;
	struct stat st;
	dev_t dev;

	disk[0] = '\0';
	if (stat(target, &st)) {
		snprintf(dir, sizeof(dir), "%s", target);
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), "%s", slash ? "/" : ".");
		if (stat(dir, &st))
			return -ENOENT;
	}
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	return blockdev_resolve(sysfs_root ? sysfs_root : "", major(dev), minor(dev), disk, len,
				part, sizeof(part));
}

/* Rounds a job takes part in: --repeat, or at most repeat_until_steady. */
static unsigned job_rounds(const struct job_opts *jo)
{
	unsigned rounds = jo->repeat_until_steady ? jo->repeat_until_steady : jo->repeat;

	return rounds ? rounds : 1;
}

/* Loops in all: each round runs them all. */
static unsigned job_loops(const struct job_opts *jo)
{
	return (jo->loops ? jo->loops : 1) * job_rounds(jo);
}

/* Bytes a job moves in all: each of its threads moves size, in each loop; 0 while
 * size=auto has not chosen. */
static uint64_t job_bytes(const struct job_opts *jo)
{
	if (jo->size_auto_ns)
		return 0;
	return jo->size * (jo->numjobs ? jo->numjobs : 1) * job_loops(jo);
}

/*
 * What the basis's loops of jo's name took: *wall from the end of the loop before (the
 * run's start for the first) to the end of its tail, so a calibration, a layout and the
 * idle baseline count; *io their active phases; *size a size=auto's choice. Means over
 * the loops; 0 when the basis has no finished loop of that name and shape.
 */
static unsigned basis_walls(const struct run_result *rep, const struct job_opts *jo,
			    double *wall, double *io, uint64_t *size)
{
	uint64_t prev = rep->t0_ns, end;
	unsigned n = 0;
	size_t i;

	*wall = *io = 0;
	*size = 0;
	for (i = 0; i < rep->njobs; i++) {
		const struct job_result *j = &rep->jobs[i];
		const struct result_phases *ph = j->phases;

		end = !ph ? 0 : ph->tail ? ph->tail->t_end_ns : ph->active ? ph->active->t_end_ns : 0;
		if (j->jobname && !strcmp(j->jobname, jo->name) && rate_of_job(j) > 0 &&
		    rate_same_shape(j, jo) && end > prev && prev) {
			*wall += (double)(end - prev) / 1e9;
			*io += result_span_s(ph->active);
			if (j->size_auto)
				*size = j->size_auto->size;
			n++;
		}
		if (end > prev)
			prev = end;
	}
	if (n) {
		*wall /= n;
		*io /= n;
	}
	return n;
}

/* One job's share of the run in seconds: lo..hi, equal where it is known. */
struct job_eta {
	double io_lo, io_hi, other_lo, other_hi;
	double bps;  /* the rate its I/O time rests on; 0: none */
	int io_unknown, io_ranged, tail_ranged, from_basis, calibrated;
	int paced; /* 1: size=auto of a paced job, its bursts at their spacing; 2: a paced job
		    * of fixed size, its I/Os over its rate (or its runtime) */
};

/* A paced job of fixed size: its I/Os over its rate, whatever the device's speed (a
 * runtime ends it sooner); 0 when it is not paced or its length is not fixed. */
static double paced_io_s(const struct job_opts *jo)
{
	double s = jo->rate_iops && jo->size && jo->bs && !jo->size_auto_ns
			   ? (double)(jo->size / jo->bs) / (double)jo->rate_iops
			   : 0;

	if (jo->rate_iops && !jo->size_auto_ns && jo->runtime_ns &&
	    (!(s > 0) || (double)jo->runtime_ns / 1e9 < s))
		s = (double)jo->runtime_ns / 1e9;
	return s;
}

/* I/O per loop in seconds, lo..hi; 0 when unknown (no rate and no size=auto target). */
static int loop_io(const struct plan_basis *in, const struct job_opts *jo, size_t j,
		   uint64_t basis_size, struct job_eta *e, double *lo, double *hi)
{
	const struct size_choice *c = in->sizes ? &in->sizes[j] : NULL;
	unsigned threads = jo->numjobs ? jo->numjobs : 1, n;
	uint64_t size = jo->size_auto_ns ? 0 : jo->size, target, paced_ns;

	e->calibrated = c && c->size && size_auto_choosing_bps(c) > 0;
	if (e->calibrated) {
		e->bps = size_auto_choosing_bps(c);
		size = c->size;
	} else if (in->rep) {
		e->bps = rate_median(in->rep, jo, 1, &n);
		if (!(e->bps > 0))
			e->bps = rate_median(in->rep, jo, 0, &n);
	}
	target = jo->size_auto_ns && in->period_known ? size_auto_target_ns(jo, in->period_ns) : 0;
	/* a paced job's size=auto is a count of bursts: its time is their spacing's,
	 * whatever the device's rate */
	if (target && (paced_ns = meter_fit_auto_ns(jo, in->period_ns, target))) {
		*lo = *hi = (double)paced_ns / 1e9;
		e->paced = 1;
		return 1;
	}
	if ((*lo = paced_io_s(jo)) > 0) {
		*hi = *lo;
		e->paced = 2;
		return 1;
	}
	if (!size && target) {
		if (e->bps > 0) {
			size = size_auto_size_at(jo, e->bps, target);
		} else {
			/* bs x 2^k, the smallest that lasts the target: 1 to 2 times it */
			*lo = (double)target / 1e9;
			*hi = 2 * *lo;
			e->io_ranged = 1;
			return 1;
		}
	}
	if (!size && basis_size)
		size = basis_size;
	if (!size || !(e->bps > 0))
		return 0;
	*lo = *hi = (double)size * threads / e->bps;
	return 1;
}

static void estimate_job(const struct plan_basis *in, const struct run_config *cfg, size_t j,
			 struct job_eta *e)
{
	const struct job_opts *jo = &cfg->jobs[j];
	double loops = jo->loops ? jo->loops : 1, io_lo = 0, io_hi = 0, wall = 0, bio = 0;
	double per_lo, per_hi;
	double rounds = (double)job_rounds(jo) - in->rounds_done, idle, calib;
	int metered = in->metered;
	uint64_t bsize = 0;

	memset(e, 0, sizeof(*e));
	if (rounds <= 0)
		return;
	e->from_basis = in->rep && basis_walls(in->rep, jo, &wall, &bio, &bsize);
	if (!loop_io(in, jo, j, bsize, e, &io_lo, &io_hi))
		e->io_unknown = 1;
	if (e->from_basis) {
		/* what it spent besides I/O as it ran then, calibration included */
		per_lo = per_hi = fmax(wall - bio, 0);
	} else {
		idle = metered ? fmax((double)jo->idle_ns / 1e9,
				      (double)jo->idle_samples * (double)in->period_ns / 1e9) +
					 (double)in->feed_lag_ns / 1e9
			       : 0;
		/* a tail ends once power holds still for tail_hold: assumed within twice that */
		per_lo = idle + (metered ? (double)jo->tail_hold_ns / 1e9 : 0);
		per_hi = idle + (metered ? 2 * (double)jo->tail_hold_ns / 1e9 : 0);
		e->tail_ranged = per_hi > per_lo;
		/* each round's calibration and the settling after it, once with --same-size */
		calib = jo->size_auto_ns && !(cfg->run.same_size && e->calibrated)
				? (PLAN_CALIB_S + (metered ? (double)jo->tail_hold_ns / 1e9 : 0)) *
					  (cfg->run.same_size ? 1 : rounds)
				: 0;
		e->other_lo = calib;
		e->other_hi = calib;
	}
	e->io_lo = io_lo * loops * rounds;
	e->io_hi = io_hi * loops * rounds;
	e->other_lo += per_lo * loops * rounds;
	e->other_hi += per_hi * loops * rounds;
}

static int name_width(const struct run_config *cfg)
{
	size_t i;
	int w = 4;

	for (i = 0; i < cfg->njobs; i++)
		if ((int)strlen(cfg->jobs[i].name) > w)
			w = (int)strlen(cfg->jobs[i].name);
	return w;
}

static const char *fmt_s(double s, char *buf, size_t len)
{
	return fmt_duration((uint64_t)(s * 1e9 + 0.5), buf, len);
}

static void print_job(FILE *fp, const struct job_opts *jo, int nw, const struct job_eta *e)
{
	char bs[FMT_LEN], size[FMT_LEN], moved[FMT_LEN], est[FMT_LEN * 3], a[FMT_LEN], b[FMT_LEN];
	uint64_t bytes = job_bytes(jo);

	if (e->io_unknown)
		snprintf(est, sizeof(est), "?");
	else if (e->paced)
		snprintf(est, sizeof(est), "%s, paced", fmt_s(e->io_lo, a, sizeof(a)));
	else if (e->io_hi > e->io_lo)
		snprintf(est, sizeof(est), "%s to %s", fmt_s(e->io_lo, a, sizeof(a)),
			 fmt_s(e->io_hi, b, sizeof(b)));
	else
		snprintf(est, sizeof(est), "%s at %.3g MB/s", fmt_s(e->io_lo, a, sizeof(a)),
			 e->bps / 1e6);
	if (jo->size_auto_ns) {
		snprintf(size, sizeof(size), "auto");
		snprintf(moved, sizeof(moved), "?");
	} else {
		fmt_size(jo->size, size, sizeof(size));
		fmt_size(bytes, moved, sizeof(moved));
	}
	fprintf(fp, "%-*s  %-9s %8s %5u %7u %10s %5u %10s  %s\n", nw, jo->name, rw_name(jo->rw),
		fmt_size(jo->bs, bs, sizeof(bs)), jo->iodepth, jo->numjobs, size, job_loops(jo),
		moved, est);
}

/* The whole run's lo..hi and what they rest on, from every job's share. */
struct run_eta {
	double lo, hi, io_lo, io_hi;
	unsigned unknown, from_basis, calibrated, io_ranged, tail_ranged, paced, at_rate, jobs;
};

static void sum_eta(struct run_eta *t, const struct job_eta *e)
{
	t->jobs++;
	t->unknown += e->io_unknown;
	t->from_basis += e->from_basis;
	t->calibrated += e->calibrated;
	t->io_ranged += e->io_ranged;
	t->paced += e->paced == 1;
	t->at_rate += e->paced == 2;
	t->tail_ranged += e->tail_ranged;
	t->io_lo += e->io_lo;
	t->io_hi += e->io_hi;
	t->lo += e->io_lo + e->other_lo;
	t->hi += e->io_hi + e->other_hi;
}

/* "from the earlier result R; 3 jobs from calibrations": what the figure rests on. */
static void eta_basis(const struct plan_basis *in, const struct run_eta *t, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (t->calibrated)
		n = snprintf(buf, len, "from calibrations of %u job%s", t->calibrated,
			     t->calibrated == 1 ? "" : "s");
	if (t->from_basis && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s%u job%s as %s ran them", n ? ", " : "",
			      t->from_basis, t->from_basis == 1 ? "" : "s", in->name);
	else if (in->rep && !t->calibrated && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%sat the rates of %s", n ? ", " : "",
			      in->name);
	if (t->io_ranged && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s%u size=auto job%s without a rate yet "
			      "last%s 1 to 2 times %s target", n ? "; " : "", t->io_ranged,
			      t->io_ranged == 1 ? "" : "s", t->io_ranged == 1 ? "s" : "",
			      t->io_ranged == 1 ? "its" : "their");
	if (t->paced && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s%u paced size=auto job%s as long as %s "
			      "bursts", n ? "; " : "", t->paced, t->paced == 1 ? "" : "s",
			      t->paced == 1 ? "its" : "their");
	if (t->at_rate && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s%u paced job%s at %s rate", n ? "; " : "",
			      t->at_rate, t->at_rate == 1 ? "" : "s", t->at_rate == 1 ? "its" : "their");
	if (t->tail_ranged && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%stails assumed to settle within 1 to 2 times "
			 "their hold", n ? "; " : "");
}

void run_plan_eta(FILE *fp, const struct run_config *cfg, const struct plan_basis *in,
		  const char *lead)
{
	struct run_eta t = { 0 };
	struct job_eta e;
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN], d[FMT_LEN], why[640];
	size_t i;

	for (i = 0; i < cfg->njobs; i++) {
		estimate_job(in, cfg, i, &e);
		sum_eta(&t, &e);
	}
	eta_basis(in, &t, why, sizeof(why));
	if (t.unknown)
		fprintf(fp, "%s: at least %s; I/O time unknown for %u job%s (%s)%s%s\n", lead,
			fmt_s(t.lo, a, sizeof(a)), t.unknown, t.unknown == 1 ? "" : "s",
			in->rep ? "not in the earlier result of this device"
				: "no earlier result of this device in the output directory",
			why[0] ? "; " : "", why);
	else if (t.hi > t.lo * 1.005)
		fprintf(fp, "%s: %s to %s (I/O %s%s%s; %s)\n", lead, fmt_s(t.lo, a, sizeof(a)),
			fmt_s(t.hi, b, sizeof(b)), fmt_s(t.io_lo, c, sizeof(c)),
			t.io_hi > t.io_lo * 1.005 ? " to " : "",
			t.io_hi > t.io_lo * 1.005 ? fmt_s(t.io_hi, d, sizeof(d)) : "", why);
	else
		fprintf(fp, "%s: %s (I/O %s; %s)\n", lead, fmt_s(t.lo, a, sizeof(a)),
			fmt_s(t.io_lo, c, sizeof(c)), why);
	fflush(fp);
}

/*
 * A run with rounds until steady may write a lot to a card that wears: its bound in bytes
 * written, and what share of the disk's capacity that is (device writes: one is every
 * block written once), before anything runs. Fewer once the job is steady.
 */
static void print_wear(FILE *fp, const struct run_config *cfg, const char *disk)
{
	unsigned long long sectors = 0;
	uint64_t written = 0;
	char a[FMT_LEN], b[FMT_LEN];
	size_t i;
	int until_steady = 0;

	for (i = 0; i < cfg->njobs; i++) {
		until_steady |= cfg->jobs[i].repeat_until_steady != 0;
		if (rw_writes(cfg->jobs[i].rw))
			written += job_bytes(&cfg->jobs[i]);
	}
	if (!until_steady || !written)
		return;
	fprintf(fp, "wear: writes at most %s", fmt_size(written, a, sizeof(a)));
	if (*disk && !blockdev_attr_u64(cfg->run.sysfs_root ? cfg->run.sysfs_root : "", disk,
					"size", &sectors) && sectors)
		fprintf(fp, " to %s, %.3g %% of its %s (%.3g device writes)", disk,
			100.0 * (double)written / ((double)sectors * 512),
			fmt_size(sectors * 512, b, sizeof(b)), (double)written / ((double)sectors * 512));
	fprintf(fp, "; rounds end sooner once steady\n");
}

void run_plan_print(FILE *fp, const struct run_config *cfg, const char *disk,
		    const struct plan_basis *in)
{
	const struct run_opts *ro = &cfg->run;
	int nw = name_width(cfg);
	uint64_t total = 0;
	struct job_eta e;
	char a[FMT_LEN], moved[FMT_LEN * 2];
	unsigned loops = 0;
	size_t i, nauto = 0;

	for (i = 0; i < cfg->njobs; i++) {
		total += job_bytes(&cfg->jobs[i]);
		loops += job_loops(&cfg->jobs[i]);
		nauto += cfg->jobs[i].size_auto_ns != 0;
	}
	/* size=auto jobs move what their calibration chooses: not known yet, so not "0 B". */
	if (!nauto)
		snprintf(moved, sizeof(moved), "%s moved", fmt_size(total, a, sizeof(a)));
	else if (nauto == cfg->njobs)
		snprintf(moved, sizeof(moved), "bytes moved chosen by size=auto");
	else
		snprintf(moved, sizeof(moved), "%s moved, plus what size=auto chooses for %zu",
			 fmt_size(total, a, sizeof(a)), nauto);
	fprintf(fp, "plan: %zu job%s (%u loop%s in all) on %s%s%s%s: %s; size is per "
		    "thread, moves = size x threads x loops (x rounds)\n",
		cfg->njobs, cfg->njobs == 1 ? "" : "s", loops, loops == 1 ? "" : "s", ro->target,
		*disk ? " (" : "", disk, *disk ? ")" : "", moved);
	fprintf(fp, "%-*s  %-9s %8s %5s %7s %10s %5s %10s  %s\n", nw, "job", "rw", "bs", "depth",
		"threads", "size", "loops", "moves", "est. I/O time");
	for (i = 0; i < cfg->njobs; i++) {
		estimate_job(in, cfg, i, &e);
		print_job(fp, &cfg->jobs[i], nw, &e);
	}
	print_wear(fp, cfg, disk);
	run_plan_eta(fp, cfg, in, "estimated duration");
}

int run_plan_open_basis(struct rate_basis *b, const struct run_opts *ro, char *disk, size_t len)
{
	run_plan_disk(ro->target, ro->sysfs_root, disk, len);
	return rate_basis_open(b, ro->rates_from, ro->output_dir ? ro->output_dir : "results",
			       disk);
}
