/* SPDX-License-Identifier: MIT */
/* The job option table: fio's job keys, then each compiled-in engine's own, then phases. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/units.h"
#include "io/engine.h"
#include "io/job.h"

#define MOD "job"
#define JOFF(f) offsetof(struct job_opts, f)
#define G_JOB "Job options (profile keys; as flags they override every job of a profile)"
#define G_PHASE "Metering phases (idle baseline before each job, tail after it)"
/* Engines' options structs start on this boundary inside job_opts.engine_opts. */
#define ENGINE_OPTS_ALIGN 8

/* The names the result's summary uses for these figures. */
static const struct opt_choice steady_choices[] = {
	{ "none", "no steady-state judgement" },
	{ "iops", "I/Os per second" },
	{ "bw", "bytes per second" },
	{ "j_per_gb", "energy per GB (needs a meter)" },
	{ NULL, NULL },
};

static const struct opt_choice rw_choices[] = {
	{ "read", "sequential reads" },
	{ "write", "sequential writes" },
	{ "randread", "random reads" },
	{ "randwrite", "random writes" },
	{ "randrw", "random mix of reads and writes (see rwmixread)" },
	{ "rewrite", "sequential writes over data already written: iozone's second write pass" },
	{ "reread", "sequential reads of data just read: iozone's second read pass" },
	{ "trim", "sequential discards (TRIM): BLKDISCARD on a block device, punched holes in "
		  "a file" },
	{ NULL, NULL },
};

/*
 * The generic part of the job option table (job_option_table adds the engines' own).
 * Names and meanings follow fio so that a fio user's job file reads the same here.
 */
