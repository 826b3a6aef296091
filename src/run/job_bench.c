/* SPDX-License-Identifier: MIT */
/* A benchmark job as the active phase's activity: start, interval series, progress, result. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/units.h"
#include "run/result_from_bench.h"
#include "run/run.h"

#define ETA_LEN 32

struct bench_job {
	struct run_ctx *rc;
	const struct job_opts *jo;
	unsigned round, loop;
	struct bench *b;
	struct bench_result br;
	struct activity act; /* when its I/Os and syncs ran, for the sampling term */
	struct completions cmpl; /* when each read, write and sync completed, for the model */
	int start_err;	 /* bench_start failed: nothing ran */
	int ran;	 /* started and finished: br holds its figures */
	int stopping;
	uint64_t t_active, t_iv; /* the active phase's start; the open interval's start */
	uint64_t prev_ios[DDIR_COUNT], prev_bytes[DDIR_COUNT];
	double rate;	 /* MB/s of the last interval, for the ETA */
	uint64_t cpu0_ns, cpu_ns; /* the whole process's CPU time: at the start, over the job */
};

/* iowatt's whole CPU time so far (every thread, user and system). */
static uint64_t process_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static double mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / 1e6 / ((double)ns / 1e9) : 0.0;
}

static int bj_start(void *arg, uint64_t *t_active_ns)
{
	struct bench_job *bj = arg;

	bj->start_err = bench_start_fd(bj->jo, bj->rc->tg.fd, bj->rc->tg.path, &bj->b);
	if (bj->start_err)
		return bj->start_err;
	/*
	 * The active phase starts with the first I/O, after the workers have opened the file
	 * and filled their buffers, so that energy and IOPS share one window. Samples are fed
	 * SESSION_FEED_LAG_NS late, so setting the boundary now still comes before the
	 * samples around it.
	 */
	*t_active_ns = bj->t_active = bj->t_iv = bench_start_ns(bj->b);
	bj->cpu0_ns = process_cpu_ns();
	return 0;
}

static int bj_wait(void *arg, uint64_t timeout_ns)
{
	struct bench_job *bj = arg;

	return bench_wait(bj->b, timeout_ns);
}

static void bj_stop(void *arg, int sig)
{
	struct bench_job *bj = arg;

	(void)sig;
	if (!bj->stopping)
		bench_stop(bj->b);
	bj->stopping = 1;
}

/* One row of the interval series: the counters' change since the last one. */
static void interval(struct bench_job *bj, uint64_t t1, const uint64_t ios[DDIR_COUNT],
		     const uint64_t bytes[DDIR_COUNT])
{
	uint64_t d_ios[DDIR_COUNT], d_bytes[DDIR_COUNT];
	int d;

	for (d = 0; d < DDIR_COUNT; d++) {
		d_ios[d] = ios[d] - bj->prev_ios[d];
		d_bytes[d] = bytes[d] - bj->prev_bytes[d];
		bj->prev_ios[d] = ios[d];
		bj->prev_bytes[d] = bytes[d];
	}
	run_output_interval(&bj->rc->out, bj->jo->name, bj->loop, bj->t_iv, t1, d_ios, d_bytes);
	bj->rate = mbps(d_bytes[DDIR_READ] + d_bytes[DDIR_WRITE], t1 - bj->t_iv);
	bj->t_iv = t1;
}

static void bj_tick(void *arg, uint64_t now)
{
	struct bench_job *bj = arg;
	const struct job_opts *jo = bj->jo;
	uint64_t total = jo->size * jo->numjobs, done;
	struct bench_progress p;
	char eta[ETA_LEN];

	bench_get_progress(bj->b, &p);
	if (now - bj->t_iv >= jo->interval_ns)
		interval(bj, now, p.ios, p.bytes);
	done = p.bytes[DDIR_READ] + p.bytes[DDIR_WRITE];
	if (bj->t_iv == bj->t_active) /* before the first interval: the average so far */
		bj->rate = mbps(done, now - bj->t_active);
	if (bj->rate > 0 && total > done)
		fmt_duration((uint64_t)((double)(total - done) / (bj->rate * 1e6) * 1e9), eta,
			     sizeof(eta));
	else
		snprintf(eta, sizeof(eta), "-");
	progress_set(&bj->rc->progress, "%s [%u/%u] %3.0f%%  %.1f MB/s  %.0f IOPS  ETA %s",
		     jo->name, bj->loop, jo->loops,
		     total ? 100.0 * (double)done / (double)total : 0.0, bj->rate,
		     bj->rate > 0 ? bj->rate * 1e6 / (double)jo->bs : 0.0, eta);
}

static void bj_finish(void *arg, uint64_t *t_end_ns)
{
	struct bench_job *bj = arg;
	uint64_t ios[DDIR_COUNT], bytes[DDIR_COUNT];
	int d;

	bench_finish_activity(bj->b, &bj->br, &bj->act, &bj->cmpl);
	bj->cpu_ns = process_cpu_ns() - bj->cpu0_ns;
	bj->b = NULL;
	bj->ran = 1;
	for (d = 0; d < DDIR_COUNT; d++) {
		ios[d] = bj->br.dir[d].total_ios;
		bytes[d] = bj->br.dir[d].io_bytes;
	}
	*t_end_ns = bj->br.t_end_ns > bj->t_active ? bj->br.t_end_ns : now_ns();
	if (*t_end_ns > bj->t_iv)
		interval(bj, *t_end_ns, ios, bytes);
}

static const struct run_activity_ops bench_activity = {
	.start = bj_start, .wait = bj_wait, .stop = bj_stop, .tick = bj_tick, .finish = bj_finish,
};

/* A job that never started: what the result says instead of figures. */
static void not_started(struct bench_job *bj, uint64_t t_ns)
{
	struct bench_result *br = &bj->br;

	br->t_start_ns = br->t_end_ns = t_ns;
	if (!bj->start_err) {
		br->status = BENCH_INTERRUPTED;
		return;
	}
	br->status = BENCH_FAILED;
	br->err = bj->start_err;
	snprintf(br->errmsg, sizeof(br->errmsg), "could not start: %s", strerror(-bj->start_err));
}

int run_job_loop(struct run_ctx *rc, const struct job_opts *jo, unsigned round, unsigned loop)
{
	struct bench_job bj = { .rc = rc, .jo = jo, .round = round, .loop = loop };
	struct temps t_start;
	struct job_result *j;

	run_phases(rc, jo, &bench_activity, &bj, &t_start);
	if (!bj.ran)
		not_started(&bj, rc->session->times.active_ns);
	j = result_add_job(&rc->rb.rep);
	result_job_from_bench(j, jo, loop, &bj.br);
	j->round = round;
	if (j->cpu && bj.ran)
		j->cpu->process_s = (double)bj.cpu_ns / 1e9;
	run_job_close(rc, jo, 0, j, &t_start,
		      bj.br.dir[DDIR_READ].io_bytes + bj.br.dir[DDIR_WRITE].io_bytes,
		      bj.br.dir[DDIR_READ].total_ios + bj.br.dir[DDIR_WRITE].total_ios,
		      bj.ran ? &bj.act : NULL, bj.ran ? &bj.cmpl : NULL);
	activity_free(&bj.act);
	completions_free(&bj.cmpl);
	if (bj.br.status == BENCH_FAILED)
		rc->any_failed = 1;
	return bj.ran && bj.br.status == BENCH_OK;
}
