/* SPDX-License-Identifier: MIT */
/* size=auto's calibration: a rate measured on a quiet device, checked, retried when wrong. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/diskstats.h"
#include "core/log.h"
#include "core/units.h"
#include "io/bench.h"
#include "plan/rate_basis.h"
#include "run/run.h"
#include "run/size_calib.h"

#define MOD "size"
#define RATE_SIG 3

/* Why a try was not taken, from the most to the least telling. */
enum try_verdict { TRY_OK, TRY_FEW, TRY_BUSY, TRY_OTHER, TRY_DISAGREES };

/* What a writer may write per thread in a try: size_max (the job itself will write no
 * more); 0 for no cap. */
static uint64_t calib_cap(const struct job_opts *jo)
{
	return rw_writes(jo->rw) ? job_size_cap(jo) : 0;
}

/* The job a calibration runs: jo as long as the try lasts, or until a writer's cap. */
static struct job_opts calib_job(const struct job_opts *jo)
{
	uint64_t cap = calib_cap(jo);

	return job_sized(jo, cap ? cap : SIZE_AUTO_MAX / jo->bs * jo->bs);
}

static uint64_t ds_bytes(const struct diskstats *d)
{
	return (d->read_sectors + d->write_sectors) * DISKSTATS_SECTOR;
}

static uint64_t progress_bytes(const struct bench *b)
{
	struct bench_progress p;

	bench_get_progress(b, &p);
	return p.bytes[DDIR_READ] + p.bytes[DDIR_WRITE];
}

/*
 * Until the disk has had nothing in flight and moved under SIZE_AUTO_QUIET_BYTES for
 * quiet_ns, at most SIZE_AUTO_QUIET_MAX_NS, pumping the meters. 1 when quiet (or when the
 * disk has no counters to tell), 0 when still busy: why says how.
 */
static int wait_quiet(struct run_ctx *rc, const struct job_opts *jo, uint64_t quiet_ns,
		      double *wait_s, char *why, size_t len)
{
	const char *disk = rc->tg.blockdev;
	struct diskstats d0, d;
	uint64_t t0 = now_ns(), since = t0, now;
	char moved[32];

	*wait_s = 0;
	if (!*disk || diskstats_read(DISKSTATS_PATH, disk, &d0))
		return 1;
	for (;;) {
		now = now_ns();
		session_pump(rc->session, now);
		if (diskstats_read(DISKSTATS_PATH, disk, &d))
			return 1;
		*wait_s = (double)(now - t0) / 1e9;
		if (d.in_flight || ds_bytes(&d) - ds_bytes(&d0) >= SIZE_AUTO_QUIET_BYTES) {
			snprintf(why, len, "the device was busy before it (%" PRIu64 " I/Os in "
				 "flight, %s moved in %.2f s by others) after %.1f s of waiting",
				 d.in_flight, fmt_size(ds_bytes(&d) - ds_bytes(&d0), moved,
						       sizeof(moved)),
				 (double)(now - since) / 1e9, *wait_s);
			since = now;
			d0 = d;
		} else if (now - since >= quiet_ns) {
			progress_clear(&rc->progress);
			return 1;
		}
		if (now - t0 >= SIZE_AUTO_QUIET_MAX_NS || run_should_stop(rc))
			break;
		progress_set(&rc->progress, "%s: waiting for the device to be quiet before the "
			     "size=auto calibration", jo->name);
		sleep_ns(SESSION_PUMP_NS);
	}
	progress_clear(&rc->progress);
	return run_should_stop(rc);
}

/*
 * Run cj for at most runtime_ns, wrapping around in its extent. The meters keep
 * delivering and are pumped (their rings must not overflow), but no phase is open, so
 * nothing of this enters a figure; the file is the one the measured job will use. The
 * rate is the faster of the whole run's and its second half's: a device whose caches
 * warm up goes faster later, one that bursts after idling (a throttle's credit, a write
 * cache) faster at first, and the measured job meets either. Too fast an estimate only
 * makes the job longer; too slow one too short to be valid. *other: bytes the disk moved
 * beside the job's own (0 when it cannot tell).
 */
static int calibrate_once(struct run_ctx *rc, const struct job_opts *jo, uint64_t runtime_ns,
			  struct size_try *t, uint64_t *other)
{
	struct job_opts cj = calib_job(jo);
	struct diskstats d0, d1;
	int have_ds = *rc->tg.blockdev && !diskstats_read(DISKSTATS_PATH, rc->tg.blockdev, &d0);
	struct bench_result br;
	struct bench *b;
	uint64_t t_mid = 0, bytes_mid = 0, now, moved;
	int err, d;

