/* SPDX-License-Identifier: MIT */
/* Load several result files and pull per device and job metrics for charts and tables. */
#ifndef IOWATT_RESULTS_READ_H
#define IOWATT_RESULTS_READ_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* One job entry, flattened. Missing or null numbers are NAN. */
struct rr_job {
	const char *name;    /* the job's name; "NAME #2" for loop 2 of a job run with loops */
	const char *jobname; /* as in the document, without a loop number */
	char *name_buf;	     /* owns name when it carries a loop number */
	long loop;
	const char *status;
	const char *rw;
	uint64_t bs;
	long iodepth, numjobs;
	int writes;	      /* the job writes (write, randwrite, randrw) */
	int reads;
	double bw_bytes, iops; /* read + write */
	double io_bytes, total_ios;
	double runtime_ms;
	/* The dominant direction's completion latency percentiles, ns. */
	double p50_ns, p99_ns, p999_ns;

	int has_power;
	double idle_w, active_w, active_ma, active_v, peak_ma;
	double energy_active_j, energy_tail_j, energy_net_j;
	double iops_per_ma, iops_per_w, mbps_per_w, j_per_gb, j_per_gb_net;
	double uj_per_io, uah_per_io, uah_per_mb;
	int valid;	      /* 1, 0, or -1 when no meter judged it */
	char reasons[256];   /* validity reasons and invalidating events, "; "-joined */

	uint64_t phase_ns[3][2]; /* idle, active, tail: start, end; 0 = absent */
	json_t *events;		 /* borrowed: the job's events array or NULL */
	json_t *options;	 /* borrowed */
	json_t *meters;		 /* borrowed: per-meter breakdown or NULL */
};

struct rr_result {
	char *path;
	json_t *root;
	char label[200];     /* device name: --label, or vendor model (transport, link) */
	char transport[16];
	char link[48];	     /* "USB 5000M", "PCIe Gen3 x1", "" */
	char filesystem[48]; /* "ext4 (noatime)" */
	char meter[96];	     /* driver names, ","-joined; "none" */
	int emulated, manual; /* any meter emulated / manual, or the run was emulated */
	int has_power;	      /* at least one job carries power figures */
	uint64_t t0_ns;
	int device_idx;	      /* same label -> same index: one colour per device */
	struct rr_job *jobs;
	size_t njobs;
};

struct rr_set {
	struct rr_result *res;
	size_t nres;
	char **devices; /* distinct labels in order of first appearance */
	size_t ndevices;
};

/* result_load plus a check for the jobs array; errors name the file. 0 or -errno. */
int rr_load_json(const char *path, json_t **out);
/*
 * Load files; labels[] holds "FILE=NAME" overrides (NULL-terminated or NULL). On
 * failure everything loaded so far is freed.
 */
int rr_set_load(struct rr_set *set, char *const *paths, size_t npaths, char *const *labels,
		size_t nlabels);
void rr_set_free(struct rr_set *set);

/* Distinct job names across results, in order of first appearance; caller frees array. */
size_t rr_job_names(const struct rr_set *set, const char ***names);
/* The job of that name ("NAME #2" for a loop, or a plain job name: its first loop). */
const struct rr_job *rr_find_job(const struct rr_result *r, const char *name);

/* Path of a companion CSV ("intervals" or "samples"); caller frees. */
char *rr_companion_path(const struct rr_result *r, const char *kind);

/* A stream of MB/day is written in large blocks: model it with a job near this bs. */
#define RR_STREAM_BS 1048576ULL
/* Energy above idle per GB (j_per_gb_net, else energy_net_j / GB) and per I/O; NAN if unknown. */
double rr_net_j_per_gb(const struct rr_job *j);
double rr_net_j_per_io(const struct rr_job *j);
/*
 * The job that models a workload direction (writes or reads) of block size want_bs:
 * power figures, finished, valid before invalid, closest bs in ratio, pure direction
 * before mixed. force names a job to use instead. NULL when none qualifies.
 */
const struct rr_job *rr_pick_job(const struct rr_result *r, int writes, uint64_t want_bs,
				 const char *force);

/* A JSON number (integer or real) or NAN. */
double rr_num(json_t *obj, const char *key);

#endif
