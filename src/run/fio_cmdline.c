/* SPDX-License-Identifier: MIT */
/* --explain fio: per job, the fio command line that runs the same I/O on the same target. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/text.h"
#include "io/engine.h"
#include "io/job.h"
#include "run/fio_cmdline.h"

/* The scratch file's name in a directory target (fio would name its own after the job). */
#define FIO_SCRATCH "iowatt-fio.scratch"

static void put_opt(FILE *fp, const char *name, const char *value)
{
	char *w = xasprintf("--%s=%s", name, value);

	fputc(' ', fp);
	text_shell_word(fp, w);
	free(w);
}

static void put_u64(FILE *fp, const char *name, unsigned long long v)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu", v);
	put_opt(fp, name, b);
}

/* The engine's own keys are named after fio's: bare when a flag is on, else =value. */
static void put_engine_opts(FILE *fp, const struct job_opts *jo)
{
	size_t n, i;
	const struct opt_desc *t = job_option_table(&n);
	const struct io_engine *e;
	char v[64];

	for (i = 0; i < n; i++) {
		e = job_option_engine(&t[i]);
		if (!e || strcmp(e->name, jo->ioengine))
			continue;
		opt_format(&t[i], jo, v, sizeof(v));
		if (t[i].type == OPT_BOOL && strcmp(v, "0"))
			fprintf(fp, " --%s", t[i].name);
		else if (t[i].type != OPT_BOOL)
			put_opt(fp, t[i].name, v);
	}
}

/* What fio cannot be told: said above the line, so nobody takes it for the same run. */
static void put_notes(FILE *fp, const struct job_opts *jo)
{
	if (jo->rw != rw_pattern(jo->rw) && jo->rw != RW_TRIM)
		fprintf(fp, "# %s: %s's second pass: run it after the job that wrote the file\n",
			jo->name, rw_name(jo->rw));
	if (jo->trim_before)
		fprintf(fp, "# %s: trim_before=1 is iowatt's own: discard the extent first "
			    "(blkdiscard, fallocate --punch-hole)\n", jo->name);
	if (jo->rate_dither > 0)
		fprintf(fp, "# %s: rate_dither=%.0f%% is iowatt's own: fio paces evenly\n", jo->name,
			jo->rate_dither * 100);
	if (jo->thinktime_dither > 0)
		fprintf(fp, "# %s: thinktime_dither=%.0f%% is iowatt's own: fio pauses evenly\n",
			jo->name, jo->thinktime_dither * 100);
	if (jo->size_auto_ns)
		fprintf(fp, "# %s: size=auto is chosen when the job runs: set SIZE to the size "
			    "the result's job options hold\n", jo->name);
}

