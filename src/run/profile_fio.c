/* SPDX-License-Identifier: MIT */
/* fio job files: each fio key's meaning in iowatt (the same key, the target, ignored, refused). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/mem.h"
#include "run/profile_fio.h"

/*
 * Only keys whose meaning differs need a row: a key missing here is read as iowatt's own
 * (iowatt's job keys are named after fio's), or is unknown to both.
 */
#define ROW(name, action, to, why) { name, action, to, why, NULL }
static const struct fio_key fio_keys[] = {
	ROW("filename", FIO_KEY_TARGET, NULL, NULL),
	ROW("directory", FIO_KEY_TARGET, NULL, NULL),
	ROW("fsync", FIO_KEY_RENAME, "fdatasync",
	  "iowatt flushes the data every N writes with fdatasync; fio's "
	  "fsync also writes the file's timestamps each time (on a block device the two are "
	  "the same)"),
	ROW("time_based", FIO_KEY_REFUSE, NULL,
	  "iowatt moves a fixed amount of data per job (energy per GB needs it): give size=, "
	  "or size=auto to have a calibration choose a size that lasts long enough for the "
	  "meter"),
	ROW("ramp_time", FIO_KEY_REFUSE, NULL,
	  "iowatt measures every I/O of a job: put the warm-up in a job of its own before it"),
	ROW("startdelay", FIO_KEY_REFUSE, NULL,
	  "iowatt waits before each job for its idle baseline (idle=)"),
	ROW("rate", FIO_KEY_REFUSE, NULL,
	  "iowatt paces by I/Os: give rate_iops= (the rate divided by bs)"),
	ROW("verify", FIO_KEY_REFUSE, NULL, "iowatt does not verify what it reads"),
	ROW("do_verify", FIO_KEY_REFUSE, NULL, "iowatt does not verify what it reads"),
	ROW("offset", FIO_KEY_REFUSE, NULL,
	  "iowatt's threads start at 0 of the target, each in its own region of filesize"),
	{ "kb_base", FIO_KEY_REFUSE, NULL,
	  "sizes are read as fio reads them by default (kb_base=1024: k, m, g are binary)",
	  "1024" },
	ROW("name", FIO_KEY_IGNORE, NULL, "the [section] names the job"),
	ROW("description", FIO_KEY_IGNORE, NULL, "a comment to iowatt"),
	ROW("group_reporting", FIO_KEY_IGNORE, NULL,
	  "iowatt reports each job on a row of its own, its threads summed"),
	ROW("stonewall", FIO_KEY_IGNORE, NULL, "iowatt runs its jobs one after another anyway"),
	ROW("wait_for_previous", FIO_KEY_IGNORE, NULL,
	  "iowatt runs its jobs one after another anyway"),
	ROW("new_group", FIO_KEY_IGNORE, NULL, "iowatt reports each job on a row of its own"),
	ROW("thread", FIO_KEY_IGNORE, NULL, "iowatt's workers are threads"),
	ROW("unified_rw_reporting", FIO_KEY_IGNORE, NULL, "iowatt reports reads and writes apart"),
	ROW("percentile_list", FIO_KEY_IGNORE, NULL, "iowatt records its own percentiles"),
	ROW("clat_percentiles", FIO_KEY_IGNORE, NULL, "iowatt records its own percentiles"),
	ROW("lat_percentiles", FIO_KEY_IGNORE, NULL, "iowatt records its own percentiles"),
	ROW("write_bw_log", FIO_KEY_IGNORE, NULL, "iowatt writes its own per-interval figures"),
	ROW("write_iops_log", FIO_KEY_IGNORE, NULL, "iowatt writes its own per-interval figures"),
	ROW("write_lat_log", FIO_KEY_IGNORE, NULL, "iowatt writes its own per-interval figures"),
	ROW("log_avg_msec", FIO_KEY_IGNORE, NULL, "iowatt's period is interval="),
	ROW("per_job_logs", FIO_KEY_IGNORE, NULL, "iowatt writes its own per-interval figures"),
};

/* fio's own defaults where they differ from iowatt's: a fio file means what it means to fio. */
const struct fio_default fio_defaults[] = {
	{ "direct", "0" },
	{ "end_fsync", "0" },
	{ "ioengine", "psync" },
	{ NULL, NULL },
};

int profile_fio_is(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcmp(path + n - 4, ".fio");
}

const struct fio_key *profile_fio_key(const char *key, size_t *index)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fio_keys); i++) {
		if (!strcmp(fio_keys[i].name, key)) {
			*index = i;
			return &fio_keys[i];
		}
	}
	return NULL;
}

size_t profile_fio_nkeys(void)
{
	return ARRAY_SIZE(fio_keys);
}

/*
 * A size as fio reads it with its default kb_base=1024: k, kb, m, mb, ... are powers of
 * 1024, and the IEC spellings kib, mib, ... powers of 1000 (fio's compatibility rule).
 */
static int fio_size(const char *v, char *out, size_t len, char *err, size_t errlen)
{
	static const struct {
		const char *sfx;
		double mult;
	} units[] = {
		{ "", 1 },	   { "b", 1 },	       { "k", 0x1p10 },	 { "kb", 0x1p10 },
		{ "m", 0x1p20 },  { "mb", 0x1p20 },  { "g", 0x1p30 },	 { "gb", 0x1p30 },
		{ "t", 0x1p40 },  { "tb", 0x1p40 },  { "kib", 1e3 },	 { "mib", 1e6 },
		{ "gib", 1e9 },	   { "tib", 1e12 },
	};
	char *end;
	double x;
	size_t i;

	if (!strncmp(v, "auto", 4)) { /* iowatt's own size=auto[:SECONDS] */
		snprintf(out, len, "%s", v);
		return 0;
	}
	x = strtod(v, &end);
	for (i = 0; end != v && x >= 0 && i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].sfx))
			continue;
		x *= units[i].mult;
		if (x != floor(x) || x >= 1.8e19)
			break;
		snprintf(out, len, "%.0f", x);
		return 0;
	}
	snprintf(err, errlen, "'%s' is not a size iowatt can use (a number of bytes with an "
		 "optional k, m, g or t; no ranges, lists or percentages)", v);
	return -EINVAL;
}

int profile_fio_value(const char *key, const char *value, char *out, size_t len, char *err,
		      size_t errlen)
{
	static const char *const size_keys[] = { "bs", "blocksize", "size", "filesize" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(size_keys); i++)
		if (!strcmp(key, size_keys[i]))
			return fio_size(value, out, len, err, errlen);
	/* fio's sync engine is read(2)/write(2) after lseek: the device sees psync's I/O. */
	if ((!strcmp(key, "ioengine") || !strcmp(key, "engine")) && !strcmp(value, "sync"))
		value = "psync";
	snprintf(out, len, "%s", value);
	return 0;
}
