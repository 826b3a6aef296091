/* SPDX-License-Identifier: MIT */
/* The result document: job entries in fio's keys, default names, atomic write, load. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "result/result.h"

#define MOD "result"
/* Enough digits for any figure we print, without 22.800000000000001 noise. */
#define RESULT_DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(12))

static const char *const status_names[] = {
	[BENCH_OK] = "ok",
	[BENCH_FAILED] = "failed",
	[BENCH_INTERRUPTED] = "interrupted",
};

static json_t *json_u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *clat_json(const struct lat_stats *ls)
{
	json_t *o = json_object(), *pct = json_object();
	char key[32];
	size_t i;

	json_object_set_new(o, "min", json_u64(ls->n ? ls->min_ns : 0));
	json_object_set_new(o, "max", json_u64(ls->n ? ls->max_ns : 0));
	json_object_set_new(o, "mean", json_real(ls->n ? ls->mean_ns : 0.0));
	json_object_set_new(o, "stddev", json_real(ls->n > 1 ? lat_stddev(ls) : 0.0));
	for (i = 0; ls->n && i < lat_default_percentiles_count; i++) {
		/* fio's spelling: "99.900000", which plot and compare scripts key on */
		snprintf(key, sizeof(key), "%f", lat_default_percentiles[i]);
		json_object_set_new(pct, key,
				    json_u64(lat_percentile(ls, lat_default_percentiles[i])));
	}
	json_object_set_new(o, "percentile", pct);
	return o;
}

/* fio reports a direction that moved nothing with zeros everywhere, runtime included. */
static json_t *dir_json(const struct dir_result *d, uint64_t runtime_ns)
{
	json_t *o = json_object();
	double secs = (double)runtime_ns / 1e9;
	int moved = d->total_ios && runtime_ns;

	json_object_set_new(o, "io_bytes", json_u64(d->io_bytes));
	json_object_set_new(o, "bw_bytes",
			    json_u64(moved ? (uint64_t)llround((double)d->io_bytes / secs) : 0));
	json_object_set_new(o, "iops", json_real(moved ? (double)d->total_ios / secs : 0.0));
	json_object_set_new(o, "total_ios", json_u64(d->total_ios));
	json_object_set_new(o, "runtime",
			    json_u64(moved ? (runtime_ns + NS_PER_MS / 2) / NS_PER_MS : 0));
	json_object_set_new(o, "clat_ns", clat_json(&d->clat));
	return o;
}

json_t *result_job_json(const struct job_opts *jo, unsigned loop, const struct bench_result *br)
{
	uint64_t runtime_ns = br->t_end_ns > br->t_start_ns ? br->t_end_ns - br->t_start_ns : 0;
	json_t *o = json_object(), *phases = json_object(), *active = json_object();
	json_t *opts;
	int st = br->status >= 0 && br->status <= BENCH_INTERRUPTED ? br->status : BENCH_FAILED;

	json_object_set_new(o, "jobname", json_string(jo->name));
	json_object_set_new(o, "loop", json_integer(loop));
	json_object_set_new(o, "status", json_string(status_names[st]));
	if (br->errmsg[0])
		json_object_set_new(o, "error", json_string(br->errmsg));
	else if (br->err)
		json_object_set_new(o, "error", json_string(strerror(-br->err)));
	else
		json_object_set_new(o, "error", json_null());
	opts = result_options_json(jo);
	json_object_set_new(o, "options", opts ? opts : json_object());
	json_object_set_new(o, "read", dir_json(&br->dir[DDIR_READ], runtime_ns));
	json_object_set_new(o, "write", dir_json(&br->dir[DDIR_WRITE], runtime_ns));
	/* fio's "sync" object: fdatasync/fsync calls and their latency, which dominate a
	 * small-record synced workload and are in neither direction's clat. */
	json_object_set_new(o, "sync", json_pack("{s:o,s:o}", "total_ios", json_u64(br->syncs),
						 "lat_ns", clat_json(&br->sync_lat)));
	json_object_set_new(active, "t_start_ns", json_u64(br->t_start_ns));
	json_object_set_new(active, "t_end_ns", json_u64(br->t_end_ns));
	json_object_set_new(phases, "active", active);
	json_object_set_new(o, "phases", phases);
	return o;
}

/* A profile path becomes a file-name-safe stem: "configs/quick.ini" -> "quick". */
static char *clean_stem(const char *stem)
{
	const char *base = stem && *stem ? strrchr(stem, '/') : NULL;
	char *s, *dot, *p;

	base = base ? base + 1 : (stem && *stem ? stem : "run");
	s = xstrdup(*base ? base : "run");
	dot = strrchr(s, '.');
	if (dot && dot != s && !strcmp(dot, ".ini"))
		*dot = '\0';
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			*p = '-';
	return s;
}

char *result_default_path(const char *dir, const char *stem)
{
	char stamp[32], *name, *path;
	struct tm tm;
	time_t now = time(NULL);
	int i;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	name = clean_stem(stem);
	if (!dir || !*dir)
		dir = "results";
	path = xasprintf("%s/iowatt-%s-%s.json", dir, stamp, name);
	/* Two runs in one second must not overwrite each other. */
	for (i = 2; access(path, F_OK) == 0 && i < 1000; i++) {
		free(path);
		path = xasprintf("%s/iowatt-%s-%s-%d.json", dir, stamp, name, i);
	}
	free(name);
	return path;
}

int result_write(const char *path, json_t *root)
{
	struct atomic_file af;
	char *copy = xstrdup(path), *dir;
	int rc;

	dir = dirname(copy);
	rc = strcmp(dir, ".") ? mkdir_p(dir, 0755) : 0;
	if (rc) {
		log_err(MOD, "cannot create directory %s for %s: %s", dir, path, strerror(-rc));
		free(copy);
		return rc;
	}
	free(copy);
	rc = atomic_file_open(&af, path);
	if (rc)
		return rc;
	errno = 0;
	if (json_dumpf(root, af.fp, RESULT_DUMP_FLAGS) || fputc('\n', af.fp) == EOF ||
	    ferror(af.fp)) {
		rc = errno ? -errno : -EIO;
		log_err(MOD, "writing %s: %s", path, strerror(-rc));
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af);
}

int result_load(const char *path, json_t **out)
{
	json_error_t jerr;
	json_t *root, *ver;

	*out = NULL;
	if (access(path, R_OK)) {
		int err = -errno;

		log_err(MOD, "%s: %s", path, strerror(errno));
		return err;
	}
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		log_err(MOD, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	ver = json_is_object(root) ? json_object_get(root, "schema_version") : NULL;
	if (!json_is_integer(ver)) {
		log_err(MOD, "%s: not an iowatt result (no integer schema_version)", path);
		json_decref(root);
		return -EINVAL;
	}
	if (json_integer_value(ver) > RESULT_SCHEMA_VERSION) {
		log_err(MOD, "%s: schema_version %lld is newer than this iowatt reads (%d): "
			"upgrade iowatt", path, (long long)json_integer_value(ver),
			RESULT_SCHEMA_VERSION);
		json_decref(root);
		return -EPROTONOSUPPORT;
	}
	if (json_integer_value(ver) < 1) {
		log_err(MOD, "%s: bad schema_version %lld", path, (long long)json_integer_value(ver));
		json_decref(root);
		return -EINVAL;
	}
	*out = root;
	return 0;
}
