/* SPDX-License-Identifier: MIT */
/* The earlier result of a run's device, and the rates its jobs of a given shape moved. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/log.h"
#include "core/mem.h"
#include "plan/rate_basis.h"

/* Results read to find the device's: the newest ones are enough. */
#define RATE_BASIS_MAX_FILES 64

static int is_json(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

static int of_disk(const struct run_result *rep, const char *disk)
{
	return rep->context && rep->context->device && rep->context->device->name &&
	       !strcmp(rep->context->device->name, disk);
}

static void find_newest(struct rate_basis *b, const char *dir, const char *disk)
{
	struct dirent *de;
	struct stat st;
	time_t best = 0;
	char path[PATH_MAX];
	int level = log_get_level(), seen = 0;
	DIR *d = *disk ? opendir(dir) : NULL;
	struct run_result rep;

	if (!d)
		return;
	log_set_level(LOG_ERR - 1);
	while ((de = readdir(d)) && seen < RATE_BASIS_MAX_FILES) {
		if (!is_json(de->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path) ||
		    stat(path, &st) || st.st_mtime < best || result_load(path, &rep))
			continue;
		seen++;
		if (!of_disk(&rep, disk)) {
			result_free(&rep);
			continue;
		}
		if (b->have)
			result_free(&b->rep);
		b->rep = rep;
		b->have = 1;
		best = st.st_mtime;
		snprintf(b->path, sizeof(b->path), "%s", path);
	}
	log_set_level(level);
	closedir(d);
}

int rate_basis_load(struct rate_basis *b, const char *path, const char *option)
{
	int err;

	memset(b, 0, sizeof(*b));
	err = result_load(path, &b->rep);
	if (err) {
		log_err(NULL, "option %s %s: not a result iowatt can read", option, path);
		return err;
	}
	b->have = 1;
	snprintf(b->path, sizeof(b->path), "%s", path);
	return 0;
}

int rate_basis_open(struct rate_basis *b, const char *given, const char *dir, const char *disk)
{
	if (given)
		return rate_basis_load(b, given, "--rates-from");
	memset(b, 0, sizeof(*b));
	find_newest(b, dir, disk);
	return 0;
}

void rate_basis_close(struct rate_basis *b)
{
	if (b->have)
		result_free(&b->rep);
	b->have = 0;
}

static int opt_is(const struct job_result *j, const char *key, int64_t want)
{
	const struct result_opt *o = result_opt_find(j, key);

	/* an option the result does not list (an older file) does not tell them apart */
	return !o || o->type != RESULT_OPT_INT || o->i == want;
}

int rate_same_shape(const struct job_result *j, const struct job_opts *jo)
{
	const struct result_opt *rw = result_opt_find(j, "rw");

	return rw && rw->type == RESULT_OPT_STR && !strcmp(rw->s, rw_name(jo->rw)) &&
	       opt_is(j, "bs", (int64_t)jo->bs) && opt_is(j, "iodepth", jo->iodepth) &&
	       opt_is(j, "numjobs", jo->numjobs) && opt_is(j, "direct", jo->direct) &&
	       opt_is(j, "rate_iops", (int64_t)jo->rate_iops);
}

double rate_of_job(const struct job_result *j)
{
	if (j->status != RESULT_OK)
		return 0;
	return (double)((j->read ? j->read->bw_bytes : 0) + (j->write ? j->write->bw_bytes : 0));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double rate_median(const struct run_result *rep, const struct job_opts *jo, int same_name,
		   unsigned *n)
{
	double *r = xcalloc(rep->njobs + 1, sizeof(*r)), med = 0;
	size_t i;

	*n = 0;
	for (i = 0; i < rep->njobs; i++) {
		const struct job_result *j = &rep->jobs[i];

		if (same_name && (!j->jobname || strcmp(j->jobname, jo->name)))
			continue;
		if (rate_same_shape(j, jo) && rate_of_job(j) > 0)
			r[(*n)++] = rate_of_job(j);
	}
	if (*n) {
		qsort(r, *n, sizeof(*r), cmp_double);
		med = *n % 2 ? r[*n / 2] : (r[*n / 2 - 1] + r[*n / 2]) / 2;
	}
	free(r);
	return med;
}