	*other = 0;
	if (!cj.runtime_ns || cj.runtime_ns > runtime_ns)
		cj.runtime_ns = runtime_ns;
	err = bench_start_fd(&cj, rc->tg.fd, rc->tg.path, &b);
	if (err)
		return err;
	progress_set(&rc->progress, "%s: calibrating size=auto", jo->name);
	while (!bench_wait(b, SESSION_PUMP_NS)) {
		if (run_should_stop(rc))
			bench_stop(b);
		now = now_ns();
		if (!t_mid && now >= bench_start_ns(b) + cj.runtime_ns / 2) {
			t_mid = now;
			bytes_mid = progress_bytes(b);
		}
		session_pump(rc->session, now);
	}
	bench_finish(b, &br);
	progress_clear(&rc->progress);
	if (br.status != BENCH_OK) {
		log_err(MOD, "job '%s': size=auto calibration %s", jo->name,
			br.status == BENCH_INTERRUPTED ? "was interrupted" : br.errmsg);
		return br.status == BENCH_INTERRUPTED ? -EINTR : (br.err ? br.err : -EIO);
	}
	for (d = 0; d < DDIR_COUNT; d++) {
		t->bytes += br.dir[d].io_bytes;
		t->ios += br.dir[d].total_ios;
	}
	t->seconds = (double)(br.t_end_ns - br.t_start_ns) / 1e9;
	if (have_ds && !diskstats_read(DISKSTATS_PATH, rc->tg.blockdev, &d1)) {
		moved = ds_bytes(&d1) - ds_bytes(&d0);
		*other = moved > t->bytes ? moved - t->bytes : 0;
	}
	if (!t->bytes || !(t->seconds > 0))
		return 0;
	t->rate_bps = (double)t->bytes / t->seconds;
	if (t_mid && br.t_end_ns > t_mid && t->bytes > bytes_mid)
		t->rate_bps = fmax(t->rate_bps, (double)(t->bytes - bytes_mid) /
							((double)(br.t_end_ns - t_mid) / 1e9));
	return 0;
}

/*
 * The first calibration that waited SIZE_AUTO_QUIET_MAX_NS in vain: the device is busy with
 * I/O that is not iowatt's. Said once, with what it does to the figures; from then on the
 * run's calibrations take the device as it is.
 */
static void say_busy(struct run_ctx *rc, const char *busy)
{
	rc->device_busy = 1;
	log_warn(NULL, "the device%s%s is busy with I/O that is not iowatt's: %s. size=auto "
		 "will not wait for it again in this run. Its figures include that I/O: idle "
		 "baselines are not quiet (verdicts UNCERTAIN: idle not quiet), the active "
		 "power includes the others' work, and MB/s and IOPS are shared with them "
		 "(lower than on an idle device)", *rc->tg.blockdev ? " " : "", rc->tg.blockdev,
		 busy);
}

static int same_shape(const struct job_opts *a, const struct job_opts *b)
{
	return a->rw == b->rw && a->bs == b->bs && a->iodepth == b->iodepth &&
	       a->numjobs == b->numjobs && a->direct == b->direct && a->rate_iops == b->rate_iops;
}

/*
 * What a calibration of jo must agree with: this run's jobs of its shape as they ran,
 * else this run's other calibrations of that shape, else the earlier result's jobs of
 * its name and shape, else of its shape. 0 when there is none.
 */
static void reference(const struct run_ctx *rc, const struct job_opts *jo, struct size_choice *c)
{
	const struct rate_basis *bs = &rc->basis;
	double sum = 0;
	unsigned n = 0, k;
	size_t j;

	c->ref_bps = rate_median(&rc->rb.rep, jo, 0, &n);
	if (c->ref_bps > 0) {
		snprintf(c->ref, sizeof(c->ref), "this run's %u job%s of this shape", n,
			 n == 1 ? "" : "s");
		return;
	}
	for (j = 0; rc->sizes && j < rc->cfg->njobs; j++)
		if (&rc->sizes[j] != c && rc->sizes[j].rate_bps > 0 &&
		    same_shape(&rc->jobs[j], jo)) {
			sum += rc->sizes[j].rate_bps;
			n++;
		}
	if (n) {
		c->ref_bps = sum / n;
		snprintf(c->ref, sizeof(c->ref), "this run's %u other calibration%s of this shape",
			 n, n == 1 ? "" : "s");
		return;
	}
	if (!bs->have)
		return;
	c->ref_bps = rate_median(&bs->rep, jo, 1, &n);
	k = n;
	if (!(c->ref_bps > 0))
		c->ref_bps = rate_median(&bs->rep, jo, 0, &n);
	if (c->ref_bps > 0)
		snprintf(c->ref, sizeof(c->ref), "%u job%s of this %s in %.*s", n,
			 n == 1 ? "" : "s", k ? "name and shape" : "shape",
			 (int)sizeof(c->ref) / 2, bs->path);
}