static void put_job(FILE *fp, const struct job_opts *jo, const char *file)
{
	uint64_t extent = jo->filesize ? jo->filesize : jo->size;
	char b[32];

	put_notes(fp, jo);
	fputs("fio", fp);
	put_opt(fp, "name", jo->name);
	put_opt(fp, "filename", file);
	/* fio's trim is iowatt's: both discard sequentially */
	put_opt(fp, "rw", rw_name(jo->rw == RW_TRIM ? RW_TRIM : rw_pattern(jo->rw)));
	if (jo->rw == RW_RANDRW)
		put_u64(fp, "rwmixread", jo->rwmixread);
	put_u64(fp, "bs", jo->bs);
	if (jo->size_auto_ns) {
		fputs(" --size=\"${SIZE:?the size iowatt chose}\"", fp);
	} else {
		put_u64(fp, "size", extent);
		if (extent != jo->size)
			put_u64(fp, "io_size", jo->size);
	}
	put_opt(fp, "ioengine", jo->ioengine);
	put_u64(fp, "iodepth", jo->iodepth);
	if (jo->iodepth_batch_submit)
		put_u64(fp, "iodepth_batch_submit", jo->iodepth_batch_submit);
	if (jo->iodepth_batch_complete)
		put_u64(fp, "iodepth_batch_complete_min", jo->iodepth_batch_complete);
	put_engine_opts(fp, jo);
	put_u64(fp, "direct", (unsigned)jo->direct);
	if (jo->numjobs > 1) {
		/* iowatt's threads each own a region; fio's clones would share one. */
		put_u64(fp, "numjobs", jo->numjobs);
		if (!jo->size_auto_ns)
			put_u64(fp, "offset_increment", extent);
		fputs(" --group_reporting", fp);
	}
	if (jo->fdatasync)
		put_u64(fp, "fdatasync", jo->fdatasync);
	put_u64(fp, "end_fsync", (unsigned)job_end_fsync(jo));
	if (jo->rate_iops)
		put_u64(fp, "rate_iops", jo->rate_iops);
	if (jo->thinktime_ns) {
		snprintf(b, sizeof(b), "%lluus",
			 (unsigned long long)((jo->thinktime_ns + 500) / 1000));
		put_opt(fp, "thinktime", b);
		put_u64(fp, "thinktime_blocks", jo->thinktime_blocks);
	}
	if (jo->runtime_ns) {
		snprintf(b, sizeof(b), "%llums",
			 (unsigned long long)((jo->runtime_ns + 500000) / 1000000));
		put_opt(fp, "runtime", b);
	}
	put_u64(fp, "randseed", jo->randseed);
	if (jo->loops > 1)
		put_u64(fp, "loops", jo->loops);
	fputc('\n', fp);
}

/*
 * The commands write where the job would: an existing file or a device gets them only when
 * the run itself would write there (--force, --allow-raw-device), as iowatt never hands out
 * a command that destroys what it would refuse to touch. 0, or -EEXIST (logged).
 */
static int writes_allowed(const struct run_config *cfg, const struct stat *st)
{
	const struct job_opts *w = NULL;
	size_t i;

	for (i = 0; i < cfg->njobs && !w; i++)
		if (rw_writes(cfg->jobs[i].rw))
			w = &cfg->jobs[i];
	if (!w)
		return 0;
	if (S_ISBLK(st->st_mode) && !cfg->run.allow_raw_device) {
		log_err(NULL, "--explain fio: %s is a block device and job '%s' writes: its fio "
			"command would destroy the device's data, which the run itself refuses "
			"without --allow-raw-device", cfg->run.target, w->name);
		return -EEXIST;
	}
	if (S_ISREG(st->st_mode) && !cfg->run.force) {
		log_err(NULL, "--explain fio: %s is an existing file and job '%s' writes: its fio "
			"command would overwrite it, which the run itself refuses without --force "
			"(give a directory or a new file name)", cfg->run.target, w->name);
		return -EEXIST;
	}
	return 0;
}

int fio_cmdline_print(FILE *fp, const struct run_config *cfg)
{
	const char *target = cfg->run.target;
	struct stat st;
	char *file;
	size_t i;
	int err;

	if (!stat(target, &st) && !S_ISDIR(st.st_mode) && (err = writes_allowed(cfg, &st)))
		return err;
	if (!stat(target, &st) && S_ISDIR(st.st_mode))
		file = xasprintf("%s/%s", target, FIO_SCRATCH);
	else
		file = xstrdup(target);
	fprintf(fp, "# The I/O of each job as a fio command (fio measures no power). Random "
		    "offsets follow the same pattern, not iowatt's sequence.\n");
	if (strcmp(file, target)) {
		fputs("# The target is a directory: the commands use ", fp);
		text_shell_word(fp, file);
		fputs("; remove it afterwards.\n", fp);
	}
	for (i = 0; i < cfg->njobs; i++)
		put_job(fp, &cfg->jobs[i], file);
	free(file);
	if (fflush(fp)) {
		log_err(NULL, "--explain fio: cannot write the commands: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}
