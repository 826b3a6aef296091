/* SPDX-License-Identifier: MIT */
/* A benchmark job's figures into the result, in fio's terms: directions, latency, sync. */
#include <math.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "run/result_from_bench.h"
#include "run/result_job_options.h"

static void lat_fill(struct result_lat *l, const struct lat_stats *ls)
{
	size_t i;

	l->min_ns = ls->n ? ls->min_ns : 0;
	l->max_ns = ls->n ? ls->max_ns : 0;
	l->mean_ns = ls->n ? ls->mean_ns : 0.0;
	l->stddev_ns = ls->n > 1 ? lat_stddev(ls) : 0.0;
	l->npct = 0;
	for (i = 0; ls->n && i < lat_default_percentiles_count && i < RESULT_MAX_PCT; i++) {
		l->pct[i].pct = lat_default_percentiles[i];
		l->pct[i].ns = lat_percentile(ls, lat_default_percentiles[i]);
		l->npct++;
	}
}

/* fio reports a direction that moved nothing with zeros everywhere, runtime included. */
static struct result_dir *dir_fill(const struct dir_result *d, uint64_t runtime_ns)
{
	struct result_dir *o = xcalloc(1, sizeof(*o));
	double secs = (double)runtime_ns / 1e9;
	int moved = d->total_ios && runtime_ns;

	o->io_bytes = d->io_bytes;
	o->bw_bytes = moved ? (uint64_t)llround((double)d->io_bytes / secs) : 0;
	o->iops = moved ? (double)d->total_ios / secs : 0.0;
	o->total_ios = d->total_ios;
	o->runtime_ms = moved ? (runtime_ns + NS_PER_MS / 2) / NS_PER_MS : 0;
	lat_fill(&o->clat, &d->clat);
	lat_fill(&o->lat, &d->lat);
	return o;
}

static int job_status(int bench_status)
{
	switch (bench_status) {
	case BENCH_OK:
		return RESULT_OK;
	case BENCH_INTERRUPTED:
		return RESULT_INTERRUPTED;
	default:
		return RESULT_FAILED;
	}
}

static struct result_cpu *cpu_fill(const struct bench_result *br)
{
	struct result_cpu *c = xcalloc(1, sizeof(*c));
	uint64_t ios = br->dir[DDIR_READ].total_ios + br->dir[DDIR_WRITE].total_ios;

	c->threads = br->threads;
	c->user_s = (double)br->cpu_user_ns / 1e9;
	c->sys_s = (double)br->cpu_sys_ns / 1e9;
	c->cpu_s = (double)br->cpu_ns / 1e9;
	c->per_io_us = ios ? (double)br->cpu_ns / 1e3 / (double)ios : NAN;
	c->process_s = NAN; /* the run layer knows the active phase */
	return c;
}

void result_job_from_bench(struct job_result *j, const struct job_opts *jo, unsigned loop,
			   const struct bench_result *br)
{
	uint64_t runtime_ns = br->t_end_ns > br->t_start_ns ? br->t_end_ns - br->t_start_ns : 0;

	j->jobname = xstrdup(jo->name);
	j->loop = loop;
	j->status = job_status(br->status);
	if (br->errmsg[0])
		j->error = xstrdup(br->errmsg);
	else if (br->err)
		j->error = xstrdup(strerror(-br->err));
	result_job_options(j, jo);
	if (br->depth && br->depth < jo->iodepth) {
		/* The kernel refused that many requests in flight: what ran, not what was asked. */
		size_t i;

		for (i = 0; i < j->noptions; i++)
			if (!strcmp(j->options[i].key, "iodepth") &&
			    j->options[i].type == RESULT_OPT_INT)
				j->options[i].i = br->depth;
	}
	j->read = dir_fill(&br->dir[DDIR_READ], runtime_ns);
	j->write = dir_fill(&br->dir[DDIR_WRITE], runtime_ns);
	/* fio's "sync" object: fdatasync/fsync calls and their latency, which dominate a
	 * small-record synced workload and are in neither direction's clat. */
	j->sync = xcalloc(1, sizeof(*j->sync));
	j->sync->total_ios = br->syncs;
	lat_fill(&j->sync->lat, &br->sync_lat);
	j->phases = xcalloc(1, sizeof(*j->phases));
	j->phases->active = xcalloc(1, sizeof(*j->phases->active));
	j->phases->active->t_start_ns = br->t_start_ns;
	j->phases->active->t_end_ns = br->t_end_ns;
	if (br->threads)
		j->cpu = cpu_fill(br);
}