/* The verdict on try t; its reason in t->rejected. */
static enum try_verdict judge(const struct job_opts *jo, const struct size_choice *c,
			      struct size_try *t, int quiet, const char *busy, uint64_t other)
{
	char a[32], b[32], r1[32], r2[32];
	/* a writer that wrote its whole size_max is fast enough to be paced: its rate needs
	 * no more precision (the paced job's length does not rest on it) */
	int whole_cap = calib_cap(jo) && t->bytes >= calib_cap(jo) * jo->numjobs &&
			t->ios >= SIZE_AUTO_MIN_IOS;

	if (!whole_cap && (t->seconds * 1e9 < (double)SIZE_AUTO_MIN_CALIB_NS ||
			   (t->ios < SIZE_AUTO_MIN_IOS &&
			    (t->ios < SIZE_AUTO_LONG_MIN_IOS ||
			     t->seconds * 1e9 < (double)SIZE_AUTO_CALIB_MAX_NS)))) {
		snprintf(t->rejected, sizeof(t->rejected), "%" PRIu64 " I/Os in %.2f s: a rate "
			 "needs at least %d I/Os and %.1f s (or %d in %.0f s)", t->ios, t->seconds,
			 SIZE_AUTO_MIN_IOS, (double)SIZE_AUTO_MIN_CALIB_NS / 1e9,
			 SIZE_AUTO_LONG_MIN_IOS, (double)SIZE_AUTO_CALIB_MAX_NS / 1e9);
		return TRY_FEW;
	}
	if (!quiet) {
		snprintf(t->rejected, sizeof(t->rejected), "%s", busy);
		return TRY_BUSY;
	}
	/* Buffered I/O reaches the disk when the page cache decides: only O_DIRECT is
	 * counted byte for byte. */
	if (jo->direct && other > SIZE_AUTO_OTHER_BYTES &&
	    (double)other > SIZE_AUTO_OTHER_SHARE * (double)t->bytes) {
		snprintf(t->rejected, sizeof(t->rejected), "the device moved %s of other I/O "
			 "beside its %s", fmt_size(other, a, sizeof(a)),
			 fmt_size(t->bytes, b, sizeof(b)));
		return TRY_OTHER;
	}
	if (c->ref_bps > 0 && (t->rate_bps > SIZE_AUTO_AGREE * c->ref_bps ||
			       t->rate_bps * SIZE_AUTO_AGREE < c->ref_bps)) {
		snprintf(t->rejected, sizeof(t->rejected), "%s MB/s is more than %.1f x away from "
			 "the %s MB/s of %.*s", fmt_sig(t->rate_bps / 1e6, RATE_SIG, r1, sizeof(r1)),
			 SIZE_AUTO_AGREE, fmt_sig(c->ref_bps / 1e6, RATE_SIG, r2, sizeof(r2)),
			 (int)sizeof(t->rejected) / 2, c->ref);
		return TRY_DISAGREES;
	}
	return TRY_OK;
}

static int cmp_rate(const void *a, const void *b)
{
	double x = (*(struct size_try *const *)a)->rate_bps;
	double y = (*(struct size_try *const *)b)->rate_bps;

	return (x > y) - (x < y);
}

/*
 * Every try failed a check: the tries that only disagreed with the reference give their
 * median, raised to the reference when that is faster (too slow a rate makes the job
 * too short to be valid, too fast one only longer); else, when too few I/Os were all
 * the device gave, the try with the most; else the fastest, for the same reason.
 */
static struct size_try *take_failed(struct size_choice *c, const enum try_verdict *v,
				    double *rate)
{
	struct size_try *dis[SIZE_AUTO_TRIES], *best = NULL;
	unsigned i, n = 0, few = 0;

	for (i = 0; i < c->ntries; i++) {
		if (v[i] == TRY_DISAGREES)
			dis[n++] = &c->tries[i];
		few += v[i] == TRY_FEW;
	}
	if (n) {
		qsort(dis, n, sizeof(*dis), cmp_rate);
		*rate = fmax(dis[n / 2]->rate_bps, c->ref_bps);
		return dis[n / 2];
	}
	for (i = 0; i < c->ntries; i++) {
		struct size_try *t = &c->tries[i];

		if (!t->bytes)
			continue;
		if (!best || (few == c->ntries ? t->ios > best->ios : t->rate_bps > best->rate_bps))
			best = t;
	}
	*rate = best ? best->rate_bps : 0;
	return best;
}

/* After too few I/Os: long enough for SIZE_AUTO_RETRY_IOS at the rate seen, at least
 * twice as long, at most SIZE_AUTO_CALIB_MAX_NS. */