static const struct opt_desc base_options[] = {
	{ .name = "rw", .alias = "readwrite", .type = OPT_ENUM, .off = JOFF(rw), .def = "read",
	  .choices = rw_choices, .metavar = "MODE", .help = "I/O pattern", .group = G_JOB },
	{ .name = "rwmixread", .type = OPT_UINT, .off = JOFF(rwmixread), .def = "50", .min = 0,
	  .max = 100, .metavar = "PERCENT", .help = "share of reads in randrw, in percent",
	  .group = G_JOB },
	{ .name = "bs", .alias = "blocksize", .type = OPT_SIZE, .off = JOFF(bs), .def = "4k",
	  .min = 1, .max = (double)GIB, .help = "bytes per I/O (record size)", .group = G_JOB },
	{ .name = "iodepth", .type = OPT_UINT, .off = JOFF(iodepth), .def = "1", .min = 1,
	  .max = 65536, .help = "I/Os in flight per thread (asynchronous engines)", .group = G_JOB },
	{ .name = "size", .type = OPT_SIZE, .off = JOFF(size), .min = 1,
	  .auto_off = JOFF(size_auto_ns), .metavar = "SIZE|auto[:SECONDS]",
	  .help = "bytes each thread moves; required: a fixed amount of work, not a time. "
		  "auto: a short calibration picks it so the active phase lasts what the "
		  "slowest meter needs for a valid result (20 samples) or SECONDS",
	  .group = G_JOB },
	{ .name = "filesize", .type = OPT_SIZE, .off = JOFF(filesize), .min = 1,
	  .help = "extent each thread works in (default: size; smaller wraps around)",
	  .group = G_JOB },
	{ .name = "size_max", .type = OPT_SIZE, .off = JOFF(size_max), .min = 1,
	  .help = "size=auto's cap per thread: the file region holds at most this (the job "
		  "wraps around it to last its length) and a job that writes writes at most "
		  "this, paced to last its length (its MB/s is then the pace)",
	  .group = G_JOB },
	{ .name = "direct", .type = OPT_BOOL, .off = JOFF(direct), .def = "1",
	  .help = "O_DIRECT: bypass the page cache so the device, not RAM, is measured",
	  .group = G_JOB },
	/* Choices and help come from the engine registry (build_table). */
	{ .name = "ioengine", .alias = "engine", .type = OPT_STR, .off = JOFF(ioengine),
	  .size = sizeof(((struct job_opts *)0)->ioengine), .metavar = "ENGINE",
	  .group = G_JOB },
	{ .name = "fdatasync", .type = OPT_UINT, .off = JOFF(fdatasync), .def = "0",
	  .help = "fdatasync after every N writes (0 = never)",
	  .group = G_JOB },
	{ .name = "end_fsync", .type = OPT_BOOL, .off = JOFF(end_fsync),
	  .help = "fsync when the job ends, inside the measured time (auto: 1 if it writes)",
	  .group = G_JOB },
	{ .name = "rate_iops", .type = OPT_U64, .off = JOFF(rate_iops), .def = "0",
	  .help = "pace each thread to N I/Os per second (0 = as fast as possible)",
	  .group = G_JOB },
	{ .name = "rate_dither", .type = OPT_PERCENT, .off = JOFF(rate_dither), .def = "0",
	  .min = 0, .max = 1,
	  .help = "paced jobs: start each I/O a random 0..this share of its 1/rate_iops slot "
		  "late (uniform, drawn from randseed), so a slow meter's samples fall at every "
		  "phase of the load instead of one (100%: the whole slot; unpaced jobs ignore it)",
	  .group = G_JOB },
	{ .name = "thinktime", .type = OPT_DURATION, .off = JOFF(thinktime_ns), .def = "0",
	  .min = 0, .max = 3600e9, .bare_unit_ns = NS_PER_US,
	  .help = "pause this long after every thinktime_blocks I/Os have completed (and their "
		  "fdatasync) before issuing more: bursts with idle between them (fio's meaning; "
		  "a bare number is microseconds, as in fio; 0 = none)",
	  .group = G_JOB },
	{ .name = "thinktime_blocks", .type = OPT_UINT, .off = JOFF(thinktime_blocks), .def = "1",
	  .min = 1, .max = 1u << 30, .metavar = "N",
	  .help = "I/Os per burst: thinktime pauses after every N of them", .group = G_JOB },
	{ .name = "thinktime_dither", .type = OPT_PERCENT, .off = JOFF(thinktime_dither),
	  .def = "0", .min = 0, .max = 1,
	  .help = "draw each thinktime pause uniformly from thinktime x (1 +- this / 2), from "
		  "randseed: the mean pause stays thinktime, while the bursts fall at every phase "
		  "of a slow meter's readings instead of one (100%: 0.5 to 1.5 x thinktime)",
	  .group = G_JOB },
	{ .name = "runtime", .type = OPT_DURATION, .off = JOFF(runtime_ns), .def = "0",
	  .help = "stop a job early after this long (0 = no cap; bare number = seconds)",
	  .group = G_JOB },
	{ .name = "randseed", .type = OPT_U64, .off = JOFF(randseed), .def = "0x1234",
	  .help = "seed of the random offsets: the same seed repeats the same pattern",
	  .group = G_JOB },
	{ .name = "loops", .type = OPT_UINT, .off = JOFF(loops), .def = "1", .min = 1,
	  .max = 1000000, .help = "run the job N times back to back, each loop reported",
	  .group = G_JOB },
	{ .name = "repeat", .type = OPT_UINT, .off = JOFF(repeat), .def = "1", .min = 1,
	  .max = 100000, .metavar = "N",
	  .help = "run every job in N rounds (A B C, then again), each reported; the result "
		  "sums each job up over its valid rounds: mean, stddev, 95 % interval",
	  .group = G_JOB },
	{ .name = "steady", .type = OPT_ENUM, .off = JOFF(steady), .def = "none",
	  .choices = steady_choices, .metavar = "METRIC",
	  .help = "judge steady state on this figure over the rounds (SNIA PTS: 5 rounds "
		  "within 20 % of their mean, fit line within 10 %)",
	  .group = G_JOB },
	{ .name = "repeat_until_steady", .type = OPT_UINT, .off = JOFF(repeat_until_steady),
	  .def = "0", .min = 0, .max = 100000, .metavar = "MAX",
	  .help = "rounds until the job is steady (steady=, iops if unset), at most MAX",
	  .group = G_JOB },
	{ .name = "trim_before", .type = OPT_BOOL, .off = JOFF(trim_before), .def = "0",
	  .help = "discard the job's extent before it, outside any measurement (a device or "
		  "file iowatt may write)", .group = G_JOB },
	{ .name = "numjobs", .type = OPT_UINT, .off = JOFF(numjobs), .def = "1", .min = 1,
	  .max = 64, .help = "threads, each with its own region of filesize bytes",
	  .group = G_JOB },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch", .type = OPT_UINT,
	  .off = JOFF(iodepth_batch_submit), .def = "0", .min = 0, .max = 65536,
	  .help = "I/Os submitted per engine call (0 = iodepth / 4)", .group = G_JOB },
	{ .name = "iodepth_batch_complete", .alias = "iodepth_batch_complete_min",
	  .type = OPT_UINT, .off = JOFF(iodepth_batch_complete), .def = "0", .min = 0,
	  .max = 65536, .help = "completions to wait for per reap (0 = iodepth / 8)",
	  .group = G_JOB },

	{ .name = "idle", .type = OPT_DURATION, .off = JOFF(idle_ns), .def = "10s", .min = 0,
	  .max = 3600e9, .help = "idle baseline measured before each job (0 = none)",
	  .group = G_PHASE },
	{ .name = "idle_samples", .type = OPT_UINT, .off = JOFF(idle_samples), .def = "20",
	  .min = 0, .max = 1000000,
	  .help = "and at least this many quiet meter samples in it (the target did no I/O)",
	  .group = G_PHASE },
	{ .name = "idle_max", .type = OPT_DURATION, .off = JOFF(idle_max_ns), .def = "0",
	  .min = 0, .max = 3600e9,
	  .help = "the idle phase runs on for quiet samples at most this long in all (0 = 3 x "
		  "idle)",
	  .group = G_PHASE },
	{ .name = "idle_settle", .type = OPT_DURATION, .off = JOFF(idle_settle_ns), .def = "1s",
	  .min = 0, .max = 60e9,
	  .help = "a sample this long after the target's last I/O (plus the meter's period) "
		  "is not quiet",
	  .group = G_PHASE },
	{ .name = "tail_tolerance", .type = OPT_PERCENT, .off = JOFF(tail_tolerance),
	  .def = "5%", .min = 0.001, .max = 1,
	  .help = "tail ends when power is back within this much of idle (5% or 0.05)",
	  .group = G_PHASE },
	{ .name = "tail_hold", .type = OPT_DURATION, .off = JOFF(tail_hold_ns), .def = "3s",
	  .min = 0, .max = 3600e9, .help = "power must stay within tolerance this long",
	  .group = G_PHASE },
	{ .name = "tail_max", .type = OPT_DURATION, .off = JOFF(tail_max_ns), .def = "60s",
	  .min = 0, .max = 86400e9,
	  .help = "stop waiting for the drive to settle after this long (0 = no tail)",
	  .group = G_PHASE },
	{ .name = "interval", .type = OPT_DURATION, .off = JOFF(interval_ns), .def = "1s",
	  .min = 100e6, .max = 3600e9, .help = "period of the per-interval statistics",
	  .group = G_PHASE },
	{ .name = "max_uncertainty", .type = OPT_PERCENT, .off = JOFF(max_uncertainty),
	  .def = "5%", .min = 0.0001, .max = 10,
	  .help = "a job whose J/GB (or IOPS/mA) is known to worse than this (95 %) is "
		  "flagged uncertain",
	  .group = G_PHASE },
};

