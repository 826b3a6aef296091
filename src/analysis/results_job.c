/* SPDX-License-Identifier: MIT */
/* The figures a table or chart wants of one job, read off the result with NAN for none. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "analysis/results_read.h"
#include "core/events.h"
#include "core/phase.h"

/* What a job without a meter reads as: every figure and its _u95 not known. */
static struct result_power no_power;
static struct result_efficiency no_efficiency;
static pthread_once_t no_meter_once = PTHREAD_ONCE_INIT;

static void no_meter_init(void)
{
	result_power_unknown(&no_power);
	result_efficiency_unknown(&no_efficiency);
}

const struct result_power *rr_power(const struct job_result *j)
{
	pthread_once(&no_meter_once, no_meter_init);
	return j->power ? j->power : &no_power;
}

const struct result_efficiency *rr_eff(const struct job_result *j)
{
	pthread_once(&no_meter_once, no_meter_init);
	return j->efficiency ? j->efficiency : &no_efficiency;
}

int rr_has_power(const struct job_result *j)
{
	return j->power && !isnan(j->power->active_w);
}

int rr_valid(const struct job_result *j)
{
	int valid = j->validity ? j->validity->valid : -1;

	/* Whatever a result file claims, a job that did not finish is not valid. */
	if (j->status != RESULT_OK)
		valid = 0;
	return valid;
}

/* A direction's figure, 0 for a direction the job does not have; NAN when it has neither
 * (a measured command without I/O figures moved no known bytes, not zero bytes). */
#define DIR_SUM(j, field)                                                          \
	(!(j)->read && !(j)->write                                                   \
		 ? NAN                                                               \
		 : ((j)->read ? (double)(j)->read->field : 0) +                      \
			   ((j)->write ? (double)(j)->write->field : 0))

double rr_bw_bytes(const struct job_result *j)
{
	return DIR_SUM(j, bw_bytes);
}

double rr_iops(const struct job_result *j)
{
	return DIR_SUM(j, iops);
}

static double rr_io_bytes(const struct job_result *j)
{
	return DIR_SUM(j, io_bytes);
}

static double rr_total_ios(const struct job_result *j)
{
	return DIR_SUM(j, total_ios);
}

static const struct result_dir *busier_dir(const struct job_result *j)
{
	double r_ios = j->read ? (double)j->read->total_ios : 0;
	double w_ios = j->write ? (double)j->write->total_ios : 0;

	return w_ios > r_ios ? j->write : j->read;
}

static double lat_pct(const struct result_lat *l, double pct)
{
	size_t i;

	for (i = 0; i < l->npct; i++)
		if (l->pct[i].pct == pct)
			return (double)l->pct[i].ns;
	return NAN;
}

double rr_lat_ns(const struct job_result *j, double pct)
{
	const struct result_dir *d = busier_dir(j);

	return d ? lat_pct(&d->lat, pct) : NAN;
}

double rr_clat_ns(const struct job_result *j, double pct)
{
	const struct result_dir *d = busier_dir(j);

	return d ? lat_pct(&d->clat, pct) : NAN;
}

int rr_has_lat(const struct job_result *j)
{
	const struct result_dir *d = busier_dir(j);

	return d && d->lat.npct;
}

static const struct result_dir *dir_of(const struct job_result *j, int ddir)
{
	const struct result_dir *d = ddir ? j->write : j->read;

	return d && d->total_ios ? d : NULL;
}

double rr_dir_iops(const struct job_result *j, int ddir)
{
	const struct result_dir *d = dir_of(j, ddir);

	return d ? d->iops : NAN;
}

double rr_dir_lat_ns(const struct job_result *j, int ddir, double pct)
{
	const struct result_dir *d = dir_of(j, ddir);

	return d ? lat_pct(&d->lat, pct) : NAN;
}

double rr_dir_clat_ns(const struct job_result *j, int ddir, double pct)
{
	const struct result_dir *d = dir_of(j, ddir);

	return d ? lat_pct(&d->clat, pct) : NAN;
}

double rr_sync_lat_ns(const struct job_result *j, double pct)
{
	return rr_syncs(j) ? lat_pct(&j->sync->lat, pct) : NAN;
}

int rr_mixed(const struct job_result *j)
{
	return dir_of(j, 0) && dir_of(j, 1);
}

int rr_syncs(const struct job_result *j)
{
	const struct result_opt *o = result_opt_find(j, "fdatasync");

	/* The final end_fsync alone is one call, not a synced workload. */
	return j->sync && j->sync->total_ios && o && o->type == RESULT_OPT_INT && o->i > 0;
}

double rr_soc_max_c(const struct job_result *j)
{
	return j->temperatures ? j->temperatures->soc_c.max : NAN;
}

double rr_drive_max_c(const struct job_result *j)
{
	return j->temperatures ? j->temperatures->drive_c.max : NAN;
}

const char *rr_rw(const struct job_result *j)
{
	const struct result_opt *o = result_opt_find(j, "rw");

	return o && o->type == RESULT_OPT_STR ? o->s : "?";
}

uint64_t rr_bs(const struct job_result *j)
{
	const struct result_opt *o = result_opt_find(j, "bs");

	if (o && o->type == RESULT_OPT_INT && o->i > 0)
		return (uint64_t)o->i;
	/* A stranger's file may hold 1e300: only a value that fits converts. */
	if (o && o->type == RESULT_OPT_REAL && o->d > 0 && o->d < 0x1p63)
		return (uint64_t)o->d;
	return 0;
}

int rr_writes(const struct job_result *j)
{
	const char *rw = rr_rw(j);

	return strstr(rw, "write") || !strcmp(rw, "randrw") || !strcmp(rw, "rw");
}

int rr_reads(const struct job_result *j)
{
	const char *rw = rr_rw(j);

	return strstr(rw, "read") || !strcmp(rw, "randrw") || !strcmp(rw, "rw");
}

void rr_phase(const struct job_result *j, int phase, uint64_t *t_start, uint64_t *t_end)
{
	const struct result_span *s = NULL;

	if (j->phases)
		s = phase == PHASE_IDLE ? j->phases->idle
		    : phase == PHASE_ACTIVE ? j->phases->active : j->phases->tail;
	*t_start = s ? s->t_start_ns : 0;
	*t_end = s ? s->t_end_ns : 0;
}

double rr_net_j_per_gb(const struct job_result *j)
{
	const struct result_power *p = rr_power(j);
	double gb = rr_io_bytes(j) / 1e9;

	if (!isnan(rr_eff(j)->j_per_gb_net))
		return rr_eff(j)->j_per_gb_net;
	if (!isnan(p->energy_net_j) && gb > 0)
		return p->energy_net_j / gb;
	return NAN;
}

double rr_net_j_per_gb_u95(const struct job_result *j)
{
	double gb = rr_io_bytes(j) / 1e9;

	if (!isnan(rr_eff(j)->j_per_gb_net))
		return rr_eff(j)->j_per_gb_net_u95;
	return gb > 0 ? rr_power(j)->energy_net_j_u95 / gb : NAN;
}

double rr_net_j_per_io_u95(const struct job_result *j)
{
	double ios = rr_total_ios(j);

	return ios > 0 ? rr_power(j)->energy_net_j_u95 / ios : NAN;
}

double rr_write_amplification(const struct job_result *j)
{
	return j->wear ? j->wear->write_amplification : NAN;
}

double rr_net_j_per_io(const struct job_result *j)
{
	double ios = rr_total_ios(j);

	if (!isnan(rr_power(j)->energy_net_j) && ios > 0)
		return rr_power(j)->energy_net_j / ios;
	return NAN;
}