static uint64_t retry_runtime(uint64_t runtime_ns, const struct size_try *t)
{
	double want = t->seconds * 1e9 * SIZE_AUTO_RETRY_IOS / (double)(t->ios ? t->ios : 1);
	uint64_t next = want > 2.0 * (double)runtime_ns ? (uint64_t)want : 2 * runtime_ns;

	return next < SIZE_AUTO_CALIB_MAX_NS ? next : SIZE_AUTO_CALIB_MAX_NS;
}

/* The last two tries both disagreed with the reference, and agree with each other. */
static int consistent(const enum try_verdict *v, const struct size_try *tries, unsigned n)
{
	const struct size_try *a = &tries[n - 2], *b = &tries[n - 1];

	return v[n - 2] == TRY_DISAGREES && v[n - 1] == TRY_DISAGREES &&
	       a->rate_bps < b->rate_bps * SIZE_AUTO_CONSISTENT &&
	       b->rate_bps < a->rate_bps * SIZE_AUTO_CONSISTENT;
}

static void take(struct size_choice *c, const struct size_try *t, double rate)
{
	c->rate_bps = rate;
	c->calib_s = t->seconds;
	c->calib_bytes = t->bytes;
}

int size_calib_run(struct run_ctx *rc, size_t j, const struct job_opts *jo, struct size_choice *c)
{
	struct job_opts cj = calib_job(jo);
	enum try_verdict v[SIZE_AUTO_TRIES];
	uint64_t runtime_ns = SIZE_AUTO_CALIB_NS, quiet_ns = SIZE_AUTO_QUIET_NS, other;
	char busy[SIZE_AUTO_WHY_LEN];
	struct size_try *t;
	double rate;
	int err, quiet;

	err = run_prepare_job(rc, j, &cj);
	if (err)
		return err;
	reference(rc, jo, c);
	for (c->ntries = 0; c->ntries < SIZE_AUTO_TRIES;) {
		t = &c->tries[c->ntries];
		memset(t, 0, sizeof(*t));
		busy[0] = '\0';
		quiet = rc->device_busy || wait_quiet(rc, jo, quiet_ns, &t->wait_s, busy,
						      sizeof(busy));
		if (run_should_stop(rc))
			return -EINTR;
		if (!quiet)
			say_busy(rc, busy);
		err = calibrate_once(rc, jo, runtime_ns, t, &other);
		if (err)
			return err;
		/* others' I/O is the device's state for this run, said once: not a reason to
		 * wait or try again */
		v[c->ntries++] = judge(jo, c, t, quiet || rc->device_busy, busy,
				       rc->device_busy ? 0 : other);
		if (rc->device_busy && !c->note[0])
			snprintf(c->note, sizeof(c->note), "calibrated on a busy device (others' "
				 "I/O beside it): not waited for, its rate shared");
		if (v[c->ntries - 1] == TRY_OK) {
			take(c, t, t->rate_bps);
			return 0;
		}
		if (c->ntries >= 2 && consistent(v, c->tries, c->ntries)) {
			take(c, t, t->rate_bps);
			snprintf(c->note, sizeof(c->note), "taken although %s: the try before it "
				 "agrees within %.1f x, so the device's rate has moved since",
				 t->rejected, SIZE_AUTO_CONSISTENT);
			t->rejected[0] = '\0';
			log_warn(MOD, "job '%s': size=auto: calibration %u %s", jo->name, c->ntries,
				 c->note);
			return 0;
		}
		if (v[c->ntries - 1] == TRY_FEW)
			runtime_ns = retry_runtime(runtime_ns, t);
		/* A throttled writer sends its I/O in bursts (a cgroup's slice): a longer
		 * quiet spell tells that it has ended. */
		if (v[c->ntries - 1] == TRY_BUSY || v[c->ntries - 1] == TRY_OTHER)
			quiet_ns = quiet_ns * 4 < SIZE_AUTO_QUIET_LONG_NS ? quiet_ns * 4
									 : SIZE_AUTO_QUIET_LONG_NS;
		log_warn(MOD, "job '%s': size=auto calibration %u of %d rejected: %s%s", jo->name,
			 c->ntries, SIZE_AUTO_TRIES, t->rejected,
			 c->ntries < SIZE_AUTO_TRIES ? "; trying again" : "");
	}
	t = take_failed(c, v, &rate);
	if (!t) {
		log_err(MOD, "job '%s': size=auto calibration moved nothing in %d tries", jo->name,
			SIZE_AUTO_TRIES);
		return -EIO;
	}
	take(c, t, rate);
	snprintf(c->note, sizeof(c->note), "taken after %d tries although: %s", SIZE_AUTO_TRIES,
		 t->rejected);
	log_warn(MOD, "job '%s': size=auto: calibration %s", jo->name, c->note);
	return 0;
}
