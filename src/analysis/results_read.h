/* SPDX-License-Identifier: MIT */
/* Several loaded results, named per device, and the per-job figures charts and tables use. */
#ifndef IOWATT_ANALYSIS_RESULTS_READ_H
#define IOWATT_ANALYSIS_RESULTS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "core/units.h"
#include "result/result.h"

#define RR_LABEL_MAX 200
#define RR_REASONS_MAX 2048
/* A verdict's cause in a table cell, and the cell with its word. */
#define RR_CAUSE_MAX 60
#define RR_VERDICT_SHORT 128

struct rr_result {
	char *path;
	struct run_result rep;
	char **names;	     /* per job: "NAME #2" for its second loop, else its jobname */
	char label[RR_LABEL_MAX]; /* device name: --label, or vendor model (transport, link) */
	char transport[16];
	char link[48];	     /* "USB 5000M", "PCIe Gen3 x1", "" */
	char filesystem[48]; /* "ext4 noatime" */
	char meter[96];	     /* driver names, ","-joined; "none" */
	int emulated, manual; /* any meter emulated / manual, or the run was emulated */
	int has_power;	      /* at least one job carries power figures */
	int device_idx;	      /* same label -> same index: one colour per device */
};

struct rr_set {
	struct rr_result *res;
	size_t nres;
	char **devices; /* distinct labels in order of first appearance */
	size_t ndevices;
};

/*
 * Load files; labels[] holds "FILE=NAME" overrides. On failure everything loaded so far
 * is freed. 0 or -errno (logged, naming the file).
 */
int rr_set_load(struct rr_set *set, char *const *paths, size_t npaths, char *const *labels,
		size_t nlabels);
void rr_set_free(struct rr_set *set);

/* Distinct job names across results, in order of first appearance; a job with rounds
 * (a summary) only by its first entry's name. Caller frees array. */
size_t rr_job_names(const struct rr_set *set, const char ***names);
/* The job of that name ("NAME #2" for a loop, or a plain job name: its first loop). */
const struct job_result *rr_find_job(const struct rr_result *r, const char *name);
/* A job's name in tables and charts ("NAME #2" for a second loop). */
const char *rr_job_name(const struct rr_result *r, const struct job_result *j);

/* A meter as a reader knows it: its model and the port it sat on ("UM25C on rfcomm0"),
 * not its spec with every parameter. */
void rr_meter_name(const struct result_meter *m, char *buf, size_t len);

/* Path of a companion CSV ("intervals" or "samples"), always beside the result; caller
 * frees. NULL (logged) when the result names a file elsewhere. */
char *rr_companion_path(const struct rr_result *r, const char *kind);

/* A stream of MB/day is written in large blocks: model it with a job near this bs. */
#define RR_STREAM_BS MIB
/*
 * The job that models a workload direction (writes or reads) of block size want_bs:
 * power figures, finished, valid before invalid, closest bs in ratio, pure direction
 * before mixed. force names a job to use instead. NULL when none qualifies.
 */
const struct job_result *rr_pick_job(const struct rr_result *r, int writes, uint64_t want_bs,
				     const char *force);

/*
 * Per-job figures (results_job.c). Where the document has none, numbers are NAN and the
 * power/efficiency objects are all NAN; a direction that is absent moves nothing.
 */
const struct result_power *rr_power(const struct job_result *j);
const struct result_efficiency *rr_eff(const struct job_result *j);
/* Power figures present: a power object with an active_w. */
int rr_has_power(const struct job_result *j);
/* 1 valid, 0 invalid (or not finished), -1 when no meter judged it. */
int rr_valid(const struct job_result *j);
/*
 * A job's verdict (verdict.c), the same in every table, chart and file: one word
 * (rr_verdict_word: "valid", "EMULATED", "MANUAL", "UNCERTAIN", "INVALID"; "-" without a
 * validity) and, when it is not plainly valid, its dominant cause in a few words
 * (rr_verdict_short: "UNCERTAIN: idle not quiet", "INVALID: 6 samples < 20"), the whole
 * of it in rr_verdict_text (the reasons, the interval over its limit and why, the
 * status). A job that did not finish is never valid, whatever its validity says.
 */
const char *rr_verdict_word(const struct result_validity *v, int status);
void rr_verdict_short(const struct result_validity *v, int status, char *buf, size_t len);
void rr_verdict_text(const struct result_validity *v, int status, char *buf, size_t len);
/* One reason in a few words (a table of the reasons the run writes), else the reason cut
 * at a word with "..." to RR_CAUSE_MAX characters. */
void rr_cause_short(const char *reason, char *buf, size_t len);
/* text, or its first max characters cut at a word and ending in "...". */
void rr_ellipsis(const char *text, size_t max, char *buf, size_t len);
/* Valid, but its headline figure's u95 exceeds the job's limit (validity.uncertain). */
int rr_uncertain(const struct job_result *j);
/* rr_verdict_text and the invalidating events, "; "-joined. */
void rr_reasons(const struct job_result *j, char *buf, size_t len);
/* Both directions together; NAN for a job with neither (measure without I/O figures). */
double rr_bw_bytes(const struct job_result *j);
double rr_iops(const struct job_result *j);
/*
 * A latency percentile (50, 99, 99.9) of the direction with more I/Os: total (fio's lat,
 * from before the submit call; NAN in results written before iowatt recorded it) or
 * completion (fio's clat, from the kernel having the request). rr_has_lat: the job has
 * total latency, so a reader may call what it shows "lat"; without it, show clat as such.
 */
double rr_lat_ns(const struct job_result *j, double pct);
double rr_clat_ns(const struct job_result *j, double pct);
int rr_has_lat(const struct job_result *j);
/* One direction (enum ddir: 0 read, 1 write): IOPS and a total or completion latency
 * percentile; NAN when it moved nothing. Sync calls (fdatasync/fsync): a latency
 * percentile, NAN without any. */
double rr_dir_iops(const struct job_result *j, int ddir);
double rr_dir_lat_ns(const struct job_result *j, int ddir, double pct);
double rr_dir_clat_ns(const struct job_result *j, int ddir, double pct);
double rr_sync_lat_ns(const struct job_result *j, double pct);
/* Moved data both ways (randrw); synced as it went (fdatasync=N, not only end_fsync). */
int rr_mixed(const struct job_result *j);
int rr_syncs(const struct job_result *j);
/* The highest SoC / drive temperature during the job, C; NAN if not recorded. */
double rr_soc_max_c(const struct job_result *j);
double rr_drive_max_c(const struct job_result *j);
/* From the options: rw ("?" if absent), bs (0), and which directions it moves. */
const char *rr_rw(const struct job_result *j);
uint64_t rr_bs(const struct job_result *j);
int rr_writes(const struct job_result *j);
int rr_reads(const struct job_result *j);
/* A phase's window (enum phase); 0 if the job has none. */
void rr_phase(const struct job_result *j, int phase, uint64_t *t_start, uint64_t *t_end);
/* Energy above idle per GB (j_per_gb_net, else energy_net_j / GB) and per I/O; NAN if unknown. */
double rr_net_j_per_gb(const struct job_result *j);
double rr_net_j_per_io(const struct job_result *j);
/* Their 95 % half widths (the results' _u95); NAN when the result has none. */
double rr_net_j_per_gb_u95(const struct job_result *j);
double rr_net_j_per_io_u95(const struct job_result *j);
/* What reached the device per byte the job wrote (jobs[].wear); NAN when not measured. */
double rr_write_amplification(const struct job_result *j);

#endif
