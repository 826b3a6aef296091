/* SPDX-License-Identifier: MIT */
/* SoC and drive temperatures: the SoC's thermal zone and the drive's own hwmon, with max. */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "sources/source-internal.h"
#include "sources/temps/temps.h"

#define THERMAL_DIR "/sys/class/thermal"
#define ZONE_PREFIX "thermal_zone"
#define DRIVE_TEMP_ATTR "temp1_input"
#define DEV_PREFIX "/dev/"
#define TEMPS_PERIOD_NS NS_PER_SEC
/* The series' buffer grows from this many readings up to this many (11 days at 1 Hz). */
#define TEMPS_SERIES_FIRST 64
#define TEMPS_SERIES_MAX 1000000
#define MILLI 1000.0
/* A zone's `type`: a short identifier */
#define ZONE_TYPE_LEN 64

/* Zone types that are the SoC / CPU package on the boards we meet. */
static const char *const soc_types[] = { "cpu-thermal", "cpu_thermal", "soc_thermal",
					 "x86_pkg_temp" };
/* hwmon chips that are a drive's own sensor. */
static const char *const drive_hwmons[] = { "nvme", "drivetemp" };

struct temps_state {
	pthread_mutex_t lock; /* the watcher reads each second, the main thread on demand */
	char soc_path[PATH_MAX];
	char drive_path[PATH_MAX];
	struct temps t;
	/* Readings not yet taken by the run (sources_temps_take), oldest first. */
	struct temp_sample *series;
	size_t nseries, capseries;
	int warned_full;
};

static int is_soc_type(const char *type)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(soc_types); i++)
		if (!strcmp(type, soc_types[i]))
			return 1;
	return 0;
}

/* The preferred zone's temp file: the lowest-numbered SoC type, else the lowest zone. */
static int find_soc_zone(const char *root, char *out, size_t len, char *type_out, size_t tlen)
{
	char path[PATH_MAX], type[ZONE_TYPE_LEN], **zones;
	int n, i, best = -1;

	n = sysfs_list(root, THERMAL_DIR, ZONE_PREFIX, &zones);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), THERMAL_DIR "/%s/type", zones[i]);
		if (sysfs_read_str(root, path, type, sizeof(type)))
			type[0] = '\0';
		if (best < 0 || is_soc_type(type)) {
			best = i;
			snprintf(type_out, tlen, "%s", type);
		}
		if (is_soc_type(type))
			break;
	}
	if (best >= 0) {
		snprintf(path, sizeof(path), THERMAL_DIR "/%s/temp", zones[best]);
		best = sysfs_path(root, path, out, len);
	}
	sysfs_list_free(zones, n);
	return best < 0 ? -1 : 0;
}

/* 1 when the device a hwmon hangs from (…/0:0:0:0 for …/0:0:0:0/hwmon/hwmon3) lies on
 * the block device's resolved sysfs path. */
static int hwmon_on_path(const char *hwmon_dir, const char *blk)
{
	char *par = realpath(hwmon_dir, NULL), *slash;
	size_t pl;
	int on;

	if (!par)
		return 0;
	slash = strrchr(par, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(par, '/');
	if (slash && !strcmp(slash, "/hwmon"))
		*slash = '\0';
	pl = strlen(par);
	on = !strncmp(blk, par, pl) && blk[pl] == '/';
	free(par);
	return on;
}

static char *blockdev_real(const char *root, const char *blockdev)
{
	char rel[PATH_MAX], path[PATH_MAX];

	if (!blockdev || !*blockdev)
		return NULL;
	if (!strncmp(blockdev, DEV_PREFIX, strlen(DEV_PREFIX)))
		blockdev += strlen(DEV_PREFIX);
	snprintf(rel, sizeof(rel), "/sys/class/block/%s", blockdev);
	return sysfs_path(root, rel, path, sizeof(path)) ? NULL : realpath(path, NULL);
}

/*
 * The drive's own sensor: an nvme or drivetemp hwmon whose parent device lies on the
 * block device's sysfs path. Without a target, a lone candidate is taken; with several
 * and no way to tell, none (a neighbour's temperature would mislead).
 */
static int find_drive_hwmon(const char *root, const char *blockdev, char *out, size_t len)
{
	char dir[PATH_MAX], *blk = blockdev_real(root, blockdev);
	int candidates = 0, found = 0, idx;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(drive_hwmons) && !found; i++) {
		for (idx = 0; !found && sysfs_hwmon_lookup(root, drive_hwmons[i], idx, dir,
							   sizeof(dir)) == 0; idx++) {
			candidates++;
			if ((blk && !hwmon_on_path(dir, blk)) ||
			    snprintf(out, len, "%s/" DRIVE_TEMP_ATTR, dir) >= (int)len)
				continue;
			found = blk != NULL;
		}
	}
	if (!blk && candidates == 1)
		found = 1;
	free(blk);
	return found ? 0 : -1;
}

static double read_milli_c(const char *path)
{
	long long v;

	if (!*path || read_int_file(path, &v))
		return NAN;
	return (double)v / MILLI;
}

