/* SPDX-License-Identifier: MIT */
/* Job and run option structures: what one workload is, and what the whole run uses. */
#ifndef IOWATT_JOB_H
#define IOWATT_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "core/options.h"

/* The smallest logical block of any device: what O_DIRECT needs at least, and the block
 * size assumed when the device does not say. */
#define SECTOR_BYTES 512
/* size=auto without size= or filesize=: the extent the job works in (it wraps around). */
#define SIZE_AUTO_EXTENT (256ULL * 1024 * 1024)

/* Room for all engines' option structs together; job.c checks they fit. */
#define JOB_ENGINE_OPTS_SIZE 64

/* TRIM discards its region sequentially in bs pieces (BLKDISCARD on a block device, a
 * punched hole in a file); its figures are counted as the write direction's. */
/* REWRITE and REREAD are iozone's second passes: sequential, over a file already
 * written (or read) before the job starts. */
enum rw_mode { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RANDRW, RW_REWRITE, RW_REREAD,
	       RW_TRIM };
/* The figure a job's steady state is judged on (steady=). */
enum steady_metric { STEADY_NONE, STEADY_IOPS, STEADY_BW, STEADY_J_PER_GB };
enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_COUNT = 2 };

/*
 * One job as fio spells its options. Values are resolved: defaults applied, [global]
 * inherited, command-line overrides applied, validated (job_validate).
 * numjobs follows fio: each of the numjobs threads moves `size` bytes in its own
 * region of `filesize` bytes, so the file's extent is numjobs * filesize.
 */
struct job_opts {
	char name[64];
	char src_file[256]; /* profile that defined it, "" for the command line */
	int src_line;

	int rw;		    /* enum rw_mode */
	unsigned rwmixread; /* percent of reads for randrw, default 50 */
	uint64_t bs;
	unsigned iodepth;
	uint64_t size;	   /* bytes per thread: the job ends when exactly this much is done */
	/* size=auto[:SECONDS]: the run chooses size from a calibration (run/size_auto.c);
	 * the minimum active time asked for, OPT_AUTO_BARE for none; 0 = size is fixed */
	uint64_t size_auto_ns;
	uint64_t filesize; /* extent per thread; 0 = size */
	/* size=auto's cap per thread (0: none): the region is at most this, and a job that
	 * writes writes at most this, paced to last its length (job_region, size_auto_fit) */
	uint64_t size_max;
	int direct;	   /* default 1 */
	char ioengine[16]; /* an io_engines[] name; "" until job_fixup picks the default */
	unsigned fdatasync; /* fdatasync every N writes; 0 = never */
	int end_fsync;	    /* -1 = default (1 for jobs that write) */
	uint64_t rate_iops; /* 0 = unpaced; per thread */
	double rate_dither; /* paced I/O k starts at a uniform 0..this share of its slot late */
	/* fio's thinktime: pause this long after every thinktime_blocks I/Os (and their
	 * fdatasync) have completed; 0 = none */
	uint64_t thinktime_ns;
	unsigned thinktime_blocks;
	double thinktime_dither; /* each pause uniform in thinktime x (1 +- this / 2) */
	uint64_t runtime_ns; /* optional cap; 0 = none */
	uint64_t randseed;
	unsigned loops;	  /* repeat N times back to back, each reported */
	unsigned repeat;  /* rounds: every job once per round (A B C, A B C ...), default 1 */
	int steady;	  /* enum steady_metric: judged over the rounds (SNIA PTS) */
	unsigned repeat_until_steady; /* 0, or at most this many rounds, fewer once steady */
	int trim_before;  /* discard the job's extent before it (outside any measurement) */
	unsigned numjobs; /* threads */
	unsigned iodepth_batch_submit;	 /* 0 = engine default */
	unsigned iodepth_batch_complete; /* 0 = engine default */

	/* Metering phases, also options so profiles and tests can shorten them. */
	uint64_t idle_ns;	  /* idle baseline before the job, default 10 s */
	unsigned idle_samples;	  /* and at least this many quiet samples, default 20 */
	uint64_t idle_max_ns;	  /* extended for them at most this long in all; 0: 3 x idle */
	uint64_t idle_settle_ns;  /* a reading this long after the target's I/O is not quiet */
	double tail_tolerance;	  /* fraction of idle power, default 0.05 */
	uint64_t tail_hold_ns;	  /* within tolerance this long, default 3 s */
	uint64_t tail_max_ns;	  /* give up after, default 60 s */
	uint64_t interval_ns;	  /* per-interval statistics period, default 1 s, min 100 ms */
	double max_uncertainty;	  /* headline figure's U95 above this share: `uncertain` */

	/* Every compiled-in engine's own options, each engine in its slice (job_engine_opts). */
	_Alignas(8) unsigned char engine_opts[JOB_ENGINE_OPTS_SIZE];
};

#define MAX_METERS 8
#define MAX_SAME_SIZE_FILES 16

/* Run-wide options: the command line only, never a profile (a shared profile must not
 * choose which device gets written). */