/*
 * The built table, with the owner of each row (NULL for generic options). Engines'
 * option offsets are relative to their own struct; here they become offsets into
 * struct job_opts, so opt_set/opt_format/opt_apply_defaults treat every row alike.
 */
struct job_table {
	struct opt_desc *d;
	const struct io_engine **owner;
	size_t n;
	struct opt_choice *engine_choices;
	char engine_help[256];
};

static struct job_table table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static size_t opts_span(const struct io_engine *e)
{
	return (e->options_size + ENGINE_OPTS_ALIGN - 1) / ENGINE_OPTS_ALIGN * ENGINE_OPTS_ALIGN;
}

/* Engines' slices follow the registry's order. */
static size_t engine_slice(const struct io_engine *e)
{
	size_t off = 0, i;

	for (i = 0; io_engines[i] && io_engines[i] != e; i++)
		off += opts_span(io_engines[i]);
	return off;
}

/* The ioengine row: choices and the default's explanation from the registry. */
static void engine_row(struct job_table *t, struct opt_desc *d)
{
	size_t i, used;

	for (i = 0; io_engines[i]; i++)
		;
	t->engine_choices = xcalloc(i + 1, sizeof(*t->engine_choices));
	used = (size_t)snprintf(t->engine_help, sizeof(t->engine_help),
				"how I/O is issued (unset: the best the kernel allows, of");
	for (i = 0; io_engines[i]; i++) {
		t->engine_choices[i].name = io_engines[i]->name;
		t->engine_choices[i].help = io_engines[i]->help;
		if (used < sizeof(t->engine_help))
			used += (size_t)snprintf(t->engine_help + used, sizeof(t->engine_help) - used,
						 "%s %s", i ? "," : "", io_engines[i]->name);
	}
	if (used < sizeof(t->engine_help))
		snprintf(t->engine_help + used, sizeof(t->engine_help) - used,
			 "; with direct=0 one that does buffered I/O)");
	d->choices = t->engine_choices;
	d->help = t->engine_help;
}