static void max_in(double *max, double v)
{
	if (isfinite(v) && !(v <= *max))
		*max = v;
}

/* Called with the lock held. A run that never takes its series keeps the newest. */
static void series_add(struct temps_state *ts, uint64_t t_ns, double soc, double drive)
{
	if (ts->nseries == ts->capseries) {
		if (ts->capseries >= TEMPS_SERIES_MAX) {
			memmove(ts->series, ts->series + 1, (ts->nseries - 1) * sizeof(*ts->series));
			ts->nseries--;
			if (!ts->warned_full++)
				log_warn("temps", "more than %d temperature readings not taken: the "
					 "oldest are dropped", TEMPS_SERIES_MAX);
		} else {
			ts->capseries = ts->capseries ? 2 * ts->capseries : TEMPS_SERIES_FIRST;
			ts->series = xrealloc(ts->series, ts->capseries * sizeof(*ts->series));
		}
	}
	ts->series[ts->nseries++] = (struct temp_sample){ t_ns, soc, drive };
}

static int temps_read(struct source *src, uint64_t now)
{
	struct temps_state *ts = src->priv;
	double soc = read_milli_c(ts->soc_path), drive = read_milli_c(ts->drive_path);

	pthread_mutex_lock(&ts->lock);
	ts->t.soc_c = soc;
	ts->t.drive_c = drive;
	max_in(&ts->t.soc_max_c, soc);
	max_in(&ts->t.drive_max_c, drive);
	if (isfinite(soc) || isfinite(drive))
		series_add(ts, now ? now : now_ns(), soc, drive);
	pthread_mutex_unlock(&ts->lock);
	return 0;
}

static size_t temps_take(struct source *src, struct temp_sample **out)
{
	struct temps_state *ts = src->priv;
	size_t n;

	pthread_mutex_lock(&ts->lock);
	n = ts->nseries;
	*out = n ? ts->series : NULL;
	if (n) {
		ts->series = NULL;
		ts->nseries = ts->capseries = 0;
	}
	pthread_mutex_unlock(&ts->lock);
	return n;
}

static int temps_open(struct source *src)
{
	struct temps_state *ts = xcalloc(1, sizeof(*ts));
	const char *root = src->cfg->sysfs_root;
	char type[ZONE_TYPE_LEN];

	if (find_soc_zone(root, ts->soc_path, sizeof(ts->soc_path), type, sizeof(type)))
		ts->soc_path[0] = '\0';
	if (find_drive_hwmon(root, src->cfg->target_blockdev, ts->drive_path,
			     sizeof(ts->drive_path)))
		ts->drive_path[0] = '\0';
	if (!ts->soc_path[0] && !ts->drive_path[0]) {
		free(ts);
		return SOURCE_OFF;
	}
	pthread_mutex_init(&ts->lock, NULL);
	ts->t.soc_c = ts->t.drive_c = ts->t.soc_max_c = ts->t.drive_max_c = NAN;
	src->period_ns = TEMPS_PERIOD_NS;
	src->priv = ts;
	return 0;
}

static void temps_reset(struct source *src)
{
	struct temps_state *ts = src->priv;

	pthread_mutex_lock(&ts->lock);
	ts->t.soc_max_c = ts->t.drive_max_c = NAN;
	pthread_mutex_unlock(&ts->lock);
	temps_read(src, 0);
}

static void temps_get(struct source *src, struct temps *t)
{
	struct temps_state *ts = src->priv;

	/* A fresh read, so "end" is the value at the job's end, not up to 1 s old. */
	temps_read(src, 0);
	pthread_mutex_lock(&ts->lock);
	*t = ts->t;
	pthread_mutex_unlock(&ts->lock);
}

static void temps_close(struct source *src)
{
	struct temps_state *ts = src->priv;

	if (!ts)
		return;
	pthread_mutex_destroy(&ts->lock);
	free(ts->series);
	free(ts);
	src->priv = NULL;
}

static void temps_describe(const char *root, int covered, FILE *out)
{
	char path[PATH_MAX], type[ZONE_TYPE_LEN];

	(void)covered;
	if (find_soc_zone(root, path, sizeof(path), type, sizeof(type)) == 0)
		fprintf(out, "      SoC: %s (%s)\n", path,
			*type ? type : "untyped");
	else
		fprintf(out, "      SoC: no thermal zone\n");
	if (find_drive_hwmon(root, NULL, path, sizeof(path)) == 0)
		fprintf(out, "      drive: %s\n", path);
	else
		fprintf(out, "      drive: no single nvme/drivetemp hwmon (the run picks the "
			     "one under its target)\n");
}

static const struct source_temps temps_values = {
	.reset = temps_reset,
	.get = temps_get,
	.take = temps_take,
};

const struct source_driver source_temps = {
	.name = "temps",
	.desc = "SoC and drive temperatures each second: a series on the run's clock, the maximum "
		"per job",
	.open = temps_open,
	.read = temps_read,
	.close = temps_close,
	.describe = temps_describe,
	.temps = &temps_values,
};
