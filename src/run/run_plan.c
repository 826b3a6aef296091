/* SPDX-License-Identifier: MIT */
/* The plan of a run before it starts: jobs, bytes moved, and how long it should take. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "run/run_plan.h"
#include "core/blockdev.h"
#include "core/log.h"
#include "core/units.h"
#include "result/result.h"

#define FMT_LEN 32
/* Earlier results read to find the device's speed: the newest ones are enough. */
#define PLAN_MAX_RESULTS 64

/* An earlier result on the same device, and when it was written. */
struct speed_ref {
	struct run_result rep;
	char path[PATH_MAX];
	int have;
};

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

static int is_json(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* The newest result in dir whose device is disk; earlier files that do not load are
 * none of this run's business and stay quiet. */
static void find_reference(const char *dir, const char *disk, struct speed_ref *ref)
{
	struct dirent *de;
	struct stat st;
	time_t best = 0;
	char path[PATH_MAX];
	int level = log_get_level(), seen = 0;
	DIR *d = opendir(dir);
	struct run_result rep;

	memset(ref, 0, sizeof(*ref));
	if (!d || !*disk) {
		if (d)
			closedir(d);
		return;
	}
	log_set_level(LOG_ERR - 1);
	while ((de = readdir(d)) && seen < PLAN_MAX_RESULTS) {
		if (!is_json(de->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path) ||
		    stat(path, &st) || st.st_mtime < best || result_load(path, &rep))
			continue;
		seen++;
		if (rep.context && rep.context->device && rep.context->device->name &&
		    !strcmp(rep.context->device->name, disk)) {
			if (ref->have)
				result_free(&ref->rep);
			ref->rep = rep;
			ref->have = 1;
			best = st.st_mtime;
			snprintf(ref->path, sizeof(ref->path), "%s", path);
			continue;
		}
		result_free(&rep);
	}
	log_set_level(level);
	closedir(d);
}

static const struct result_opt *opt_of(const struct job_result *j, const char *key)
{
	return result_opt_find(j, key);
}

static int64_t opt_int(const struct job_result *j, const char *key)
{
	const struct result_opt *o = opt_of(j, key);

	return o && o->type == RESULT_OPT_INT ? o->i : -1;
}

/* Bytes per second the earlier result measured for this job: same name, else same mode
 * and block size; 0 if it has none. */
static double known_speed(const struct speed_ref *ref, const struct job_opts *jo)
{
	const struct job_result *j, *like = NULL;
	const struct result_opt *rw;
	size_t i;

	for (i = 0; ref->have && i < ref->rep.njobs; i++) {
		j = &ref->rep.jobs[i];
		if (j->status != RESULT_OK || !j->read || !j->write ||
		    j->read->bw_bytes + j->write->bw_bytes == 0)
			continue;
		if (j->jobname && !strcmp(j->jobname, jo->name))
			return (double)(j->read->bw_bytes + j->write->bw_bytes);
		rw = opt_of(j, "rw");
		if (!like && rw && rw->type == RESULT_OPT_STR && !strcmp(rw->s, rw_name(jo->rw)) &&
		    opt_int(j, "bs") == (int64_t)jo->bs)
			like = j;
	}
	return like ? (double)(like->read->bw_bytes + like->write->bw_bytes) : 0;
}

/* Loops in all: each round (--repeat, or at most repeat_until_steady) runs them all. */
static unsigned job_loops(const struct job_opts *jo)
{
	unsigned rounds = jo->repeat_until_steady ? jo->repeat_until_steady : jo->repeat;

	return (jo->loops ? jo->loops : 1) * (rounds ? rounds : 1);
}

/* Bytes a job moves in all: each of its threads moves size, in each loop; 0 while
 * size=auto has not chosen. */
static uint64_t job_bytes(const struct job_opts *jo)
{
	if (jo->size_auto_ns)
		return 0;
	return jo->size * (jo->numjobs ? jo->numjobs : 1) * job_loops(jo);
}

/* What the run spends besides I/O per loop: the idle baseline and at least the tail's
 * hold (a drive that settles at once), with meters only. */
static double phases_s(const struct job_opts *jo, int metered)
{
	return metered ? (double)(jo->idle_ns + jo->tail_hold_ns) / 1e9 : 0;
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

static void print_job(FILE *fp, const struct job_opts *jo, int nw, const struct speed_ref *ref,
		      double *io_s, int *unknown)
{
	char bs[FMT_LEN], size[FMT_LEN], moved[FMT_LEN], est[FMT_LEN * 2], d[FMT_LEN];
	uint64_t bytes = job_bytes(jo);
	double bps = known_speed(ref, jo), s;

	if (bps > 0 && bytes) {
		s = (double)bytes / bps;
		*io_s += s;
		snprintf(est, sizeof(est), "%s at %.3g MB/s", fmt_duration((uint64_t)(s * 1e9), d,
									   sizeof(d)), bps / 1e6);
	} else {
		(*unknown)++;
		snprintf(est, sizeof(est), "?");
	}
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

void run_plan_print(FILE *fp, const struct run_config *cfg, const char *disk)
{
	const struct run_opts *ro = &cfg->run;
	const char *dir = ro->output_dir ? ro->output_dir : "results";
	int metered = ro->nmeters > 0, unknown = 0, nw = name_width(cfg);
	double io_s = 0, other_s = 0;
	uint64_t total = 0;
	struct speed_ref ref;
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN], moved[FMT_LEN * 2];
	unsigned loops = 0;
	size_t i, nauto = 0;

	find_reference(dir, disk, &ref);
	for (i = 0; i < cfg->njobs; i++) {
		total += job_bytes(&cfg->jobs[i]);
		loops += job_loops(&cfg->jobs[i]);
		other_s += phases_s(&cfg->jobs[i], metered) * job_loops(&cfg->jobs[i]);
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
	for (i = 0; i < cfg->njobs; i++)
		print_job(fp, &cfg->jobs[i], nw, &ref, &io_s, &unknown);
	fmt_duration((uint64_t)(other_s * 1e9), b, sizeof(b));
	if (!unknown)
		fprintf(fp, "estimated duration: %s (I/O %s at the speeds %s measured%s%s)\n",
			fmt_duration((uint64_t)((io_s + other_s) * 1e9), a, sizeof(a)),
			fmt_duration((uint64_t)(io_s * 1e9), c, sizeof(c)), ref.path,
			metered ? ", idle baselines and tails " : "", metered ? b : "");
	else
		fprintf(fp, "estimated duration: I/O time unknown for %d job%s (%s)%s%s\n", unknown,
			unknown == 1 ? "" : "s",
			ref.have ? "not in the earlier result of this device"
				 : "no earlier result of this device in the output directory",
			metered ? "; idle baselines and tails alone take at least " : "",
			metered ? b : "");
	if (ref.have)
		result_free(&ref.rep);
}