static void add_engine_rows(struct job_table *t)
{
	const struct io_engine *e;
	struct opt_desc *d;
	size_t i, k;

	for (i = 0; (e = io_engines[i]); i++) {
		for (k = 0; k < e->noptions; k++) {
			d = &t->d[t->n];
			*d = e->options[k];
			d->off += JOFF(engine_opts) + engine_slice(e);
			t->owner[t->n++] = e;
		}
	}
}

static void build_table(void)
{
	size_t i, n = ARRAY_SIZE(base_options), total = 0;
	int engines_added = 0;

	for (i = 0; io_engines[i]; i++) {
		n += io_engines[i]->noptions;
		total += opts_span(io_engines[i]);
	}
	if (total > JOB_ENGINE_OPTS_SIZE) {
		log_err(MOD, "engines' options need %zu bytes, job_opts has %d: raise "
			"JOB_ENGINE_OPTS_SIZE", total, JOB_ENGINE_OPTS_SIZE);
		abort();
	}
	table.d = xcalloc(n, sizeof(*table.d));
	table.owner = xcalloc(n, sizeof(*table.owner));
	for (i = 0; i < ARRAY_SIZE(base_options); i++) {
		if (!engines_added && job_option_is_phase(&base_options[i])) {
			add_engine_rows(&table);
			engines_added = 1;
		}
		table.d[table.n] = base_options[i];
		if (base_options[i].off == JOFF(ioengine))
			engine_row(&table, &table.d[table.n]);
		table.n++;
	}
	if (!engines_added)
		add_engine_rows(&table);
}

const struct opt_desc *job_option_table(size_t *n)
{
	pthread_once(&table_once, build_table);
	*n = table.n;
	return table.d;
}

const struct io_engine *job_option_engine(const struct opt_desc *d)
{
	size_t n, i;
	const struct opt_desc *t = job_option_table(&n);

	/* By offset and name, so a copy of a row (a --help selection) is recognised too. */
	for (i = 0; i < n; i++)
		if (t[i].off == d->off && !strcmp(t[i].name, d->name))
			return table.owner[i];
	return NULL;
}

int job_option_applies(const struct job_opts *jo, const struct opt_desc *d)
{
	const struct io_engine *e = job_option_engine(d);

	return !e || !strcmp(e->name, jo->ioengine);
}

const void *job_engine_opts(const struct job_opts *jo, const struct io_engine *e)
{
	return jo->engine_opts + engine_slice(e);
}

int job_option_is_phase(const struct opt_desc *d)
{
	return d->group && !strcmp(d->group, G_PHASE);
}
