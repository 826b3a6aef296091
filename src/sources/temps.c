/* SPDX-License-Identifier: MIT */
/* SoC and drive temperatures: find the thermal zone and the drive's hwmon, track max. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "sources/flags_int.h"

/* Zone types that are the SoC / CPU package on the boards we meet. */
static const char *const soc_types[] = { "cpu-thermal", "cpu_thermal", "soc_thermal",
					 "x86_pkg_temp" };

static int is_soc_type(const char *type)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(soc_types); i++)
		if (!strcmp(type, soc_types[i]))
			return 1;
	return 0;
}

/* The preferred zone's temp file (lowest-numbered SoC type, else the lowest zone). */
static int find_soc_zone(const char *root, char *out, size_t len, char *type_out, size_t tlen)
{
	char path[PATH_MAX], type[64];
	struct dirent *de;
	DIR *d;
	int best = -1, best_soc = 0, n, soc;

	flags_path(path, sizeof(path), "%s/sys/class/thermal", root);
	d = opendir(path);
	if (!d)
		return -1;
	for (de = readdir(d); de; de = readdir(d)) {
		n = flags_dir_index(de->d_name, "thermal_zone");
		if (n < 0)
			continue;
		flags_path(path, sizeof(path), "%s/sys/class/thermal/%s/type", root, de->d_name);
		if (read_text_file(path, type, sizeof(type)))
			type[0] = '\0';
		soc = is_soc_type(type);
		if ((soc && (!best_soc || n < best)) || (!best_soc && !soc && (best < 0 || n < best))) {
			best = n;
			best_soc = soc;
			snprintf(type_out, tlen, "%s", type);
		}
	}
	closedir(d);
	if (best < 0)
		return -1;
	flags_path(out, len, "%s/sys/class/thermal/thermal_zone%d/temp", root, best);
	return 0;
}

/* The device directory a hwmon hangs from (…/0:0:0:0 for …/0:0:0:0/hwmon/hwmon3). */
static char *hwmon_parent(const char *hwmon_dir)
{
	char *real = realpath(hwmon_dir, NULL), *slash;

	if (!real)
		return NULL;
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(real, '/');
	if (slash && !strcmp(slash, "/hwmon"))
		*slash = '\0';
	return real;
}

/*
 * The drive's own sensor: an nvme or drivetemp hwmon whose parent device lies on the
 * block device's sysfs path. Without a target, a lone candidate is taken; with several
 * and no way to tell, none (a neighbour's temperature would mislead).
 */
static int find_drive_hwmon(const char *root, const char *blockdev, char *out, size_t len)
{
	char path[PATH_MAX], name[32], *blk = NULL, *par;
	struct dirent *de;
	DIR *d;
	int found = 0, candidates = 0;
	size_t pl;

	if (blockdev && *blockdev) {
		flags_path(path, sizeof(path), "%s/sys/class/block/%s", root,
			 strncmp(blockdev, "/dev/", 5) ? blockdev : blockdev + 5);
		blk = realpath(path, NULL);
	}
	flags_path(path, sizeof(path), "%s/sys/class/hwmon", root);
	d = opendir(path);
	if (!d) {
		free(blk);
		return -1;
	}
	for (de = readdir(d); de && !found; de = readdir(d)) {
		if (flags_dir_index(de->d_name, "hwmon") < 0)
			continue;
		flags_path(path, sizeof(path), "%s/sys/class/hwmon/%s/name", root, de->d_name);
		if (read_text_file(path, name, sizeof(name)) ||
		    (strcmp(name, "nvme") && strcmp(name, "drivetemp")))
			continue;
		candidates++;
		flags_path(path, sizeof(path), "%s/sys/class/hwmon/%s", root, de->d_name);
		if (!blk) {
			flags_path(out, len, "%s/temp1_input", path);
			continue;
		}
		par = hwmon_parent(path);
		pl = par ? strlen(par) : 0;
		if (par && !strncmp(blk, par, pl) && blk[pl] == '/') {
			flags_path(out, len, "%s/temp1_input", path);
			found = 1;
		}
		free(par);
	}
	closedir(d);
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
	return (double)v / 1000.0;
}

void temps_open(struct flag_sources *fs, const char *blockdev)
{
	char type[64];

	if (find_soc_zone(fs->root, fs->soc_path, sizeof(fs->soc_path), type, sizeof(type)))
		fs->soc_path[0] = '\0';
	if (find_drive_hwmon(fs->root, blockdev, fs->drive_path, sizeof(fs->drive_path)))
		fs->drive_path[0] = '\0';
	fs->t.soc_c = fs->t.drive_c = NAN;
	fs->t.soc_max_c = fs->t.drive_max_c = NAN;
}

static void max_in(double *max, double v)
{
	if (isfinite(v) && !(v <= *max))
		*max = v;
}

void temps_poll(struct flag_sources *fs)
{
	double soc = read_milli_c(fs->soc_path), drive = read_milli_c(fs->drive_path);

	pthread_mutex_lock(&fs->temp_lock);
	fs->t.soc_c = soc;
	fs->t.drive_c = drive;
	max_in(&fs->t.soc_max_c, soc);
	max_in(&fs->t.drive_max_c, drive);
	pthread_mutex_unlock(&fs->temp_lock);
}

void flags_temps_reset(struct flag_sources *fs)
{
	if (!fs)
		return;
	pthread_mutex_lock(&fs->temp_lock);
	fs->t.soc_max_c = fs->t.drive_max_c = NAN;
	pthread_mutex_unlock(&fs->temp_lock);
	temps_poll(fs);
}

void flags_temps_get(struct flag_sources *fs, struct temps *t)
{
	if (!fs) {
		t->soc_c = t->drive_c = t->soc_max_c = t->drive_max_c = NAN;
		return;
	}
	/* A fresh read, so "end" is the value at the job's end, not up to 1 s old. */
	temps_poll(fs);
	pthread_mutex_lock(&fs->temp_lock);
	*t = fs->t;
	pthread_mutex_unlock(&fs->temp_lock);
}

void temps_list(const char *root, FILE *out)
{
	char path[PATH_MAX], type[64];

	if (find_soc_zone(root, path, sizeof(path), type, sizeof(type)) == 0)
		fprintf(out, "  soc temp      %s (%s): read each second\n", path,
			*type ? type : "untyped");
	else
		fprintf(out, "  soc temp      no thermal zone\n");
	if (find_drive_hwmon(root, NULL, path, sizeof(path)) == 0)
		fprintf(out, "  drive temp    %s\n", path);
	else
		fprintf(out, "  drive temp    no single nvme/drivetemp hwmon (the run picks the "
			     "one under its target)\n");
}