struct run_opts {
	char *profile;	   /* -p/--profile or the first positional argument */
	char *target;	   /* --target DIR|FILE|BLOCKDEV */
	char *label;	   /* --label TEXT: the user's name for the device, kept in the result */
	char *output_dir;  /* --output, default "results" */
	char *json_out;	   /* --json-out FILE, exact path */
	int keep;	   /* --keep: leave the test file */
	int allow_raw_device;
	int force;
	char *meters[MAX_METERS]; /* --meter SPEC, repeatable */
	unsigned nmeters;
	int no_meter;		   /* --no-meter: skip the embedded default (demo) */
	int stop_on_undervoltage;
	int strict; /* exit 4 when a job is INVALID, 5 when one is UNCERTAIN */
	double uv_threshold_v;	   /* meter voltage below this is an undervoltage event, 4.75 */
	char *sysfs_root;	   /* --sysfs-root, default "" (the real /sys) */
	char *kmsg_path;	   /* --kmsg, default /dev/kmsg; "none" disables */
	char *mark_gpio;	   /* --mark-gpio CHIP:LINE */
	int mark_input;		   /* --mark-input: 0 auto, n + 1 the meter's input Dn */
	char *uv_gpio;		   /* --uv-gpio CHIP:LINE[,active_low] */
	int progress;		   /* -1 auto (TTY), 0 off, 1 on */
	char *jobs_filter;	   /* --jobs NAME[,NAME]: run only these sections */
	int same_size;		   /* --same-size: size=auto once per job, before the first */
	char *same_size_as[MAX_SAME_SIZE_FILES]; /* --same-size-as RESULT: and no smaller */
	unsigned nsame_size_as;
	char *rates_from;	   /* --rates-from RESULT: the device's earlier result */
	char *costs_from;	   /* --costs-from RESULT: the plan's forecast's costs */
	int dry_run;		   /* --dry-run: print the plan, run nothing */
	int explain;		   /* --explain fio (1): print fio's command per job, run nothing */
	int samples_mode;	   /* --samples: enum samples_mode (run/output.h) */
	uint64_t samples_bin_ns;   /* --samples-bin */
	uint64_t kill_after_ns;	   /* measure --kill-after: SIGKILL the command's group after */
	int kill_descendants;	   /* measure --kill-descendants: end what it leaves running */
};

struct run_config {
	struct run_opts run;
	struct job_opts *jobs;
	size_t njobs;
	char **cmd_argv; /* measure: the command and its arguments, NULL-terminated */
	int cmd_argc;
};

static inline int rw_is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
}

static inline int rw_reads(int rw)
{
	return rw == RW_READ || rw == RW_RANDREAD || rw == RW_RANDRW || rw == RW_REREAD;
}

static inline int rw_writes(int rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_REWRITE;
}

/* The pass as the I/O pattern sees it: a second pass is the first one again; a trim
 * goes over its region as a sequential write would. */
static inline int rw_pattern(int rw)
{
	return rw == RW_REWRITE || rw == RW_TRIM ? RW_WRITE : rw == RW_REREAD ? RW_READ : rw;
}

/* Whether the job changes what the target holds: it writes, discards, or trims first.
 * The target's rules for writing (target.h) hold for all three. */
static inline int job_modifies(const struct job_opts *jo)
{
	return rw_writes(jo->rw) || jo->rw == RW_TRIM || jo->trim_before;
}

const char *rw_name(int rw);
/* size_max in whole blocks (at least one); 0 when the job has no size_max or no size=auto. */
uint64_t job_size_cap(const struct job_opts *jo);
/* The effective end_fsync (resolves -1). */
int job_end_fsync(const struct job_opts *jo);
/*
 * Bytes one thread works in: filesize, else size; a size=auto job with neither works in
 * SIZE_AUTO_EXTENT. What the job was given stays as given: this says what it means.
 */
uint64_t job_region(const struct job_opts *jo);
/* Bytes the job's file must span: numjobs * job_region(). */
uint64_t job_extent(const struct job_opts *jo);
/*
 * The job moving size bytes per thread in the region it was given: what size=auto
 * resolves to once chosen (and what its calibration runs), a fixed-size job.
 */
struct job_opts job_sized(const struct job_opts *jo, uint64_t size);

struct io_engine;

/*
 * The job option table behind INI keys, `run` flags, --help and the result's "options":
 * the generic options, then each compiled-in engine's own (offsets into struct job_opts
 * like the others), then the metering phases. Built on first use, never freed.
 */
const struct opt_desc *job_option_table(size_t *n);
/* The engine an option of that table belongs to, NULL for a generic option. */
const struct io_engine *job_option_engine(const struct opt_desc *d);
/* Whether the option means anything for this job: generic, or of the job's engine. */
int job_option_applies(const struct job_opts *jo, const struct opt_desc *d);
/* The engine's options struct inside jo (what engine_setup.opts points to). */
const void *job_engine_opts(const struct job_opts *jo, const struct io_engine *e);

/* Defaults, then checks across options (bs alignment, direct=0 with an engine that needs
 * O_DIRECT ...). Logs "FILE:LINE: job 'name': ..." and returns -EINVAL. */
void job_defaults(struct job_opts *jo);
int job_validate(const struct job_opts *jo);
/*
 * Resolutions and adjustments that are warnings, not errors: an unset ioengine becomes
 * the best engine this build has and the kernel allows (a refused one is skipped with a
 * warning); a synchronous engine runs at iodepth 1.
 */
void job_fixup(struct job_opts *jo);
/* The metering-phase checks alone (what `measure` uses: it has no I/O job). */
int job_validate_phases(const struct job_opts *jo);
/* Whether a job option is a metering-phase option (the ones `measure` accepts). */
int job_option_is_phase(const struct opt_desc *d);

#endif
